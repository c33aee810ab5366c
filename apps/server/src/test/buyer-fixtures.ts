import { eq } from 'drizzle-orm';
import { cartItems, type clients, type products } from '../db/schema/index.ts';
import { monthsBack } from './calendar.ts';
import { makeCategory, makeClient, makeOrder, makeProduct, makeUser, TEST_PASSWORD } from './factories.ts';
import { ApiClient, type TestApp } from './harness.ts';

export interface BuyerOptions {
  /** Monthly budget in centavos (default 5,000.00). */
  presupuesto?: number;
  /** Purchase limit of the client and the user (default -1, none). */
  limite?: number;
  client?: Partial<typeof clients.$inferInsert>;
}

/**
 * A client, a rol-1 user of it signed in, and a category 'Papelería'; with helpers for a product of that
 * category (untaxed unless told) and an order of the buyer written directly.
 */
export async function makeBuyer(t: TestApp, opts: BuyerOptions = {}) {
  const db = t.database.db;
  const client = await makeClient(db, { limiteDeCompras: opts.limite ?? -1, ...opts.client });
  const user = await makeUser(db, {
    rol: 1,
    idCliente: client.id,
    presupuestoDefault: opts.presupuesto ?? 500000,
    limiteDeCompras: opts.limite ?? -1,
  });
  const category = await makeCategory(db, client.id, 'Papelería');
  const api = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
  const product = (precio: number, values: Partial<typeof products.$inferInsert> = {}) =>
    makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio, impuesto: false, ...values });
  /**
   * An order of this buyer with one line per [product, quantity]; placed two calendar months ago (so it does not
   * count against this month's budget and purchase limit) unless `thisMonth`.
   */
  const order = (
    lines: [typeof products.$inferSelect, number][],
    status: 'pendiente' | 'espera' | 'aprobado' | 'cancelado' = 'aprobado',
    thisMonth = false,
  ) =>
    makeOrder(db, {
      idUser: user.id,
      idCliente: client.id,
      status,
      transactionDate: thisMonth ? new Date() : monthsBack(2),
      lines: lines.map(([p, cantidad]) => ({
        productId: p.id,
        nombre: p.nombre,
        precio: p.precio,
        impuesto: p.impuesto,
        cantidad,
        idCategoria: p.idCategoria,
      })),
    });
  return { client, user, category, api, product, order };
}

/** A user's cart as {product id: quantity}, read from the database. */
export async function cartQuantities(t: TestApp, userId: number): Promise<Record<number, number>> {
  const rows = await t.database.db.select().from(cartItems).where(eq(cartItems.userId, userId));
  return Object.fromEntries(rows.map((c) => [c.productId, c.cantidad]));
}
