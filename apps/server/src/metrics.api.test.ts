import { businessDate } from '@portal/shared/domain/time';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEmail } from './lib/mailer.ts';
import { IMPORT_QUEUE } from './modules/imports/imports.service.ts';
import { WEBHOOK_QUEUE } from './modules/integration/webhook-outbox.ts';
import { UNMATCHED_ROUTE } from './plugins/metrics.ts';
import { makeBuyer } from './test/buyer-fixtures.ts';
import { assign, makeUser, TEST_PASSWORD } from './test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from './test/harness.ts';
import { startReceiver } from './test/webhook-receiver.ts';

const TOKEN = 'token-de-las-metricas-0123456789abcdef';
const TEST_QUEUE = 'metricas-prueba';

/** One sample's value from Prometheus's text format: the series with exactly these labels, or undefined. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const found = Object.fromEntries(
      [...(match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]),
    );
    const wanted = Object.entries(labels);
    if (wanted.length === Object.keys(found).length && wanted.every(([k, v]) => found[k] === v))
      return Number(match[3]);
  }
  return undefined;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** How long the test app reuses the series it read from the database. */
const SNAPSHOT_MS = 500;

describe.each(DB_KINDS)('metrics on their own listener (%s)', (kind) => {
  let t: TestApp | null = null;
  let url: string;
  // A queue whose one worker holds its first job until the test releases it: the next job waits.
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started: () => void = () => undefined;
  const running = new Promise<void>((resolve) => {
    started = resolve;
  });
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  /** The scrape before the purchase (the webhook's attempts are checked against it later). */
  let beforePurchase = '';
  beforeAll(async () => {
    // The webhook's receiver fails twice, then accepts.
    receiver = await startReceiver({ '/fallas': [500, 503, 200] });
    t = await createTestApp(kind, {
      env: {
        METRICS_PORT: '0',
        METRICS_TOKEN: TOKEN,
        // The database's series are read again at most every half second (5 s in production).
        METRICS_SNAPSHOT_SECONDS: String(SNAPSHOT_MS / 1000),
        WEBHOOK_ALLOW_PRIVATE: '1',
        WEBHOOK_RETRY_BASE_SECONDS: '1',
      },
      extend: (a) =>
        a.jobs.define<{ n: number }>({
          name: TEST_QUEUE,
          pollingIntervalSeconds: 0.5,
          handler: async () => {
            started();
            await gate;
          },
        }),
    });
    url = `http://127.0.0.1:${t.app.metricsListener!.port}/metrics`;
  });
  afterAll(async () => {
    release();
    await t?.close();
    await receiver?.close();
  });
  const app = () => t!.app;
  const db = () => t!.database.db;

  const scrape = async (): Promise<string> => {
    const res = await fetch(url, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };
  /** Scrapes until `check` holds (the database's series are reused for SNAPSHOT_MS). */
  const scrapeUntil = async (check: (text: string) => boolean): Promise<string> => {
    const deadline = Date.now() + SNAPSHOT_MS * 6 + 10_000;
    for (;;) {
      const text = await scrape();
      if (check(text) || Date.now() > deadline) return text;
      await sleep(250);
    }
  };
  const count = (text: string, method: string, route: string, status: number) =>
    sample(text, 'http_request_duration_seconds_count', { method, route, status_code: String(status) }) ?? 0;

  it('asks for the token: 401 without it or with another one, 200 with it; only /metrics is there', async () => {
    const none = await fetch(url);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="metrics"');
    expect(await none.text()).toContain('METRICS_TOKEN');
    expect((await fetch(url, { headers: { authorization: `Bearer ${TOKEN}x` } })).status).toBe(401);
    expect((await fetch(url, { headers: { authorization: TOKEN } })).status).toBe(401);
    expect(await scrape()).toContain('# TYPE http_request_duration_seconds histogram');
    const other = await fetch(url.replace('/metrics', '/healthz'), {
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    expect(other.status).toBe(404);
    const post = await fetch(url, { method: 'POST', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(post.status).toBe(405);
  });

  it("the app's own port never serves /metrics", async () => {
    for (const headers of [{}, { authorization: `Bearer ${TOKEN}` }, { accept: 'text/html' }]) {
      const res = await app().inject({ method: 'GET', url: '/metrics', headers });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toContain('http_request_duration_seconds');
    }
  });

  it('purchases, approvals, throttled sign-ins and the requests move their series', async () => {
    const { client, user, api, product } = await makeBuyer(t!, { client: { cantidadAutorizadores: 1 } });
    const admin = await new ApiClient(app()).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    const hook = await admin.post('/api/integracion/webhooks', {
      url: receiver.url('/fallas'),
      eventos: ['pedido.creado'],
      id_cliente: client.id,
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const before = await scrape();
    beforePurchase = before;
    const p = await product(10000);
    await assign(db(), user.id, p.id, 5);
    expect((await api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 2 } })).statusCode).toBe(
      200,
    );
    const bought = await api.post('/api/compra', {
      orden: [{ id: p.id, cantidad: 2 }],
      fecha: businessDate(new Date()),
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const orderId = bought.json().pedido.id as number;

    const authorizer = await makeUser(db(), { rol: 2, idCliente: client.id });
    const r2 = await new ApiClient(app()).loginOk(authorizer.usuario, TEST_PASSWORD);
    expect((await r2.get(`/api/pedidos/${orderId}`)).statusCode).toBe(200);
    const approved = await r2.post('/api/update/compra', { id: orderId, orden: [{ id: p.id, cantidad: 2 }] });
    expect(approved.statusCode, approved.body).toBe(200);

    // Five wrong passwords for one name from one address, then the throttle refuses the sixth.
    const guesser = new ApiClient(app(), '10.9.8.7');
    for (let i = 0; i < 5; i++)
      expect((await guesser.login(user.usuario, 'equivocada')).statusCode).toBe(401);
    expect((await guesser.login(user.usuario, 'equivocada')).statusCode).toBe(429);
    expect((await guesser.login(user.usuario, TEST_PASSWORD)).statusCode).toBe(429);

    expect((await api.get('/api/no-existe/123')).statusCode).toBe(404);

    const after = await scrape();
    const delta = (name: string, labels: Record<string, string> = {}) =>
      (sample(after, name, labels) ?? 0) - (sample(before, name, labels) ?? 0);
    expect(delta('portal_purchases_total', { status: 'pendiente' })).toBe(1);
    expect(delta('portal_approvals_total', { status: 'aprobado' })).toBe(1);
    expect(delta('portal_throttle_refusals_total', { kind: 'login', scope: 'usuario' })).toBe(2);
    expect(count(after, 'POST', '/api/compra', 201) - count(before, 'POST', '/api/compra', 201)).toBe(1);
    expect(count(after, 'POST', '/api/login', 429) - count(before, 'POST', '/api/login', 429)).toBe(2);
    expect(count(after, 'POST', '/api/login', 401) - count(before, 'POST', '/api/login', 401)).toBe(5);
    expect(count(after, 'GET', UNMATCHED_ROUTE, 404) - count(before, 'GET', UNMATCHED_ROUTE, 404)).toBe(1);
    // The route's pattern, never the URL: the order's number is in no label.
    expect(count(after, 'GET', '/api/pedidos/:id', 200)).toBeGreaterThanOrEqual(1);
    expect(after).not.toMatch(new RegExp(`route="[^"]*/${orderId}"`));
    expect(after).not.toContain('/api/no-existe');
    // The histogram's sum is time, in seconds: positive, and well under a minute a request.
    const sum = (text: string) =>
      sample(text, 'http_request_duration_seconds_sum', {
        method: 'POST',
        route: '/api/compra',
        status_code: '201',
      }) ?? 0;
    expect(sum(after) - sum(before)).toBeGreaterThan(0);
    expect(sum(after) - sum(before)).toBeLessThan(60);
  });

  it("a webhook's failed attempts and its delivery", async () => {
    const attempts = (text: string, result: string) =>
      (sample(text, 'portal_webhook_attempts_total', { result }) ?? 0) -
      (sample(beforePurchase, 'portal_webhook_attempts_total', { result }) ?? 0);
    const after = await scrapeUntil((text) => attempts(text, 'entregado') >= 1);
    expect(attempts(after, 'reintento')).toBe(2);
    expect(attempts(after, 'entregado')).toBe(1);
    expect(attempts(after, 'fallido')).toBe(0);
    expect(receiver.at('/fallas')).toHaveLength(3);
  });

  it("the outbox's unsent e-mails and the oldest one's age, and what the worker did with them", async () => {
    // Written ten minutes ago and not sent yet (the tests' worker polls once a minute).
    await enqueueEmail(db(), { to: 'metricas@example.test', subject: 'Prueba de métricas', text: 'hola' });
    await db().execute(
      sql`update email_outbox set created_at = now() - interval '10 minutes' where "to" = 'metricas@example.test'`,
    );
    const waiting = await scrapeUntil(
      (text) => (sample(text, 'portal_email_outbox_oldest_unsent_seconds') ?? 0) >= 600,
    );
    expect(sample(waiting, 'portal_email_outbox_unsent')).toBeGreaterThanOrEqual(1);
    expect(sample(waiting, 'portal_email_outbox_oldest_unsent_seconds')).toBeGreaterThanOrEqual(600);
    expect(sample(waiting, 'portal_email_outbox_oldest_unsent_seconds')).toBeLessThan(3600);

    const recorded = (text: string) =>
      sample(text, 'portal_email_attempts_total', { result: 'registrado' }) ?? 0;
    await app().mailer.flush();
    const sent = await scrapeUntil((text) => sample(text, 'portal_email_outbox_unsent') === 0);
    expect(sample(sent, 'portal_email_outbox_unsent')).toBe(0);
    expect(sample(sent, 'portal_email_outbox_oldest_unsent_seconds')).toBe(0);
    expect(recorded(sent) - recorded(waiting)).toBeGreaterThanOrEqual(1);
  });

  it("pg-boss's queues, the pools and the process's own series", async () => {
    const text = await scrape();
    for (const queue of [IMPORT_QUEUE, WEBHOOK_QUEUE]) {
      expect(sample(text, 'portal_jobs_ready', { queue })).toBe(0);
      expect(sample(text, 'portal_jobs_deferred', { queue })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'portal_jobs_active', { queue })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'portal_jobs_oldest_ready_seconds', { queue })).toBe(0);
    }
    if (kind === 'postgres') {
      expect(sample(text, 'portal_db_pool_max', { pool: 'principal' })).toBe(t!.database.pool!.options.max);
      expect(sample(text, 'portal_db_pool_in_use', { pool: 'principal' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'portal_db_pool_waiting', { pool: 'planes' })).toBe(0);
    } else {
      // The embedded database has no pool: no series rather than a made-up one.
      expect(text).not.toMatch(/^portal_db_pool_in_use\{/m);
    }
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(10_000_000);
    expect(sample(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('a job waiting for a busy worker shows in its queue: ready, and how long the oldest has waited', async () => {
    await app().jobs.send(TEST_QUEUE, { n: 1 });
    await running;
    await app().jobs.send(TEST_QUEUE, { n: 2 });
    await sleep(1100);
    const waiting = await scrapeUntil(
      (text) => sample(text, 'portal_jobs_ready', { queue: TEST_QUEUE }) === 1,
    );
    expect(sample(waiting, 'portal_jobs_ready', { queue: TEST_QUEUE })).toBe(1);
    expect(sample(waiting, 'portal_jobs_oldest_ready_seconds', { queue: TEST_QUEUE })).toBeGreaterThanOrEqual(
      1,
    );
    expect(sample(waiting, 'portal_jobs_oldest_ready_seconds', { queue: TEST_QUEUE })).toBeLessThan(120);
    release();
    const done = await scrapeUntil((text) => sample(text, 'portal_jobs_ready', { queue: TEST_QUEUE }) === 0);
    expect(sample(done, 'portal_jobs_ready', { queue: TEST_QUEUE })).toBe(0);
    expect(sample(done, 'portal_jobs_oldest_ready_seconds', { queue: TEST_QUEUE })).toBe(0);
  });

  it('closes its listener with the app', async () => {
    const port = app().metricsListener!.port;
    release();
    await t!.close();
    t = null;
    await expect(fetch(`http://127.0.0.1:${port}/metrics`)).rejects.toThrow();
  });
});
