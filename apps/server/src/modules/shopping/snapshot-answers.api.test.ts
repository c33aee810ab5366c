/**
 * Decision 0073: a cart change and a purchase answer from the snapshot read under the buyer's lock, not
 * from a read after the write. Their answers must be exactly what a fresh read gives (GET /api/carrito),
 * in both budget modes, with taxed prices whose IVA rounds per order and category.
 */
import { businessDate } from '@portal/shared/domain/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderComments, userCategoryBudgets } from '../../db/schema/index.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeCategory } from '../../test/factories.ts';
import { createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('answers from the locked snapshot (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  for (const modo of ['regular', 'categoria'] as const) {
    it(`${modo}: each cart change and the purchase answer what a fresh read shows`, async () => {
      const b = await makeBuyer(t, {
        presupuesto: 200_000,
        limite: 5,
        client: { modoPresupuesto: modo, cantidadAutorizadores: 1 },
      });
      const otra = await makeCategory(db(), b.client.id, 'Limpieza');
      const a = await b.product(1_999, { impuesto: true });
      const c = await b.product(3_333, { impuesto: true });
      const d = await b.product(777, { impuesto: true, idCategoria: otra.id });
      for (const p of [a, c, d]) await assign(db(), b.user.id, p.id, 9);
      if (modo === 'categoria')
        await db()
          .insert(userCategoryBudgets)
          .values([
            { userId: b.user.id, categoryId: b.category.id, presupuesto: 100_000 },
            { userId: b.user.id, categoryId: otra.id, presupuesto: 50_000 },
          ]);
      // An earlier purchase, so the month already holds an order.
      await b.api.post('/api/carrito/nuevo_item', { item: { id: d.id, cantidad: 2 } });
      const first = await b.api.post('/api/compra', {
        orden: [{ id: d.id, cantidad: 2 }],
        fecha: businessDate(new Date()),
      });
      expect(first.statusCode, first.body).toBe(201);

      const fresh = async () => {
        const { categorias, presupuesto, carrito, totales } = (await b.api.get('/api/carrito')).json();
        return { categorias, presupuesto, carrito, totales };
      };
      // Add, add, change a quantity (the line keeps its place), remove by quantity 0.
      for (const [id, cantidad] of [
        [a.id, 3],
        [d.id, 1],
        [a.id, 5],
        [c.id, 2],
        [d.id, 0],
      ] as const) {
        const res = await b.api.post('/api/carrito/nuevo_item', { item: { id, cantidad } });
        expect(res.statusCode, res.body).toBe(200);
        const { categorias, presupuesto, carrito, totales } = res.json();
        expect({ categorias, presupuesto, carrito, totales }).toEqual(await fresh());
      }
      const bought = await b.api.post('/api/compra', {
        orden: [
          { id: a.id, cantidad: 5 },
          { id: c.id, cantidad: 2 },
        ],
        fecha: businessDate(new Date()),
      });
      expect(bought.statusCode, bought.body).toBe(201);
      const after = await fresh();
      expect(after.presupuesto.cantidad_de_compras).toBe(2);
      expect(after.carrito).toEqual([]);
      expect({ presupuesto: bought.json().presupuesto, categorias: bought.json().categorias }).toEqual({
        presupuesto: after.presupuesto,
        categorias: after.categorias,
      });
      // The history's first page too (read under the lock with the new order put in its place).
      expect(bought.json().transacciones).toEqual((await b.api.get('/api/historial')).json());
      expect(bought.json().transacciones.total).toBe(2);
    });
  }

  it('the purchase answers with the first history page a fresh read shows: a full page, a comment, approved at once', async () => {
    const b = await makeBuyer(t, { presupuesto: 10_000_000, client: { cantidadAutorizadores: 0 } });
    const p = await b.product(1_250, { impuesto: true });
    await assign(db(), b.user.id, p.id, 9);
    // Eleven earlier orders (a page and one more), of every status, one with a comment.
    const statuses = ['aprobado', 'pendiente', 'espera', 'cancelado'] as const;
    const earlier = [];
    for (let i = 0; i < 11; i++) earlier.push(await b.order([[p, i + 1]], statuses[i % 4]));
    const commented = earlier.at(-1)!;
    await db().insert(orderComments).values({ orderId: commented.id, authorId: b.user.id, texto: 'Urgente' });
    const before = (await b.api.get('/api/historial')).json();
    expect(before.total).toBe(11);
    expect(before.pedidos.find((o: { id: number }) => o.id === commented.id)?.comentarios).toBe(1);

    await b.api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 2 } });
    const bought = await b.api.post('/api/compra', {
      orden: [{ id: p.id, cantidad: 2 }],
      fecha: businessDate(new Date()),
    });
    expect(bought.statusCode, bought.body).toBe(201);
    const answer = bought.json().transacciones;
    expect(answer).toEqual((await b.api.get('/api/historial')).json());
    // The new order first (approved at purchase, so its fulfilment started); the oldest left page 1.
    expect(answer.total).toBe(12);
    expect(answer.pedidos).toHaveLength(10);
    expect(answer.pedidos[0]).toMatchObject({
      id: bought.json().pedido.id,
      status: 'aprobado',
      productos: 1,
    });
    expect(answer.pedidos[0].surtido).not.toBeNull();
    expect(answer.pedidos.slice(1)).toEqual(before.pedidos.slice(0, 9));
  });
});
