/**
 * The one read of orders with their buyer and their client, below the modules: the order aggregate's other
 * reads (`modules/orders/order.repository.ts`), the approvers' reminders, the fulfilment queue and export, the
 * support search and the integrations' order all start here.
 */
import { eq } from 'drizzle-orm';
import type { PgSelectBase, SelectedFields } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';
import { clients, orders, users } from './schema/index.ts';

/** The query `selectOrdersWithParties` starts: the three tables inner-joined, so none of them is nullable. */
type OrdersWithParties<TSelection extends SelectedFields> = PgSelectBase<
  'orders',
  TSelection,
  'partial',
  { orders: 'not-null'; users: 'not-null'; clients: 'not-null' }
>;

/**
 * Orders with their buyer (`users`) and their client (`clients`), both inner joins: the caller chooses the
 * columns of the three tables and adds its own `where`, `orderBy` and `limit` (or prepares it).
 */
export function selectOrdersWithParties<TSelection extends SelectedFields>(
  db: Db | Tx,
  fields: TSelection,
): OrdersWithParties<TSelection> {
  // Drizzle's join types stay unresolved over a generic selection: built over any selection, answered as the
  // type Drizzle infers for the caller's own.
  return db
    .select(fields as SelectedFields)
    .from(orders)
    .innerJoin(users, eq(users.id, orders.idUser))
    .innerJoin(clients, eq(clients.id, orders.idCliente)) as OrdersWithParties<TSelection>;
}
