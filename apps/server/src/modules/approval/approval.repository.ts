/**
 * An approval in few statements (decision 0090): after the order's and the buyer's locks (one statement), one read of
 * everything the approval decides on; the order's lifecycle seam then writes it in one statement
 * (`orders/order-writes.ts` `writeApproval`, decision 0107).
 */
import type { BudgetLine, MonthUsed } from '@portal/shared/domain/budget';
import { ROLES } from '@portal/shared/domain/roles';
import { and, eq, getTableColumns, type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { jsonRows } from '../../db/json-rows.ts';
import { type MonthSpendJson, monthOfRows } from '../../db/order-totals.ts';
import { genericPlansForTheTransaction, preparedIn } from '../../db/prepared.ts';
import {
  budgetAdjustments,
  categories,
  clients,
  orderLines,
  orders,
  userCategoryBudgets,
  userMonthSpend,
  userProducts,
  users,
} from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import { wantingEndpoints } from '../integration/webhook-outbox.ts';
import { levelOneApproverQuery } from './authorizer.repository.ts';
import { actingForQuery, type LevelPerson, levelWithStandInsQuery } from './delegation.service.ts';

/**
 * The first statement of an approval or a cancellation: the order (of the authorizer's client; another
 * client's answers like a missing one), locked for the rest of the transaction, which it switches to generic
 * plans (decision 0083): every statement of either reads by keys, and the approval's read was otherwise
 * planned again on every call (0.9 ms, docs/benchmarks.md finding 37).
 */
export async function lockOrderForAction(tx: Tx, id: number, idCliente: number) {
  const [row] = await preparedIn(tx, 'portal_approval_lock_order', (d) =>
    d
      .select({ ...getTableColumns(orders), plans: genericPlansForTheTransaction })
      .from(orders)
      .where(and(eq(orders.id, sql.placeholder('id')), eq(orders.idCliente, sql.placeholder('idCliente'))))
      .for('update'),
  ).execute({ id, idCliente });
  if (!row) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  const { plans: _, ...order } = row;
  return order;
}

/**
 * What a buyer placed in the `hours` up to `until` (centavos, cancelled orders and `except` left out): the
 * rules by amount add it to an order's total, so a cart split in several orders meets them as one (decision
 * 0100). A scalar subquery on orders_user_date_idx; `orders` inside it is aliased, so the arguments may name
 * an outer `orders` row.
 */
export function placedInWindow(userId: SQL, until: SQL, hours: SQL, except: SQL | null): SQL<number> {
  return sql<number>`(select coalesce(sum(w.total), 0) from ${orders} w
    where w.id_user = ${userId} and w.status <> 'cancelado'
      and w.transaction_date > ${until} - make_interval(hours => ${hours}) and w.transaction_date <= ${until}
      ${except ? sql`and w.id <> ${except}` : sql``})`;
}

/** `placedInWindow` on its own: before a purchase (`now`), or before an order under review (`except` it). */
export async function placedBefore(
  db: Db | Tx,
  v: { userId: number; until: Date; hours: number; except?: number },
): Promise<number> {
  const [row] = await rowsOf<{ previos: number | string }>(
    db,
    sql`select ${placedInWindow(
      sql`${v.userId}::int`,
      sql`${v.until.toISOString()}::timestamptz`,
      sql`${v.hours}::int`,
      v.except === undefined ? null : sql`${v.except}::int`,
    )} as previos`,
  );
  return Number(row?.previos ?? 0);
}

/**
 * `placedInWindow` for several orders at once, each before itself (a page of the approvers' list): what each
 * order's buyer placed in the `hours` up to it, the order left out. One statement; ids of no row are absent.
 */
export async function placedBeforeEach(
  db: Db,
  ids: readonly number[],
  hours: number,
): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await rowsOf<{ id: number; previos: number | string }>(
    db,
    sql`select o.id, ${placedInWindow(sql`o.id_user`, sql`o.transaction_date`, sql`${hours}::int`, sql`o.id`)} as previos
      from ${orders} o where o.id = any(${sql.param([...ids])}::int[])`,
  );
  return new Map(rows.map((r) => [Number(r.id), Number(r.previos)]));
}

/** An order's buyer as the approval, the review and the e-mails name it. */
export const ORDER_BUYER = {
  id: users.id,
  nombre: users.nombre,
  usuario: users.usuario,
  email: users.email,
  presupuestoDefault: users.presupuestoDefault,
};

