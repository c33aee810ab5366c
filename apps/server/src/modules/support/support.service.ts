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
import { executeNamedOnce, preparedOnce } from '../../db/prepared.ts';
import { clients, orders, users } from '../../db/schema/index.ts';
import { foldedLike, foldedPattern, hasTrigram } from '../../db/search.ts';
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
 * How many users a search may match and still be answered by `searchInOneStatement`: its users are sorted
 * and its buyers' orders gathered from the matches themselves. A broader term goes the planned way.
 */
const NARROW_MATCHES = 100;

type SearchRow = {
  /** u: a user; o: a buyer's order; n: the order of that number; c: how many users matched (at most 101). */
  k: 'u' | 'o' | 'n' | 'c';
  id: number;
  status: string | null;
  total: number | null;
  fecha: string | null;
  usuario: string | null;
  nombre: string | null;
  email: string | null;
  rol: number | null;
  id_cliente: number | null;
  cliente: string | null;
};

/**
 * The whole search in one statement whose plan is the same for any pattern, so it is planned once per
 * connection (planning the three statements below for each call's pattern was three quarters of the
 * search's PostgreSQL time, docs/benchmarks.md finding 56): the users the trigram indexes find (a
 * materialized CTE, read up to NARROW_MATCHES + 1 of them), then, when no more matched, the first 10 of
 * them by username and the newest 10 orders of those that match as buyers (by username or name), each
 * buyer's from `orders_user_date_idx`; the order of that number; and the count of matches read.
 */
const searchInOneStatement = () => sql`
  with m as materialized (
    select ${users.id}, ${users.usuario}, ${users.nombre}, ${users.email} as email, ${users.rol},
      ${users.idCliente} as id_cliente,
      ${foldedLike(SEARCHED_BUYER, sql.placeholder('like'))} as comprador
    from ${users}
    where ${users.rol} <> 4 and ${foldedLike(SEARCHED_USER, sql.placeholder('like'))}
  ),
  f as materialized (select * from m limit ${sql.raw(String(NARROW_MATCHES + 1))}),
  n as materialized (select count(*)::int as n from f)
  select 'u' as k, f.id, null as status, null::float8 as total, null::text as fecha, f.usuario, f.nombre,
    f.email, f.rol, c.id as id_cliente, c.nombre as cliente
  from (
    select f.* from f, n where n.n <= ${sql.raw(String(NARROW_MATCHES))}
    order by lower(f.usuario), f.id limit ${sql.raw(String(SUPPORT_SEARCH_LIMIT))}
  ) f
  join ${clients} c on c.id = f.id_cliente
  union all
  select 'o', o.id, o.status, o.total::float8, to_json(o.transaction_date)#>>'{}', o.usuario, o.nombre,
    null, null, c.id, c.nombre
  from (
    select o.*, f.usuario, f.nombre
    from n, f cross join lateral (
      select o.id, o.status, o.total, o.transaction_date, o.id_cliente from ${orders} o
      where o.id_user = f.id
      order by o.transaction_date desc, o.id desc limit ${sql.raw(String(SUPPORT_SEARCH_LIMIT))}
    ) o
    where f.comprador and n.n <= ${sql.raw(String(NARROW_MATCHES))}
    order by o.transaction_date desc, o.id desc limit ${sql.raw(String(SUPPORT_SEARCH_LIMIT))}
  ) o
  join ${clients} c on c.id = o.id_cliente
  union all
  select 'n', o.id, o.status, o.total::float8, to_json(o.transaction_date)#>>'{}', u.usuario, u.nombre,
    null, null, c.id, c.nombre
  from ${orders} o join ${users} u on u.id = o.id_user join ${clients} c on c.id = o.id_cliente
  where o.id = ${sql.placeholder('id')}
  union all
  select 'c', n.n, null, null, null, null, null, null, null, null, null from n`;

/**
 * GET /api/buscar: up to 10 users of the clients (never administrators) by username, name or e-mail, and up
 * to 10 orders, newest first, by number or by their buyer's username or name. A term the trigram indexes
 * narrow to at most NARROW_MATCHES users is one statement planned once (`searchInOneStatement`); a shorter or
 * broader one runs the three named statements below, planned for each call's pattern.
 */
export async function supportSearch(db: Db, q: string): Promise<SupportSearchResponse> {
  const like = foldedPattern(q) ?? '%';
  const id = orderNumberOf(q);
  if (hasTrigram(q)) {
    const rows = await executeNamedOnce<SearchRow>(
      db,
      'portal_support_search',
      searchInOneStatement,
      { like, id: id ?? null },
      { planFitsAnyPattern: true },
    );
    const matched = rows.find((r) => r.k === 'c')?.id ?? 0;
    if (matched <= NARROW_MATCHES) {
      const of = (k: SearchRow['k']) => rows.filter((r) => r.k === k);
      return {
        usuarios: of('u').map((u) => ({
          id: u.id,
          usuario: u.usuario!,
          nombre: u.nombre!,
          email: u.email!,
          rol: u.rol!,
          id_cliente: u.id_cliente!,
          cliente: u.cliente!,
        })),
        pedidos: withNumberFirst(of('n'), of('o'), id).map((o) =>
          orderHit({
            id: o.id,
            status: o.status!,
            total: o.total!,
            transactionDate: new Date(o.fecha!),
            usuario: o.usuario!,
            nombre: o.nombre!,
            idCliente: o.id_cliente!,
            cliente: o.cliente!,
          }),
        ),
      };
    }
  }
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
  return {
    usuarios: userRows,
    pedidos: withNumberFirst(byNumber, byBuyer, id).map(orderHit),
  };
}

/** The order of that number first, then the newest of the buyers', 10 in all. */
function withNumberFirst<T extends { id: number }>(
  byNumber: readonly T[],
  byBuyer: readonly T[],
  id: number | undefined,
): T[] {
  return [...byNumber, ...byBuyer.filter((o) => o.id !== id)].slice(0, SUPPORT_SEARCH_LIMIT);
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
