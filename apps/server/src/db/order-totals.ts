/**
 * The totals kept beside the orders, exact because every change that moves them goes through the order's
 * lifecycle seam (modules/orders/lifecycle.ts), which calls `moveOrderTotals` in the change's transaction — the order's contribution is taken out before the change and put back after it — and
 * `rebuildTotals` recounts them from the orders (at start when they were never built or were built for
 * another business time zone, and after bulk loads):
 *
 * - the sales summary (product_month_sales, decision 0055): per client, business month, product and
 *   category, the quantity, amount and IVA of the lines of non-cancelled orders; the dashboard reads it
 *   instead of scanning a year of order lines;
 * - the buyers' running months (user_month_spend, decision 0072): per user, business month and category (0:
 *   whole orders) the spend with IVA and the number of non-cancelled orders; the budget figures, the purchase
 *   limit, the budget alerts and the dashboards read it instead of adding up the month's orders;
 * - the áreas' running months (area_month_spend, decision 0123): per área and business month, the stored totals
 *   and the number of the non-cancelled orders charged to it (`orders.id_area`).
 */
import type { MonthUsed } from '@portal/shared/domain/budget';
import { IVA_RATE_PERCENT } from '@portal/shared/domain/money';
import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';
import { executeNamed, isTransaction } from './prepared.ts';
import {
  areaMonthSpend,
  orderComments,
  orderLines,
  orders,
  productMonthSales,
  salesState,
  userMonthSpend,
  userOrderCounts,
  users,
} from './schema/index.ts';

const o = orders;
const l = orderLines;
const s = productMonthSales;
const u = userMonthSpend;
const a = areaMonthSpend;

/** The business time zone the totals were built for (months are read in it). */
const TZ = sql`coalesce((select ${salesState.tz} from ${salesState} where ${salesState.id} = 1), 'UTC')`;
/** The business month (its first day) of an instant, in the time zone the totals were built for. */
export const businessMonthOf = (instant: SQL | typeof o.transactionDate) =>
  sql`(date_trunc('month', ${instant} at time zone ${TZ}))::date`;
const MONTH = businessMonthOf(o.transactionDate);

/**
 * Where the figures read orders and their lines: the tables, or the rows the same statement has just written
 * (the purchase's `insert … returning *`, decision 0086). Either is aliased as its table, so the figures name
 * the tables' columns in both cases.
 */
export interface TotalsSource {
  orders: SQL;
  lines: SQL;
}
const TABLES: TotalsSource = { orders: sql`${o}`, lines: sql`${l}` };

/** The sales summary's columns for a set of orders' lines, grouped (the one definition of its figures). */
function salesContribution(where: SQL, sign: 1 | -1, from: TotalsSource = TABLES) {
  return sql`
    select ${o.idCliente}, ${MONTH}, ${l.productId}, ${l.idCategoria},
      ${sign} * sum(${l.cantidad})::bigint,
      ${sign} * sum(${l.precio} * ${l.cantidad})::bigint,
      ${sign} * sum(case when ${l.impuesto} then (${l.precio} * ${l.cantidad} * ${IVA_RATE_PERCENT} + 50) / 100 else 0 end)::bigint
    from ${from.lines} as ${l} inner join ${from.orders} as ${o} on ${o.id} = ${l.orderId}
    where ${where} and ${o.status} <> 'cancelado'
    group by 1, 2, 3, 4
    order by 1, 2, 3, 4`;
}

/**
 * The running months' columns for a set of orders (the one definition of their figures, the budget rule of
 * packages/shared/src/domain/budget.ts): category 0 adds the orders' stored totals and counts the orders; a
 * category adds, per order, its lines' subtotal plus the IVA of their taxable part rounded once (half up),
 * and counts the orders that have lines in it.
 */
