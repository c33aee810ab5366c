/**
 * Heavy readers off the primary (issue 44 item 4, decision 0129): a primary and a streaming standby built
 * from Debian's binaries (`initdb`, `pg_basebackup -R`), two server instances with DATABASE_REPLICA_URL.
 * The year's report reads the replica (a paused replay shows it), a replica too far behind sends it to the
 * primary, 200 buyers purchase on one instance while the report streams from the replica on the other, and a
 * replica stopped under a report leaves the report complete, finished on the primary.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { businessDate } from '@portal/shared/domain/time';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import { makeOrder, makeUser, TEST_PASSWORD } from '../src/test/factories.ts';
import { Client, type Reply } from './client.ts';
import { makeShop, rows, type Shop, signInAll, UNIT_PRICE } from './fixtures.ts';
import { freePort, PrivatePostgres, ServerInstance, waitUntil } from './stack.ts';

/** Orders of the report's history (5 lines each): a report of some seconds. */
const HISTORY_ORDERS = 12_000;
const LINES_PER_ORDER = 5;

let baseDir: string;
let primary: PrivatePostgres;
let standby: PrivatePostgres;
let a: ServerInstance;
let b: ServerInstance;
let database: Database;
let shop: Shop;
let approver: Client;
let failed = true;

const db = () => database.db;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A query on the standby, as its superuser. */
async function onStandby<T>(text: string): Promise<T[]> {
  const c = new pg.Client({ connectionString: standby.url('portal') });
  await c.connect();
  try {
    return (await c.query(text)).rows as T[];
  } finally {
    await c.end();
  }
}

/** Waits until the standby has replayed everything the primary has written so far. */
async function caughtUp(): Promise<void> {
  const [current] = await rows<{ lsn: string }>(db(), sql`select pg_current_wal_lsn()::text as lsn`);
  const lsn = current!.lsn;
  await waitUntil('the standby to replay the primary', async () => {
    const [r] = await onStandby<{ done: boolean }>(
      `select pg_last_wal_replay_lsn() >= '${lsn}'::pg_lsn as done`,
    );
    return r?.done === true;
  });
}

/** The year's detail report as the approver downloads it. */
function yearReport(): Promise<Reply> {
  const today = businessDate(new Date());
  return approver.post('/api/reporte/autorizador/productos/detalle', {
    tipo: 'detalle',
    fecha_inicio: `${today.slice(0, 4)}-01-01`,
    fecha_fin: today,
  });
}
const reportLines = (r: Reply) => r.text.split('\r\n').filter((l) => l.length > 0).length - 1;

/** `n` copies of an order (with its lines), by the database itself. */
async function copiesOf(orderId: number, n: number): Promise<void> {
  const columns = async (table: string) =>
    (
      await rows<{ name: string }>(
        db(),
        sql`select column_name as name from information_schema.columns
            where table_schema = 'public' and table_name = ${table} and column_name <> 'id'
              and is_generated = 'NEVER' order by ordinal_position`,
      )
    ).map((c) => c.name);
  const orderCols = (await columns('orders')).join(', ');
  await db().execute(
    sql.raw(`insert into orders (${orderCols}) select ${orderCols} from orders, generate_series(1, ${n})
      where orders.id = ${orderId}`),
  );
  const lineCols = await columns('order_lines');
  const picked = lineCols.map((c) => (c === 'order_id' ? 'o.id' : `l.${c}`)).join(', ');
  await db().execute(
    sql.raw(`insert into order_lines (${lineCols.join(', ')}) select ${picked}
      from order_lines l join orders o on o.id_user = (select id_user from orders where id = ${orderId})
        and o.id <> ${orderId}
      where l.order_id = ${orderId}`),
  );
}

/** Each buyer buys `rounds` times, one after another; all buyers at once. The purchases' durations (ms). */
/**
 * A request answered 503 «Inténtalo de nuevo en unos momentos» is tried again after a moment, as the portal
 * tells a person to: on CI this scenario runs beside the browser suite, and with both cores saturated a
 * request of 200 at once can wait the pool's 5 s for a connection and get that refusal before any statement
 * ran. Any other answer fails the round; the retries are counted and printed.
 */
let retried = 0;
async function answered(send: () => ReturnType<Client['post']>) {
  let res = await send();
  for (let attempt = 0; res.status === 503 && attempt < 3; attempt++) {
    retried++;
    await sleep(500);
    res = await send();
  }
  return res;
}

