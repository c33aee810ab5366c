/**
 * Live updates over server-sent events (issue 43 item 6, decision 0116), through a real HTTP listener and a
 * real stream reader: what reaches whom when an order, a bell or a buyer's budget (a top-up decided, a
 * transfer between áreas; decision 0123) changes, reconnection with Last-Event-ID,
 * the stream's end with its session, the per-person cap, and (on PostgreSQL) a change made through one
 * instance reaching a stream open on another.
 */
import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { type Database, openDatabase } from '../../db/client.ts';
import { areas, notifications, orders, sessions, users } from '../../db/schema/index.ts';
import { manualClock } from '../../lib/clock.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { EventStreamClient } from '../../test/event-stream.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { CAPPED_RETRY_MS, MAX_STREAMS_PER_USER, RETRY_MS } from './live.ts';

async function waitUntil(what: string, check: () => boolean | Promise<boolean>, ms = 10_000): Promise<void> {
  const until = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Listens on a free port of this machine; answers the base URL. */
async function listening(app: FastifyInstance): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  await waitUntil('the feed to listen', () => app.sessions.caching);
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no address');
  return `http://127.0.0.1:${address.port}`;
}

const isOrder = (id: number) => (e: { event: string; data: string }) =>
  e.event === 'pedido' && JSON.parse(e.data).id === id;
const isNotice = (e: { event: string }) => e.event === 'aviso';
const isBudget = (e: { event: string }) => e.event === 'presupuesto';

let ipCounter = 0;
const nextIp = () => `10.116.${Math.floor(++ipCounter / 250)}.${ipCounter % 250}`;

/**
 * One client (one approval level) with a buyer, two authorizers (rol 2 and 3) and an administrator's
 * view; another client with its own buyer and authorizer. Everyone signed in through the app.
 */
async function world(t: TestApp) {
  const db = t.database.db;
  const client = await makeClient(db, { cantidadAutorizadores: 1, limiteDeCompras: -1 });
  const other = await makeClient(db, { cantidadAutorizadores: 1, limiteDeCompras: -1 });
  const category = await makeCategory(db, client.id, 'Papelería');
  const otherCategory = await makeCategory(db, other.id, 'Papelería');
  const product = await makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio: 10_000 });
  const otherProduct = await makeProduct(db, {
    idCliente: other.id,
    idCategoria: otherCategory.id,
    precio: 10_000,
  });
  const people = {
    buyer: await makeUser(db, { rol: 1, idCliente: client.id, presupuestoDefault: 1_000_000 }),
    ana: await makeUser(db, { rol: 2, idCliente: client.id }),
    luis: await makeUser(db, { rol: 3, idCliente: client.id }),
    otherBuyer: await makeUser(db, { rol: 1, idCliente: other.id, presupuestoDefault: 1_000_000 }),
    otherAuthorizer: await makeUser(db, { rol: 2, idCliente: other.id }),
  };
  await assign(db, people.buyer.id, product.id, 50);
  await assign(db, people.otherBuyer.id, otherProduct.id, 50);
  const signIn = (u: { usuario: string }) => new ApiClient(t.app, nextIp()).loginOk(u.usuario, TEST_PASSWORD);
  const api = {
    buyer: await signIn(people.buyer),
    ana: await signIn(people.ana),
    luis: await signIn(people.luis),
    otherBuyer: await signIn(people.otherBuyer),
    otherAuthorizer: await signIn(people.otherAuthorizer),
  };
  const line = (p: typeof product) => ({
    productId: p.id,
    precio: p.precio,
    cantidad: 1,
    idCategoria: p.idCategoria,
  });
  const order = () =>
    makeOrder(db, { idUser: people.buyer.id, idCliente: client.id, lines: [line(product)] });
  const otherOrder = () =>
    makeOrder(db, { idUser: people.otherBuyer.id, idCliente: other.id, lines: [line(otherProduct)] });
  const approve = async (as: ApiClient, id: number) => {
    const res = await as.post('/api/update/compra', { id, orden: [{ id: product.id, cantidad: 1 }] });
    expect(res.statusCode, res.body).toBe(200);
  };
  return { client, other, product, people, api, order, otherOrder, approve, signIn };
}

