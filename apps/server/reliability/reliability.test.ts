/**
 * Reliability: two server instances behind nginx on a private PostgreSQL cluster, all real processes.
 * Run with `npm run test:reliability` (see README). Scenarios share the stack and run in order.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { MSG } from '@portal/shared/messages';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { type Database, openDatabase } from '../src/db/client.ts';
import {
  commentCountDrift,
  lineCountDrift,
  moveOrderTotals,
  spendDrift,
  userOrderCountDrift,
} from '../src/db/order-totals.ts';
import {
  importJobs,
  orderEvents,
  orderLines,
  orders,
  products,
  webhookDeliveries,
  webhookEvents,
} from '../src/db/schema/index.ts';
import { multipart } from '../src/test/admin-fixtures.ts';
import { runCommand } from '../src/test/commands.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../src/test/factories.ts';
import { startPushReceiver } from '../src/test/push-receiver.ts';
import { startReceiver, verifySignature } from '../src/test/webhook-receiver.ts';
import { Client, codeOf, msgOf, type Reply } from './client.ts';
import {
  type Attempt,
  addAndBuy,
  expectCeilingsReached,
  expectNoViolations,
  expectRushAnswers,
  makeShop,
  orderProducts,
  ordersPerBuyer,
  purchaseRush,
  rows,
  rushShop,
  signInAll,
  UNIT_PRICE,
  UNIT_TOTAL,
} from './fixtures.ts';
import { adminOn, cacheState, revocations } from './revocations.ts';
import { Nginx, PrivatePostgres, ServerInstance, waitUntil } from './stack.ts';

const PG_PORT = Number(process.env.RELIABILITY_PG_PORT ?? 5499);
const BASE_PORT = Number(process.env.RELIABILITY_PORT ?? 3400);
const NGINX_PORT = BASE_PORT;
const PORT_A = BASE_PORT + 1;
const PORT_B = BASE_PORT + 2;
/** Nothing listens here: e-mail delivery fails and stays in the outbox, which is all these scenarios need. */
const UNUSED_SMTP_PORT = BASE_PORT + 3;
/** The webhook scenario's HTTPS receiver (a certificate of its own, trusted by the instances). */
const RECEIVER_PORT = BASE_PORT + 4;
/** The backup scenario's server on the restored database. */
const RESTORED_PORT = BASE_PORT + 5;
/** The push scenario's HTTPS push service (the same certificate as the webhook receiver). */
const PUSH_RECEIVER_PORT = BASE_PORT + 6;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The stock of each product of the shipments scenario, before its orders ship anything. */
const SHIPMENT_STOCK = 1000;

let baseDir: string;
let postgres: PrivatePostgres;
let a: ServerInstance;
let b: ServerInstance;
let nginx: Nginx;
let database: Database;
let failed = false;
let receiverTls: { key: string; cert: string };

const db = () => database.db;

function summary(replies: Reply[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const r of replies) {
    const key = r.status ? `${r.status}${codeOf(r) ? ` ${codeOf(r)}` : ''}` : `error ${r.error}`;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/** A client's orders by id, each with its lines and events (what a restore must bring back whole). */
async function ordersOfClient(database: Database['db'], clientId: number) {
  const found = await database.select().from(orders).where(eq(orders.idCliente, clientId));
  const out = new Map<number, unknown>();
  for (const order of found) {
    const lines = await database
      .select()
      .from(orderLines)
      .where(eq(orderLines.orderId, order.id))
      .orderBy(orderLines.id);
    const events = await database
      .select()
      .from(orderEvents)
      .where(eq(orderEvents.orderId, order.id))
      .orderBy(orderEvents.id);
    out.set(order.id, { order, lines, events });
  }
  return out;
}

/** Every 201 the load saw is an order of that buyer with exactly the products it sent. */
async function expectOrdersAsSent(attempts: Attempt[]): Promise<void> {
  for (const l of attempts.filter((x) => x.kind === 'buy' && x.reply.status === 201)) {
    const id = (l.reply.body as { pedido: { id: number } }).pedido.id;
    expect(await orderProducts(db(), id, l.userId), `order ${id}`).toEqual(
      [...l.orden!].sort((x, y) => x - y),
    );
  }
}

/**
 * Runs a load through nginx and kills instance B (kill -9) once `underWay` holds; the load goes on through A
 * for 1.5 s more, then `stopped()` turns true and its end is awaited. Answers when B was killed and was gone.
 */
async function crashBDuring(
  what: string,
  underWay: () => boolean,
  load: (stopped: () => boolean) => Promise<unknown>,
) {
  let stop = false;
  const running = load(() => stop);
  await waitUntil(what, async () => underWay());
  const killedAt = Date.now();
  await b.crash();
  const goneAt = Date.now();
  await sleep(1500);
  stop = true;
  await running;
  return { killedAt, goneAt };
}

/** Only the requests the crash cut short failed (nginx: 502), and only around the crash: answers them. */
function expectCutByCrash(replies: Reply[], goneAt: number): Reply[] {
  const cut = replies.filter((r) => r.status >= 500 || r.status === 0);
  expect(cut.length, 'the crash cut requests in flight').toBeGreaterThan(0);
  for (const r of cut) {
    expect(r.status, JSON.stringify(summary(replies))).toBe(502);
    expect(r.sentAt).toBeLessThanOrEqual(goneAt + 500);
  }
  return cut;
}

/** B started again after its kill -9, within 20 s. */
async function restartB(): Promise<void> {
  const restartStarted = Date.now();
  await b.start();
  expect(Date.now() - restartStarted).toBeLessThan(20_000);
}

beforeAll(async () => {
  // Kept when the start fails, for its logs.
  failed = true;
  baseDir = mkdtempSync(path.join(os.tmpdir(), 'portal-reliability-'));
  // PostgreSQL (as `postgres`) and nginx's workers must reach their folders inside.
  chmodSync(baseDir, 0o755);
  postgres = new PrivatePostgres(baseDir, PG_PORT);
  postgres.init();
  postgres.start();
  const admin = new pg.Client({ connectionString: postgres.url() });
  await admin.connect();
  await admin.query('create database portal');
  await admin.end();
  const url = postgres.url('portal');
  // The instances run in production (webhooks over https only): the receiver's self-signed certificate.
  receiverTls = {
    key: path.join(baseDir, 'receptor.key'),
    cert: path.join(baseDir, 'receptor.crt'),
  };
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=127.0.0.1',
      '-addext',
      'subjectAltName=IP:127.0.0.1',
      '-keyout',
      receiverTls.key,
      '-out',
      receiverTls.cert,
    ],
    { stdio: 'ignore' },
  );
  const common = {
    databaseUrl: url,
    smtpUrl: `smtp://127.0.0.1:${UNUSED_SMTP_PORT}`,
    logDir: baseDir,
    env: {
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETRY_BASE_SECONDS: '1',
      // The digest and escalation jobs every minute, not every quarter of an hour (their kill -9 scenarios).
      NOTIFICATION_DIGEST_CRON: '* * * * *',
      ESCALATION_CRON: '* * * * *',
      // The push scenario's local push service (decision 0117), polled twice a second.
      PUSH_ALLOW_PRIVATE: '1',
      PUSH_POLL_MS: '500',
      NODE_EXTRA_CA_CERTS: receiverTls.cert,
    },
  };
  a = new ServerInstance({
    ...common,
    name: 'instancia-a',
    port: PORT_A,
    dataDir: path.join(baseDir, 'data-a'),
  });
  b = new ServerInstance({
    ...common,
    name: 'instancia-b',
    port: PORT_B,
    dataDir: path.join(baseDir, 'data-b'),
  });
  // Both at once: the migrations are serialised by an advisory lock.
  await Promise.all([a.start(), b.start()]);
  nginx = new Nginx(baseDir, NGINX_PORT, [PORT_A, PORT_B]);
  await nginx.start();
  database = await openDatabase({ databaseUrl: url, poolSize: 5 });
  failed = false;
}, 120_000);

