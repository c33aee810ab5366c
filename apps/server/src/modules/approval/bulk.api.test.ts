import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, orderEvents, orders, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { startSmtp } from '../../test/smtp.ts';

interface Row {
  id: number;
  ok: boolean;
  estatus?: string;
  error?: string;
}

describe.each(DB_KINDS)('bulk approve and cancel, and the list triage (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;

  /** A client with two buyers (the second one on a $100 budget), rol 2 and rol 3 signed in. */
  async function world(opts: { levels?: number } = {}) {
    const tag = uniq('lote');
    const client = await makeClient(db(), { cantidadAutorizadores: opts.levels ?? 1, limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      presupuestoDefault: 100000,
      limiteDeCompras: -1,
      nombre: 'Beto Comprador',
      email: `${tag}-comprador@example.test`,
    });
    const small = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      presupuestoDefault: 10000,
      limiteDeCompras: -1,
      nombre: 'Sara Austera',
      email: `${tag}-austera@example.test`,
    });
    const auth2 = await makeUser(db(), {
      rol: 2,
      idCliente: client.id,
      email: `${tag}-autorizador@example.test`,
    });
    const auth3 = await makeUser(db(), { rol: 3, idCliente: client.id, email: `${tag}-super@example.test` });
    // $100 + IVA = $116 a unit.
    const a = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 10000 });
    await assign(db(), buyer.id, a.id, 10);
    await assign(db(), small.id, a.id, 10);
    const api = {
      buyer: await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD),
      r2: await new ApiClient(t.app).loginOk(auth2.usuario, TEST_PASSWORD),
      r3: await new ApiClient(t.app).loginOk(auth3.usuario, TEST_PASSWORD),
    };
    const order = (
      who: { id: number },
      cantidad = 1,
      status: 'pendiente' | 'espera' | 'aprobado' | 'cancelado' = 'pendiente',
      transactionDate?: Date,
    ) =>
      makeOrder(db(), {
        idUser: who.id,
        idCliente: client.id,
        status,
        transactionDate,
        lines: [{ productId: a.id, precio: a.precio, cantidad, idCategoria: category.id }],
      });
    return { tag, client, category, buyer, small, auth2, auth3, a, api, order };
  }

  const statusOf = async (ids: number[]) =>
    Object.fromEntries(
      (
        await db().select({ id: orders.id, s: orders.status }).from(orders).where(inArray(orders.id, ids))
      ).map((r) => [r.id, r.s]),
    );

  it('a mixed batch: each order on its own, one row per id in the order asked, nothing undone', async () => {
    const w = await world();
    const stranger = await world();
    const ok = await w.order(w.buyer);
    const ok2 = await w.order(w.buyer, 2);
    const done = await w.order(w.buyer, 1, 'aprobado');
    const over = await w.order(w.small);
    const theirs = await stranger.order(stranger.buyer);
    const ids = [ok.id, done.id, over.id, theirs.id, 2_000_000_000, ok2.id];
    const res = await w.api.r2.post('/api/pedidos/aprobar-lote', { ids });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().resultados).toEqual([
      { id: ok.id, ok: true, estatus: 'aprobado' },
      { id: done.id, ok: false, error: MSG.pedidoYaProcesado },
      { id: over.id, ok: false, error: MSG.presupuestoAutorizador },
      { id: theirs.id, ok: false, error: MSG.pedidoNoEncontrado },
      { id: 2_000_000_000, ok: false, error: MSG.pedidoNoEncontrado },
      { id: ok2.id, ok: true, estatus: 'aprobado' },
    ]);
    expect(await statusOf([ok.id, ok2.id, done.id, over.id, theirs.id])).toEqual({
      [ok.id]: 'aprobado',
      [ok2.id]: 'aprobado',
      [done.id]: 'aprobado',
      [over.id]: 'pendiente',
      [theirs.id]: 'pendiente',
    });
    // The single-order rules: one event and one log entry per approved order, none for the refused ones.
    const events = await db()
      .select()
      .from(orderEvents)
      .where(inArray(orderEvents.orderId, [ok.id, ok2.id, over.id, theirs.id]));
    expect(
      events.filter((e) => e.tipo === 'aprobado').map((e) => [e.orderId, e.actorId, e.toStatus]),
    ).toEqual(
      expect.arrayContaining([
        [ok.id, w.auth2.id, 'aprobado'],
        [ok2.id, w.auth2.id, 'aprobado'],
      ]),
    );
    expect(events.filter((e) => e.tipo === 'aprobado')).toHaveLength(2);
    const logs = await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'pedido_aprobado'));
    const logged = logs.map((l) => (l.metadata as { id_pedido?: number }).id_pedido);
    expect(logged.filter((id) => id === ok.id || id === ok2.id)).toHaveLength(2);
    expect(logged).not.toContain(over.id);
    // One e-mail per approved order, to its buyer, in the real SMTP sink.
    await t.app.mailer.flush();
    for (const id of [ok.id, ok2.id]) {
      const mail = await smtp.waitFor(
        (m) =>
          m.to.includes(`${w.tag}-comprador@`) &&
          m.subject === `Pedido #${String(id).padStart(5, '0')} aprobado`,
      );
      expect(mail.text).toContain(`/usuario/historial/${id}`);
    }
    const outbox = await db().select().from(emailOutbox);
    expect(outbox.filter((m) => m.to.includes(`${w.tag}-austera@`))).toHaveLength(0);
  });

  it('two levels: rol 2 in bulk → espera (rol 3 e-mailed), rol 3 in bulk → aprobado; one person never gives both', async () => {
    const w = await world({ levels: 2 });
    const o1 = await w.order(w.buyer);
    const o2 = await w.order(w.buyer);
    // rol 3 cannot act on pendiente orders: its row says so, as the single route's 409 does.
    const early = (await w.api.r3.post('/api/pedidos/aprobar-lote', { ids: [o1.id] })).json();
    expect(early.resultados).toEqual([{ id: o1.id, ok: false, error: MSG.pedidoYaProcesado }]);
    const first = (await w.api.r2.post('/api/pedidos/aprobar-lote', { ids: [o1.id, o2.id] })).json();
    expect(first.resultados).toEqual([
      { id: o1.id, ok: true, estatus: 'espera' },
      { id: o2.id, ok: true, estatus: 'espera' },
    ]);
    await t.app.mailer.flush();
    for (const id of [o1.id, o2.id])
      await smtp.waitFor(
        (m) =>
          m.to.includes(`${w.tag}-super@`) &&
          m.subject === `Pedido #${String(id).padStart(5, '0')} por revisar`,
      );
    // The level-1 approver promoted to rol 3 cannot give the second approval, in bulk or not.
    await db().update(users).set({ rol: 3 }).where(eq(users.id, w.auth2.id));
    const promoted = await new ApiClient(t.app).loginOk(w.auth2.usuario, TEST_PASSWORD);
    const twice = (await promoted.post('/api/pedidos/aprobar-lote', { ids: [o1.id] })).json();
    expect(twice.resultados).toEqual([{ id: o1.id, ok: false, error: MSG.segundaAutorizacionOtraPersona }]);
    const final = (await w.api.r3.post('/api/pedidos/aprobar-lote', { ids: [o1.id, o2.id] })).json();
    expect(final.resultados).toEqual([
      { id: o1.id, ok: true, estatus: 'aprobado' },
      { id: o2.id, ok: true, estatus: 'aprobado' },
    ]);
    // The buyer cannot act on its own order even as an authorizer.
    const own = await w.order(w.auth3, 1, 'espera');
    const mine = (await w.api.r3.post('/api/pedidos/cancelar-lote', { ids: [own.id] })).json();
    expect(mine.resultados).toEqual([{ id: own.id, ok: false, error: MSG.pedidoPropio }]);
  });

  it('bulk cancel: one reason for all, e-mailed to each buyer; over-budget orders can be cancelled', async () => {
    const w = await world();
    const o1 = await w.order(w.buyer);
    const over = await w.order(w.small);
    const done = await w.order(w.buyer, 1, 'cancelado');
    const res = await w.api.r2.post('/api/pedidos/cancelar-lote', {
      ids: [o1.id, over.id, done.id],
      motivo: '  Duplicado  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().resultados).toEqual([
      { id: o1.id, ok: true, estatus: 'cancelado' },
      { id: over.id, ok: true, estatus: 'cancelado' },
      { id: done.id, ok: false, error: MSG.pedidoYaProcesado },
    ]);
    const [row] = await db().select().from(orders).where(eq(orders.id, o1.id));
    expect(row).toMatchObject({ status: 'cancelado', cancelReason: 'Duplicado' });
    await t.app.mailer.flush();
    const mail = await smtp.waitFor(
      (m) => m.to.includes(`${w.tag}-austera@`) && m.subject.includes('cancelado'),
    );
    expect(mail.text).toContain('Motivo: Duplicado');
    await smtp.waitFor((m) => m.to.includes(`${w.tag}-comprador@`) && m.subject.includes('cancelado'));
    // Without a reason; rol 3 of a one-level client acts on nothing.
    const o2 = await w.order(w.buyer);
    const r3 = (await w.api.r3.post('/api/pedidos/cancelar-lote', { ids: [o2.id] })).json();
    expect(r3.resultados).toEqual([{ id: o2.id, ok: false, error: MSG.accionNoPermitida }]);
    const plain = (await w.api.r2.post('/api/pedidos/cancelar-lote', { ids: [o2.id] })).json();
    expect(plain.resultados).toEqual([{ id: o2.id, ok: true, estatus: 'cancelado' }]);
    const [again] = await db().select().from(orders).where(eq(orders.id, o2.id));
    expect(again!.cancelReason).toBeNull();
  });

  it('refusals: rol 1 and rol 4 → 403, no session → 401, empty, repeated or more than 50 ids → Spanish 400', async () => {
    const w = await world();
    const o = await w.order(w.buyer);
    expect((await w.api.buyer.post('/api/pedidos/aprobar-lote', { ids: [o.id] })).statusCode).toBe(403);
    expect((await w.api.buyer.post('/api/pedidos/cancelar-lote', { ids: [o.id] })).statusCode).toBe(403);
    const anon = new ApiClient(t.app);
    expect((await anon.post('/api/pedidos/aprobar-lote', { ids: [o.id] })).statusCode).toBe(401);
    const bad: [unknown, string][] = [
      [{ ids: [] }, MSG.loteVacio],
      [{}, MSG.loteVacio],
      [{ ids: [o.id, o.id] }, MSG.loteRepetido],
      [{ ids: Array.from({ length: 51 }, (_, i) => i + 1) }, MSG.loteLargo(50)],
    ];
    for (const [body, msg] of bad)
      for (const url of ['/api/pedidos/aprobar-lote', '/api/pedidos/cancelar-lote']) {
        const res = await w.api.r2.post(url, body);
        expect(res.statusCode, `${url} ${JSON.stringify(body).slice(0, 40)}`).toBe(400);
        expect(res.body).toContain(msg);
      }
    for (const ids of [['x'], [0], [-1], [1.5], 'todos'])
      expect((await w.api.r2.post('/api/pedidos/aprobar-lote', { ids })).statusCode).toBe(400);
    const long = await w.api.r2.post('/api/pedidos/cancelar-lote', { ids: [o.id], motivo: 'x'.repeat(256) });
    expect(long.statusCode).toBe(400);
    expect((await statusOf([o.id]))[o.id]).toBe('pendiente');
    // Exactly 50 is accepted.
    const fifty = Array.from({ length: 50 }, (_, i) => 2_000_000_000 + i);
    const res = await w.api.r2.post('/api/pedidos/aprobar-lote', { ids: fifty });
    expect(res.statusCode).toBe(200);
    expect(res.json().resultados).toHaveLength(50);
  });

  it('race: a bulk approval and a single approval of the same order → exactly one wins, the other gets 409', async () => {
    const w = await world();
    const other = await makeUser(db(), { rol: 2, idCliente: w.client.id });
    const second = await new ApiClient(t.app).loginOk(other.usuario, TEST_PASSWORD);
    for (let round = 0; round < 3; round++) {
      const o = await w.order(w.buyer);
      const [bulk, single] = await Promise.all([
        w.api.r2.post('/api/pedidos/aprobar-lote', { ids: [o.id] }),
        second.post('/api/update/compra', { id: o.id, orden: [{ id: w.a.id, cantidad: 1 }] }),
      ]);
      expect(bulk.statusCode, bulk.body).toBe(200);
      const row = bulk.json().resultados[0] as Row;
      expect([row.ok, single.statusCode === 200].filter(Boolean)).toHaveLength(1);
      if (row.ok) expect(single.json().msg).toBe(MSG.pedidoYaProcesado);
      else expect(row.error).toBe(MSG.pedidoYaProcesado);
      const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, o.id));
      expect(events.filter((e) => e.tipo === 'aprobado')).toHaveLength(1);
    }
    // Two bulk calls racing on overlapping orders: each order approved once.
    const batch = [await w.order(w.buyer), await w.order(w.buyer), await w.order(w.buyer)].map((o) => o.id);
    const [x, y] = await Promise.all([
      w.api.r2.post('/api/pedidos/aprobar-lote', { ids: batch }),
      second.post('/api/pedidos/aprobar-lote', { ids: [...batch].reverse() }),
    ]);
    const rows = [...x.json().resultados, ...y.json().resultados] as Row[];
    for (const id of batch) {
      const mine = rows.filter((r) => r.id === id);
      expect(mine.filter((r) => r.ok)).toHaveLength(1);
      expect(mine.find((r) => !r.ok)?.error).toBe(MSG.pedidoYaProcesado);
    }
  });

  it('triage: budget flags and remaining budget per row, the sum of the filter, sorts and a date range', async () => {
    const w = await world();
    const day = (d: string, h = 12) => new Date(`${d}T${String(h).padStart(2, '0')}:00:00-06:00`);
    // The buyer ($1,000): $116 + $232 in March; the small buyer ($100): $116 in March (over).
    const a = await w.order(w.buyer, 1, 'pendiente', day('2026-03-02'));
    const b = await w.order(w.buyer, 2, 'pendiente', day('2026-03-20'));
    const over = await w.order(w.small, 1, 'pendiente', day('2026-03-10'));
    // April: a fresh month for the buyer, an approved order and a cancelled one (which counts for nothing).
    const c = await w.order(w.buyer, 5, 'aprobado', day('2026-04-01', 0));
    const gone = await w.order(w.buyer, 9, 'cancelado', day('2026-04-02'));
    const list = async (query: string) => {
      const res = await w.api.r2.get(`/api/pedidos?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const all = await list('status=todos');
    const byId = Object.fromEntries(all.pedidos.map((p: { id: number }) => [p.id, p]));
    expect(byId[a.id]).toMatchObject({ excede_presupuesto: false, restante_despues: 1000 - 116 - 232 });
    expect(byId[b.id]).toMatchObject({ excede_presupuesto: false, restante_despues: 1000 - 116 - 232 });
    expect(byId[over.id]).toMatchObject({ excede_presupuesto: true, restante_despues: 100 - 116 });
    expect(byId[c.id]).toMatchObject({ excede_presupuesto: false, restante_despues: 1000 - 580 });
    expect(byId[gone.id]).toMatchObject({ excede_presupuesto: true, restante_despues: 1000 - 580 - 1044 });
    expect(all).toMatchObject({ total: 5, orden: 'fecha_desc', suma: 116 + 232 + 116 + 580 + 1044 });
    // The flags agree with the review screen's own figures.
    const view = (await w.api.r2.get(`/api/pedidos/${over.id}`)).json();
    expect(view.presupuesto.restante).toBe(byId[over.id].restante_despues);
    const ids = (r: { pedidos: { id: number }[] }) => r.pedidos.map((p) => p.id);
    expect(ids(all)).toEqual([gone.id, c.id, b.id, over.id, a.id]);
    expect(ids(await list('status=todos&orden=fecha_asc'))).toEqual([a.id, over.id, b.id, c.id, gone.id]);
    expect(ids(await list('status=todos&orden=total_desc'))).toEqual([gone.id, c.id, b.id, over.id, a.id]);
    expect(ids(await list('status=todos&orden=total_asc'))).toEqual([a.id, over.id, b.id, c.id, gone.id]);
    // Business dates, inclusive: 2026-04-01 00:00 in Mexico City is in April, not March.
    const march = await list('status=todos&desde=2026-03-01&hasta=2026-03-31');
    expect(ids(march)).toEqual([b.id, over.id, a.id]);
    expect(march).toMatchObject({ total: 3, suma: 116 + 232 + 116 });
    expect(ids(await list('status=todos&desde=2026-04-01'))).toEqual([gone.id, c.id]);
    expect(ids(await list('status=todos&hasta=2026-03-10&orden=total_desc'))).toEqual([over.id, a.id]);
    expect(ids(await list('status=todos&desde=2026-03-20&hasta=2026-03-20'))).toEqual([b.id]);
    // The actionable list (pendiente for rol 2), with a date range and a search together.
    const pend = await list('desde=2026-03-01&hasta=2026-03-31&q=Sara');
    expect(pend).toMatchObject({ total: 1, suma: 116 });
    const actionable = await list('');
    expect(actionable).toMatchObject({ total: 3, suma: 116 + 232 + 116 });
    // Refusals.
    for (const bad of [
      'desde=2026-03-31&hasta=2026-03-01',
      'desde=2026-02-30',
      'hasta=31/03/2026',
      'orden=precio',
    ]) {
      const res = await w.api.r2.get(`/api/pedidos?${bad}`);
      expect(res.statusCode, bad).toBe(400);
    }
    expect((await w.api.r2.get('/api/pedidos?desde=2026-03-31&hasta=2026-03-01')).body).toContain(
      MSG.rangoFechasInvalido,
    );
  });

  it('triage in category mode: a line whose category has no budget, or over its category budget, is flagged', async () => {
    const w = await world();
    const { clients, userCategoryBudgets } = await import('../../db/schema/index.ts');
    await db().update(clients).set({ modoPresupuesto: 'categoria' }).where(eq(clients.id, w.client.id));
    const other = await makeCategory(db(), w.client.id, 'Limpieza');
    await db()
      .insert(userCategoryBudgets)
      .values([
        { userId: w.buyer.id, categoryId: w.category.id, presupuesto: 30000 },
        { userId: w.buyer.id, categoryId: other.id, presupuesto: 0 },
      ]);
    const r2 = await new ApiClient(t.app).loginOk(w.auth2.usuario, TEST_PASSWORD);
    const fits = await w.order(w.buyer, 2);
    const overCat = await w.order(w.small, 1);
    const rows = (await r2.get('/api/pedidos')).json().pedidos as {
      id: number;
      excede_presupuesto: boolean;
      restante_despues: number;
    }[];
    expect(rows.find((r) => r.id === fits.id)).toMatchObject({
      excede_presupuesto: false,
      restante_despues: 300 - 232,
    });
    // The small buyer has no category budget at all.
    expect(rows.find((r) => r.id === overCat.id)).toMatchObject({ excede_presupuesto: true });
    const bulk = (await r2.post('/api/pedidos/aprobar-lote', { ids: [fits.id, overCat.id] })).json();
    expect(bulk.resultados).toEqual([
      { id: fits.id, ok: true, estatus: 'aprobado' },
      { id: overCat.id, ok: false, error: MSG.presupuestoAutorizador },
    ]);
  });
});