describe.each(DB_KINDS)('live updates over server-sent events (%s)', (kind) => {
  let t: TestApp;
  let base: string;
  const open: EventStreamClient[] = [];
  const stream = async (api: ApiClient | null, lastEventId?: string) => {
    const s = await EventStreamClient.open(base, api, '/api/eventos', { lastEventId });
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    // The default heartbeat (25 s): a stream that ends within a test ended because of a change, at once.
    t = await createTestApp(kind, { env: { EVENTS_MAX_SECONDS: '60' } });
    base = await listening(t.app);
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await t?.close();
  });

  it('not signed in: 401 in Spanish, no stream; signed in: an event stream, uncompressed, uncached, with the security headers', async () => {
    const anonymous = await fetch(`${base}/api/eventos`, { headers: { accept: 'text/event-stream' } });
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ code: 'UNAUTHENTICATED', msg: MSG.sesionRequerida });
    const w = await world(t);
    const s = await EventStreamClient.open(base, w.api.buyer, '/api/eventos', {
      headers: { 'accept-encoding': 'br, gzip' },
    });
    open.push(s);
    expect(s.response.status).toBe(200);
    const h = s.response.headers;
    expect(h.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(h.get('cache-control')).toBe('no-store');
    expect(h.get('x-accel-buffering')).toBe('no');
    expect(h.get('content-encoding')).toBeNull();
    expect(h.get('content-security-policy')).toContain("default-src 'self'");
    expect(h.get('x-content-type-options')).toBe('nosniff');
    // The reconnection delay and the latest id come first.
    await waitUntil('the latest id', () => s.lastEventId !== undefined);
    expect(s.retryMs).toBe(RETRY_MS);
    expect(s.lastEventId).toMatch(/^[0-9a-f]{8}-\d+$/);
    // HEAD opens nothing.
    const head = await fetch(`${base}/api/eventos`, { method: 'HEAD' });
    expect(head.status).toBe(404);
  });

  it('an approval reaches the buyer’s stream and the other authorizer’s; another client’s people receive nothing', async () => {
    const w = await world(t);
    const order = await w.order();
    const buyer = await stream(w.api.buyer);
    const luis = await stream(w.api.luis);
    const ana = await stream(w.api.ana);
    const otherBuyer = await stream(w.api.otherBuyer);
    const otherAuthorizer = await stream(w.api.otherAuthorizer);

    await w.approve(w.api.ana, order.id);
    const seen = await buyer.waitFor(isOrder(order.id), 'the buyer’s pedido event');
    expect(JSON.parse(seen.data)).toEqual({ id: order.id });
    await luis.waitFor(isOrder(order.id), 'the other authorizer’s pedido event');
    await ana.waitFor(isOrder(order.id), 'the approver’s own pedido event');
    // The approval put an item in the buyer's bell: the count changed.
    await buyer.waitFor(isNotice, 'the buyer’s aviso event');
    expect(luis.events.some(isNotice)).toBe(false);
    // The event says what changed and nothing else: no status, no amount.
    expect(buyer.events.map((e) => e.event)).toEqual(expect.arrayContaining(['pedido', 'aviso']));
    for (const e of buyer.events)
      expect(Object.keys(JSON.parse(e.data))).toEqual(e.event === 'pedido' ? ['id'] : []);

    // Events come in order: once a later change of the other client has arrived, nothing of the first
    // client's order can still be on its way.
    const mark = await w.otherOrder();
    await otherBuyer.waitFor(isOrder(mark.id), 'the other client’s own order');
    await otherAuthorizer.waitFor(isOrder(mark.id), 'the other authorizer’s own client’s order');
    for (const s of [otherBuyer, otherAuthorizer]) {
      expect(s.events.filter(isOrder(order.id))).toEqual([]);
      expect(s.events.filter(isNotice)).toEqual([]);
    }
    expect(buyer.events.filter(isOrder(mark.id))).toEqual([]);
    expect(luis.events.filter(isOrder(mark.id))).toEqual([]);
  });

  it('a new notice reaches only its owner’s streams, and so does marking it read (every tab of theirs)', async () => {
    const w = await world(t);
    const firstTab = await stream(w.api.ana);
    const secondTab = await stream(w.api.ana);
    const luis = await stream(w.api.luis);
    // Every change announced before this point has reached the session cache.
    expect(await t.app.sessions.feed!.sync()).toBe(true);
    const epoch = t.app.sessions.cache.epoch;
    await t.database.db.insert(notifications).values({
      userId: w.people.ana.id,
      tipo: 'por_revisar',
      titulo: 'Pedido por revisar',
      texto: 'Prueba',
      ruta: '/autorizador/principal',
    });
    await firstTab.waitFor(isNotice, 'the notice on the first tab');
    await secondTab.waitFor(isNotice, 'the notice on the second tab');
    // The live updates' message did not flush (nor touch) the session cache.
    expect(t.app.sessions.cache.epoch).toBe(epoch);
    const marked = await w.api.ana.post('/api/notificaciones/leidas');
    expect(marked.json()).toMatchObject({ marcadas: 1, no_leidas: 0 });
    await waitUntil('a second aviso', () => firstTab.events.filter(isNotice).length === 2);
    // Marking read again changes nothing: no event.
    expect((await w.api.ana.post('/api/notificaciones/leidas')).json().marcadas).toBe(0);
    // A sync point: a notice for Luis arrives; by then anything for Ana would have too.
    await t.database.db.insert(notifications).values({
      userId: w.people.luis.id,
      tipo: 'por_revisar',
      titulo: 'Otro',
      texto: 'Prueba',
      ruta: '/autorizador/principal',
    });
    await luis.waitFor(isNotice, 'Luis’s own notice');
    expect(luis.events.filter(isNotice)).toHaveLength(1);
    expect(firstTab.events.filter(isNotice)).toHaveLength(2);
  });

  it('a top-up’s decision reaches the buyers whose figures it changes, and a transfer the buyers of both áreas', async () => {
    const w = await world(t);
    const db = t.database.db;
    const newArea = async (nombre: string, codigo: string, presupuesto: number) =>
      (
        await db
          .insert(areas)
          .values({ idCliente: w.client.id, nombre, codigo, presupuesto, idResponsable: w.people.ana.id })
          .returning()
      )[0]!;
    const mant = await newArea('Mantenimiento', 'MANT', 10_000);
    const alm = await newArea('Almacén', 'ALM', 50_000);
    await db.update(users).set({ idArea: mant.id }).where(eq(users.id, w.people.buyer.id));
    const colleague = await makeUser(db, { rol: 1, idCliente: w.client.id, idArea: mant.id });
    const outsider = await makeUser(db, { rol: 1, idCliente: w.client.id });
    const api = { colleague: await w.signIn(colleague), outsider: await w.signIn(outsider) };
    const streams = {
      buyer: await stream(w.api.buyer),
      colleague: await stream(api.colleague),
      outsider: await stream(api.outsider),
      ana: await stream(w.api.ana),
      otherBuyer: await stream(w.api.otherBuyer),
    };
    const budgetEvents = (s: EventStreamClient) => s.events.filter(isBudget);
    const ask = async (as: ApiClient, destino: 'area' | 'usuario') => {
      const res = await as.post('/api/ampliaciones', { destino, importe: 50, motivo: 'Cascos' });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().ampliacion.id as number;
    };
    /** A notice for each of `people`: once it reaches them, every earlier event has too (they come in order). */
    const mark = async (people: { id: number }[], on: EventStreamClient[]) => {
      await db.insert(notifications).values(
        people.map((p) => ({
          userId: p.id,
          tipo: 'presupuesto',
          titulo: 'Marca',
          texto: 'Prueba',
          ruta: '/usuario/principal',
        })),
      );
      for (const s of on) await s.waitFor(isNotice, 'the mark');
    };

    // The área's top-up, approved by its responsible approver: the buyer who asked and the área's other buyer.
    const areaTopup = await ask(w.api.buyer, 'area');
    expect((await w.api.ana.post(`/api/ampliaciones/${areaTopup}/aprobar`, {})).statusCode).toBe(200);
    const seen = await streams.buyer.waitFor(isBudget, 'the buyer’s presupuesto event');
    expect(JSON.parse(seen.data)).toEqual({});
    await streams.colleague.waitFor(isBudget, 'the área colleague’s presupuesto event');

    // Another buyer's own top-up, refused by the super authorizer: that buyer only (the answer changed).
    const ownTopup = await ask(api.outsider, 'usuario');
    expect((await w.api.luis.post(`/api/ampliaciones/${ownTopup}/rechazar`, {})).statusCode).toBe(200);
    await streams.outsider.waitFor(isBudget, 'the outsider’s presupuesto event');
    await mark(
      [w.people.buyer, colleague, w.people.ana, w.people.otherBuyer],
      [streams.buyer, streams.colleague, streams.ana, streams.otherBuyer],
    );
    expect(budgetEvents(streams.buyer)).toHaveLength(1);
    expect(budgetEvents(streams.colleague)).toHaveLength(1);
    // It never named the área's approval: only its own refusal reached it.
    expect(budgetEvents(streams.outsider)).toHaveLength(1);
    // Neither the approver nor another client's buyer hears of budgets that are not theirs.
    expect(budgetEvents(streams.ana)).toEqual([]);
    expect(budgetEvents(streams.otherBuyer)).toEqual([]);

    // A transfer between áreas: the buyers of both (here, Mantenimiento's two), no one else.
    const admin = await signedInAdmin(t.app, db);
    const moved = await admin.api.post('/api/areas/transferencias', { de: alm.id, a: mant.id, importe: 100 });
    expect(moved.statusCode, moved.body).toBe(200);
    await waitUntil('the transfer’s events', () =>
      [streams.buyer, streams.colleague].every((s) => budgetEvents(s).length === 2),
    );
    await mark([outsider], [streams.outsider]);
    expect(budgetEvents(streams.outsider)).toHaveLength(1);
  });

  it('Last-Event-ID: what was missed is sent again (only what the person may see); an unknown id gets recarga', async () => {
    const w = await world(t);
    const first = await stream(w.api.buyer);
    await waitUntil('the latest id', () => first.lastEventId !== undefined);
    const since = first.lastEventId!;
    first.close();
    await first.ended;
    const watcher = await stream(w.api.luis);
    const missed = await w.order();
    const notMine = await w.otherOrder();
    await w.approve(w.api.ana, missed.id);
    // A later notice for the watcher: once it arrives, the approval's events are all kept (they come in
    // order), so the reconnection below asks after them.
    await t.database.db.insert(notifications).values({
      userId: w.people.luis.id,
      tipo: 'por_revisar',
      titulo: 'Marca',
      texto: 'Prueba',
      ruta: '/autorizador/principal',
    });
    await watcher.waitFor(isNotice, 'the watcher’s notice');
    const again = await stream(w.api.buyer, since);
    await again.waitFor(isOrder(missed.id), 'the missed pedido event');
    await again.waitFor(isNotice, 'the missed aviso event');
    expect(again.events.filter(isOrder(notMine.id))).toEqual([]);
    expect(again.events.some((e) => e.event === 'recarga')).toBe(false);
    // The replay ends on the latest id, from which the next reconnection asks.
    await waitUntil('the latest id after the replay', () => again.lastEventId !== since);

    for (const unknown of ['00000000-1', 'otro-proceso-7', `${since.split('-')[0]}-999999999`]) {
      const lost = await stream(w.api.buyer, unknown);
      const reload = await lost.waitFor((e) => e.event === 'recarga', `recarga for ${unknown}`);
      expect(JSON.parse(reload.data)).toEqual({});
      expect(lost.events.filter((e) => e.event === 'pedido')).toEqual([]);
    }
  });

  it('a stream ends with its session: at sign-out (not the same person’s other session), and when the person is deactivated', async () => {
    const w = await world(t);
    const laptop = await stream(w.api.buyer);
    const phoneApi = await w.signIn(w.people.buyer);
    const phone = await stream(phoneApi);
    await waitUntil('both streams open', () => laptop.lastEventId !== undefined && !!phone.lastEventId);
    expect((await w.api.buyer.get('/api/logout')).statusCode).toBe(200);
    await laptop.waitForEnd('the signed-out session’s stream to end', 5_000);
    // Its last words tell the page not to reconnect to a refusal.
    expect(laptop.events.at(-1)?.event).toBe('fin');
    // The other session still receives: an order of theirs changes.
    const order = await w.order();
    await phone.waitFor(isOrder(order.id), 'the event on the session still signed in');
    expect(laptop.events.filter(isOrder(order.id))).toEqual([]);
    // A signed-out cookie opens nothing.
    expect((await stream(w.api.buyer)).response.status).toBe(401);

    await t.database.db.update(users).set({ activo: false }).where(eq(users.id, w.people.buyer.id));
    await phone.waitForEnd('the deactivated person’s stream to end', 5_000);
    expect(phone.events.at(-1)?.event).toBe('fin');
  });

  it(`one person keeps at most ${MAX_STREAMS_PER_USER} streams: the next one closes their oldest`, async () => {
    const w = await world(t);
    const streams: EventStreamClient[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_USER; i++) streams.push(await stream(w.api.ana));
    await waitUntil('every stream open', () => streams.every((s) => s.lastEventId !== undefined));
    const others = await stream(w.api.luis);
    const newest = await stream(w.api.ana);
    await streams[0]!.waitForEnd('the oldest stream to end', 5_000);
    // Told to wait a minute before it reconnects (and takes another tab's place).
    expect(streams[0]!.retryMs).toBe(CAPPED_RETRY_MS);
    const order = await w.order();
    for (const s of [...streams.slice(1), newest, others]) await s.waitFor(isOrder(order.id), 'the event');
    expect(streams.slice(1).some((s) => s.done)).toBe(false);
  });
});

