/**
 * Decision 0073: a cart change and a purchase answer from the snapshot read under the buyer's lock, not
 * from a read after the write. Their answers must be exactly what a fresh read gives (GET /api/carrito),
 * in both budget modes, with taxed prices whose IVA rounds per order and category.
 */
import { businessDate } from '@portal/shared/domain/time';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userCategoryBudgets } from '../../db/schema/index.ts';
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
    });
  }
});
