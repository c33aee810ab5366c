import { and, asc, count, desc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { categories, products, savedListItems, savedLists, userProducts } from '../../db/schema/index.ts';

/** The buyer's lists, most recently changed first, with their item counts. */
export function listsOf(db: Db, userId: number) {
  return db
    .select({
      id: savedLists.id,
      nombre: savedLists.nombre,
      updatedAt: savedLists.updatedAt,
      productos: count(savedListItems.productId),
    })
    .from(savedLists)
    .leftJoin(savedListItems, eq(savedListItems.listId, savedLists.id))
    .where(eq(savedLists.userId, userId))
    .groupBy(savedLists.id)
    .orderBy(desc(savedLists.updatedAt), desc(savedLists.id));
}

export async function countLists(db: Db | Tx, userId: number): Promise<number> {
  const [row] = await db.select({ n: count() }).from(savedLists).where(eq(savedLists.userId, userId));
  return row?.n ?? 0;
}

/** One list of its owner; another user's list is not found, exactly like a missing one. */
export async function ownList(db: Db | Tx, userId: number, id: number) {
  const [row] = await db
    .select()
    .from(savedLists)
    .where(and(eq(savedLists.id, id), eq(savedLists.userId, userId)))
    .limit(1);
  return row;
}

/** A list's items in order, with their products' current data and the buyer's assignment. */
export function listItems(db: Db | Tx, userId: number, listId: number) {
  return db
    .select({
      id: savedListItems.productId,
      cantidad: savedListItems.cantidad,
      nombre: products.nombre,
      claveInterna: products.claveInterna,
      claveCliente: products.claveCliente,
      unidadDeMedida: products.unidadDeMedida,
      precio: products.precio,
      impuesto: products.impuesto,
      activo: products.activo,
      imagen: products.imagen,
      idCategoria: products.idCategoria,
      categoria: categories.nombre,
      asignado: userProducts.asignado,
      cantidadLimite: userProducts.cantidadLimite,
    })
    .from(savedListItems)
    .innerJoin(products, eq(products.id, savedListItems.productId))
    .innerJoin(categories, eq(categories.id, products.idCategoria))
    .leftJoin(userProducts, and(eq(userProducts.productId, products.id), eq(userProducts.userId, userId)))
    .where(eq(savedListItems.listId, listId))
    .orderBy(asc(savedListItems.posicion));
}

/** The products of the buyer's client among `ids`, with whether they are assigned to the buyer. */
export function productsForList(db: Db | Tx, userId: number, idCliente: number, ids: number[]) {
  if (ids.length === 0) return Promise.resolve([]);
  return db
    .select({ id: products.id, nombre: products.nombre, asignado: userProducts.asignado })
    .from(products)
    .leftJoin(userProducts, and(eq(userProducts.productId, products.id), eq(userProducts.userId, userId)))
    .where(and(inArray(products.id, ids), eq(products.idCliente, idCliente)));
}

/** Replaces a list's items, keeping the order they were given in. */
export async function replaceItems(
  tx: Tx,
  listId: number,
  items: readonly { id: number; cantidad: number }[],
) {
  await tx.delete(savedListItems).where(eq(savedListItems.listId, listId));
  if (items.length === 0) return;
  await tx
    .insert(savedListItems)
    .values(items.map((i, posicion) => ({ listId, productId: i.id, cantidad: i.cantidad, posicion })));
}