describe.each(DB_KINDS)('a stream’s longest life (%s)', (kind) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { EVENTS_MAX_SECONDS: '0.5' } });
    base = await listening(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ends after EVENTS_MAX_SECONDS; reconnecting with its last id misses nothing', async () => {
    const w = await world(t);
    const started = performance.now();
    const first = await EventStreamClient.open(base, w.api.buyer);
    await first.waitForEnd('the stream to end by itself', 5_000);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    // Not a refusal: the browser reconnects.
    expect(first.events.filter((e) => e.event === 'fin')).toEqual([]);
    const order = await w.order();
    const next = await EventStreamClient.open(base, w.api.buyer, '/api/eventos', {
      lastEventId: first.lastEventId,
    });
    await next.waitFor(isOrder(order.id), 'the event of the gap');
    expect(next.events.some((e) => e.event === 'recarga')).toBe(false);
    await next.waitForEnd('the second stream to end too', 5_000);
  });
});

describe.each(DB_KINDS)('a stream and the session’s idle expiry (%s)', (kind) => {
  let t: TestApp;
  let base: string;
  const clock = manualClock(new Date());
  beforeAll(async () => {
    t = await createTestApp(kind, {
      clock,
      env: { EVENTS_HEARTBEAT_SECONDS: '0.1', EVENTS_MAX_SECONDS: '60', SESSION_IDLE_MINUTES: '30' },
    });
    base = await listening(t.app);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('an open stream neither slides the idle expiry nor outlives it; any other request slides it', async () => {
    const c = await makeClient(t.database.db);
    const user = await makeUser(t.database.db, { rol: 2, idCliente: c.id });
    const api = await new ApiClient(t.app, '10.116.200.1').loginOk(user.usuario, TEST_PASSWORD);
    /** The sliding expiry of the user's latest session. */
    const lastSeen = async () =>
      (
        await t.database.db
          .select({ at: sessions.lastSeenAt })
          .from(sessions)
          .where(eq(sessions.userId, user.id))
          .orderBy(desc(sessions.createdAt))
          .limit(1)
      )[0]!.at.getTime();
    const signedInAt = await lastSeen();

    // 20 minutes later the stream opens and runs its heartbeats' checks: nothing moves.
    clock.advance(20 * 60_000);
    const s = await EventStreamClient.open(base, api);
    expect(s.response.status).toBe(200);
    // Heartbeats are comments: no event.
    await waitUntil('a few heartbeats', () => s.comments >= 3);
    expect(s.events).toEqual([]);
    expect(await lastSeen()).toBe(signedInAt);

    // 31 minutes after the last use the session is idle: the next check ends the stream.
    clock.advance(11 * 60_000);
    await s.waitForEnd('the idle session’s stream to end', 5_000);
    expect(s.events.map((e) => e.event)).toEqual(['fin']);
    expect((await api.get('/api/sesion')).statusCode).toBe(401);

    // The control: an ordinary request of another session does slide it.
    const other = await new ApiClient(t.app, '10.116.200.2').loginOk(user.usuario, TEST_PASSWORD);
    const before = await lastSeen();
    clock.advance(5 * 60_000);
    expect((await other.get('/api/sesion')).statusCode).toBe(200);
    expect(await lastSeen()).toBe(before + 5 * 60_000);
  });
});

/** Two instances on one PostgreSQL database: a change made through A reaches a stream open on B. */
describe.each(DB_KINDS.filter((k) => k === 'postgres'))('live updates across instances (%s)', (kind) => {
  let t: TestApp;
  let second: Database;
  let appB: FastifyInstance;
  let baseB: string;
  const open: EventStreamClient[] = [];

  beforeAll(async () => {
    t = await createTestApp(kind, { env: { EVENTS_MAX_SECONDS: '60' } });
    second = await openDatabase({ databaseUrl: t.database.url!, poolSize: 5 });
    appB = await buildApp({ config: t.config, database: second, logger: false });
    await appB.ready();
    baseB = await listening(appB);
  });
  afterAll(async () => {
    for (const s of open) s.close();
    await appB?.close();
    await second?.close();
    await t?.close();
  });

  it('an approval through A reaches the buyer’s and the authorizer’s streams on B; a sign-out through A ends B’s stream', async () => {
    const w = await world(t);
    const order = await w.order();
    const buyerOnB = await EventStreamClient.open(baseB, w.api.buyer);
    const luisOnB = await EventStreamClient.open(baseB, w.api.luis);
    const otherOnB = await EventStreamClient.open(baseB, w.api.otherAuthorizer);
    open.push(buyerOnB, luisOnB, otherOnB);
    await waitUntil('the streams on B', () => [buyerOnB, luisOnB, otherOnB].every((s) => s.lastEventId));

    await w.approve(w.api.ana, order.id);
    await buyerOnB.waitFor(isOrder(order.id), 'the pedido event on B');
    await buyerOnB.waitFor(isNotice, 'the aviso event on B');
    await luisOnB.waitFor(isOrder(order.id), 'the authorizer’s pedido event on B');
    const status = await t.database.db
      .select({ s: orders.status })
      .from(orders)
      .where(eq(orders.id, order.id));
    expect(status[0]!.s).toBe('aprobado');

    const mark = await w.otherOrder();
    await otherOnB.waitFor(isOrder(mark.id), 'the other client’s own order on B');
    expect(otherOnB.events.filter(isOrder(order.id))).toEqual([]);

    expect((await w.api.buyer.get('/api/logout')).statusCode).toBe(200);
    await buyerOnB.waitForEnd('B’s stream of the signed-out session to end', 5_000);
  });
});
