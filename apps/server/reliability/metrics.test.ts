/**
 * The metrics as an operator sees them (decision 0104): a server process (`node dist/server.js`, production,
 * on the embedded database) with its METRICS_PORT listener behind a token, scraped every second by Debian's
 * Prometheus (2.42), and the series read back through Prometheus's HTTP API; every alert of
 * docs/operations.md is a query Prometheus accepts.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { openDatabase, runMigrations } from '../src/db/client.ts';
import { TEST_PASSWORD } from '../src/test/factories.ts';
import { Client } from './client.ts';
import { type Attempt, addAndBuy, makeShop, type Shop } from './fixtures.ts';
import { freePort, Prometheus, SERVER_DIR, ServerInstance, waitUntil } from './stack.ts';

const TOKEN = 'token-de-prometheus-para-la-prueba-0123456789';
const OPERATIONS_DOC = path.resolve(SERVER_DIR, '../../docs/operations.md');

let baseDir: string;
let shop: Shop;
let server: ServerInstance;
let prometheus: Prometheus;
let metricsPort: number;

/** The one value of an instant query that answers a single series (NaN when it answers none). */
async function scalar(promql: string): Promise<number> {
  const result = await prometheus.query(promql);
  return result.length === 1 ? Number(result[0]!.value[1]) : Number.NaN;
}

/** The PromQL expressions of the alerts the operations guide recommends (its ```promql blocks). */
function recommendedAlerts(): string[] {
  const doc = readFileSync(OPERATIONS_DOC, 'utf8');
  const start = doc.indexOf('## Alertas recomendadas');
  const end = doc.indexOf('\n## ', start + 1);
  const section = doc.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/```promql\n([\s\S]*?)```/g)].map((m) => m[1]!.trim());
}

beforeAll(async () => {
  baseDir = mkdtempSync(path.join(os.tmpdir(), 'portal-metricas-'));
  const dataDir = path.join(baseDir, 'data');
  // The server's embedded database, migrated and given a shop before the server opens it.
  const database = await openDatabase({ dataDir });
  await runMigrations(database);
  shop = await makeShop(database.db, {
    products: 2,
    groups: [{ count: 1, presupuesto: 1_000_000, limite: -1 }],
  });
  await database.close();
  const [port, unusedSmtp, promPort] = [await freePort(), await freePort(), await freePort()];
  metricsPort = await freePort();
  server = new ServerInstance({
    name: 'metricas',
    port,
    dataDir,
    smtpUrl: `smtp://127.0.0.1:${unusedSmtp}`,
    logDir: baseDir,
    env: { METRICS_PORT: String(metricsPort), METRICS_TOKEN: TOKEN },
  });
  await server.start();
  prometheus = new Prometheus(baseDir, promPort, [`127.0.0.1:${metricsPort}`], TOKEN);
  await prometheus.start();
}, 120_000);

afterAll(async () => {
  await prometheus?.stop();
  await server?.stop();
  if (baseDir) rmSync(baseDir, { recursive: true, force: true });
});

describe('Prometheus scrapes the metrics listener', () => {
  test('the target is up, with the token; the series it reads back move with a purchase', async () => {
    await waitUntil(
      'Prometheus to scrape the server (up == 1)',
      async () => (await scalar('up{job="portal"}')) === 1,
      30_000,
    ).catch(async (err) => {
      throw new Error(
        `${(err as Error).message}\n${JSON.stringify(await prometheus.targetHealth())}\n${prometheus.log()}`,
      );
    });
    expect(await prometheus.targetHealth()).toEqual([
      expect.objectContaining({ health: 'up', lastError: '' }),
    ]);

    expect(server.log(200)).toContain(
      `métricas de Prometheus en 127.0.0.1:${metricsPort}/metrics (con token)`,
    );
    // The app's port never answers /metrics; the listener does, only with the token.
    expect((await new Client(server.url).get('/metrics')).status).toBe(404);
    expect((await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).status).toBe(401);

    const buyer = shop.buyers[0]!;
    const client = new Client(server.url);
    await client.signIn(buyer.usuario, TEST_PASSWORD);
    const log: Attempt[] = [];
    const bought = await addAndBuy(client, buyer.id, shop.productIds[0]!, log);
    expect(bought.status, bought.text).toBe(201);
    expect((await addAndBuy(client, buyer.id, shop.productIds[1]!, log)).status).toBe(201);

    await waitUntil(
      'the purchases to reach Prometheus',
      async () => (await scalar('sum(portal_purchases_total{job="portal"})')) === 2,
      30_000,
    );
    expect(await scalar('portal_purchases_total{job="portal",status="aprobado"}')).toBe(2);
    expect(
      await scalar(
        'sum(http_request_duration_seconds_count{job="portal",method="POST",route="/api/compra",status_code="201"})',
      ),
    ).toBe(2);
    expect(
      await scalar(
        'sum(http_request_duration_seconds_count{job="portal",route="/api/login",status_code="200"})',
      ),
    ).toBe(1);
    // The process's own series and the ones read from the database at scrape time.
    expect(await scalar('process_resident_memory_bytes{job="portal"}')).toBeGreaterThan(10_000_000);
    expect(await scalar('nodejs_eventloop_lag_p99_seconds{job="portal"}')).toBeGreaterThanOrEqual(0);
    expect(await scalar('portal_jobs_ready{job="portal",queue="webhooks-entrega"}')).toBe(0);
    expect(await scalar('portal_email_outbox_unsent{job="portal"}')).toBeGreaterThanOrEqual(0);
  }, 120_000);

  test("every alert of the operations guide is a query Prometheus accepts, over the server's series", async () => {
    const alerts = recommendedAlerts();
    expect(alerts.length).toBeGreaterThanOrEqual(7);
    for (const promql of alerts)
      await expect(prometheus.query(promql), promql).resolves.toBeInstanceOf(Array);
    // The latency quantile of the guide's alert over one more purchase (a rate needs the counter to move
    // between two scrapes): a number of seconds.
    const buyer = shop.buyers[0]!;
    const client = new Client(server.url);
    await client.signIn(buyer.usuario, TEST_PASSWORD);
    expect((await addAndBuy(client, buyer.id, shop.productIds[0]!, [])).status).toBe(201);
    const p95Query =
      'histogram_quantile(0.95, sum by (le) (rate(http_request_duration_seconds_bucket{job="portal",route="/api/compra"}[5m])))';
    await waitUntil('a latency quantile', async () => Number.isFinite(await scalar(p95Query)), 30_000);
    const p95 = await scalar(p95Query);
    expect(p95).toBeGreaterThan(0);
    expect(p95).toBeLessThanOrEqual(10);
  }, 120_000);

  test('a stop closes the metrics listener with the server', async () => {
    await server.stop();
    expect(await server.exited).toBe(0);
    await expect(fetch(`http://127.0.0.1:${metricsPort}/metrics`)).rejects.toThrow();
  });
});
