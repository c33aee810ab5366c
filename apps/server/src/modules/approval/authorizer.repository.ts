import { ORDERS_PER_PAGE } from '@portal/shared/limits';
import type { OrderFilter, OrderSort } from '@portal/shared/schemas/orders';
import { and, asc, count, desc, eq, gte, inArray, lt, ne, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { businessMonthOf } from '../../db/order-totals.ts';
import { type PageWindow, pageWindow, preparedOnce, shapeOf, type Val } from '../../db/prepared.ts';
import { orderEvents, orderLines, orders, userMonthSpend, users } from '../../db/schema/index.ts';
import { PagerTotals } from '../../lib/pager-totals.ts';

/**
 * Since when each open order of `ids` waits on its level: the last event that brought it to its status, else
 * its purchase (docs/domain.md "Approval reminders"); one statement for a page of the list (decision 0113).
 */
export async function waitingSince(db: Db, ids: readonly number[]): Promise<Map<number, Date>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({
      id: orders.id,
      desde: sql<Date>`coalesce(max(${orderEvents.createdAt}), ${orders.transactionDate})`.mapWith(
        orders.transactionDate,
      ),
    })
    .from(orders)
    .leftJoin(orderEvents, and(eq(orderEvents.orderId, orders.id), eq(orderEvents.toStatus, orders.status)))
    .where(and(inArray(orders.id, [...ids]), inArray(orders.status, ['pendiente', 'espera'])))
    .groupBy(orders.id, orders.transactionDate);
  return new Map(rows.map((r) => [r.id, r.desde]));
}

/**
 * Who gave an order's level-1 approval (its pendiente → espera event): the person who acted and the delegator
 * they acted for, if any (decision 0053); null when nobody has.
 */
export async function levelOneApprover(
  db: Db | Tx,
  orderId: number,
): Promise<{ actorId: number | null; onBehalfOfId: number | null } | null> {
  const [row] = await levelOneApproverQuery(db, orderId);
  return row ?? null;
}

/**
 * The statement of `levelOneApprover` (an approval reads it within its own statement, as JSON: its columns
 * are named as its fields).
 */
export function levelOneApproverQuery(db: Db | Tx, orderId: Val<number> | SQL) {
  return db
    .select({
      actorId: sql<number | null>`${orderEvents.actorId}`.as('actorId'),
      onBehalfOfId: sql<number | null>`${orderEvents.onBehalfOfId}`.as('onBehalfOfId'),
    })
    .from(orderEvents)
    .where(
      and(
        eq(orderEvents.orderId, orderId),
        eq(orderEvents.tipo, 'aprobado'),
        eq(orderEvents.toStatus, 'espera'),
      ),
    )
    .orderBy(desc(orderEvents.id))
    .limit(1);
}

/** True when `userId` took part in the order's level-1 approval (acted, or was acted for). */
export function tookPartIn(
  approver: { actorId: number | null; onBehalfOfId: number | null } | null,
  userId: number,
): boolean {
  return approver !== null && (approver.actorId === userId || approver.onBehalfOfId === userId);
}