function spendContribution(where: SQL, sign: 1 | -1, from: TotalsSource = TABLES) {
  return sql`
    select id_user, mes, id_categoria, ${sign} * sum(importe)::bigint, ${sign} * count(*)::int
    from (
      select ${o.idUser} as id_user, ${MONTH} as mes, 0 as id_categoria, ${o.total} as importe
      from ${from.orders} as ${o} where ${where} and ${o.status} <> 'cancelado'
      union all
      select ${o.idUser}, ${MONTH}, ${l.idCategoria},
        sum(${l.precio} * ${l.cantidad})::bigint
          + (sum(case when ${l.impuesto} then ${l.precio} * ${l.cantidad} else 0 end)::bigint * ${IVA_RATE_PERCENT} + 50) / 100
      from ${from.lines} as ${l} inner join ${from.orders} as ${o} on ${o.id} = ${l.orderId}
      where ${where} and ${o.status} <> 'cancelado'
      group by ${o.id}, ${o.idUser}, 2, ${l.idCategoria}
    ) c
    group by 1, 2, 3
    order by 1, 2, 3`;
}

/** The áreas' running months' columns for a set of orders: their stored totals and count, per área and month. */
function areaContribution(where: SQL, sign: 1 | -1, from: TotalsSource = TABLES) {
  return sql`
    select ${o.idArea}, ${MONTH}, ${sign} * sum(${o.total})::bigint, ${sign} * count(*)::int
    from ${from.orders} as ${o}
    where ${where} and ${o.status} <> 'cancelado' and ${o.idArea} is not null
    group by 1, 2
    order by 1, 2`;
}

/**
 * Both tables' upserts of one set of orders' contribution, sales first, as the CTEs `sales` and `spend` of a
 * larger statement (the caller holds the totals' shared lock from an earlier statement).
 */
export function moveCtes(where: SQL, sign: 1 | -1, from: TotalsSource = TABLES) {
  return sql`sales as (
      insert into ${s} as s (id_cliente, mes, product_id, id_categoria, cantidad, importe, iva)
      ${salesContribution(where, sign, from)}
      on conflict (id_cliente, mes, product_id, id_categoria) do update set
        cantidad = s.cantidad + excluded.cantidad,
        importe = s.importe + excluded.importe,
        iva = s.iva + excluded.iva
      returning 1
    ), spend as (
      insert into ${u} as u (id_user, mes, id_categoria, importe, compras)
      ${spendContribution(where, sign, from)}
      on conflict (id_user, mes, id_categoria) do update set
        importe = u.importe + excluded.importe,
        compras = u.compras + excluded.compras
      returning 1
    ), area_spend as (
      insert into ${a} as a (id_area, mes, importe, compras)
      ${areaContribution(where, sign, from)}
      on conflict (id_area, mes) do update set
        importe = a.importe + excluded.importe,
        compras = a.compras + excluded.compras
      returning 1
    )`;
}

/** Both tables' upserts of one set of orders' contribution, sales first, as one statement. */
function moveStatement(where: SQL, sign: 1 | -1) {
  return sql`
    with ${moveCtes(where, sign)}
    select (select count(*) from sales) as sales, (select count(*) from spend) as spend,
      (select count(*) from area_spend) as area_spend`;
}

/**
 * Adds (+1) or takes out (-1) one order, as it is now, from the totals; a cancelled order contributes
 * nothing. Call -1 before a change to the order's lines or status and +1 after it, in the same transaction
 * (and before anything that reads the buyer's month, such as the budget alerts). Rows are touched in key
 * order, the summary's before the buyer's, so concurrent changes never deadlock on them.
 */
export async function moveOrderTotals(db: Db | Tx, orderId: number, sign: 1 | -1): Promise<void> {
  // A rebuild (exclusive) waits for changes in flight, and they for it: the shared lock, once a transaction.
  // Named prepared statements on the transaction's connection (decision 0073): planned once per connection.
  if (!holdingTotalsLock.has(db)) {
    await executeNamed(db, 'portal_totals_lock', sql`select ${TOTALS_SHARED_LOCK}`);
    if (isTransaction(db)) holdingTotalsLock.add(db);
  }
  await executeNamed(db, 'portal_totals_move', moveStatement(sql`${o.id} = ${orderId}`, sign));
}