afterAll(async () => {
  await nginx?.stop();
  await Promise.all([a?.stop(), b?.stop()]);
  await database?.close().catch(() => undefined);
  postgres?.stopQuietly();
  if (failed) {
    process.stderr.write(`\nreliability: logs kept in ${baseDir}\n`);
  } else if (baseDir) {
    rmSync(baseDir, { recursive: true, force: true });
  }
}, 60_000);

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail') failed = true;
  // A scenario that failed half-way leaves the stack whole for the next one.
  if (!postgres || !a || !b) return;
  if (!postgres.running) postgres.start();
  await Promise.all([a, b].filter((i) => !i.running).map((i) => i.start()));
});

describe.sequential('reliability', () => {
  test('a session opened on one instance is used on the other', async () => {
    const shop = await makeShop(db(), {
      products: 1,
      groups: [{ count: 1, presupuesto: 10 * UNIT_TOTAL, limite: -1 }],
    });
    const buyer = shop.buyers[0]!;
    const onA = new Client(a.url);
    await onA.signIn(buyer.usuario, TEST_PASSWORD);
    const onB = onA.at(b.url);
    const session = await onB.get('/api/sesion');
    expect(session.status, session.text).toBe(200);
    expect(JSON.stringify(session.body)).toContain(buyer.usuario);
    const log: Attempt[] = [];
    const bought = await addAndBuy(onB, buyer.id, shop.productIds[0]!, log);
    expect(bought.status, bought.text).toBe(201);
    // And nginx sends requests to both.
    const viaNginx = onA.at(nginx.url);
    for (let i = 0; i < 6; i++) expect((await viaNginx.get('/api/carrito')).status).toBe(200);
    const counts = nginx.upstreamCounts();
    expect(counts.get(PORT_A) ?? 0).toBeGreaterThan(0);
    expect(counts.get(PORT_B) ?? 0).toBeGreaterThan(0);
  });

  test('a change through A refuses the very next request on B: deactivation, password reset, client, week, sign-out', async () => {
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
  });

  test("B's listening connection terminated: B reads the database meanwhile (still refused) and keeps sessions again once it listens", async () => {
    const admin = await adminOn(db(), a);
    const changes = await revocations(db(), admin, a, b);
    const listenerOfB = async () =>
      (
        await rows<{ pid: number }>(
          db(),
          sql`select pid from pg_stat_activity where application_name = ${`portal_avisos_sesiones_${b.proc!.pid}`}`,
        )
      ).map((r) => r.pid);
    const logOfB = () => readFileSync(b.logFile, 'utf8');
    const count = (text: string, what: string) => text.split(what).length - 1;
    const [pid] = await listenerOfB();
    expect(pid, 'B listens on its own connection').toBeTypeOf('number');
    const before = logOfB();

    for (const [name, change] of Object.entries(changes)) {
      const { onB, expectRefused } = await change.prepare();
      for (let i = 0; i < 2; i++) expect((await onB.get('/api/carrito')).status, name).toBe(200);
      const stopped = count(logOfB(), 'caché de sesiones desactivada');
      const started = count(logOfB(), 'caché de sesiones activa');
      const [current] = await listenerOfB();
      await db().execute(sql`select pg_terminate_backend(${current})`);
      await waitUntil('B to notice', async () => count(logOfB(), 'caché de sesiones desactivada') > stopped);
      // The change and the next request while B is not listening (it retries after a second).
      await change.apply();
      expectRefused(await onB.get('/api/carrito'), name);
      // /healthz turns 'activa' a moment before the log line reaches B's log file: wait for both.
      await waitUntil(
        'B to listen again',
        async () =>
          (await cacheState(b)) === 'activa' && count(logOfB(), 'caché de sesiones activa') > started,
      );
    }
    const after = logOfB();
    const n = Object.keys(changes).length;
    expect(
      count(after, 'caché de sesiones desactivada') - count(before, 'caché de sesiones desactivada'),
    ).toBe(n);
    expect(count(after, 'caché de sesiones activa') - count(before, 'caché de sesiones activa')).toBe(n);
    const [fresh] = await listenerOfB();
    expect(fresh).not.toBe(pid);

    // Listening again, it keeps sessions and drops them at once as before.
    const again = await revocations(db(), admin, a, b);
    const { onB, expectRefused } = await again.deactivation!.prepare();
    for (let i = 0; i < 2; i++) expect((await onB.get('/api/carrito')).status).toBe(200);
    await again.deactivation!.apply();
    expectRefused(await onB.get('/api/carrito'), 'deactivation after the reconnection');
  });

  test('200 concurrent purchases through nginx keep every budget and purchase limit', async () => {
    const shop = await rushShop(db(), 20, 8);
    const sessions = await signInAll(db(), nginx.url, shop.buyers);
    // 5 tabs per buyer, all at once: each buys products until the server refuses (budget or limit).
    const log = await purchaseRush(shop, 5, 6, (buyer) => sessions.get(buyer.id)!);
    const buys = log.filter((l) => l.kind === 'buy');
    expect(buys.length).toBeGreaterThanOrEqual(200);
    expectRushAnswers(log, (replies) => JSON.stringify(summary(replies)));
    await expectNoViolations(db(), shop.clientId);
    // Every 201 is an order of that buyer with exactly the lines it was sent.
    await expectOrdersAsSent(buys.filter((l) => l.reply.status === 201));
    // Most buyers hit their ceilings exactly.
    await expectCeilingsReached(db(), shop, log, 10);
    expect(log.some((l) => codeOf(l.reply) === 'BUDGET')).toBe(true);
    expect(log.some((l) => codeOf(l.reply) === 'PURCHASE_LIMIT')).toBe(true);
    // Both instances took part.
    const counts = nginx.upstreamCounts();
    expect(Math.min(counts.get(PORT_A) ?? 0, counts.get(PORT_B) ?? 0)).toBeGreaterThan(100);
  });

  test('kill -9 of an instance during purchases leaves no half-written order; it serves again at once', async () => {
    const shop = await makeShop(db(), {
      products: 40,
      groups: [{ count: 40, presupuesto: 1000 * UNIT_TOTAL, limite: -1 }],
    });
    const sessions = await signInAll(db(), nginx.url, shop.buyers);
    const log: Attempt[] = [];
    const { killedAt, goneAt } = await crashBDuring(
      'purchases under way',
      () => log.filter((l) => l.reply.status === 201).length >= 60,
      // One tab per buyer through nginx, each purchase with a product it never bought before.
      (stopped) =>
        Promise.all(
          shop.buyers.map(async (buyer) => {
            const c = sessions.get(buyer.id)!;
            for (const productId of shop.productIds) {
              if (stopped()) return;
              await addAndBuy(c, buyer.id, productId, log);
            }
          }),
        ),
    );

    const replies = log.map((l) => l.reply);
    const created = log.filter((l) => l.kind === 'buy' && l.reply.status === 201);
    const afterKill = created.filter((l) => l.reply.sentAt > killedAt);
    expect(afterKill.length, 'purchases go on through the other instance').toBeGreaterThan(0);
    expectCutByCrash(replies, goneAt);
    for (const r of replies) expect([200, 201, 409, 502], r.text).toContain(r.status);

    await expectOrdersAsSent(created);
    await expectNoViolations(db(), shop.clientId);
    // The running months (decision 0072) went with the orders: a cut transaction took neither.
    expect(await spendDrift(db())).toEqual([]);
    expect(await lineCountDrift(db())).toEqual([]);
    expect(await userOrderCountDrift(db())).toEqual([]);
    const placed = await ordersPerBuyer(db(), shop.clientId);
    const inDb = [...placed.values()].reduce((sum, p) => sum + p.orders, 0);
    // An order whose answer was lost in the crash may exist; nothing else does.
    const cutBuys = log.filter((l) => l.kind === 'buy' && l.reply.status === 502).length;
    expect(inDb).toBeGreaterThanOrEqual(created.length);
    expect(inDb).toBeLessThanOrEqual(created.length + cutBuys);

    await restartB();
    // At once: the first requests to the restarted instance succeed.
    const buyer = shop.buyers[0]!;
    const onB = sessions.get(buyer.id)!.at(b.url);
    const cart = await onB.get('/api/carrito');
    expect(cart.status, cart.text).toBe(200);
    await onB.post('/api/carrito/vaciar_carrito');
    const fresh = await makeShop(db(), {
      products: 1,
      groups: [{ count: 1, presupuesto: 10 * UNIT_TOTAL, limite: -1 }],
    });
    const freshClient = new Client(b.url);
    await freshClient.signIn(fresh.buyers[0]!.usuario, TEST_PASSWORD);
    const again = await addAndBuy(freshClient, fresh.buyers[0]!.id, fresh.productIds[0]!, []);
    expect(again.status, again.text).toBe(201);
  });

  test('kill -9 of an instance during shipments: no unit shipped twice, no reservation lost; it ships again at once', async () => {
    // A client with one approval level and products of a known stock. The orders are written pending (in the
    // running months as a purchase puts them) and approved through the real route, which reserves every unit
    // (the stock covers them all) and promises the lines, as in production.
    const client = await makeClient(db(), { cantidadAutorizadores: 1, limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id);
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      presupuestoDefault: 1_000 * 1_000 * UNIT_TOTAL,
      limiteDeCompras: -1,
    });
    const approver = await makeUser(db(), { rol: 2, idCliente: client.id });
    const productIds: number[] = [];
    for (let i = 0; i < 4; i++) {
      const p = await makeProduct(db(), {
        idCliente: client.id,
        idCategoria: category.id,
        precio: UNIT_PRICE,
        existencia: SHIPMENT_STOCK,
      });
      productIds.push(p.id);
    }
    // 30 orders of 2 lines × 10 units; the load ships units of the first 25, the last 5 are left alone.
    const units = 10;
    const placed: { id: number; pair: number[] }[] = [];
    for (let i = 0; i < 30; i++) {
      const pair = [productIds[i % 4]!, productIds[(i + 1) % 4]!];
      const order = await makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        lines: pair.map((productId) => ({
          productId,
          precio: UNIT_PRICE,
          cantidad: units,
          idCategoria: category.id,
        })),
      });
      placed.push({ id: order.id, pair });
    }
    const approverA = new Client(a.url);
    await approverA.signIn(approver.usuario, TEST_PASSWORD);
    const approvals = await Promise.all(
      placed.map(({ id, pair }) =>
        approverA.post('/api/update/compra', { id, orden: pair.map((p) => ({ id: p, cantidad: units })) }),
      ),
    );
    for (const r of approvals) expect(r.status, r.text).toBe(200);
    const orderIds = placed.map((o) => o.id);
    const lines = await rows<{ id: number; order_id: number; cantidad: number; reservado: number }>(
      db(),
      sql`select l.id, l.order_id, l.cantidad, l.reservado from ${orderLines} l
          where l.order_id = any(${sql.param(orderIds)}::int[]) order by l.id`,
    );
    // Every unit reserved by the approval: what the shipments consume.
    expect(lines.filter((l) => l.reservado !== l.cantidad)).toEqual([]);
    const untouched = new Set(orderIds.slice(25));

    const operatorUser = await makeUser(db(), { rol: 4, idCliente: null });
    const operator = new Client(nginx.url);
    await operator.signIn(operatorUser.usuario, TEST_PASSWORD);
    interface Shipping {
      orderId: number;
      lineas: { id: number; cantidad: number }[];
      reply: Reply;
    }
    const log: Shipping[] = [];
    const shippable = lines.filter((l) => !untouched.has(l.order_id));
    // Units left of each line as the answers tell (a 409 closes the line for the load).
    const leftUnits = new Map(lines.map((l) => [l.id, l.cantidad]));
    const { killedAt, goneAt } = await crashBDuring(
      'shipments under way',
      () => log.filter((l) => l.reply.status === 200).length >= 60,
      // 16 loops through nginx, each shipping 1–3 units of one of the first 8 lines with units left: loops
      // race for the same orders and lines (and their last units), and orders are shipped whole in turn.
      (stopped) =>
        Promise.all(
          Array.from({ length: 16 }, async () => {
            while (!stopped()) {
              const open = shippable.filter((l) => leftUnits.get(l.id)! > 0).slice(0, 8);
              if (open.length === 0) return;
              const line = open[Math.floor(Math.random() * open.length)]!;
              const cantidad = Math.min(leftUnits.get(line.id)!, 1 + Math.floor(Math.random() * 3));
              const lineas = [{ id: line.id, cantidad }];
              const reply = await operator.post(`/api/surtido/${line.order_id}/envios`, {
                lineas,
                guia: 'REL-1',
              });
              log.push({ orderId: line.order_id, lineas, reply });
              if (reply.status === 200) leftUnits.set(line.id, leftUnits.get(line.id)! - cantidad);
              else if (reply.status === 409) leftUnits.set(line.id, 0);
            }
          }),
        ),
    );

    const replies = log.map((l) => l.reply);
    const shippedOk = log.filter((l) => l.reply.status === 200);
    expect(
      shippedOk.filter((l) => l.reply.sentAt > killedAt).length,
      'shipments go on through the other instance',
    ).toBeGreaterThan(0);
    // Only the requests the crash cut short fail; a 409 is a line with fewer units left than asked (another
    // loop, or a cut request, took them).
    const cut = expectCutByCrash(replies, goneAt);
    for (const r of replies) expect([200, 409, 502], r.text).toContain(r.status);
    for (const r of replies.filter((x) => x.status === 409))
      expect(['SHIPMENT_EXCEEDS', 'NOTHING_TO_SHIP'], r.text).toContain(codeOf(r));

    // The database: each line's shipped count is its shipments' units, within its units, and it still holds
    // the reservation of every unit not shipped.
    const ids = sql.param(orderIds);
    expect(
      await rows(
        db(),
        sql`select l.id, l.cantidad, l.enviado, l.reservado, coalesce(s.n, 0)::int as en_envios
            from ${orderLines} l
            left join (select order_line_id, sum(cantidad)::int as n from order_shipment_lines
              group by order_line_id) s on s.order_line_id = l.id
            where l.order_id = any(${ids}::int[])
              and (l.enviado <> coalesce(s.n, 0) or l.enviado > l.cantidad
                or l.reservado <> l.cantidad - l.enviado)`,
      ),
    ).toEqual([]);
    // Shipments numbered 1..k per order, none twice, each with its event.
    expect(
      await rows(
        db(),
        sql`select o.id, count(s.id)::int as n, count(distinct s.numero)::int as numeros,
              coalesce(min(s.numero), 1) as primero, coalesce(max(s.numero), 0) as ultimo,
              (select count(*)::int from ${orderEvents} e where e.order_id = o.id and e.tipo = 'envio') as eventos
            from ${orders} o left join order_shipments s on s.order_id = o.id
            where o.id = any(${ids}::int[]) group by o.id
            having count(s.id) <> count(distinct s.numero) or coalesce(min(s.numero), 1) <> 1
              or coalesce(max(s.numero), 0) <> count(s.id)
              or (select count(*) from ${orderEvents} e where e.order_id = o.id and e.tipo = 'envio') <> count(s.id)`,
      ),
    ).toEqual([]);
    // Each product: reserved what its approved lines still hold; its stock down by exactly the units shipped.
    expect(
      await rows(
        db(),
        sql`select p.id, p.existencia, p.reservado, h.held, h.shipped
            from ${products} p join (
              select l.product_id, sum(l.reservado)::int as held, sum(l.enviado)::int as shipped
              from ${orderLines} l join ${orders} o on o.id = l.order_id and o.status = 'aprobado'
              where o.id_cliente = ${client.id} group by l.product_id) h on h.product_id = p.id
            where p.reservado <> h.held or p.existencia <> ${SHIPMENT_STOCK} - h.shipped`,
      ),
    ).toEqual([]);
    // Each order: «parcial» with some units shipped, «enviado» with all, «por surtir» (as approved) with none.
    const states = await rows<{ id: number; surtido: string; cantidad: number; enviado: number }>(
      db(),
      sql`select o.id, o.surtido_estatus as surtido, sum(l.cantidad)::int as cantidad,
            sum(l.enviado)::int as enviado
          from ${orders} o join ${orderLines} l on l.order_id = o.id
          where o.id = any(${ids}::int[]) group by o.id`,
    );
    const expected = (s: { cantidad: number; enviado: number }) =>
      s.enviado === 0 ? 'por_surtir' : s.enviado === s.cantidad ? 'enviado' : 'parcial';
    expect(states.filter((s) => s.surtido !== expected(s))).toEqual([]);
    for (const id of untouched) expect(states.find((s) => s.id === id)?.enviado).toBe(0);
    // The load left all three kinds (whole orders first, some lines given up at a 409, the last five alone).
    expect(new Set(states.map((s) => s.surtido))).toEqual(new Set(['por_surtir', 'parcial', 'enviado']));
    // Every 200 is a shipment of that order with exactly the units it sent; a shipment whose answer was lost
    // in the crash may exist too; nothing else does.
    const written = await rows<{ id: number; order_id: number; lineas: { id: number; cantidad: number }[] }>(
      db(),
      sql`select s.id, s.order_id,
            json_agg(json_build_object('id', sl.order_line_id, 'cantidad', sl.cantidad)) as lineas
          from order_shipments s join order_shipment_lines sl on sl.shipment_id = s.id
          where s.order_id = any(${ids}::int[]) group by s.id`,
    );
    const byId = new Map(written.map((s) => [Number(s.id), s]));
    for (const l of shippedOk) {
      const envio = (l.reply.body as { envio: { id: number } }).envio;
      expect(byId.get(envio.id), l.reply.text).toEqual({
        id: envio.id,
        order_id: l.orderId,
        lineas: l.lineas,
      });
    }
    expect(written.length).toBeGreaterThanOrEqual(shippedOk.length);
    expect(written.length).toBeLessThanOrEqual(shippedOk.length + cut.length);
    expect(await spendDrift(db())).toEqual([]);
    expect(await lineCountDrift(db())).toEqual([]);

    await restartB();
    // At once: the restarted instance ships a unit of an order nobody touched, as its first shipment.
    const [first] = [...untouched];
    const line = lines.find((l) => l.order_id === first)!;
    const again = await operator
      .at(b.url)
      .post(`/api/surtido/${first}/envios`, { lineas: [{ id: line.id, cantidad: 1 }] });
    expect(again.status, again.text).toBe(200);
    expect(again.body).toMatchObject({ envio: { numero: 1 }, pedido: { id: first, surtido: 'parcial' } });
  });

  test('kill -9 during a product import: the job is retried after the restart and completes without duplicates', async () => {
    const admin = await makeUser(db(), { rol: 4, idCliente: null });
    const client = await makeClient(db());
    const rowsCount = 40_000;
    const lines = [
      'clave_interna,clave_cliente,nombre,descripcion,unidad_de_medida,precio,impuesto,activo,categoria',
    ];
    for (let i = 1; i <= rowsCount; i++)
      lines.push(
        `REL-${i},C-${i},Producto de prueba ${i},Descripción ${i},Pieza,${10 + (i % 90)}.50,1,1,Categoría ${i % 5}`,
      );
    const csv = Buffer.from(`${lines.join('\n')}\n`);

    // Only instance A runs jobs while the file is processed, so A is the one to kill.
    await b.stop();
    const adminA = new Client(a.url);
    await adminA.signIn(admin.usuario, TEST_PASSWORD);
    const upload = async (c: Client) => {
      const form = multipart(
        { id_cliente: client.id },
        { file: { filename: 'productos.csv', data: csv, contentType: 'text/csv' } },
      );
      const res = await c.post('/api/load/productos', form.body, form.headers);
      expect(res.status, res.text).toBe(202);
      return (res.body as { id_importacion: number }).id_importacion;
    };
    const importId = await upload(adminA);
    const progress = async () => {
      const [job] = await db().select().from(importJobs).where(eq(importJobs.id, importId));
      return job!;
    };
    await waitUntil(
      'the import to write its first batches',
      async () => (await progress()).okRows > 0,
      60_000,
    );
    await a.crash();
    const atCrash = await progress();
    expect(atCrash.status).toBe('procesando');
    expect(atCrash.okRows, 'killed in the middle of the file').toBeLessThan(rowsCount);

    await Promise.all([a.start(), b.start()]);
    await waitUntil(
      'the retried import to finish',
      async () => (await progress()).status !== 'procesando',
      150_000,
    );
    const done = await progress();
    expect(done).toMatchObject({
      status: 'terminado',
      totalRows: rowsCount,
      okRows: rowsCount,
      errorRows: 0,
    });
    const counted = await rows<{ n: number; claves: number; categorias: number }>(
      db(),
      sql`select count(*)::int as n, count(distinct clave_interna)::int as claves,
            (select count(*)::int from categories where id_cliente = ${client.id}) as categorias
          from ${products} where id_cliente = ${client.id}`,
    );
    expect(counted[0]).toEqual({ n: rowsCount, claves: rowsCount, categorias: 5 });

    // Running the same file again changes nothing.
    const adminB = adminA.at(nginx.url);
    const again = await upload(adminB);
    await waitUntil(
      'the second import to finish',
      async () => {
        const [job] = await db().select().from(importJobs).where(eq(importJobs.id, again));
        return job!.status !== 'procesando';
      },
      120_000,
    );
    const logged = await rows<{ id: number; creados: number; actualizados: number }>(
      db(),
      sql`select (metadata->>'id_importacion')::int as id, (metadata->>'creados')::int as creados,
            (metadata->>'actualizados')::int as actualizados
          from system_logs where event_type = 'importacion_terminada'
            and (metadata->>'id_importacion')::int in (${importId}, ${again}) order by id`,
    );
    // Each import finished once; the second one found every product in place.
    expect(logged.map((l) => l.id)).toEqual([importId, again]);
    expect(logged[1]).toMatchObject({ creados: 0, actualizados: 0 });
    const after = await rows<{ n: number }>(
      db(),
      sql`select count(*)::int as n from ${products} where id_cliente = ${client.id}`,
    );
    expect(after[0]!.n).toBe(rowsCount);
  });

  test('kill -9 between an approval and its webhook delivery: delivered after the restart, once per endpoint', async () => {
    const admin = await makeUser(db(), { rol: 4, idCliente: null });
    const client = await makeClient(db(), { cantidadAutorizadores: 1 });
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id, presupuestoDefault: 500_000 });
    const approver = await makeUser(db(), { rol: 2, idCliente: client.id });
    const cat = await makeCategory(db(), client.id);
    const product = await makeProduct(db(), { idCliente: client.id, idCategoria: cat.id, precio: 4_321 });
    const order = await makeOrder(db(), {
      idUser: buyer.id,
      idCliente: client.id,
      lines: [{ productId: product.id, precio: 4_321, cantidad: 3, idCategoria: cat.id }],
    });
    // Only instance A runs jobs, so A is the one to kill.
    await b.stop();
    const adminA = new Client(a.url);
    await adminA.signIn(admin.usuario, TEST_PASSWORD);
    const endpoints: { path: string; secreto: string }[] = [];
    for (const path of ['/erp', '/almacen']) {
      const res = await adminA.post('/api/integracion/webhooks', {
        url: `https://127.0.0.1:${RECEIVER_PORT}${path}`,
        eventos: ['pedido.aprobado'],
        id_cliente: client.id,
      });
      expect(res.status, res.text).toBe(201);
      endpoints.push({ path, secreto: (res.body as { secreto: string }).secreto });
    }
    // The receiver is down: the first attempts fail and wait for their retry.
    const approverA = new Client(a.url);
    await approverA.signIn(approver.usuario, TEST_PASSWORD);
    const approved = await approverA.post('/api/update/compra', {
      id: order.id,
      orden: [{ id: product.id, cantidad: 3 }],
    });
    expect(approved.status, approved.text).toBe(200);
    const deliveries = () =>
      db()
        .select({ d: webhookDeliveries, tipo: webhookEvents.tipo, orderId: webhookEvents.orderId })
        .from(webhookDeliveries)
        .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
        .where(eq(webhookEvents.orderId, order.id));
    await waitUntil('both first attempts to fail', async () => {
      const rows = await deliveries();
      return rows.length === 2 && rows.every((r) => r.d.intentos >= 1 && r.d.estado === 'pendiente');
    });
    await a.crash();

    const tls = { key: readFileSync(receiverTls.key, 'utf8'), cert: readFileSync(receiverTls.cert, 'utf8') };
    const receiver = await startReceiver({}, { tls, port: RECEIVER_PORT });
    try {
      await a.start();
      await waitUntil(
        'both deliveries after the restart',
        async () => (await deliveries()).every((r) => r.d.estado === 'entregado'),
        60_000,
      );
      // A moment more: no second copy arrives.
      await sleep(1_500);
      const rows = await deliveries();
      expect(new Set(rows.map((r) => r.d.eventId)).size).toBe(1);
      expect(rows.map((r) => r.tipo)).toEqual(['pedido.aprobado', 'pedido.aprobado']);
      for (const { path, secreto } of endpoints) {
        const got = receiver.at(path);
        expect(got, path).toHaveLength(1);
        const body = JSON.parse(got[0]!.body) as {
          id: string;
          tipo: string;
          pedido: { id: number; estatus: string; total_centavos: number };
        };
        expect(body.id).toBe(rows[0]!.d.eventId);
        expect(body).toMatchObject({
          tipo: 'pedido.aprobado',
          pedido: { id: order.id, estatus: 'aprobado' },
        });
        expect(verifySignature(secreto, got[0]!.headers['x-portal-firma'] as string, got[0]!.body)).toBe(
          true,
        );
      }
    } finally {
      await receiver.close();
      await b.start();
    }
  }, 120_000);

  test('kill -9 during the notification digests: after the restart every person has one digest, none twice', async () => {
    const client = await makeClient(db(), { cantidadAutorizadores: 1 });
    const people = 1_500;
    const tag = `dig${Date.now()}`;
    // Many people with three items each waiting for their hourly digest (decision 0114), written an hour
    // ago, so the digest run of the next minute has work for a few seconds.
    await db().execute(sql`
      insert into users (id_cliente, usuario, user_id, nombre, rol, password_hash, password_changed_at)
      select ${client.id}, ${tag} || '.' || g, ${tag} || '.' || g || '@example.test', 'Persona ' || g, 2, 'x', now()
      from generate_series(1, ${people}) g`);
    await db().execute(sql`
      insert into notification_settings (user_id, canales)
      select id, '{"por_revisar": "hora"}'::jsonb from users where usuario like ${`${tag}.%`}`);
    await db().execute(sql`
      insert into notifications (user_id, tipo, titulo, texto, ruta, resumen, created_at)
      select u.id, 'por_revisar', 'Pedido #' || k || ' por revisar', 'Está pendiente de tu revisión.',
        '/autorizador/principal', 'hora', now() - interval '1 hour'
      from users u, generate_series(1, 3) k where u.usuario like ${`${tag}.%`}`);
    const digests = async () =>
      (
        await rows<{ n: number; people: number }>(
          db(),
          sql`select count(*)::int as n, count(distinct "to")::int as people from email_outbox
              where "to" like ${`${tag}.%`} and subject = 'Tu resumen del Portal de Compras: 3 avisos'`,
        )
      )[0]!;

    // Only instance A runs jobs, so A is the one to kill: as soon as the first digests are written.
    await b.stop();
    await waitUntil('the first digests', async () => (await digests()).n > 0, 90_000, 20);
    await a.crash();
    const atCrash = await digests();
    expect(atCrash.n, 'killed in the middle of the run').toBeLessThan(people);

    await Promise.all([a.start(), b.start()]);
    await waitUntil('every digest after the restart', async () => (await digests()).n >= people, 150_000);
    // A moment more, and a run more of each instance: no second copy.
    await sleep(1_500);
    const after = await digests();
    expect(after).toEqual({ n: people, people });
    const items = await rows<{ waiting: number; sent: number }>(
      db(),
      sql`select count(*) filter (where n.resumido_at is null)::int as waiting,
            count(*) filter (where n.resumido_at is not null)::int as sent
          from notifications n join users u on u.id = n.user_id where u.usuario like ${`${tag}.%`}`,
    );
    expect(items[0]).toEqual({ waiting: 0, sent: 3 * people });
  }, 300_000);

  test('kill -9 during the escalation run: after the restart every late order escalated once, told once', async () => {
    // A client escalating after one hour (decision 0113), one Autorizador, and many orders waiting on it for
    // three: the escalation run of the next minute has work for a few seconds.
    const client = await makeClient(db(), {
      cantidadAutorizadores: 1,
      escalarHoras: 1,
      recordatorioHoras: 0,
    });
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const approver = await makeUser(db(), { rol: 2, idCliente: client.id });
    const count = 1_000;
    // Orders of no amount and no lines, written here at once.
    const planted = await rows<{ id: number }>(
      db(),
      sql`insert into orders (id_user, id_cliente, status, subtotal, iva, total, lineas, transaction_date)
          select ${buyer.id}, ${client.id}, 'pendiente', 0, 0, 0, 0, now() - interval '3 hours'
          from generate_series(1, ${count})
          returning id`,
    );
    const ids = planted.map((o) => o.id);
    // Into the buyer's month as a purchase puts them (the count of orders), so the running totals stay exact.
    await db().transaction(async (tx) => {
      for (const id of ids) await moveOrderTotals(tx, id, 1);
    });
    const escalated = async () =>
      (
        await rows<{ events: number; orders: number; mails: number }>(
          db(),
          sql`select count(*)::int as events, count(distinct order_id)::int as orders,
                (select count(*)::int from email_outbox
                  where "to" = ${approver.email} and subject like '%esperando') as mails
              from order_events where tipo = 'escalado' and order_id = any(${sql.param(ids)}::int[])`,
        )
      )[0]!;

    // Only instance A runs jobs, so A is the one to kill: as soon as the first orders escalated.
    await b.stop();
    await waitUntil('the first escalations', async () => (await escalated()).events > 0, 90_000, 20);
    await a.crash();
    const atCrash = await escalated();
    expect(atCrash.events, 'killed in the middle of the run').toBeLessThan(count);

    await Promise.all([a.start(), b.start()]);
    await waitUntil(
      'every escalation after the restart',
      async () => (await escalated()).orders >= count,
      150_000,
    );
    // A moment more, and a run more of each instance: nothing twice.
    await sleep(1_500);
    expect(await escalated()).toEqual({ events: count, orders: count, mails: count });
  }, 300_000);

  test('kill -9 while pushing to phones: no item pushed twice, the rest pushed after the restart', async () => {
    // An approver on the phone with two devices (decision 0117) and many items waiting to be pushed; the push
    // service holds each answer 25 ms, so a sender has work for a few seconds.
    const client = await makeClient(db(), { cantidadAutorizadores: 1 });
    const approver = await makeUser(db(), { rol: 2, idCliente: client.id });
    const tls = { key: readFileSync(receiverTls.key, 'utf8'), cert: readFileSync(receiverTls.cert, 'utf8') };
    const receiver = await startPushReceiver({ tls, port: PUSH_RECEIVER_PORT, delayMs: 25 });
    try {
      const [vapid] = await rows<{ clave: string }>(db(), sql`select clave_publica as clave from push_vapid`);
      // Both instances sign with the one key pair in the database.
      receiver.vapidKey = vapid!.clave;
      const phones = [receiver.subscribe(), receiver.subscribe()];
      for (const p of phones)
        await db().execute(sql`insert into push_subscriptions (user_id, endpoint, p256dh, auth)
          values (${approver.id}, ${p.endpoint}, ${p.keys.p256dh}, ${p.keys.auth})`);
      // Only instance A sends while it runs, so A is the one to kill: as soon as the first pushes arrive.
      await b.stop();
      const count = 400;
      const pushes = count * phones.length;
      const planted = await rows<{ id: number }>(
        db(),
        sql`insert into notifications (user_id, tipo, titulo, texto, ruta, push)
            select ${approver.id}, 'por_revisar', 'Pedido #' || g || ' por revisar', 'Texto',
              '/autorizador/principal', true
            from generate_series(1, ${count}) g
            returning id`,
      );
      const ids = planted.map((p) => p.id);
      await waitUntil('the first pushes', async () => receiver.received.length > 0, 60_000, 10);
      await a.crash();
      const atCrash = receiver.received.length;
      expect(atCrash, 'killed in the middle of the run').toBeLessThan(pushes);

      await Promise.all([a.start(), b.start()]);
      const state = async () =>
        (
          await rows<{ waiting: number; rows: number; entregado: number; enviando: number; otros: number }>(
            db(),
            sql`select (select count(*)::int from notifications where id = any(${sql.param(ids)}::int[])
                      and push_at is null) as waiting,
                  count(*)::int as rows,
                  count(*) filter (where estado = 'entregado')::int as entregado,
                  count(*) filter (where estado = 'enviando')::int as enviando,
                  count(*) filter (where estado not in ('entregado', 'enviando'))::int as otros
                from push_deliveries where notification_id = any(${sql.param(ids)}::int[])`,
          )
        )[0]!;
      // Settled: every item taken, and nothing more arrived for a second.
      let seen = -1;
      await waitUntil(
        'every item pushed after the restart',
        async () => {
          const now = await state();
          const still = receiver.received.length === seen;
          seen = receiver.received.length;
          return now.waiting === 0 && still;
        },
        150_000,
        1_000,
      );
      const after = await state();
      // One delivery per item and device; every push decrypted and signed with the portal's key.
      expect(after).toMatchObject({ waiting: 0, rows: pushes, otros: 0 });
      expect(receiver.received.length).toBeGreaterThan(atCrash);
      for (const r of receiver.received) expect(r.status, JSON.stringify(r.vapid)).toBe(201);
      // No push twice to a device.
      for (const p of phones) {
        const topics = receiver.pushesTo(p.endpoint).map((r) => r.headers.topic);
        expect(new Set(topics).size, 'no push twice').toBe(topics.length);
      }
      // What the killed sender had taken and not settled stays 'enviando', never sent again (at most once):
      // part of it reached the push service before the kill, the rest never did. At most one claim's worth.
      expect(after.enviando, 'killed with pushes taken and not settled').toBeGreaterThan(0);
      expect(after.entregado + after.enviando).toBe(pushes);
      // Every push that arrived is recorded delivered, or is one of those the killed sender had in flight.
      expect(receiver.received.length).toBeGreaterThanOrEqual(after.entregado);
      expect(receiver.received.length - after.entregado).toBeLessThanOrEqual(after.enviando);
      expect(after.enviando).toBeLessThanOrEqual(20 * phones.length);
    } finally {
      await receiver.close();
    }
  }, 300_000);

  test('SIGTERM during load: requests in flight finish, nothing is cut, no 5xx', async () => {
    const shop = await makeShop(db(), {
      products: 60,
      groups: [{ count: 30, presupuesto: 1000 * UNIT_TOTAL, limite: -1 }],
    });
    const sessions = await signInAll(db(), nginx.url, shop.buyers);
    const direct: Attempt[] = [];
    const proxied: Attempt[] = [];
    let stop = false;
    // Half the buyers talk to instance A directly, half through nginx.
    const load = Promise.all(
      shop.buyers.map(async (buyer, i) => {
        const viaNginx = i % 2 === 0;
        const c = viaNginx ? sessions.get(buyer.id)! : sessions.get(buyer.id)!.at(a.url);
        const log = viaNginx ? proxied : direct;
        for (const productId of shop.productIds) {
          if (stop) return;
          const r = await addAndBuy(c, buyer.id, productId, log);
          const read = await c.get('/api/historial');
          log.push({ kind: 'read', reply: read, userId: buyer.id });
          if (r.error === 'ECONNREFUSED' || read.error === 'ECONNREFUSED') await sleep(50);
        }
      }),
    );
    await waitUntil(
      'load on instance A',
      async () => direct.filter((l) => l.reply.status === 201).length >= 20,
    );
    const termAt = Date.now();
    a.signal('SIGTERM');
    const code = await a.exited;
    const exitedAt = Date.now();
    await sleep(500);
    stop = true;
    await load;

    expect(code, a.log()).toBe(0);
    expect(exitedAt - termAt).toBeLessThan(20_000);
    const inFlight = direct.filter((l) => l.reply.sentAt < termAt && l.reply.doneAt > termAt);
    expect(inFlight.length, 'requests were in flight at SIGTERM').toBeGreaterThan(0);
    const answered = inFlight.filter((l) => l.reply.status > 0);
    expect(answered.length, 'requests were being served at SIGTERM').toBeGreaterThan(0);
    // Every request that reached instance A was answered in full, below 500: nothing was cut.
    const all = [...direct, ...proxied];
    const reachedA = all.filter((l) => a.received(l.reply.id));
    for (const l of reachedA) {
      expect(l.reply.status, JSON.stringify(l.reply)).toBeGreaterThan(0);
      expect(l.reply.status, JSON.stringify(l.reply)).toBeLessThan(500);
    }
    // Any other failure is a connection that never reached a server: refused once the listener closed,
    // or completed by the kernel in the instant it closed and reset (nginx answers 502 for such a POST,
    // which it cannot retry). Those are rare; everything else is an answer below 500.
    const notAnswered = all.filter((l) => l.reply.status === 0 || l.reply.status >= 500);
    for (const l of notAnswered) {
      const r = l.reply;
      const context = `${JSON.stringify(r)} SIGTERM at ${termAt}`;
      expect(a.received(r.id) || b.received(r.id), context).toBe(false);
      expect(['ECONNREFUSED', 'ECONNRESET', 502], context).toContain(r.error ?? r.status);
    }
    // Such a reset can only hit a connection being opened in the instant the listener closed: at most one
    // per buyer (each has one request at a time; its next one is refused or goes to the other instance).
    const resets = notAnswered.filter((l) => l.reply.error !== 'ECONNREFUSED');
    const resetsPerBuyer = new Map<number, number>();
    for (const l of resets) resetsPerBuyer.set(l.userId, (resetsPerBuyer.get(l.userId) ?? 0) + 1);
    expect(
      Math.max(0, ...resetsPerBuyer.values()),
      JSON.stringify(summary(resets.map((l) => l.reply))),
    ).toBeLessThanOrEqual(1);
    expect(direct.some((l) => l.reply.error === 'ECONNREFUSED')).toBe(true);
    await expectOrdersAsSent([...direct, ...proxied]);
    await expectNoViolations(db(), shop.clientId);
    await a.start();
  });

  test('PostgreSQL restart during load: 503 in Spanish while it is down, service back without a restart', async () => {
    const shop = await makeShop(db(), {
      products: 200,
      groups: [{ count: 20, presupuesto: 10_000 * UNIT_TOTAL, limite: -1 }],
    });
    const sessions = await signInAll(db(), nginx.url, shop.buyers);
    const pids = [a.proc!.pid, b.proc!.pid];
    const log: Attempt[] = [];
    const health: { at: number; reply: Reply }[] = [];
    let stop = false;
    const load = Promise.all([
      ...shop.buyers.map(async (buyer) => {
        const c = sessions.get(buyer.id)!;
        for (const productId of shop.productIds) {
          if (stop) return;
          await addAndBuy(c, buyer.id, productId, log);
          log.push({ kind: 'read', reply: await c.get('/api/carrito'), userId: buyer.id });
          await sleep(50);
        }
      }),
      (async () => {
        const probe = new Client(a.url);
        while (!stop) {
          health.push({ at: Date.now(), reply: await probe.get('/healthz') });
          await sleep(100);
        }
      })(),
    ]);
    await waitUntil('load', async () => log.filter((l) => l.reply.status === 201).length >= 20);
    const downAt = Date.now();
    postgres.stop('fast');
    await sleep(3000);
    const startAt = Date.now();
    postgres.start();
    const upAt = Date.now();
    // Back by itself: every buyer succeeds again within a few seconds.
    await waitUntil(
      'every buyer to succeed again',
      async () =>
        shop.buyers.every((u) =>
          log.some((l) => l.userId === u.id && l.reply.sentAt > upAt && l.reply.status === 200),
        ),
      20_000,
    );
    stop = true;
    await load;

    const replies = log.map((l) => l.reply);
    const failures = replies.filter((r) => r.status >= 500 || r.status === 0);
    expect(failures.length, 'requests failed while the database was down').toBeGreaterThan(0);
    for (const r of failures) {
      expect(r.status, `${JSON.stringify(r)} ${JSON.stringify(summary(replies))}`).toBe(503);
      expect(msgOf(r)).toBe(MSG.servicioNoDisponible);
      // Only while it was down (plus the moments a pool needs to notice).
      expect(r.doneAt).toBeGreaterThanOrEqual(downAt);
      expect(r.sentAt).toBeLessThan(upAt + 2000);
    }
    // Probes sent after the stop and answered before the start (a probe sent just before the start may be
    // handled after it on a loaded machine, and then rightly answers 200).
    const downHealth = health.filter((h) => h.at > downAt + 500 && h.reply.doneAt < startAt);
    expect(downHealth.length).toBeGreaterThan(0);
    for (const h of downHealth) expect(h.reply.status).toBe(503);
    expect(health.at(-1)!.reply.status).toBe(200);
    // The same processes: nothing was restarted.
    expect([a.proc!.pid, b.proc!.pid]).toEqual(pids);
    expect(a.running && b.running).toBe(true);
    await expectOrdersAsSent(log);
    await expectNoViolations(db(), shop.clientId);
  });

  test('a backup taken in the middle of 200 purchases restores into a fresh database a server runs on', async () => {
    // 40 buyers at once through nginx, each buying until the backup is done (and at least 5 times): 200
    // purchases or more, some before the backup, some while it runs, some after its snapshot.
    const shop = await makeShop(db(), {
      products: 8,
      groups: [{ count: 40, presupuesto: 100 * UNIT_TOTAL, limite: -1 }],
    });
    const sessions = await signInAll(db(), nginx.url, shop.buyers);
    const log: Attempt[] = [];
    const placed = () =>
      log
        .filter((l) => l.kind === 'buy' && l.reply.status === 201)
        .map((l) => (l.reply.body as { pedido: { id: number } }).pedido.id);
    let backupDone = false;
    const buying = Promise.all(
      shop.buyers.map(async (buyer, i) => {
        const c = sessions.get(buyer.id)!;
        for (let k = 0; k < 60 && (k < 5 || !backupDone); k++)
          await addAndBuy(c, buyer.id, shop.productIds[(i + k) % 8]!, log);
      }),
    );
    await waitUntil('60 purchases answered', async () => placed().length >= 60, 120_000);
    // Answered before the backup started: committed before its snapshot.
    const before = new Set(placed());
    const archive = path.join(baseDir, 'respaldo.tar');
    const taken = await runCommand('backup', ['--out', archive], { DATABASE_URL: postgres.url('portal') });
    backupDone = true;
    await buying;
    expect(taken.code, taken.stderr).toBe(0);
    expect(taken.stdout).toContain('Copia de seguridad escrita en');
    const replies = log.map((l) => l.reply);
    expect(
      replies.filter((r) => r.status !== 200 && r.status !== 201),
      JSON.stringify(summary(replies)),
    ).toEqual([]);
    expect(placed().length).toBeGreaterThanOrEqual(200);

    const admin = new pg.Client({ connectionString: postgres.url() });
    await admin.connect();
    await admin.query('create database restaurada');
    await admin.end();
    const restoredUrl = postgres.url('restaurada');
    const restoredRun = await runCommand('restore', ['--from', archive], { DATABASE_URL: restoredUrl });
    expect(restoredRun.code, restoredRun.stderr).toBe(0);
    expect(restoredRun.stdout).toContain('Copia restaurada y verificada');

    const restored = await openDatabase({ databaseUrl: restoredUrl, poolSize: 2 });
    const c = new ServerInstance({
      name: 'instancia-restaurada',
      port: RESTORED_PORT,
      databaseUrl: restoredUrl,
      dataDir: path.join(baseDir, 'data-restaurada'),
      smtpUrl: `smtp://127.0.0.1:${UNUSED_SMTP_PORT}`,
      logDir: baseDir,
    });
    try {
      // Every order of the shop in the backup is the source's, whole: its lines, events and totals.
      const source = await ordersOfClient(db(), shop.clientId);
      const copy = await ordersOfClient(restored.db, shop.clientId);
      for (const id of before) expect(copy.has(id), `pedido ${id} respondido antes de la copia`).toBe(true);
      for (const [id, order] of copy) expect(order, `pedido ${id}`).toEqual(source.get(id));
      expect(copy.size).toBeGreaterThanOrEqual(before.size);
      expect(copy.size).toBeLessThan(source.size);
      // The running totals of the copy equal a recount of its orders.
      expect(await spendDrift(restored.db)).toEqual([]);
      expect(await lineCountDrift(restored.db)).toEqual([]);
      expect(await commentCountDrift(restored.db)).toEqual([]);

      // A server on the restored database: sign in, the catalogue, the cart, a purchase.
      await c.start();
      const buyer = shop.buyers[0]!;
      const onC = new Client(c.url);
      await onC.signIn(buyer.usuario, TEST_PASSWORD);
      const catalogue = await onC.get('/api/catalogo');
      expect(catalogue.status, catalogue.text).toBe(200);
      const offered = (catalogue.body as { productos: { id: number }[] }).productos.map((p) => p.id);
      expect(offered.sort((x, y) => x - y)).toEqual([...shop.productIds].sort((x, y) => x - y));
      const cart = await onC.get('/api/carrito');
      expect(cart.status, cart.text).toBe(200);
      const bought = await addAndBuy(onC, buyer.id, shop.productIds[0]!, []);
      expect(bought.status, bought.text).toBe(201);
      // New ids continue after the restored ones (the sequences came with the dump).
      expect((bought.body as { pedido: { id: number } }).pedido.id).toBeGreaterThan(Math.max(...copy.keys()));
    } finally {
      await c.stop();
      await restored.close();
    }
  });

  test('after the whole run, the running months equal a recount of the orders', async () => {
    expect(await spendDrift(db())).toEqual([]);
    expect(await lineCountDrift(db())).toEqual([]);
    expect(await commentCountDrift(db())).toEqual([]);
  });
});
