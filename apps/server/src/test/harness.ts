import { sealLogin } from '@portal/shared/domain/login-envelope';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type BuildAppOptions, buildApp, loggerOptions } from '../app.ts';
import { type Config, loadConfig } from '../config.ts';
import type { Database } from '../db/client.ts';
import { type DbKind, freshDatabase } from './databases.ts';

export { DB_KINDS, type DbKind, freshDatabase, type TestDatabase } from './databases.ts';

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  close(): Promise<void>;
}

export interface TestAppOptions {
  env?: Record<string, string>;
  /** Receives every log line (to check that no secret is logged). */
  logLines?: string[];
  extend?: (app: FastifyInstance) => void | Promise<void>;
  /** Sees every route of the app as it is registered. */
  onRoute?: BuildAppOptions['onRoute'];
  /** Places the whole server at another instant (lib/clock.ts: clockAt, manualClock). */
  clock?: BuildAppOptions['clock'];
}

export async function createTestApp(kind: DbKind, options: TestAppOptions = {}): Promise<TestApp> {
  const env = options.env ?? {};
  const { database, drop } = await freshDatabase(kind);
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    PUBLIC_URL: 'http://portal.test',
    MAIL_POLL_MS: '60000',
    ...env,
  });
  const lines = options.logLines;
  const logger = lines
    ? {
        ...(loggerOptions({ LOG_LEVEL: 'debug' }) as object),
        stream: { write: (line: string) => void lines.push(line) },
      }
    : false;
  const app = await buildApp({
    config,
    database,
    logger,
    extend: options.extend,
    onRoute: options.onRoute,
    clock: options.clock,
  });
  // Every answer a test sees must be one its route's document declares (issue 38, finding 10): the whole
  // API suite walks the routes' declared responses this way.
  const undeclared = new Set<string>();
  app.addHook('onResponse', async (request, reply) => {
    const declared = request.routeOptions.schema?.response as Record<string, unknown> | undefined;
    if (!declared || !request.routeOptions.url) return;
    const status = reply.statusCode;
    if (!(String(status) in declared) && !(`${String(status)[0]}xx` in declared) && !('default' in declared))
      undeclared.add(`${request.method} ${request.routeOptions.url} → ${status}`);
  });
  await app.ready();
  return {
    app,
    database,
    config,
    close: async () => {
      await app.close();
      await drop();
      if (undeclared.size > 0)
        throw new Error(`Respuestas que el documento de la API no declara:\n${[...undeclared].join('\n')}`);
    },
  };
}

/** A browser-like client: keeps cookies and sends the XSRF header, through the real HTTP layer. */
export class ApiClient {
  readonly cookies = new Map<string, string>();
  ip: string;

  constructor(
    readonly app: FastifyInstance,
    ip = '10.0.0.1',
  ) {
    this.ip = ip;
  }

  get xsrf(): string | undefined {
    return this.cookies.get('XSRF-TOKEN');
  }

  private cookieHeader(): string {
    return [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
  }

  private remember(res: LightMyRequestResponse): void {
    for (const c of res.cookies as { name: string; value: string; expires?: Date; maxAge?: number }[]) {
      // A browser whose clock agrees with the server's (a test may place the server at another instant).
      const gone =
        (c.expires && c.expires.getTime() < this.app.clock.ms()) || c.maxAge === 0 || c.value === '';
      if (gone) this.cookies.delete(c.name);
      else this.cookies.set(c.name, c.value);
    }
  }

  async request(
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    options: { xsrf?: string | null; headers?: Record<string, string> } = {},
  ): Promise<LightMyRequestResponse> {
    // Like the web app: fetch the XSRF cookie before the first state-changing call.
    if (method !== 'GET' && options.xsrf === undefined && !this.xsrf && url !== '/sanctum/csrf-cookie')
      await this.csrf();
    const headers: Record<string, string> = { 'user-agent': 'api-test', ...options.headers };
    const cookie = this.cookieHeader();
    if (cookie) headers.cookie = cookie;
    const token = options.xsrf === undefined ? this.xsrf : options.xsrf;
    if (method !== 'GET' && token) headers['x-xsrf-token'] = token;
    const res = await this.app.inject({
      method,
      url,
      headers,
      remoteAddress: this.ip,
      ...(body === undefined ? {} : { payload: body as object }),
    });
    this.remember(res);
    return res;
  }

  get(url: string, options?: { headers?: Record<string, string> }) {
    return this.request('GET', url, undefined, options);
  }

  post(
    url: string,
    body: unknown = {},
    options?: { xsrf?: string | null; headers?: Record<string, string> },
  ) {
    return this.request('POST', url, body, options);
  }

  put(url: string, body: unknown = {}) {
    return this.request('PUT', url, body);
  }

  async csrf(): Promise<void> {
    const res = await this.get('/sanctum/csrf-cookie');
    if (res.statusCode !== 204) throw new Error(`csrf-cookie: ${res.statusCode}`);
  }

  /** Signs in through the real endpoint with the real envelope. */
  async login(usuario: string, password: string): Promise<LightMyRequestResponse> {
    if (!this.xsrf) await this.csrf();
    // The envelope is stamped as a browser whose clock agrees with the server's would stamp it.
    return this.post('/api/login', sealLogin({ usuario, password }, this.xsrf!, this.app.clock.ms()));
  }

  async loginOk(usuario: string, password: string): Promise<this> {
    const res = await this.login(usuario, password);
    if (res.statusCode !== 200) throw new Error(`login ${usuario}: ${res.statusCode} ${res.body}`);
    return this;
  }
}