/** The totals' shared lock (held to the end of the transaction): changes share it, a rebuild excludes them. */
export const TOTALS_SHARED_LOCK = sql`pg_advisory_xact_lock_shared(hashtextextended('portal|sales', 0))`;

/** The transactions that hold the totals' shared lock (taken by a move, or by a statement of their own). */
const holdingTotalsLock = new WeakSet<object>();

/**
 * Records that `tx` took the totals' shared lock (`TOTALS_SHARED_LOCK`) in a statement of its own, before
 * any move: its moves then need no round trip for it.
 */
export function holdsTotalsLock(tx: Tx): void {
  holdingTotalsLock.add(tx);
}

/** Recounts both tables from the orders for business time zone `tz`, in one transaction. */
export async function rebuildTotals(db: Db, tz: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('portal|sales', 0))`);
    await tx.execute(sql`
      insert into ${salesState} (id, tz, built_at) values (1, ${tz}, now())
      on conflict (id) do update set tz = excluded.tz, built_at = now()`);
    await tx.execute(sql`delete from ${s}`);
    await tx.execute(sql`delete from ${u}`);
    await tx.execute(sql`delete from ${a}`);
    await tx.execute(sql`
      insert into ${s} (id_cliente, mes, product_id, id_categoria, cantidad, importe, iva)
      ${salesContribution(sql`true`, 1)}`);
    await tx.execute(sql`
      insert into ${u} (id_user, mes, id_categoria, importe, compras)
      ${spendContribution(sql`true`, 1)}`);
    await tx.execute(sql`
      insert into ${a} (id_area, mes, importe, compras)
      ${areaContribution(sql`true`, 1)}`);
  });
}

/** At start: builds the totals when they were never built, or were built for another business time zone. */
export async function ensureTotals(db: Db, tz: string): Promise<void> {
  const [state] = await db.select({ tz: salesState.tz }).from(salesState);
  if (state?.tz !== tz) await rebuildTotals(db, tz);
}

/** One row of a buyer's running month as read: category (0: whole orders), spend, orders. */
export type MonthSpendJson = { c: number; i: number | string; n: number | string };

/** A running month's rows as the budget rule's figures and the purchase limit's count. */
export function monthOfRows(rows: readonly MonthSpendJson[]): { count: number; used: MonthUsed } {
  let count = 0;
  let total = 0;
  const categorias = new Map<number, number>();
  for (const r of rows) {
    if (Number(r.c) === 0) {
      count = Number(r.n);
      total = Number(r.i);
    } else categorias.set(Number(r.c), Number(r.i));
  }
  return { count, used: { total, categorias } };
}

/** A buyer's running month `mes` (YYYY-MM): its orders' count and what they spend. */
export async function monthSpend(
  db: Db | Tx,
  userId: number,
  mes: string,
): Promise<{ count: number; used: MonthUsed }> {
  const rows = await db
    .select({ c: u.idCategoria, i: u.importe, n: u.compras })
    .from(u)
    .where(and(eq(u.idUser, userId), eq(u.mes, `${mes}-01`)));
  return monthOfRows(rows);
}

/**
 * The rows of user_month_spend that differ from a full recount of the orders (empty when the table is
 * exact): the check of the tests and of the reliability run. A row whose figures are all 0 equals no row.
 */
export async function spendDrift(
  db: Db | Tx,
): Promise<{ id_user: number; mes: string; id_categoria: number; kept: string; counted: string }[]> {
  const result = await db.execute(sql`
    with counted as (${spendContribution(sql`true`, 1)}),
    c as (select * from counted as c(id_user, mes, id_categoria, importe, compras)),
    k as (select id_user, mes, id_categoria, importe, compras from ${u} where importe <> 0 or compras <> 0)
    select coalesce(k.id_user, c.id_user) as id_user, coalesce(k.mes, c.mes)::text as mes,
      coalesce(k.id_categoria, c.id_categoria) as id_categoria,
      coalesce(k.importe, 0) || '/' || coalesce(k.compras, 0) as kept,
      coalesce(c.importe, 0) || '/' || coalesce(c.compras, 0) as counted
    from k full join c using (id_user, mes, id_categoria)
    where k.importe is distinct from c.importe or k.compras is distinct from c.compras
    order by 1, 2, 3`);
  return (
    result as unknown as {
      rows: { id_user: number; mes: string; id_categoria: number; kept: string; counted: string }[];
    }
  ).rows;
}

/** The rows of area_month_spend that differ from a full recount of the orders (empty when exact). */
export async function areaSpendDrift(
  db: Db | Tx,
): Promise<{ id_area: number; mes: string; kept: string; counted: string }[]> {
  const result = await db.execute(sql`
    with counted as (${areaContribution(sql`true`, 1)}),
    c as (select * from counted as c(id_area, mes, importe, compras)),
    k as (select id_area, mes, importe, compras from ${a} where importe <> 0 or compras <> 0)
    select coalesce(k.id_area, c.id_area) as id_area, coalesce(k.mes, c.mes)::text as mes,
      coalesce(k.importe, 0) || '/' || coalesce(k.compras, 0) as kept,
      coalesce(c.importe, 0) || '/' || coalesce(c.compras, 0) as counted
    from k full join c using (id_area, mes)
    where k.importe is distinct from c.importe or k.compras is distinct from c.compras
    order by 1, 2`);
  return (result as unknown as { rows: { id_area: number; mes: string; kept: string; counted: string }[] })
    .rows;
}

/** A row whose kept count differs from a count of its children. */
export type CountDrift = { id: number; kept: number; counted: number };

/**
 * The rows of `parent` whose kept count (`kept`) differs from a count of their rows in `child` by `fk`
 * (empty when every count is exact): the one recount behind the drift checks below, which the tests and the
 * reliability run assert empty after their writes.
 */
async function keptCountDrift(
  db: Db | Tx,
  parent: PgTable,
  kept: PgColumn,
  child: PgTable,
  fk: PgColumn,
): Promise<CountDrift[]> {
  const result = await db.execute(sql`
    select p.id, p.${sql.identifier(kept.name)} as kept, coalesce(c.n, 0)::int as counted
    from ${parent} p
    left join (select ${sql.identifier(fk.name)} as parent_id, count(*)::int as n from ${child} group by 1) c
      on c.parent_id = p.id
    where p.${sql.identifier(kept.name)} is distinct from coalesce(c.n, 0)
    order by p.id`);
  return (result as unknown as { rows: CountDrift[] }).rows;
}

/** The orders whose stored line count (`orders.lineas`) differs from their lines; checked with `spendDrift`. */
export const lineCountDrift = (db: Db | Tx) => keptCountDrift(db, orders, orders.lineas, l, l.orderId);

/**
 * The users whose kept order count (`user_order_counts`, decisions 0137 and 0146; no row counts 0) differs
 * from their orders.
 */
export async function userOrderCountDrift(db: Db | Tx): Promise<CountDrift[]> {
  const result = await db.execute(sql`
    select u.id, coalesce(k.total_pedidos, 0) as kept, coalesce(c.n, 0)::int as counted
    from ${users} u
    left join ${userOrderCounts} k on k.user_id = u.id
    left join (select id_user, count(*)::int as n from ${orders} group by 1) c on c.id_user = u.id
    where coalesce(k.total_pedidos, 0) <> coalesce(c.n, 0)
    order by u.id`);
  return (result as unknown as { rows: CountDrift[] }).rows;
}

/** The orders whose stored comment count (decision 0085) differs from their comments. */
export const commentCountDrift = (db: Db | Tx) =>
  keptCountDrift(db, orders, orders.comentarios, orderComments, orderComments.orderId);
