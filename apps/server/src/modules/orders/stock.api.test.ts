import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLines, orders, products } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
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
import { orderChanged } from './lifecycle.ts';

/** Stock reserved at approval, released by cancellation, consumed by shipment (decision 0124). */
describe.each(DB_KINDS)('stock reservations (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  async function world(opts: { permitir: boolean; existencia: number | null; buyers?: number }) {
    const client = await makeClient(db(), {
      cantidadAutorizadores: 1,
      limiteDeCompras: -1,
      permitirSobrePedido: opts.permitir,
    });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 1000,
      nombre: uniq('Tóner'),
      existencia: opts.existencia,
      diasEntrega: 7,
    });
    const buyers = [];
    for (let i = 0; i < (opts.buyers ?? 1); i++) {
      const buyer = await makeUser(db(), {
        rol: 1,
        idCliente: client.id,
        presupuestoDefault: 10_000_000,
        limiteDeCompras: -1,
      });
      await assign(db(), buyer.id, product.id, 100);
      buyers.push(buyer);
    }
    const auth2 = await makeUser(db(), { rol: 2, idCliente: client.id });
    const r2 = await new ApiClient(t.app).loginOk(auth2.usuario, TEST_PASSWORD);
    const order = (buyer: { id: number }, cantidad: number) =>
      makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        lines: [{ productId: product.id, precio: product.precio, cantidad, idCategoria: category.id }],
      });
    const approve = (id: number, cantidad: number) =>
      r2.post('/api/update/compra', { id, orden: [{ id: product.id, cantidad }] });
    const stock = async () => {
      const [p] = await db()
        .select({ existencia: products.existencia, reservado: products.reservado })
        .from(products)
        .where(eq(products.id, product.id));
      return p!;
    };
    return { client, category, product, buyers, auth2, r2, order, approve, stock };
  }

  it('50 concurrent approvals of the last 10 units with backorders forbidden reserve exactly 10', async () => {
    const w = await world({ permitir: false, existencia: 10, buyers: 5 });
    const made = [];
    for (let i = 0; i < 50; i++) made.push(await w.order(w.buyers[i % 5]!, 1));
    const results = await Promise.all(made.map((o) => w.approve(o.id, 1)));
    const ok = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode !== 200);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(40);
    for (const r of refused) {
      expect(r.statusCode, r.body).toBe(409);
      expect(r.json().msg).toBe(MSG.sinExistencia(w.product.nombre, 0, 1));
    }
    expect(await w.stock()).toEqual({ existencia: 10, reservado: 10 });
    const ids = made.map((o) => o.id);
    const statuses = await db().select({ s: orders.status }).from(orders).where(inArray(orders.id, ids));
    expect(statuses.filter((s) => s.s === 'aprobado')).toHaveLength(10);
    expect(statuses.filter((s) => s.s === 'pendiente')).toHaveLength(40);
    const lines = await db()
      .select({ reservado: orderLines.reservado, sobre: orderLines.sobrePedido })
      .from(orderLines)
      .where(inArray(orderLines.orderId, ids));
    expect(lines.reduce((n, l) => n + l.reservado, 0)).toBe(10);
    expect(lines.every((l) => l.sobre === 0)).toBe(true);
  });

  it('names the product and what is left when the approval wants more than is available', async () => {
    const w = await world({ permitir: false, existencia: 3 });
    const o = await w.order(w.buyers[0]!, 5);
    const res = await w.approve(o.id, 5);
    expect(res.statusCode).toBe(409);
    expect(res.json().msg).toBe(
      `No hay existencia suficiente de «${w.product.nombre}»: quedan 3 unidades disponibles y el pedido pide 5. Este cliente no acepta productos sobre pedido.`,
    );
    expect(await w.stock()).toEqual({ existencia: 3, reservado: 0 });
    // The approver may edit the line down to what is available.
    expect((await w.approve(o.id, 3)).statusCode).toBe(200);
    expect(await w.stock()).toEqual({ existencia: 3, reservado: 3 });
  });

  it('with backorders allowed approves beyond the stock and marks the line "sobre pedido"', async () => {
    const w = await world({ permitir: true, existencia: 2 });
    const o = await w.order(w.buyers[0]!, 5);
    expect((await w.approve(o.id, 5)).statusCode).toBe(200);
    expect(await w.stock()).toEqual({ existencia: 2, reservado: 5 });
    const [line] = await db().select().from(orderLines).where(eq(orderLines.orderId, o.id));
    expect([line!.reservado, line!.sobrePedido]).toEqual([5, 3]);
    // Unknown stock is never refused and never "sobre pedido".
    const unknown = await world({ permitir: false, existencia: null });
    const u = await unknown.order(unknown.buyers[0]!, 4);
    expect((await unknown.approve(u.id, 4)).statusCode).toBe(200);
    expect(await unknown.stock()).toEqual({ existencia: null, reservado: 4 });
  });

  it('a level-1 approval that sends the order on to level 2 reserves nothing yet', async () => {
    const w = await world({ permitir: false, existencia: 1 });
    await db().update(products).set({ existencia: 1 }).where(eq(products.id, w.product.id));
    const { clients } = await import('../../db/schema/index.ts');
    await db().update(clients).set({ cantidadAutorizadores: 2 }).where(eq(clients.id, w.client.id));
    const o = await w.order(w.buyers[0]!, 5);
    const res = await w.approve(o.id, 5);
    expect(res.statusCode, res.body).toBe(200);
    expect(await w.stock()).toEqual({ existencia: 1, reservado: 0 });
  });

  it('a cancellation of an approved order releases its reservation; a shipment consumes it', async () => {
    const w = await world({ permitir: false, existencia: 10 });
    const a = await w.order(w.buyers[0]!, 4);
    const b = await w.order(w.buyers[0]!, 6);
    expect((await w.approve(a.id, 4)).statusCode).toBe(200);
    expect((await w.approve(b.id, 6)).statusCode).toBe(200);
    expect(await w.stock()).toEqual({ existencia: 10, reservado: 10 });
    // No route cancels an approved order today: the seam does it as any later writer will.
    const [row] = await db().select().from(orders).where(eq(orders.id, a.id));
    await db().transaction((tx) =>
      orderChanged(
        tx,
        {
          publicUrl: 'http://localhost',
          tz: 'America/Mexico_City',
          clock: t.app.deps.clock,
          jobs: t.app.deps.jobs,
        },
        {
          kind: 'cancelado',
          tipo: 'cancelado',
          order: row!,
          from: 'aprobado',
          reason: 'Sin existencia',
          actorId: w.auth2.id,
          onBehalfOfId: null,
          log: { eventType: 'pedido_cancelado', description: 'Pedido cancelado', metadata: {} },
        },
      ),
    );
    expect(await w.stock()).toEqual({ existencia: 10, reservado: 6 });
    const [line] = await db().select().from(orderLines).where(eq(orderLines.orderId, a.id));
    expect(line!.reservado).toBe(0);
    // Released, the units can be approved again.
    const c = await w.order(w.buyers[0]!, 4);
    expect((await w.approve(c.id, 4)).statusCode).toBe(200);
    expect(await w.stock()).toEqual({ existencia: 10, reservado: 10 });
    // Shipping b takes its 6 units off the stock and the reservation.
    const { api: operator } = await signedInAdmin(t.app, db());
    for (const estado of ['en_surtido', 'enviado'])
      expect((await operator.post(`/api/surtido/${b.id}/estado`, { estado })).statusCode).toBe(200);
    expect(await w.stock()).toEqual({ existencia: 4, reservado: 4 });
  });

  it('the catalogue says the availability and the cart which lines ship later', async () => {
    const { businessDate, addDays } = await import('@portal/shared/domain/time');
    const w = await world({ permitir: true, existencia: 20 });
    const { clients } = await import('../../db/schema/index.ts');
    await db().update(clients).set({ umbralExistencia: 5 }).where(eq(clients.id, w.client.id));
    const buyer = w.buyers[0]!;
    const few = await makeProduct(db(), {
      idCliente: w.client.id,
      idCategoria: w.category.id,
      precio: 500,
      nombre: 'B pocas',
      existencia: 8,
      reservado: 5,
    });
    const none = await makeProduct(db(), {
      idCliente: w.client.id,
      idCategoria: w.category.id,
      precio: 500,
      nombre: 'C sobre pedido',
      existencia: 2,
      reservado: 2,
      diasEntrega: 10,
    });
    const unknown = await makeProduct(db(), {
      idCliente: w.client.id,
      idCategoria: w.category.id,
      precio: 500,
      nombre: 'D desconocida',
    });
    for (const p of [few, none, unknown]) await assign(db(), buyer.id, p.id, 50);
    const api = await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD);
    const res = await api.get('/api/catalogo?per_page=10');
    expect(res.statusCode, res.body).toBe(200);
    const today = businessDate(t.app.deps.clock.now(), t.app.deps.config.BUSINESS_TZ);
    const byId = new Map(
      (res.json().productos as { id: number; disponibilidad: unknown }[]).map((p) => [
        p.id,
        p.disponibilidad,
      ]),
    );
    expect(byId.get(w.product.id)).toEqual({ estado: 'en_existencia' });
    expect(byId.get(few.id)).toEqual({ estado: 'pocas', quedan: 3 });
    expect(byId.get(none.id)).toEqual({ estado: 'sobre_pedido', entrega_estimada: addDays(today, 10) });
    expect(byId.get(unknown.id)).toBeNull();

    const add = (id: number, cantidad: number) =>
      api.post('/api/carrito/nuevo_item', { item: { id, cantidad } });
    await add(w.product.id, 2);
    await add(few.id, 5);
    await add(none.id, 1);
    const cart = await add(unknown.id, 4);
    expect(cart.statusCode, cart.body).toBe(200);
    const later = new Map(
      (cart.json().carrito as { id: number; envio_posterior: unknown }[]).map((l) => [
        l.id,
        l.envio_posterior,
      ]),
    );
    expect(later.get(w.product.id)).toBeNull();
    expect(later.get(few.id)).toEqual({ cantidad: 2, entrega_estimada: null });
    expect(later.get(none.id)).toEqual({ cantidad: 1, entrega_estimada: addDays(today, 10) });
    expect(later.get(unknown.id)).toBeNull();
  });

  it('a purchase approved by the automatic rule reserves too, and is refused beyond the stock without backorders', async () => {
    const { businessDate } = await import('@portal/shared/domain/time');
    const { clients } = await import('../../db/schema/index.ts');
    const w = await world({ permitir: false, existencia: 3 });
    await db()
      .update(clients)
      .set({ aprobacionAutomaticaHasta: 100_000_000 })
      .where(eq(clients.id, w.client.id));
    const api = await new ApiClient(t.app).loginOk(w.buyers[0]!.usuario, TEST_PASSWORD);
    const buy = async (cantidad: number) => {
      expect(
        (await api.post('/api/carrito/nuevo_item', { item: { id: w.product.id, cantidad } })).statusCode,
      ).toBe(200);
      return api.post('/api/compra', {
        orden: [{ id: w.product.id, cantidad }],
        fecha: businessDate(t.app.deps.clock.now(), t.app.deps.config.BUSINESS_TZ),
      });
    };
    const ok = await buy(2);
    expect(ok.statusCode, ok.body).toBe(201);
    expect(ok.json().pedido.status).toBe('aprobado');
    expect(await w.stock()).toEqual({ existencia: 3, reservado: 2 });
    const refused = await buy(2);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(MSG.sinExistencia(w.product.nombre, 1, 2));
    expect(await w.stock()).toEqual({ existencia: 3, reservado: 2 });
  });
});