/**
 * The first statement of an approval: the order (of the authorizer's client; another client's answers like
 * a missing one) and its buyer, both locked in that order — the order's row, then the buyer's (decision
 * 0124's lock order; a purchase of the buyer waits, so the month the approval reads is whole) — in one round
 * trip. Like `lockOrderForAction`, it switches the transaction to generic plans (decision 0083).
 */
export async function lockOrderAndBuyerForApproval(tx: Tx, id: number, idCliente: number) {
  const [row] = await preparedIn(tx, 'portal_approval_lock_order_buyer', (d) =>
    d
      .select({
        order: getTableColumns(orders),
        buyer: ORDER_BUYER,
        plans: genericPlansForTheTransaction,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.idUser))
      .where(and(eq(orders.id, sql.placeholder('id')), eq(orders.idCliente, sql.placeholder('idCliente'))))
      .for('update', { of: [orders, users] }),
  ).execute({ id, idCliente });
  if (!row) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  return { order: row.order, buyer: row.buyer };
}

/** An order line as the approval reads it (its edits and its budget). */
export interface ApprovalLine extends BudgetLine {
  id: number;
  productId: number;
  nombre: string;
}

/** What an approval reads under the order's and the buyer's locks. */
export interface ApprovalRead {
  /** The client's approval levels and rules, as they are now (not as the session read them). */
  levels: number;
  modo: string;
  autoHasta: number | null;
  segundoNivelDesde: number | null;
  /**
   * What the buyer placed in the client's window before the order (decision 0100), when a level-1 approval
   * may meet the second-level rule; else 0.
   */
  previos: number;
  /** The people the approver stands in for today (`actingFor`). */
  delegators: { id: number; nombre: string; rol: number }[];
  /** Who gave the level-1 approval, when the order waits for level 2 (`levelOneApprover`). */
  levelOne: { actorId: number | null; onBehalfOfId: number | null } | null;
  /** The order's lines, in their order. */
  lines: ApprovalLine[];
  /** The buyer's `cantidad_limite` of each product of the order that has one. */
  limits: Map<number, number>;
  /** The buyer's running month of the order (user_month_spend), the order included unless cancelled. */
  month: MonthUsed;
  /** The buyer's category budgets, with the category's name (category mode only; else empty). */
  budgets: { id: number; presupuesto: number; nombre: string }[];
  /** The buyer's approved top-ups of the order's month, per category (0: the whole budget; decision 0123). */
  ajustes: Map<number, number>;
  /** Level 2's authorizers and today's stand-ins, when a level-1 approval may send the order to them. */
  levelTwo: LevelPerson[] | null;
  /** The webhook endpoints that want `pedido.aprobado` of the order's client. */
  wanting: number[];
}

type ReadRow = Omit<ApprovalRead, 'limits' | 'month' | 'lines' | 'budgets' | 'previos' | 'ajustes'> & {
  ajustes: { c: number; i: number | string }[];
  previos: number | string;
  lines: (Omit<ApprovalLine, 'precio'> & { precio: number | string })[];
  limits: { p: number; l: number }[];
  month: MonthSpendJson[];
  budgets: { id: number; presupuesto: number | string; nombre: string }[] | null;
};

const p = (name: 'orderId' | 'userId' | 'idCliente' | 'day' | 'mes') => sql.placeholder(name);

/**
 * One statement, on the transaction's connection after the order and its buyer are locked (so it sees every
 * change committed before the locks were taken). Parts that only some approvals need are read only when
 * they apply (`case`), within the same statement.
 */
