import type { OrderFilter } from '@portal/shared/schemas/orders';
import { and, count, desc, eq, gte, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { preparedOnce, type Val } from '../../db/prepared.ts';
import { orderLines, orders, users } from '../../db/schema/index.ts';
import { PagerTotals } from '../../lib/pager-totals.ts';

export const AUTHORIZER_PAGE_SIZE = 50;

/** A search by username or name, or by order number ("#123" or "123"). */
function searchTerms(q: string): { like: string; id?: number } | undefined {
  const term = q.trim().replace(/^#/, '');
  if (!term) return undefined;
  const like = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return { like, id: /^\d{1,9}$/.test(term) ? Number(term) : undefined };
}

interface OrderListArgs {
  idCliente: Val<number>;
  status?: Val<string>;
  search?: { like: Val<string>; id?: Val<number> };
}

/** The orders a list shows: the client's, of one status or all, maybe searched. */
function orderListWhere(a: OrderListArgs) {
  const conditions: SQL[] = [eq(orders.idCliente, a.idCliente)];
  if (a.status !== undefined) conditions.push(eq(orders.status, a.status));
  if (a.search) {
    const parts: SQL[] = [
      sql`lower(${users.usuario}) like ${a.search.like}`,
      sql`lower(${users.nombre}) like ${a.search.like}`,
    ];
    if (a.search.id !== undefined) parts.push(eq(orders.id, a.search.id));
    conditions.push(sql`(${sql.join(parts, sql` or `)})`);
  }
  return and(...conditions);
}

/** Placeholders for the list's values in one shape of it. */
function placeholders(shape: { status: boolean; search: boolean; id: boolean }): OrderListArgs {
  const p = sql.placeholder;
  return {
    idCliente: p('idCliente'),
    status: shape.status ? p('status') : undefined,
    search: shape.search ? { like: p('like'), id: shape.id ? p('id') : undefined } : undefined,
  };
}

function orderPageQuery(db: Db, a: OrderListArgs, offset: Val<number>) {
  const where = orderListWhere(a);
  // Without a search the page's ids come from the (id_cliente, …, id) index alone, and only those 50 orders
  // are joined with their users: a deep page no longer joins every order it skips.
  const pageIds = a.search
    ? undefined
    : db
        .select({ id: orders.id })
        .from(orders)
        .where(where)
        .orderBy(desc(orders.id))
        .limit(AUTHORIZER_PAGE_SIZE)
        .offset(offset);
  return db
    .select({
      id: orders.id,
      total: orders.total,
      status: orders.status,
      transactionDate: orders.transactionDate,
      usuario: users.usuario,
      nombre: users.nombre,
      // Counted with the page (50 index-only look-ups) rather than in another round trip.
      productos: sql<number>`(select count(*)::int from ${orderLines} where ${orderLines.orderId} = ${orders.id})`,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.idUser))
    .where(pageIds ? inArray(orders.id, pageIds) : where)
    .orderBy(desc(orders.id))
    .limit(AUTHORIZER_PAGE_SIZE)
    .offset(pageIds ? 0 : offset);
}

/** Totals of a client's very large unsearched lists, per client and status (decision 0032). */
const largeListTotals = new PagerTotals();

export async function listClientOrders(
  db: Db,
  idCliente: number,
  opts: { page: number; status: OrderFilter; actionable: string | null; q?: string },
) {
  // What this role acts on; a role that acts on nothing sees everything.
  const status =
    opts.status === 'accionables'
      ? (opts.actionable ?? undefined)
      : opts.status === 'todos'
        ? undefined
        : opts.status;
  const search = opts.q ? searchTerms(opts.q) : undefined;
  const args: OrderListArgs = { idCliente, status, search };
  const shape = { status: status !== undefined, search: Boolean(search), id: search?.id !== undefined };
  const name = `${Number(shape.status)}${Number(shape.search)}${Number(shape.id)}`;
  const values = { idCliente, status, like: search?.like, id: search?.id };
  // Each shape of the page (and of a search's count) is built once and run as a named prepared statement.
  const [rows, total] = await Promise.all([
    preparedOnce(db, `portal_orders_page_${name}`, (d) =>
      orderPageQuery(d, placeholders(shape), sql.placeholder('offset')),
    ).execute({ ...values, offset: (opts.page - 1) * AUTHORIZER_PAGE_SIZE }),
    search
      ? preparedOnce(db, `portal_orders_count_${name}`, (d) =>
          d
            .select({ n: count() })
            .from(orders)
            .innerJoin(users, eq(users.id, orders.idUser))
            .where(orderListWhere(placeholders(shape))),
        )
          .execute(values)
          .then((r) => r[0]?.n ?? 0)
      : largeListTotals.get(`${idCliente}:${opts.status}:${opts.actionable ?? ''}`, async () => {
          const [r] = await db.select({ n: count() }).from(orders).where(orderListWhere(args));
          return r?.n ?? 0;
        }),
  ]);
  return { rows: rows.map((r) => ({ ...r, productos: Number(r.productos) })), total };
}

/** The buyer's other non-cancelled orders in a month, with their lines (for budgets and the side panel). */
export async function otherMonthOrders(
  db: Db | Tx,
  userId: number,
  exceptOrderId: number,
  range: { start: Date; end: Date },
) {
  const list = await db
    .select({
      id: orders.id,
      total: orders.total,
      status: orders.status,
      transactionDate: orders.transactionDate,
    })
    .from(orders)
    .where(
      and(
        eq(orders.idUser, userId),
        ne(orders.id, exceptOrderId),
        ne(orders.status, 'cancelado'),
        gte(orders.transactionDate, range.start),
        lt(orders.transactionDate, range.end),
      ),
    )
    .orderBy(desc(orders.id));
  const lines =
    list.length === 0
      ? []
      : await db
          .select({
            orderId: orderLines.orderId,
            idCategoria: orderLines.idCategoria,
            precio: orderLines.precio,
            cantidad: orderLines.cantidad,
            impuesto: orderLines.impuesto,
          })
          .from(orderLines)
          .where(
            inArray(
              orderLines.orderId,
              list.map((o) => o.id),
            ),
          );
  return list.map((o) => ({ ...o, lines: lines.filter((l) => l.orderId === o.id) }));
}
