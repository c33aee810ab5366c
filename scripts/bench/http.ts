import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sealLogin } from '@portal/shared/domain/login-envelope';

/** A signed-in browser-like session: its cookies and XSRF token, reused by every request. */
export interface SignedIn {
  usuario: string;
  cookie: string;
  xsrf: string;
}

function cookiesOf(res: Response, jar: Map<string, string>): void {
  for (const line of res.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const eq = pair!.indexOf('=');
    const name = pair!.slice(0, eq).trim();
    const value = pair!.slice(eq + 1).trim();
    if (value === '' || /expires=Thu, 01 Jan 1970/i.test(line)) jar.delete(name);
    else jar.set(name, value);
  }
}

const header = (jar: Map<string, string>) => [...jar].map(([k, v]) => `${k}=${v}`).join('; ');

/** Signs in through the real endpoints: csrf-cookie, then the encrypted envelope. */
export async function signIn(base: string, usuario: string, password: string): Promise<SignedIn> {
  const jar = new Map<string, string>();
  const csrf = await fetch(`${base}/sanctum/csrf-cookie`);
  cookiesOf(csrf, jar);
  const token = jar.get('XSRF-TOKEN');
  if (!token) throw new Error(`csrf-cookie sin token (${csrf.status})`);
  const res = await fetch(`${base}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie: header(jar), 'x-xsrf-token': token },
    body: JSON.stringify(sealLogin({ usuario, password }, token)),
  });
  if (res.status !== 200) throw new Error(`login ${usuario}: ${res.status} ${await res.text()}`);
  cookiesOf(res, jar);
  return { usuario, cookie: header(jar), xsrf: jar.get('XSRF-TOKEN')! };
}

/**
 * Signs many users in, reusing the sessions of an earlier run that the server still accepts (kept in
 * `file`, outside the repository): each sign-in is one slow password check, 500 of them minutes of the run.
 */
export async function signInKept(
  base: string,
  usuarios: string[],
  password: string,
  file: string,
): Promise<SignedIn[]> {
  let kept: Record<string, SignedIn> = {};
  try {
    kept = JSON.parse(await readFile(file, 'utf8')) as Record<string, SignedIn>;
  } catch {
    // No earlier run (or an unreadable file): every user signs in.
  }
  const valid = new Map<string, SignedIn>();
  await Promise.all(
    usuarios.map(async (u) => {
      const s = kept[u];
      if (!s) return;
      const res = await fetch(`${base}/api/sesion`, { headers: { cookie: s.cookie } });
      await res.arrayBuffer();
      if (res.status === 200) valid.set(u, s);
    }),
  );
  const missing = usuarios.filter((u) => !valid.has(u));
  for (const s of await signInAll(base, missing, password)) valid.set(s.usuario, s);
  const out = usuarios.map((u) => valid.get(u)!);
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(Object.fromEntries(out.map((s) => [s.usuario, s]))));
  return out;
}

/** Signs many users in, a few at a time (each sign-in is one slow password check on the server). */
export async function signInAll(
  base: string,
  usuarios: string[],
  password: string,
  parallel = 6,
): Promise<SignedIn[]> {
  const out: SignedIn[] = new Array(usuarios.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < usuarios.length) {
        const i = next++;
        out[i] = await signIn(base, usuarios[i]!, password);
      }
    }),
  );
  return out;
}

export function authHeaders(s: SignedIn, mutating = false): Record<string, string> {
  return mutating
    ? { cookie: s.cookie, 'x-xsrf-token': s.xsrf, 'content-type': 'application/json' }
    : { cookie: s.cookie };
}

export async function waitForHttp(url: string, timeoutMs = 60_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      return;
    } catch {
      if (Date.now() > end) throw new Error(`${url} no respondió en ${timeoutMs / 1000} s`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
