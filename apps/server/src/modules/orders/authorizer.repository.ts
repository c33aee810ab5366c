import type { OrderFilter } from '@portal/shared/schemas/orders';
import { and, count, desc, eq, gte, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { orderLines, orders, users } from '../../db/schema/index.ts';
import { PagerTotals } from '../../lib/pager-totals.ts';

export const AUTHORIZER_PAGE_SIZE = 50;

function searchCondition(q: string): SQL | undefined {
  const term = q.trim().replace(/^#/, '');
  if (!term) return undefined;
  const like = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const parts: SQL[] = [sql`lower(${users.usuario}) like ${like}`, sql`lower(${users.nombre}) like ${like}`];
  if (/^\d{1,9}$/.test(term)) parts.push(eq(orders.id, Number(term)));
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** Totals of a client's very large unsearched lists, per client and status (decision 0032). */
const largeListTotals = new PagerTotals();

export async function listClientOrders(
  db: Db,
  idCliente: number,
  opts: { page: number; status: OrderFilter; actionable: string | null; q?: string },
) {
  const conditions: SQL[] = [eq(orders.idCliente, idCliente)];
  if (opts.status === 'accionables') {
    // What this role acts on; a role that acts on nothing sees everything.
    if (opts.actionable) conditions.push(eq(orders.status, opts.actionable));
  } else if (opts.status !== 'todos') {
    conditions.push(eq(orders.status, opts.status));
  }
  const search = opts.q ? searchCondition(opts.q) : undefined;
  if (search) conditions.push(search);
  const where = and(...conditions);
  // Without a search the page's ids come from the (id_cliente, …, id) index alone, and only those 50 orders
  // are joined with their users: a deep page no longer joins every order it skips.
  const pageIds = search
    ? undefined
    : db
        .select({ id: orders.id })
        .from(orders)
        .where(where)
        .orderBy(desc(orders.id))
        .limit(AUTHORIZER_PAGE_SIZE)
        .offset((opts.page - 1) * AUTHORIZER_PAGE_SIZE);
  const [rows, total] = await Promise.all([
    db
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
      .offset(pageIds ? 0 : (opts.page - 1) * AUTHORIZER_PAGE_SIZE),
    search
      ? db
          .select({ n: count() })
          .from(orders)
          .innerJoin(users, eq(users.id, orders.idUser))
          .where(where)
          .then((r) => r[0]?.n ?? 0)
      : largeListTotals.get(`${idCliente}:${opts.status}:${opts.actionable ?? ''}`, async () => {
          const [r] = await db.select({ n: count() }).from(orders).where(where);
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
