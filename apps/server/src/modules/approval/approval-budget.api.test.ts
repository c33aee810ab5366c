/**
 * Decision 0090: an approval checks the budget against the buyer's running month (user_month_spend) less
 * the order's own contribution. Its verdict must be the one a recount of the buyer's other orders of the
 * month gives (`approvalBudget`, what the review screen shows), in both budget modes, with taxed prices
 * whose IVA rounds per order and category, a cancelled order in the month, and edits that lower a line.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLines, orders, userCategoryBudgets, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeCategory, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { generator } from '../../test/random.ts';
import { approvalBudget } from './approval-budget.ts';

describe.each(DB_KINDS)('the approval’s budget against a recount (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  for (const modo of ['regular', 'categoria'] as const) {
    it(`${modo}: an approval is refused for the budget exactly when a recount says it is over`, async () => {
      const outcomes = { approved: 0, refused: 0 };
      for (let seed = 1; seed <= 4; seed++) {
        const rnd = generator(seed * 7 + (modo === 'categoria' ? 100 : 0));
        const b = await makeBuyer(t, {
          presupuesto: 900_000,
          client: { modoPresupuesto: modo, cantidadAutorizadores: 1 },
        });
        const otra = await makeCategory(db(), b.client.id, 'Limpieza');
        const products = [
          await b.product(1_999, { impuesto: true }),
          await b.product(3_333, { impuesto: true }),
          await b.product(10_001),
          await b.product(777, { impuesto: true, idCategoria: otra.id }),
          await b.product(2_501, { idCategoria: otra.id }),
        ];
        for (const p of products) await assign(db(), b.user.id, p.id, 9);
        if (modo === 'categoria')
          await db()
            .insert(userCategoryBudgets)
            .values([
              { userId: b.user.id, categoryId: b.category.id, presupuesto: 900_000 },
              { userId: b.user.id, categoryId: otra.id, presupuesto: 900_000 },
            ]);
        const reviewer = await makeUser(db(), { rol: 2, idCliente: b.client.id });
        const r2 = await new ApiClient(t.app, '10.0.4.1').loginOk(reviewer.usuario, TEST_PASSWORD);

        // Six purchases of one to five lines each.
        for (let i = 0; i < 6; i++) {
          const chosen = products.filter(() => rnd.next() < 0.5);
          const orden = (chosen.length ? chosen : [rnd.pick(products)]).map((p) => ({
            id: p.id,
            cantidad: 1 + rnd.int(4),
          }));
          for (const item of orden)
            expect((await b.api.post('/api/carrito/nuevo_item', { item })).statusCode).toBe(200);
          const bought = await b.api.post('/api/compra', { orden });
          expect(bought.statusCode, bought.body).toBe(201);
        }
        const mine = await db().select().from(orders).where(eq(orders.idUser, b.user.id));
        expect(mine).toHaveLength(6);
        // One cancelled order stays in the table but not in the month.
        const cancelled = rnd.pick(mine);
        expect((await r2.post(`/api/cancelar/compra/${cancelled.id}`, {})).statusCode).toBe(200);
        const month = mine.filter((o) => o.id !== cancelled.id).reduce((n, o) => n + o.total, 0);
        // Budgets lowered to somewhere between three quarters of the month and a bit more than all of it.
        if (modo === 'regular')
          await db()
            .update(users)
            .set({ presupuestoDefault: Math.round(month * (0.75 + rnd.next() * 0.35)) })
            .where(eq(users.id, b.user.id));
        else
          for (const c of [b.category.id, otra.id]) {
            // About what the month spends in the category (IVA included).
            const spent = (await db().select().from(orderLines))
              .filter((l) => l.idCategoria === c && l.orderId !== cancelled.id)
              .filter((l) => mine.some((o) => o.id === l.orderId))
              .reduce((n, l) => n + l.precio * l.cantidad * (l.impuesto ? 1.16 : 1), 0);
            await db()
              .update(userCategoryBudgets)
              .set({ presupuesto: Math.round(spent * (0.75 + rnd.next() * 0.35)) })
              .where(eq(userCategoryBudgets.categoryId, c));
          }

        for (const order of mine.filter((o) => o.id !== cancelled.id)) {
          const lines = await db().select().from(orderLines).where(eq(orderLines.orderId, order.id));
          // Most of the time one line is lowered (an edit), which moves the month for the next approvals.
          const edited = lines.map((l) => ({ ...l }));
          const line = rnd.pick(edited);
          if (rnd.next() < 0.7 && line.cantidad > 1) line.cantidad -= 1 + rnd.int(line.cantidad - 1);
          const [buyer] = await db().select().from(users).where(eq(users.id, b.user.id));
          const [fresh] = await db().select().from(orders).where(eq(orders.id, order.id));
          const recount = await approvalBudget(db(), t.app.config.BUSINESS_TZ, fresh!, buyer!, modo, edited);
          const res = await r2.post('/api/update/compra', {
            id: order.id,
            orden: edited.map((l) => ({ id: l.productId, cantidad: l.cantidad })),
          });
          if (recount.over) {
            expect({ seed, order: order.id, status: res.statusCode, msg: res.json().msg }).toEqual({
              seed,
              order: order.id,
              status: 422,
              msg: MSG.presupuestoAutorizador,
            });
            outcomes.refused++;
          } else {
            expect({ seed, order: order.id, status: res.statusCode }, res.body).toEqual({
              seed,
              order: order.id,
              status: 200,
            });
            outcomes.approved++;
          }
        }
      }
      // Both verdicts were exercised.
      expect(outcomes.approved).toBeGreaterThan(0);
      expect(outcomes.refused).toBeGreaterThan(0);
    });
  }
});
