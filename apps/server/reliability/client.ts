/**
 * A browser-like HTTP client over real sockets: keeps cookies, sends X-XSRF-TOKEN from the XSRF-TOKEN
 * cookie on state-changing calls, signs in with the encrypted envelope. One connection per request, so a
 * request is never sent on a socket the server is closing.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { sealLogin } from '@portal/shared/domain/login-envelope';

export interface Reply {
  /** Sent as X-Request-Id: the server logs it with every line about this request. */
  id: string;
  /** 0 when the request failed at the connection level (see `error`). */
  status: number;
  body: unknown;
  text: string;
  /** Connection-level failure code (ECONNREFUSED, ECONNRESET, …). */
  error?: string;
  /** When the request was sent and when its outcome was known (ms since the epoch). */
  sentAt: number;
  doneAt: number;
}

export class Client {
  readonly cookies = new Map<string, string>();

  constructor(public baseUrl: string) {}

  get xsrf(): string | undefined {
    return this.cookies.get('XSRF-TOKEN');
  }

  /** The same cookies (the same session) against another address. */
  at(baseUrl: string): Client {
    const c = new Client(baseUrl);
    for (const [k, v] of this.cookies) c.cookies.set(k, v);
    return c;
  }

  request(
    method: 'GET' | 'POST' | 'PUT',
    url: string,
    body?: unknown,
    extraHeaders: Record<string, string> = {},
  ): Promise<Reply> {
    const target = new URL(url, this.baseUrl);
    const id = randomUUID();
    const headers: Record<string, string> = {
      accept: 'application/json',
      connection: 'close',
      'x-request-id': id,
      ...extraHeaders,
    };
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    if (cookie) headers.cookie = cookie;
    if (method !== 'GET' && this.xsrf) headers['x-xsrf-token'] = this.xsrf;
    let payload: Buffer | undefined;
    if (body !== undefined) {
      payload = Buffer.isBuffer(body) ? body : Buffer.from(JSON.stringify(body));
      headers['content-type'] ??= 'application/json';
      headers['content-length'] = String(payload.length);
    }
    const sentAt = Date.now();
    const failed = (error: string): Reply => ({
      id,
      status: 0,
      body: null,
      text: '',
      error,
      sentAt,
      doneAt: Date.now(),
    });
    return new Promise((resolve) => {
      const req = http.request(target, { method, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('error', (err: NodeJS.ErrnoException) => resolve(failed(err.code ?? err.message)));
        res.on('end', () => {
          if (!res.complete) {
            resolve(failed('INCOMPLETE'));
            return;
          }
          this.remember(res.headers['set-cookie']);
          const text = Buffer.concat(chunks).toString('utf8');
          let parsed: unknown = null;
          try {
            parsed = text ? JSON.parse(text) : null;
          } catch {
            parsed = null;
          }
          resolve({ id, status: res.statusCode ?? 0, body: parsed, text, sentAt, doneAt: Date.now() });
        });
      });
      req.setTimeout(60_000, () => req.destroy(Object.assign(new Error('timeout'), { code: 'TIMEOUT' })));
      req.on('error', (err: NodeJS.ErrnoException) => resolve(failed(err.code ?? err.message)));
      req.end(payload);
    });
  }

  get(url: string) {
    return this.request('GET', url);
  }

  post(url: string, body: unknown = {}, headers?: Record<string, string>) {
    return this.request('POST', url, body, headers);
  }

  private remember(setCookie: string[] | undefined): void {
    for (const line of setCookie ?? []) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = /expires=Thu, 01 Jan 1970/i.test(line) || /max-age=0(;|$)/i.test(line);
      if (!value || expired) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  /** GET /sanctum/csrf-cookie, then POST /api/login with the sealed envelope; throws unless 200. */
  async signIn(usuario: string, password: string): Promise<void> {
    const csrf = await this.get('/sanctum/csrf-cookie');
    if (csrf.status !== 204 || !this.xsrf) throw new Error(`csrf-cookie: ${csrf.status} ${csrf.error ?? ''}`);
    const res = await this.post('/api/login', sealLogin({ usuario, password }, this.xsrf));
    if (res.status !== 200) throw new Error(`login ${usuario}: ${res.status} ${res.error ?? res.text}`);
  }
}

export const msgOf = (r: Reply): string =>
  r.body && typeof r.body === 'object' && 'msg' in r.body ? String((r.body as { msg: unknown }).msg) : '';
export const codeOf = (r: Reply): string =>
  r.body && typeof r.body === 'object' && 'code' in r.body ? String((r.body as { code: unknown }).code) : '';