export async function readApproval(
  tx: Tx,
  values: { orderId: number; userId: number; idCliente: number; day: string; mes: string },
): Promise<ApprovalRead> {
  const [row] = await preparedIn(tx, 'portal_approval_read', (d) => {
    const o = orders;
    const c = clients;
    const lines = sql`select ${orderLines.id} as id, ${orderLines.productId} as "productId",
        ${orderLines.nombre} as nombre, ${orderLines.cantidad} as cantidad, ${orderLines.precio} as precio,
        ${orderLines.impuesto} as impuesto, ${orderLines.idCategoria} as "idCategoria"
      from ${orderLines} where ${orderLines.orderId} = ${o.id}`;
    const limits = sql`select ${userProducts.productId} as p, ${userProducts.cantidadLimite} as l
      from ${userProducts}
      where ${userProducts.userId} = ${o.idUser}
        and ${userProducts.productId} in (select ${orderLines.productId} from ${orderLines} where ${orderLines.orderId} = ${o.id})`;
    const month = sql`select ${userMonthSpend.idCategoria} as c, ${userMonthSpend.importe} as i,
        ${userMonthSpend.compras} as n
      from ${userMonthSpend} where ${userMonthSpend.idUser} = ${o.idUser} and ${userMonthSpend.mes} = ${p('mes')}::date`;
    const budgets = sql`select ${userCategoryBudgets.categoryId} as id, ${userCategoryBudgets.presupuesto} as presupuesto,
        ${categories.nombre} as nombre
      from ${userCategoryBudgets} inner join ${categories} on ${categories.id} = ${userCategoryBudgets.categoryId}
      where ${userCategoryBudgets.userId} = ${o.idUser}`;
    const ajustes = sql`select ${budgetAdjustments.idCategoria} as c, sum(${budgetAdjustments.importe}) as i
      from ${budgetAdjustments}
      where ${budgetAdjustments.userId} = ${o.idUser} and ${budgetAdjustments.mes} = ${p('mes')}::date
      group by 1`;
    const levelOne = levelOneApproverQuery(d, sql`${o.id}`).getSQL();
    const acting = actingForQuery(d, {
      userId: p('userId'),
      idCliente: p('idCliente'),
      day: p('day'),
    }).getSQL();
    const levelTwo = levelWithStandInsQuery(p('idCliente'), ROLES.superAutorizador, p('day'));
    return d
      .select({
        levels: c.cantidadAutorizadores,
        modo: c.modoPresupuesto,
        autoHasta: c.aprobacionAutomaticaHasta,
        segundoNivelDesde: c.segundoNivelDesde,
        previos: sql<
          ReadRow['previos']
        >`case when ${o.status} = 'pendiente' and ${c.cantidadAutorizadores} = 2
            and ${c.segundoNivelDesde} is not null and ${c.ventanaReglasHoras} > 0
          then ${placedInWindow(sql`${o.idUser}`, sql`${o.transactionDate}`, sql`${c.ventanaReglasHoras}`, sql`${o.id}`)}
          else 0 end`,
        delegators: sql<ReadRow['delegators']>`${jsonRows(acting)}`,
        levelOne: sql<ReadRow['levelOne']>`case when ${o.status} = 'espera'
          then (select row_to_json(r) from (${levelOne}) r) end`,
        lines: sql<ReadRow['lines']>`${jsonRows(lines, sql`r.id`)}`,
        limits: sql<ReadRow['limits']>`${jsonRows(limits)}`,
        month: sql<ReadRow['month']>`${jsonRows(month)}`,
        ajustes: sql<ReadRow['ajustes']>`${jsonRows(ajustes)}`,
        budgets: sql<
          ReadRow['budgets']
        >`case when ${c.modoPresupuesto} = 'categoria' then ${jsonRows(budgets)} end`,
        levelTwo: sql<
          ReadRow['levelTwo']
        >`case when ${o.status} = 'pendiente' and ${c.cantidadAutorizadores} = 2
          then (select coalesce(json_agg(x order by x.part, x.id), '[]'::json) from (${levelTwo}) x) end`,
        wanting: sql<number[]>`${wantingEndpoints(p('idCliente'), 'pedido.aprobado')}`,
      })
      .from(o)
      .innerJoin(c, sql`${c.id} = ${o.idCliente}`)
      .where(sql`${o.id} = ${p('orderId')} and ${o.idCliente} = ${p('idCliente')}`);
  }).execute(values);
  if (!row) throw new Error(`No existe el pedido ${values.orderId}`);
  return {
    ...row,
    previos: Number(row.previos),
    lines: row.lines.map((l) => ({ ...l, precio: Number(l.precio) })),
    limits: new Map(row.limits.map((x) => [x.p, x.l])),
    month: monthOfRows(row.month).used,
    budgets: (row.budgets ?? []).map((b) => ({ ...b, presupuesto: Number(b.presupuesto) })),
    ajustes: new Map(row.ajustes.map((a) => [Number(a.c), Number(a.i)])),
  };
}
