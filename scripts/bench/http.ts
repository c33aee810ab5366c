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
