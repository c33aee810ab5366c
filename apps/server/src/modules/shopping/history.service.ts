import { canConfirmReceipt, type FulfilmentState } from '@portal/shared/domain/fulfilment';
import { centavosToPesos } from '@portal/shared/domain/money';
import { waitingFor } from '@portal/shared/domain/order-workflow';
import { businessMonth } from '@portal/shared/domain/time';
import type { OrderStatus } from '@portal/shared/schemas/orders';
import type {
  BuyerOrderResponse,
  HistoryQuery,
  HistoryResponse,
  HistorySort,
} from '@portal/shared/schemas/shopping';
import { splitSort } from '@portal/shared/schemas/sort';
import { and, asc, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pageWindow, preparedOnce, shapeOf, type Val } from '../../db/prepared.ts';
import { orders, userOrderCounts } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { orderDetail } from '../orders/order.repository.ts';

export const HISTORY_PAGE_SIZE = 10;

/** The history's ORDER BY: the date or the total, then the id (indexes on (id_user, …, id)). */
function historyOrder(orden: HistorySort): SQL[] {
  const { field, direction } = splitSort(orden);
  const by = direction === 'asc' ? asc : desc;
  return [by(field === 'total' ? orders.total : orders.transactionDate), by(orders.id)];
}

/** The history's filter: the buyer's orders, maybe of one status, one business month or one number. */
function historyWhere(f: {
  userId: Val<number>;
  status?: Val<string>;
  from?: Val<Date>;
  to?: Val<Date>;
  id?: Val<number>;
}): SQL | undefined {
  const conditions: SQL[] = [eq(orders.idUser, f.userId)];
  if (f.status !== undefined) conditions.push(eq(orders.status, f.status));
  if (f.from !== undefined) conditions.push(gte(orders.transactionDate, f.from));
  if (f.to !== undefined) conditions.push(lt(orders.transactionDate, f.to));
  if (f.id !== undefined) conditions.push(eq(orders.id, f.id));
  return and(...conditions);
}

/**
 * How many orders the filter finds: without a status, month or number, every order of the buyer, which
 * `user_order_counts` keeps (migrations 0061, 0068; no row: none yet) — counting them read the buyer's whole
 * index range on every page, a cost that grew with the buyer's orders (finding 46); with one, they are counted.
 */
function historyCount(f: Parameters<typeof historyWhere>[0]): SQL {
  return f.status === undefined && f.from === undefined && f.to === undefined && f.id === undefined
    ? sql`coalesce((select ${userOrderCounts.totalPedidos} from ${userOrderCounts} where ${userOrderCounts.userId} = ${f.userId}), 0)`
    : sql`(select count(*)::int from ${orders} where ${historyWhere(f)})`;
}

/** The user's orders, newest first unless sorted otherwise, 10 per page, filtered by status, month, number. */
export async function userHistory(
  deps: Pick<Deps, 'config' | 'db'>,
  userId: number,
  query: { page: number } & Partial<Omit<HistoryQuery, 'page'>>,
): Promise<HistoryResponse> {
  const { page } = query;
  const range = query.mes
    ? // Any instant in the middle of the month lies in it, whatever the zone.
      businessMonth(`${query.mes}-15T12:00:00Z`, deps.config.BUSINESS_TZ)
    : undefined;
  const filter = {
    userId,
    status: query.status && query.status !== 'todos' ? query.status : undefined,
    from: range?.start,
    to: range?.end,
    id: query.q ? Number(query.q.replace('#', '')) : undefined,
  };
  const orden = query.orden ?? 'fecha_desc';
  const { shape, args } = shapeOf(filter);
  const window = pageWindow(page, HISTORY_PAGE_SIZE);
  // One statement: the page, each order's stored line and comment counts, and the filter's total beside
  // every row. Built once per shape and run as a named prepared statement: the purchase's answer reads it
  // on every purchase. Only a page past the end, which has no row to carry the total, counts again.
  const rows = await preparedOnce(deps.db, `portal_history_${orden}_${shape}_${window.shape}`, (d) =>
    d
      .select({
        id: orders.id,
        total: orders.total,
        status: orders.status,
        surtido: orders.surtidoEstatus,
        transactionDate: orders.transactionDate,
        productos: orders.lineas,
        comentarios: orders.comentarios,
        // Apart from the page (once): a window count over the page's rows fetched every order of the buyer
        // to show ten (133 against 18 buffers for 127 orders).
        n: sql<number>`${historyCount(args)}`,
      })
      .from(orders)
      .where(historyWhere(args))
      .orderBy(...historyOrder(orden))
      .limit(window.limit)
      .offset(window.offset),
  ).execute({ ...filter, ...window.values });
  const total =
    rows[0]?.n ??
    (page > 1
      ? ((await deps.db.select({ n: count() }).from(orders).where(historyWhere(filter)))[0]?.n ?? 0)
      : 0);
  return { pedidos: rows.map(historyRowDto), total, page, per_page: HISTORY_PAGE_SIZE };
}

