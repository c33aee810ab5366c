/**
 * The sales summary (product_month_sales, decision 0055): per client, business month, product and category,
 * the quantity, amount and IVA of the lines of non-cancelled orders. The dashboard reads it instead of
 * scanning a year of order lines. It is exact because every change that moves it calls `moveOrderSales` in
 * its own transaction — the order's contribution is taken out before the change and put back after it — and
 * `rebuildSales` recounts it from the orders (at start when it was never built or was built for another
 * business time zone, and after bulk loads).
 */
import { IVA_RATE_PERCENT } from '@portal/shared/domain/money';
import { sql } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';
import { orderLines, orders, productMonthSales, salesState } from './schema/index.ts';

const o = orders;
const l = orderLines;
const s = productMonthSales;

/** The business time zone the summary was built for (months are read in it). */
const TZ = sql`coalesce((select ${salesState.tz} from ${salesState} where ${salesState.id} = 1), 'UTC')`;

/** The columns of the summary for a set of orders' lines, grouped (the one definition of its figures). */
function contribution(where: ReturnType<typeof sql>, sign: 1 | -1) {
  return sql`
    select ${o.idCliente}, (date_trunc('month', ${o.transactionDate} at time zone ${TZ}))::date,
      ${l.productId}, ${l.idCategoria},
      ${sign} * sum(${l.cantidad})::bigint,
      ${sign} * sum(${l.precio} * ${l.cantidad})::bigint,
      ${sign} * sum(case when ${l.impuesto} then (${l.precio} * ${l.cantidad} * ${IVA_RATE_PERCENT} + 50) / 100 else 0 end)::bigint
    from ${l} inner join ${o} on ${o.id} = ${l.orderId}
    where ${where} and ${o.status} <> 'cancelado'
    group by 1, 2, 3, 4
    order by 1, 2, 3, 4`;
}

/**
 * Adds (+1) or takes out (-1) one order's lines, as they are now, from the summary; a cancelled order
 * contributes nothing. Call -1 before a change to the order's lines or status and +1 after it, in the
 * same transaction. Rows are touched in key order, so concurrent changes never deadlock on them.
 */
export async function moveOrderSales(db: Db | Tx, orderId: number, sign: 1 | -1): Promise<void> {
  // A rebuild (exclusive) waits for changes in flight, and they for it.
  await db.execute(sql`select pg_advisory_xact_lock_shared(hashtextextended('portal|sales', 0))`);
  await db.execute(sql`
    insert into ${s} as s (id_cliente, mes, product_id, id_categoria, cantidad, importe, iva)
    ${contribution(sql`${o.id} = ${orderId}`, sign)}
    on conflict (id_cliente, mes, product_id, id_categoria) do update set
      cantidad = s.cantidad + excluded.cantidad,
      importe = s.importe + excluded.importe,
      iva = s.iva + excluded.iva`);
}

/** Recounts the whole summary from the orders for business time zone `tz`, in one transaction. */
export async function rebuildSales(db: Db, tz: string): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('portal|sales', 0))`);
    await tx.execute(sql`
      insert into ${salesState} (id, tz, built_at) values (1, ${tz}, now())
      on conflict (id) do update set tz = excluded.tz, built_at = now()`);
    await tx.execute(sql`delete from ${s}`);
    await tx.execute(sql`
      insert into ${s} (id_cliente, mes, product_id, id_categoria, cantidad, importe, iva)
      ${contribution(sql`true`, 1)}`);
  });
}

/** At start: builds the summary when it was never built, or was built for another business time zone. */
export async function ensureSales(db: Db, tz: string): Promise<void> {
  const [state] = await db.select({ tz: salesState.tz }).from(salesState);
  if (state?.tz !== tz) await rebuildSales(db, tz);
}