async function purchaseRound(clients: Map<number, Client>, rounds: number): Promise<number[]> {
  const durations: number[] = [];
  await Promise.all(
    shop.buyers.map(async (buyer, i) => {
      const c = clients.get(buyer.id)!;
      for (let k = 0; k < rounds; k++) {
        const productId = shop.productIds[(i + k) % shop.productIds.length]!;
        const add = await answered(() =>
          c.post('/api/carrito/nuevo_item', { item: { id: productId, cantidad: 1 } }),
        );
        expect(add.status, add.text).toBe(200);
        const buy = await answered(() => c.post('/api/compra', { orden: [{ id: productId, cantidad: 1 }] }));
        expect(buy.status, buy.text).toBe(201);
        durations.push(buy.doneAt - buy.sentAt);
      }
    }),
  );
  return durations;
}
const p99 = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.ceil(xs.length * 0.99) - 1]!;

const started = Date.now();
const mark = (what: string) => process.stdout.write(`réplica: ${what} a los ${Date.now() - started} ms\n`);

beforeAll(async () => {
  baseDir = mkdtempSync(path.join(os.tmpdir(), 'portal-replica-'));
  chmodSync(baseDir, 0o755);
  primary = new PrivatePostgres(path.join(baseDir, 'primario'), await freePort());
  standby = new PrivatePostgres(path.join(baseDir, 'replica'), await freePort());
  for (const dir of [primary.baseDir, standby.baseDir]) mkdirSync(dir, { mode: 0o755 });
  primary.init();
  primary.start();
  const admin = new pg.Client({ connectionString: primary.url() });
  await admin.connect();
  await admin.query('create database portal');
  await admin.end();
  standby.standbyOf(primary);
  standby.start();
  const unusedSmtp = await freePort();
  const instance = async (name: string) =>
    new ServerInstance({
      name,
      port: await freePort(),
      databaseUrl: primary.url('portal'),
      smtpUrl: `smtp://127.0.0.1:${unusedSmtp}`,
      logDir: baseDir,
      dataDir: path.join(baseDir, `data-${name}`),
      env: {
        DATABASE_REPLICA_URL: standby.url('portal'),
        // Behind by more than 8 s, or not answering: the heavy reads go to the primary; checked twice a second.
        REPLICA_MAX_LAG_SECONDS: '8',
        REPLICA_CHECK_MS: '500',
      },
    });
  mark('clústeres listos');
  a = await instance('instancia-a');
  b = await instance('instancia-b');
  await Promise.all([a.start(), b.start()]);
  database = await openDatabase({ databaseUrl: primary.url('portal'), poolSize: 5 });
  // 200 buyers who can buy far more than this scenario asks; an approver who downloads the report.
  shop = await makeShop(db(), {
    products: LINES_PER_ORDER,
    groups: [{ count: 200, presupuesto: 1_000_000_000, limite: -1 }],
  });
  mark('instancias y compradores listos');
  const reader = await makeUser(db(), { rol: 2, idCliente: shop.clientId });
  approver = new Client(a.url);
  await approver.signIn(reader.usuario, TEST_PASSWORD);
  const historic = await makeUser(db(), { rol: 1, idCliente: shop.clientId });
  const [category] = await rows<{ id: number }>(
    db(),
    sql`select id from categories where id_cliente = ${shop.clientId}`,
  );
  const first = await makeOrder(db(), {
    idUser: historic.id,
    idCliente: shop.clientId,
    status: 'aprobado',
    lines: shop.productIds.map((productId) => ({
      productId,
      precio: UNIT_PRICE,
      cantidad: 1,
      idCategoria: category!.id,
    })),
  });
  await copiesOf(first.id, HISTORY_ORDERS - 1);
  mark('historial escrito');
  await db().execute(sql`analyze`);
  await caughtUp();
  mark('réplica al día');
  failed = false;
}, 180_000);

afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.close().catch(() => undefined);
  standby?.stopQuietly();
  primary?.stopQuietly();
  if (failed) process.stderr.write(`\nreplica: logs kept in ${baseDir}\n`);
  else if (baseDir) rmSync(baseDir, { recursive: true, force: true });
}, 60_000);