/** A search by username or name, or by order number ("#123" or "123"). */
function searchTerms(q: string): { like: string; id?: number } | undefined {
  const term = q.trim().replace(/^#/, '');
  if (!term) return undefined;
  const like = `%${term.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return { like, id: /^\d{1,9}$/.test(term) ? Number(term) : undefined };
}

interface OrderListFilter {
  idCliente: Val<number>;
  status?: Val<string>;
  /** A second status the list holds too (a delegate acting on both levels' statuses). */
  otherStatus?: Val<string>;
  like?: Val<string>;
  /** An order number to match too (only with a search). */
  id?: Val<number>;
  /** Placed at or after this instant (the first instant of `desde`'s business date). */
  from?: Val<Date>;
  /** Placed before this instant (the first instant of the day after `hasta`). */
  to?: Val<Date>;
}

/** The orders a list shows: the client's, of one status or all, maybe searched. */
function orderListWhere(f: OrderListFilter) {
  const conditions: SQL[] = [eq(orders.idCliente, f.idCliente)];
  if (f.status !== undefined)
    conditions.push(
      f.otherStatus !== undefined
        ? sql`${orders.status} in (${f.status}, ${f.otherStatus})`
        : eq(orders.status, f.status),
    );
  if (f.from !== undefined) conditions.push(gte(orders.transactionDate, f.from));
  if (f.to !== undefined) conditions.push(lt(orders.transactionDate, f.to));
  if (f.like !== undefined) {
    const parts: SQL[] = [
      sql`lower(${users.usuario}) like ${f.like}`,
      sql`lower(${users.nombre}) like ${f.like}`,
    ];
    if (f.id !== undefined) parts.push(eq(orders.id, f.id));
    conditions.push(sql`(${sql.join(parts, sql` or `)})`);
  }
  return and(...conditions);
}

/**
 * The list's order, newest (or largest) first by default; the id breaks ties so pages never overlap.
 * `reversed`: the opposite order, to read the rows just before a key (then turned back).
 */
function sortOf(orden: OrderSort, reversed = false) {
  const dir = orden.endsWith('_asc') !== reversed ? asc : desc;
  const column = orden.startsWith('total') ? orders.total : orders.transactionDate;
  return [dir(column), dir(orders.id)];
}

/**
 * Keyset paging (decision 0076): the page right after (or before) one order of the list, read from the
 * index where that order stands instead of skipping every row before it. The key is the order's id; its
 * sort value is read by primary key, within the client (another client's id is no key: the page is empty
 * and the caller falls back to the page number).
 */
export interface PageKey {
  side: 'despues' | 'antes';
  id: Val<number>;
}

function keysetCondition(orden: OrderSort, idCliente: Val<number>, key: PageKey): SQL {
  const column = sql.raw(orden.startsWith('total') ? 'total' : 'transaction_date');
  // After the key in a descending list means smaller; before it, larger (and the other way round).
  const op = orden.endsWith('_asc') === (key.side === 'despues') ? sql.raw('>') : sql.raw('<');
  return sql`(${orders}.${column}, ${orders.id}) ${op} (select k.${column}, k.id from ${orders} k where k.id = ${key.id} and k.id_cliente = ${idCliente})`;
}

function orderPageQuery(db: Db, f: OrderListFilter, orden: OrderSort, window: PageWindow, key?: PageKey) {
  const where = key ? and(orderListWhere(f), keysetCondition(orden, f.idCliente, key)) : orderListWhere(f);
  const sort = sortOf(orden, key?.side === 'antes');
  // Without a search the page's ids come from the (id_cliente, status, date or total, id) indexes alone, and
  // only those 50 orders are joined with their users: a deep page no longer joins every order it skips.
  // Page 1 (no OFFSET, no key) reads its rows straight from that index instead: the ids' second look-up by
  // primary key would cost 50 more descents. A key's page keeps the ids: read straight, PostgreSQL keeps
  // planning it afresh on every call (its generic plan is estimated dearer), 0.7 ms each (finding 34).
  const pageIds =
    f.like !== undefined || (window.offset === 0 && !key)
      ? undefined
      : db
          .select({ id: orders.id })
          .from(orders)
          .where(where)
          .orderBy(...sort)
          .limit(window.limit)
          .offset(window.offset);
  return db
    .select({
      id: orders.id,
      idUser: orders.idUser,
      total: orders.total,
      status: orders.status,
      transactionDate: orders.transactionDate,
      usuario: users.usuario,
      nombre: users.nombre,
      productos: orders.lineas,
      comentarios: orders.comentarios,
      // What the regular budget's flag needs, read with the page (one look-up each) instead of in another
      // statement: the buyer's budget and its running month's spend (user_month_spend, category 0).
      presupuestoDefault: users.presupuestoDefault,
      idArea: orders.idArea,
      gastoDelMes: sql<string | null>`(select ${userMonthSpend.importe} from ${userMonthSpend}
        where ${userMonthSpend.idUser} = ${orders.idUser} and ${userMonthSpend.idCategoria} = 0
          and ${userMonthSpend.mes} = ${businessMonthOf(orders.transactionDate)})`,
    })
    .from(orders)
    .innerJoin(users, eq(users.id, orders.idUser))
    .where(pageIds ? inArray(orders.id, pageIds) : where)
    .orderBy(...sort)
    .limit(window.limit)
    .offset(pageIds ? 0 : window.offset);
}

/** What a list filter ('accionables', 'todos' or one status) selects: one status, or every one. */
function statusOfFilter(
  filter: OrderFilter,
  actionable: readonly string[],
): { status: string | undefined; otherStatus: string | undefined } {
  // What this user acts on (one status, or both with a delegation); a user who acts on nothing sees everything.
  if (filter === 'accionables') return { status: actionable[0], otherStatus: actionable[1] };
  return { status: filter === 'todos' ? undefined : filter, otherStatus: undefined };
}

/** The list's filter of a view: the client, the statuses, the search's terms and the period's instants. */
function listFilterOf(
  idCliente: number,
  statuses: ReturnType<typeof statusOfFilter>,
  view: { q?: string; range?: { start?: Date; end?: Date } },
) {
  const search = view.q ? searchTerms(view.q) : undefined;
  return {
    idCliente,
    ...statuses,
    like: search?.like,
    id: search?.id,
    from: view.range?.start,
    to: view.range?.end,
  };
}

/**
 * One order's neighbours in a client's list under a filter, a sort and a period, as the list shows them:
 * the rows just before and after it (where it stands under that sort, as keyset paging reads it), and the
 * next order `userId` may act on — status `actionable`, not their own, and not one they gave the level-1
 * approval of — after it in the list, else the first from the list's top.
 */
export async function orderNeighbours(
  db: Db,
  idCliente: number,
  id: number,
  opts: {
    status: OrderFilter;
    actionable: readonly string[];
    q?: string;
    userId: number;
    orden: OrderSort;
    range?: { start?: Date; end?: Date };
  },
) {
  const statuses = statusOfFilter(opts.status, opts.actionable);
  const where = orderListWhere(listFilterOf(idCliente, statuses, opts));
  // The statuses the user acts on that the filter keeps.
  const acts = opts.actionable.filter(
    (s) => statuses.status === undefined || s === statuses.status || s === statuses.otherStatus,
  );
  const after = keysetCondition(opts.orden, idCliente, { side: 'despues', id });
  const first = async (condition: SQL | undefined, order: SQL[]) => {
    const [row] = await db
      .select({ id: orders.id })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.idUser))
      .where(and(where, condition))
      .orderBy(...order)
      .limit(1);
    return row?.id ?? null;
  };
  const actionable =
    acts.length === 0
      ? Promise.resolve(null)
      : first(
          and(
            inArray(orders.status, acts),
            ne(orders.id, id),
            ne(orders.idUser, opts.userId),
            sql`not exists (select 1 from ${orderEvents} where ${orderEvents.orderId} = ${orders.id}
              and ${orderEvents.tipo} = 'aprobado' and ${orderEvents.toStatus} = 'espera'
              and (${orderEvents.actorId} = ${opts.userId} or ${orderEvents.onBehalfOfId} = ${opts.userId}))`,
          ),
          [sql`case when ${after} then 0 else 1 end`, ...sortOf(opts.orden)],
        );
  const [anterior, siguiente, siguienteAccionable] = await Promise.all([
    first(keysetCondition(opts.orden, idCliente, { side: 'antes', id }), sortOf(opts.orden, true)),
    first(after, sortOf(opts.orden)),
    actionable,
  ]);
  return { anterior, siguiente, siguienteAccionable };
}

/**
 * Totals (count and sum of the orders' totals) of a client's very large unsearched lists, per client and
 * status (decision 0032).
 */
const largeListTotals = new PagerTotals<{ n: number; suma: number }>(
  undefined,
  undefined,
  undefined,
  undefined,
  (t) => t.n,
);

/** The pager total and the sum of the order totals the filter holds (every page). */
function countAndSum(db: Db, f: OrderListFilter, withUsers: boolean) {
  const q = db
    .select({ n: count(), suma: sql<string>`coalesce(sum(${orders.total}), 0)` })
    .from(orders)
    .$dynamic();
  return (withUsers ? q.innerJoin(users, eq(users.id, orders.idUser)) : q).where(orderListWhere(f));
}

export async function listClientOrders(
  db: Db,
  idCliente: number,
  opts: {
    page: number;
    status: OrderFilter;
    actionable: readonly string[];
    q?: string;
    orden: OrderSort;
    range?: { start?: Date; end?: Date };
    /** The order the page comes right after (the previous page's last) or before (the next page's first). */
    despues?: number;
    antes?: number;
  },
) {
  const filter = listFilterOf(idCliente, statusOfFilter(opts.status, opts.actionable), opts);
  const { shape, args } = shapeOf(filter);
  const window = pageWindow(opts.page, ORDERS_PER_PAGE);
  const totalsOf = (r: { n: number; suma: string | number }[]) => ({
    n: r[0]?.n ?? 0,
    suma: Number(r[0]?.suma ?? 0),
  });
  // Each combination of filters and sort (page, and a search's or a date range's count) is built once and
  // run as a named prepared statement.
  const keyId = opts.despues ?? opts.antes;
  // A key makes the page's statement start where that order stands, with no OFFSET (page 1 needs none).
  const key: PageKey | undefined =
    keyId !== undefined && opts.page > 1
      ? { side: opts.despues !== undefined ? 'despues' : 'antes', id: sql.placeholder('key') }
      : undefined;
  const byNumber = () =>
    preparedOnce(db, `portal_orders_page_${opts.orden}_${shape}_${window.shape}`, (d) =>
      orderPageQuery(d, args, opts.orden, window),
    ).execute({ ...filter, ...window.values });
  const page = async () => {
    if (!key) return byNumber();
    const found = await preparedOnce(
      db,
      `portal_orders_page_${opts.orden}_${shape}_k${key.side === 'antes' ? 'b' : 'a'}`,
      (d) => orderPageQuery(d, args, opts.orden, pageWindow(1, ORDERS_PER_PAGE), key),
    ).execute({ ...filter, key: keyId });
    // A key that is no row of this client's list (made up, another client's, or the list's edge): by number.
    if (found.length === 0) return byNumber();
    return key.side === 'antes' ? found.reverse() : found;
  };
  const [rows, totals] = await Promise.all([
    page(),
    filter.like !== undefined || opts.range
      ? preparedOnce(db, `portal_orders_count_${shape}`, (d) =>
          countAndSum(d, args, filter.like !== undefined),
        )
          .execute(filter)
          .then(totalsOf)
      : largeListTotals.get(`${idCliente}:${opts.status}:${opts.actionable.join(',')}`, async () =>
          totalsOf(await countAndSum(db, filter, false)),
        ),
  ]);
  return {
    rows: rows.map((r) => ({
      ...r,
      productos: Number(r.productos),
      comentarios: Number(r.comentarios),
      gastoDelMes: Number(r.gastoDelMes ?? 0),
    })),
    total: totals.n,
    suma: totals.suma,
  };
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
  const lines = await budgetLinesOf(
    db,
    list.map((o) => o.id),
  );
  return list.map((o) => ({ ...o, lines: lines.filter((l) => l.orderId === o.id) }));
}

/** The lines of some orders as the budget rules read them (price, quantity, tax, category). */
export async function budgetLinesOf(db: Db | Tx, orderIds: number[]) {
  if (orderIds.length === 0) return [];
  return db
    .select({
      orderId: orderLines.orderId,
      idCategoria: orderLines.idCategoria,
      precio: orderLines.precio,
      cantidad: orderLines.cantidad,
      impuesto: orderLines.impuesto,
    })
    .from(orderLines)
    .where(inArray(orderLines.orderId, orderIds));
}
