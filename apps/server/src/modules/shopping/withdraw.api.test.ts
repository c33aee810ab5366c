import { addDays, businessDate } from '@portal/shared/domain/time';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders, systemLogs } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { type BuyerOptions, makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeUser, makeWeek, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('withdraw an order: POST /api/historial/{id}/retirar (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;
  const withdraw = (api: ApiClient, id: number) => api.post(`/api/historial/${id}/retirar`);
  const statusOf = async (id: number) =>
    (await db().select({ s: orders.status }).from(orders).where(eq(orders.id, id)))[0]!.s;

  /** A buyer with a product and a pending order of this month, and an authorizer of the same client. */
  async function pending(opts?: BuyerOptions) {
    const b = await makeBuyer(t, opts);
    const p = await b.product(10000, { nombre: 'Silla' });
    await assign(db(), b.user.id, p.id, 5);
    const order = await b.order([[p, 2]], 'pendiente', true);
    const reviewer = await makeUser(db(), { rol: 2, idCliente: b.client.id });
    const authorizer = await new ApiClient(t.app, '10.0.0.9').loginOk(reviewer.usuario, TEST_PASSWORD);
    return { ...b, p, pedido: order, authorizer };
  }

  it('a pending order becomes cancelado with the reason, an event and a log entry; it stops counting at once', async () => {
    const { user, api, p, pedido } = await pending({ presupuesto: 30000, limite: 1 });
    // The purchase limit (1) is reached and 200.00 of 300.00 are used.
    const before = await api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } });
    expect(before.json()).toMatchObject({ code: 'PURCHASE_LIMIT' });

    const res = await withdraw(api, pedido.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.msg).toBe(MSG.pedidoRetirado);
    expect(body.pedido).toMatchObject({
      id: pedido.id,
      status: 'cancelado',
      motivo_cancelacion: 'Retirado por el comprador',
    });
    expect(body.pedido.eventos.at(-1)).toMatchObject({
      tipo: 'retirado',
      de: 'pendiente',
      a: 'cancelado',
      motivo: 'Retirado por el comprador',
      actor: user.nombre,
    });
    expect(body.presupuesto).toMatchObject({ presupuesto_utilizado: 0, cantidad_de_compras: 0 });
    const [log] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.userId, user.id), eq(systemLogs.eventType, 'pedido_retirado')));
    expect(log).toMatchObject({
      description: `Pedido #${String(pedido.id).padStart(5, '0')} retirado por el comprador`,
    });
    expect(log!.metadata).toMatchObject({ id_pedido: pedido.id });
    // At once: the cart accepts again.
    const after = await api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } });
    expect(after.statusCode).toBe(200);
    // The buyer's detail shows it as any cancelled order.
    const detail = (await api.get(`/api/historial/${pedido.id}`)).json().pedido;
    expect(detail).toMatchObject({ status: 'cancelado', motivo_cancelacion: MSG.motivoRetiro });
  });

  it('only the own pendiente order: other statuses 409 with the existing message, another user’s 404 like a missing one', async () => {
    const { api, p, order } = await pending();
    for (const status of ['espera', 'aprobado', 'cancelado'] as const) {
      const placed = await order([[p, 1]], status, true);
      const res = await withdraw(api, placed.id);
      expect(res.statusCode, status).toBe(409);
      expect(res.json()).toMatchObject({ code: 'ORDER_ALREADY_PROCESSED', msg: MSG.pedidoYaProcesado });
      expect(await statusOf(placed.id)).toBe(status);
    }
    const mine = await order([[p, 1]], 'pendiente', true);
    const other = await pending();
    const foreign = await withdraw(other.api, mine.id);
    const missing = await withdraw(other.api, 2147483647);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect(await statusOf(mine.id)).toBe('pendiente');
    expect((await withdraw(api, 'x' as never)).statusCode).toBe(400);
    expect(
      (await api.request('POST', `/api/historial/${mine.id}/retirar`, undefined, { xsrf: null })).statusCode,
    ).toBe(419);
    // Authorizers cannot use it, even on their client's orders.
    expect((await other.authorizer.post(`/api/historial/${other.pedido.id}/retirar`)).statusCode).toBe(403);
    const today = businessDate(new Date());
    await makeWeek(db(), { idCliente: other.client.id, inicio: addDays(today, 5), fin: addDays(today, 9) });
    const outside = await withdraw(other.api, other.pedido.id);
    expect(outside.json()).toMatchObject({ code: 'OUTSIDE_WEEK' });
    expect(await statusOf(other.pedido.id)).toBe('pendiente');
  });

  it('after a withdrawal the authorizers get 409 with nothing changed', async () => {
    const { api, pedido, p, authorizer } = await pending();
    expect((await withdraw(api, pedido.id)).statusCode).toBe(200);
    const approve = await authorizer.post('/api/update/compra', {
      id: pedido.id,
      orden: [{ id: p.id, cantidad: 2 }],
    });
    expect(approve.statusCode).toBe(409);
    expect(approve.json().msg).toBe(MSG.pedidoYaProcesado);
    const cancel = await authorizer.post(`/api/cancelar/compra/${pedido.id}`, { motivo: 'x' });
    expect(cancel.statusCode).toBe(409);
    expect(await statusOf(pedido.id)).toBe('cancelado');
  });

  it('concurrency: withdraw and approve at once — exactly one wins, the other gets 409', async () => {
    for (let round = 0; round < 4; round++) {
      const { api, pedido, p, authorizer } = await pending();
      const calls = [
        withdraw(api, pedido.id),
        authorizer.post('/api/update/compra', { id: pedido.id, orden: [{ id: p.id, cantidad: 2 }] }),
      ];
      const [w, a] = await Promise.all(round % 2 ? calls.reverse() : calls).then((r) =>
        round % 2 ? r.reverse() : r,
      );
      const codes = [w!.statusCode, a!.statusCode].sort();
      expect(codes, `${w!.body} / ${a!.body}`).toEqual([200, 409]);
      const loser = w!.statusCode === 409 ? w! : a!;
      expect(loser.json().msg).toBe(MSG.pedidoYaProcesado);
      expect(await statusOf(pedido.id)).toBe(w!.statusCode === 200 ? 'cancelado' : 'espera');
      const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, pedido.id));
      expect(events.filter((e) => e.tipo === 'retirado' || e.tipo === 'aprobado')).toHaveLength(1);
    }
  });
});