describe.sequential('heavy readers on a streaming replica', () => {
  test('the report reads the replica; a replica more than 8 s behind sends it to the primary, and back once it catches up', async () => {
    try {
      const full = await yearReport();
      expect(full.status, full.text.slice(0, 300)).toBe(200);
      expect(reportLines(full)).toBe(HISTORY_ORDERS * LINES_PER_ORDER);
      const buyer = shop.buyers[0]!;
      const c = new Client(b.url);
      await c.signIn(buyer.usuario, TEST_PASSWORD);
      await c.post('/api/carrito/nuevo_item', { item: { id: shop.productIds[0], cantidad: 1 } });
      // A fresh commit replayed, then the replay paused: the lag starts from now, and an order written now is
      // on the primary only.
      await db().execute(sql`update clients set nombre = nombre where id = ${shop.clientId}`);
      await caughtUp();
      await onStandby('select pg_wal_replay_pause()');
      try {
        const bought = await c.post('/api/compra', { orden: [{ id: shop.productIds[0], cantidad: 1 }] });
        expect(bought.status, bought.text).toBe(201);
        const stale = await yearReport();
        expect(reportLines(stale), 'read on the replica, which has not replayed the purchase').toBe(
          HISTORY_ORDERS * LINES_PER_ORDER,
        );
        // Some seconds later the replica is behind: the next report is read on the primary.
        await waitUntil(
          'instance A to leave the replica',
          async () => readFileSync(a.logFile, 'utf8').includes('réplica atrasada'),
          30_000,
        );
        const fresh = await yearReport();
        expect(reportLines(fresh)).toBe(HISTORY_ORDERS * LINES_PER_ORDER + 1);
      } finally {
        await onStandby('select pg_wal_replay_resume()');
      }
      await caughtUp();
      await waitUntil(
        'instance A to use the replica again',
        async () =>
          readFileSync(a.logFile, 'utf8').split('réplica en uso').length - 1 >= 2 &&
          (await new Client(a.url).get('/healthz')).status === 200,
        20_000,
      );
    } catch (err) {
      failed = true;
      throw err;
    }
  });

  test('200 buyers purchase on one instance while the report streams from the replica on the other', async () => {
    try {
      const clients = await signInAll(db(), b.url, shop.buyers);
      await purchaseRound(clients, 1); // warm-up: every buyer's first purchase
      const alone = await purchaseRound(clients, 2);
      let reports = 0;
      let stop = false;
      const reading = (async () => {
        while (!stop) {
          const r = await yearReport();
          expect(r.status).toBe(200);
          reports++;
        }
      })();
      await sleep(300);
      const beside = await purchaseRound(clients, 2);
      stop = true;
      await reading;
      expect(reports).toBeGreaterThan(0);
      const [without, withReport] = [p99(alone), p99(beside)];
      process.stdout.write(
        `\nréplica: p99 de la compra ${without} ms sin el reporte, ${withReport} ms con ${reports} reportes desde la réplica; ${retried} respuestas 503 repetidas\n`,
      );
      // Every purchase succeeded (purchaseRound checks each answer). On this machine the instances and both
      // clusters share two cores, so the report's CPU (instance A formatting, the standby reading) shows in
      // the purchases' p99 whatever database it reads; docs/benchmarks.md records the figures. The bound
      // here only catches a report that lands on the primary's locks or I/O on top of that.
      expect(withReport).toBeLessThanOrEqual(without * 2 + 100);
    } catch (err) {
      failed = true;
      throw err;
    }
  });

  test('the replica stopped under a report: the report completes, finished on the primary', async () => {
    try {
      await caughtUp();
      const expected = reportLines(await yearReport());
      const downloading = yearReport();
      await sleep(250);
      const stoppedAt = Date.now();
      standby.stop('immediate');
      const r = await downloading;
      expect(r.status).toBe(200);
      expect(stoppedAt).toBeLessThan(r.doneAt);
      expect(reportLines(r)).toBe(expected);
      await waitUntil(
        'instance A to say the replica is gone',
        async () => readFileSync(a.logFile, 'utf8').includes('réplica sin respuesta'),
        10_000,
      );
      // Later reports are read on the primary, whole.
      expect(reportLines(await yearReport())).toBe(expected);
    } catch (err) {
      failed = true;
      throw err;
    }
  });
});
