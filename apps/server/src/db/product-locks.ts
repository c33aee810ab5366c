import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from './client.ts';
import { products } from './schema/index.ts';

/**
 * Locks a client's products named by their clave interna, in id order, and answers their ids (decision
 * 0124). Every writer of several products' rows takes its locks this way first — the approval's reservation,
 * the API's stock writes, the products import — so two of them never wait on each other in opposite orders
 * (a deadlock PostgreSQL would end by failing one). Claves of no product of the client are left out.
 */
export async function lockProductsByClave(
  tx: Tx,
  idCliente: number,
  claves: readonly string[],
): Promise<number[]> {
  if (claves.length === 0) return [];
  const rows = await tx
    .select({ id: products.id })
    .from(products)
    .where(and(eq(products.idCliente, idCliente), inArray(products.claveInterna, [...claves])))
    .orderBy(asc(products.id))
    .for('update');
  return rows.map((r) => r.id);
}

/** Locks products by id, in id order (the same order as `lockProductsByClave`), and answers the ids found. */
export async function lockProductsById(tx: Tx, ids: readonly number[]): Promise<number[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .select({ id: products.id })
    .from(products)
    .where(inArray(products.id, [...new Set(ids)]))
    .orderBy(asc(products.id))
    .for('update');
  return rows.map((r) => r.id);
}
