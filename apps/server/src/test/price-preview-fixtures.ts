import type { Db } from '../db/client.ts';
import { cartItems, savedListItems, savedLists } from '../db/schema/index.ts';
import { makeCategory, makeClient, makeOrder, makeProduct, makeUser } from './factories.ts';

/**
 * The world a price preview weighs (decision 0132), in a new client with a category 'Papelería': products
 * A-1 ($100, IVA), B-1 ($50, no IVA) and C-1 ($20, IVA); four buyers 'Comprador 1'…'4' — carts: u1 a×2 and
 * b×1, u2 b×3 and c×1, u3 c×4, u4 nothing; saved lists: u3's and u4's hold a, u1's holds c only; u4's
 * orders with a: one pendiente, one espera (both wait for approval), one aprobado.
 */
export async function pricePreviewWorld(db: Db) {
  const client = await makeClient(db, { limiteDeCompras: -1 });
  const category = await makeCategory(db, client.id, 'Papelería');
  const make = (claveInterna: string, precio: number, impuesto = true) =>
    makeProduct(db, { idCliente: client.id, idCategoria: category.id, claveInterna, precio, impuesto });
  const a = await make('A-1', 10000);
  const b = await make('B-1', 5000, false);
  const c = await make('C-1', 2000);
  const buyer = (i: number) => makeUser(db, { rol: 1, idCliente: client.id, nombre: `Comprador ${i}` });
  const u1 = await buyer(1);
  const u2 = await buyer(2);
  const u3 = await buyer(3);
  const u4 = await buyer(4);
  await db.insert(cartItems).values([
    { userId: u1.id, productId: a.id, cantidad: 2 },
    { userId: u1.id, productId: b.id, cantidad: 1 },
    { userId: u2.id, productId: b.id, cantidad: 3 },
    { userId: u2.id, productId: c.id, cantidad: 1 },
    { userId: u3.id, productId: c.id, cantidad: 4 },
  ]);
  for (const [user, productId] of [
    [u3, a.id],
    [u4, a.id],
    [u1, c.id],
  ] as const) {
    const [list] = await db
      .insert(savedLists)
      .values({ userId: user.id, nombre: `Lista ${user.id}`, nombreClave: `lista ${user.id}` })
      .returning();
    await db.insert(savedListItems).values({ listId: list!.id, productId, cantidad: 1, posicion: 0 });
  }
  for (const status of ['pendiente', 'espera', 'aprobado'] as const) {
    await makeOrder(db, {
      idUser: u4.id,
      idCliente: client.id,
      status,
      lines: [{ productId: a.id, precio: 10000, cantidad: 1, idCategoria: category.id }],
    });
  }
  /**
   * The preview of a at $120 and b at $40 (c unchanged): 2 products, the carts of u1 and u2, the lists of
   * u3 and u4, the 2 orders waiting. u1: before 2×100 + 16% = 232 + 50 = 282; after 2×120 × 1.16 = 278.40
   * + 40 = 318.40. u2: before 3×50 + 20×1.16 = 150 + 23.20 = 173.20; after 3×40 + 23.20 = 143.20.
   */
  const aAt120bAt40 = {
    productos: 2,
    carritos: 2,
    listas: 2,
    pedidos_pendientes: 2,
    compradores: [
      { id: u1.id, nombre: 'Comprador 1', usuario: u1.usuario, total_actual: 282, total_nuevo: 318.4 },
      { id: u2.id, nombre: 'Comprador 2', usuario: u2.usuario, total_actual: 173.2, total_nuevo: 143.2 },
    ],
    compradores_total: 2,
  };
  return { client, category, a, b, c, u1, u2, u3, u4, aAt120bAt40 };
}