/** One order of the history as its page reads it. */
export interface HistoryRow {
  id: number;
  total: number;
  status: string;
  surtido: string | null;
  transactionDate: Date;
  productos: number;
  comentarios: number;
}

function historyRowDto(r: HistoryRow): HistoryResponse['pedidos'][number] {
  return {
    id: r.id,
    productos: r.productos,
    total: centavosToPesos(r.total),
    status: r.status as OrderStatus,
    transaction_date: r.transactionDate.toISOString(),
    comentarios: r.comentarios,
    surtido: r.surtido as FulfilmentState | null,
  };
}

/** The first page of the history (no filter, newest first) as one JSON value: `{ n, rows }`. */
export type FirstHistoryPageJson = {
  n: number;
  rows: (Omit<HistoryRow, 'transactionDate'> & { transactionDate: string })[];
};

/**
 * The buyer's first history page and its total as one JSON value inside a larger statement: the purchase
 * reads it under the buyer's lock with the rest of its snapshot, and answers with `historyAfterPurchase`
 * instead of reading the history again after the commit (decision 0073).
 */
export function firstHistoryPageJson(userId: Val<number>): SQL {
  const where = historyWhere({ userId });
  return sql`json_build_object(
    'n', ${historyCount({ userId })},
    'rows', (select coalesce(json_agg(r), '[]'::json) from (
      select ${orders.id} as id, ${orders.total} as total, ${orders.status} as status,
        ${orders.surtidoEstatus} as surtido, ${orders.transactionDate} as "transactionDate",
        ${orders.lineas} as productos, ${orders.comentarios} as comentarios
      from ${orders} where ${where}
      order by ${sql.join(historyOrder('fecha_desc'), sql`, `)}
      limit ${sql.raw(String(HISTORY_PAGE_SIZE))}) r))`;
}

/**
 * The first history page right after a purchase, as a read after the commit would give it: the page read
 * under the lock (`firstHistoryPageJson`) with the new order in its place by date and number, one more in
 * all.
 */
export function historyAfterPurchase(read: FirstHistoryPageJson, order: HistoryRow): HistoryResponse {
  const rows: HistoryRow[] = read.rows.map((r) => ({
    ...r,
    total: Number(r.total),
    transactionDate: new Date(r.transactionDate),
  }));
  rows.push(order);
  // The page's order (historyOrder 'fecha_desc'): newest date first, then the higher number.
  rows.sort((a, b) => b.transactionDate.getTime() - a.transactionDate.getTime() || b.id - a.id);
  return {
    pedidos: rows.slice(0, HISTORY_PAGE_SIZE).map(historyRowDto),
    total: read.n + 1,
    page: 1,
    per_page: HISTORY_PAGE_SIZE,
  };
}

/** GET /api/historial/{id}: the buyer's own order, whom it waits for and since when, and the withdrawal. */
export async function buyerOrder(db: Db, id: number, userId: number): Promise<BuyerOrderResponse> {
  const pedido = await orderDetail(db, id, { idUser: userId });
  return {
    pedido,
    en_espera: waitingFor(pedido.status, pedido.eventos, pedido.transaction_date),
    acciones: { retirar: pedido.status === 'pendiente', recibir: canConfirmReceipt(pedido.surtido) },
  };
}
