/**
 * The two-instance scenario through a connection pooler (issue 44 item 5): Debian's PgBouncer 1.18 in session
 * mode between two server instances and a private PostgreSQL cluster. Sessions cross instances, a change
 * through one refuses the next request on the other (LISTEN/NOTIFY through the pooler), the named prepared
 * statements run as named statements, and concurrent purchases keep every budget and limit.
 * docs/operations.md "Detrás de un pooler" says what transaction mode would need.
 */
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { TEST_PASSWORD } from '../src/test/factories.ts';
import { Client } from './client.ts';
import {
  addAndBuy,
  expectCeilingsReached,
  expectNoViolations,
  expectRushAnswers,
  makeShop,
  purchaseRush,
  rushShop,
  signInAll,
  UNIT_TOTAL,
} from './fixtures.ts';
import { adminOn, cacheState, revocations } from './revocations.ts';
import { freePort, PgBouncer, PrivatePostgres, ServerInstance, waitUntil } from './stack.ts';

let baseDir: string;
let postgres: PrivatePostgres;
let bouncer: PgBouncer;
let a: ServerInstance;
let b: ServerInstance;
let database: Database;
let failed = true;

const db = () => database.db;

/** A query on PgBouncer's admin console (SHOW POOLS, SHOW CLIENTS …), its rows as objects. */
async function console(command: string): Promise<Record<string, unknown>[]> {
  const c = new pg.Client({ connectionString: bouncer.url('pgbouncer') });
  await c.connect();
  try {
    // The console speaks the simple query protocol only.
    const res = await c.query({ text: command, rowMode: 'array' });
    return res.rows.map((r: unknown[]) => Object.fromEntries(res.fields.map((f, i) => [f.name, r[i]])));
  } finally {
    await c.end();
  }
}

beforeAll(async () => {
  baseDir = mkdtempSync(path.join(os.tmpdir(), 'portal-pgbouncer-'));
  chmodSync(baseDir, 0o755);
  postgres = new PrivatePostgres(baseDir, await freePort());
  postgres.init();
  postgres.start();
  const admin = new pg.Client({ connectionString: postgres.url() });
  await admin.connect();
  await admin.query('create database portal');
  await admin.end();
  bouncer = new PgBouncer(baseDir, await freePort(), { port: postgres.port, database: 'portal' });
  await bouncer.start();
  const unusedSmtp = await freePort();
  const instance = async (name: string) =>
    new ServerInstance({
      name,
      port: await freePort(),
      // Only the pooler's address: every connection of the instances goes through it.
      databaseUrl: bouncer.url(),
      smtpUrl: `smtp://127.0.0.1:${unusedSmtp}`,
      logDir: baseDir,
      dataDir: path.join(baseDir, `data-${name}`),
      env: { DB_POOL_SIZE: '10' },
    });
  a = await instance('instancia-a');
  b = await instance('instancia-b');
  // Both at once: the migrations are serialised by an advisory lock, through the pooler too.
  await Promise.all([a.start(), b.start()]);
  // The test's own reads and setup go straight to PostgreSQL.
  database = await openDatabase({ databaseUrl: postgres.url('portal'), poolSize: 5 });
  failed = false;
}, 120_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await bouncer?.stop();
  await database?.close().catch(() => undefined);
  postgres?.stopQuietly();
  if (failed) process.stderr.write(`\npgbouncer: logs kept in ${baseDir}\n`);
  else if (baseDir) rmSync(baseDir, { recursive: true, force: true });
}, 60_000);

describe.sequential('two instances through PgBouncer (session mode)', () => {
  test('a session opened on A is used on B; the named statements run as named statements through the pooler', async () => {
    try {
      const shop = await makeShop(db(), {
        products: 1,
        groups: [{ count: 1, presupuesto: 10 * UNIT_TOTAL, limite: -1 }],
      });
      const buyer = shop.buyers[0]!;
      const onA = new Client(a.url);
      await onA.signIn(buyer.usuario, TEST_PASSWORD);
      const onB = onA.at(b.url);
      // Every statement logged for a moment: the session's read is a named statement of the app.
      await db().execute('alter system set log_min_duration_statement = 0');
      await db().execute('select pg_reload_conf()');
      await new Promise((r) => setTimeout(r, 300));
      const session = await onB.get('/api/sesion');
      await db().execute('alter system reset log_min_duration_statement');
      await db().execute('select pg_reload_conf()');
      expect(session.status, session.text).toBe(200);
      expect(JSON.stringify(session.body)).toContain(buyer.usuario);
      expect(readFileSync(postgres.logFile, 'utf8')).toMatch(/execute portal_[a-z_]+/);
      const bought = await addAndBuy(onB, buyer.id, shop.productIds[0]!, []);
      expect(bought.status, bought.text).toBe(201);
      // The instances' connections are the pooler's clients, and its server connections are PostgreSQL's.
      const pools = await console('SHOW POOLS');
      const portal = pools.find((p) => p.database === 'portal');
      expect(Number(portal?.cl_active ?? 0) + Number(portal?.cl_waiting ?? 0)).toBeGreaterThan(0);
      expect(Number(portal?.sv_active ?? 0) + Number(portal?.sv_idle ?? 0)).toBeGreaterThan(0);
    } catch (err) {
      failed = true;
      throw err;
    }
  });

  test('a change through A refuses the very next request on B: LISTEN/NOTIFY through the pooler', async () => {
    try {
      await waitUntil('both instances to keep sessions', async () =>
        (await Promise.all([a, b].map((i) => cacheState(i)))).every((s) => s === 'activa'),
      );
      const admin = await adminOn(db(), a);
      const changes = await revocations(db(), admin, a, b);
      for (const [name, change] of Object.entries(changes)) {
        const { onB, expectRefused } = await change.prepare();
        // Served twice by B first: its session, user, client and week state are kept in B's memory.
        for (let i = 0; i < 2; i++) expect((await onB.get('/api/carrito')).status, name).toBe(200);
        await change.apply();
        expectRefused(await onB.get('/api/carrito'), name);
      }
    } catch (err) {
      failed = true;
      throw err;
    }
  });

  test('concurrent purchases on both instances keep every budget and purchase limit', async () => {
    try {
      const shop = await rushShop(db(), 10, 6);
      const sessions = await signInAll(db(), a.url, shop.buyers);
      // 3 tabs per buyer, all at once, one of them on the other instance: each buys until refused.
      const log = await purchaseRush(shop, 3, 5, (buyer, tab) =>
        tab === 1 ? sessions.get(buyer.id)!.at(b.url) : sessions.get(buyer.id)!,
      );
      expectRushAnswers(log);
      await expectNoViolations(db(), shop.clientId);
      await expectCeilingsReached(db(), shop, log, 5);
      expect(bouncer.log(400)).not.toMatch(/ERROR|FATAL/);
    } catch (err) {
      failed = true;
      throw err;
    }
  });
});
