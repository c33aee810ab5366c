import { centavosToPesos } from '@portal/shared/domain/money';
import { businessMonth } from '@portal/shared/domain/time';
import { ADMIN_ORDERS_PER_PAGE } from '@portal/shared/limits';
import type { OrderStatus } from '@portal/shared/schemas/orders';
import { splitSort } from '@portal/shared/schemas/sort';
import {
  type AdminOrderResponse,
  type AdminOrdersQuery,
  type AdminOrdersResponse,
  type AdminOrdersSort,
  SUPPORT_SEARCH_LIMIT,
  type SupportSearchResponse,
} from '@portal/shared/schemas/support';
import { and, asc, count, desc, eq, gte, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { selectOrdersWithParties } from '../../db/orders-with-parties.ts';
import { preparedOnce } from '../../db/prepared.ts';
import { clients, orders, users } from '../../db/schema/index.ts';
import { foldedLike, foldedPattern } from '../../db/search.ts';
import { notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import { orderDetail } from '../orders/order.repository.ts';

/** The order number a search names ("#00012", "00012", "12"), if it is one. */
export function orderNumberOf(q: string): number | undefined {
  const term = q.trim().replace(/^#/, '');
  return /^\d{1,9}$/.test(term) ? Number(term) : undefined;
}

/** An order row of the search and of the administrator's list: the order, its buyer and its client. */
const orderColumns = {
  id: orders.id,
  status: orders.status,
  total: orders.total,
  transactionDate: orders.transactionDate,
  usuario: users.usuario,
  nombre: users.nombre,
  idCliente: clients.id,
  cliente: clients.nombre,
};

/** Orders with their buyer and client, newest first or sorted by date or total (then the id). */
function newestOrders(db: Db, where: SQL | undefined, orden: AdminOrdersSort = 'fecha_desc') {
  const { field, direction } = splitSort(orden);
  const by = direction === 'asc' ? asc : desc;
  return selectOrdersWithParties(db, orderColumns)
    .where(where)
    .orderBy(by(field === 'total' ? orders.total : orders.transactionDate), by(orders.id));
}

function orderHit(o: {
  id: number;
  status: string;
  total: number;
  transactionDate: Date;
  usuario: string;
  nombre: string;
  idCliente: number;
  cliente: string;
}) {
  return {
    id: o.id,
    status: o.status as OrderStatus,
    total: centavosToPesos(o.total),
    transaction_date: o.transactionDate.toISOString(),
    usuario: o.usuario,
    nombre: o.nombre,
    id_cliente: o.idCliente,
    cliente: o.cliente,
  };
}

/** The same user columns the users list searches, folded the same way (case and accents ignored). */
const SEARCHED_USER = [users.usuario, users.nombre, users.email];
const SEARCHED_BUYER = [users.usuario, users.nombre];

/** The users a search names (username, name or e-mail), by username: through the trigram indexes (0068). */
function usersLike(db: Db) {
  return db
    .select({
      id: users.id,
      usuario: users.usuario,
      nombre: users.nombre,
      email: users.email,
      rol: users.rol,
      id_cliente: clients.id,
      cliente: clients.nombre,
    })
    .from(users)
    .innerJoin(clients, eq(clients.id, users.idCliente))
    .where(and(ne(users.rol, 4), foldedLike(SEARCHED_USER, sql.placeholder('like'))))
    .orderBy(sql`lower(${users.usuario})`, asc(users.id))
    .limit(SUPPORT_SEARCH_LIMIT);
}

/**
 * GET /api/buscar: up to 10 users of the clients (never administrators) by username, name or e-mail, and up
 * to 10 orders, newest first, by number or by their buyer's username or name. Each of the three queries is
 * a named prepared statement (built and planned once per connection).
 */
export async function supportSearch(db: Db, q: string): Promise<SupportSearchResponse> {
  const like = foldedPattern(q) ?? '%';
  const id = orderNumberOf(q);
  // Two index paths rather than one OR (which would scan every order): the number through the primary
  // key, the buyers' orders through (id_user, …) after the buyers found through the trigram indexes.
  const [userRows, byNumber, byBuyer] = await Promise.all([
    preparedOnce(db, 'portal_support_users', usersLike).execute({ like }),
    id !== undefined
      ? preparedOnce(db, 'portal_support_order', (d) =>
          newestOrders(d, eq(orders.id, sql.placeholder('id'))).limit(SUPPORT_SEARCH_LIMIT),
        ).execute({ id })
      : Promise.resolve([]),
    preparedOnce(db, 'portal_support_buyer_orders', (d) =>
      newestOrders(d, and(ne(users.rol, 4), foldedLike(SEARCHED_BUYER, sql.placeholder('like')))).limit(
        SUPPORT_SEARCH_LIMIT,
      ),
    ).execute({ like }),
  ]);
  // The order of that number first, then the newest of the buyers'.
  const orderRows = [...byNumber, ...byBuyer.filter((o) => o.id !== id)].slice(0, SUPPORT_SEARCH_LIMIT);
  return {
    usuarios: userRows,
    pedidos: orderRows.map(orderHit),
  };
}

/** GET /api/admin/pedidos/{id}: any order, read-only, with its buyer and its client; 404 when missing. */
export async function adminOrder(db: Db, id: number): Promise<AdminOrderResponse> {
  const [who] = await selectOrdersWithParties(db, {
    compradorId: users.id,
    usuario: users.usuario,
    nombre: users.nombre,
    clienteId: clients.id,
    cliente: clients.nombre,
  })
    .where(eq(orders.id, id))
    .limit(1);
  if (!who) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  const pedido = await orderDetail(db, id, {});
  return {
    pedido,
    comprador: { id: who.compradorId, usuario: who.usuario, nombre: who.nombre },
    cliente: { id: who.clienteId, nombre: who.cliente },
  };
}

/**
 * GET /api/admin/pedidos: every client's orders of one status (por_autorizar: pendiente and espera, what
 * the overview's "Pedidos por autorizar" counts), optionally of one business month, newest first, from
 * `orders_status_date_idx`.
 */
export async function adminOrders(db: Db, query: AdminOrdersQuery, tz: string): Promise<AdminOrdersResponse> {
  const statuses: OrderStatus[] =
    query.estatus === 'por_autorizar' ? ['pendiente', 'espera'] : [query.estatus];
  const month = query.mes ? businessMonth(`${query.mes}-15T12:00:00Z`, tz) : undefined;
  const where = and(
    inArray(orders.status, statuses),
    month ? gte(orders.transactionDate, month.start) : undefined,
    month ? lt(orders.transactionDate, month.end) : undefined,
  );
  const [rows, totals] = await Promise.all([
    newestOrders(db, where, query.orden)
      .limit(ADMIN_ORDERS_PER_PAGE)
      .offset((query.page - 1) * ADMIN_ORDERS_PER_PAGE),
    db.select({ n: count() }).from(orders).where(where),
  ]);
  return {
    pedidos: rows.map(orderHit),
    total: totals[0]?.n ?? 0,
    page: query.page,
    per_page: ADMIN_ORDERS_PER_PAGE,
  };
}
