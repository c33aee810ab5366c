/**
 * "An approval is refused when…" (docs/domain.md): the buyer's month with an order's lines as they would be
 * approved. One rule, used by the approval itself (one order, in its transaction) and by the authorizers'
 * list (the flags of a whole page, read in a few batched queries).
 */
import { type BudgetLine, type MonthUsed, monthUsedOf, spendOf } from '@portal/shared/domain/budget';
import { centavosToPesos, totalsOf } from '@portal/shared/domain/money';
import { businessMonth } from '@portal/shared/domain/time';
import type { ApprovalBudget } from '@portal/shared/schemas/orders';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { type MonthSpendJson, monthOfRows } from '../../db/order-totals.ts';
import { executeNamed } from '../../db/prepared.ts';
import { categories, orderLines, userCategoryBudgets, userMonthSpend, users } from '../../db/schema/index.ts';
import { otherMonthOrders } from './authorizer.repository.ts';

interface CategoryBudgetRow {
  id: number;
  presupuesto: number;
  nombre: string;
}

/**
 * The figures and the verdict, from what was read: the buyer's monthly budget (regular) or category
 * budgets (categoria), what the buyer's other non-cancelled orders of the month spend (`used`, added up by
 * the budget rule: totals, and per category with IVA rounded per order and category), and this order's lines.
 */
export function approvalFigures(input: {
  modo: string;
  presupuestoDefault: number;
  budgets: readonly CategoryBudgetRow[];
  used: MonthUsed;
  lines: readonly BudgetLine[];
}): ApprovalBudget & { over: boolean } {
  const { used: monthUsed, lines, budgets } = input;
  const productos = lines.reduce((n, l) => n + l.cantidad, 0);
  if (input.modo !== 'categoria') {
    const utilizado = monthUsed.total;
    const restante = input.presupuestoDefault - utilizado - totalsOf(lines).total;
    return {
      tipo_presupuesto: 'regular',
      disponible: centavosToPesos(input.presupuestoDefault),
      utilizado: centavosToPesos(utilizado),
      restante: centavosToPesos(restante),
      productos,
      categorias: [],
      over: restante < 0,
    };
  }
  const touched = new Set(lines.map((l) => l.idCategoria));
  let over = false;
  let disponible = 0;
  let utilizado = 0;
  let esta = 0;
  const cats = [];
  for (const b of budgets) {
    const used = monthUsed.categorias.get(b.id) ?? 0;
    const mine = spendOf(lines.filter((l) => l.idCategoria === b.id));
    disponible += b.presupuesto;
    utilizado += used;
    esta += mine;
    const restante = b.presupuesto - used - mine;
    if (touched.has(b.id) && restante < 0) over = true;
    cats.push({
      id: b.id,
      nombre: b.nombre,
      disponible: centavosToPesos(b.presupuesto),
      utilizado: centavosToPesos(used),
      restante: centavosToPesos(restante),
    });
  }
  // A line whose category has no budget for this user cannot be approved.
  for (const id of touched) if (!budgets.some((b) => b.id === id && b.presupuesto > 0)) over = true;
  return {
    tipo_presupuesto: 'categoria',
    disponible: centavosToPesos(disponible),
    utilizado: centavosToPesos(utilizado),
    restante: centavosToPesos(disponible - utilizado - esta),
    productos,
    categorias: cats,
    over,
  };
}

function categoryBudgets(db: Db | Tx, userIds: number[]) {
  return db
    .select({
      userId: userCategoryBudgets.userId,
      id: userCategoryBudgets.categoryId,
      presupuesto: userCategoryBudgets.presupuesto,
      nombre: categories.nombre,
    })
    .from(userCategoryBudgets)
    .innerJoin(categories, eq(categories.id, userCategoryBudgets.categoryId))
    .where(inArray(userCategoryBudgets.userId, userIds));
}

/** One order's approval figures (the review screen and the approval, inside its transaction). */
export async function approvalBudget(
  db: Db | Tx,
  tz: string,
  order: { id: number; idUser: number; transactionDate: Date },
  buyer: { presupuestoDefault: number },
  modo: string,
  lines: BudgetLine[],
): Promise<ApprovalBudget & { over: boolean; others: Awaited<ReturnType<typeof otherMonthOrders>> }> {
  const others = await otherMonthOrders(db, order.idUser, order.id, businessMonth(order.transactionDate, tz));
  const budgets = modo === 'categoria' ? await categoryBudgets(db, [order.idUser]) : [];
  return {
    ...approvalFigures({
      modo,
      presupuestoDefault: buyer.presupuestoDefault,
      budgets,
      used: monthUsedOf(others),
      lines,
    }),
    others,
  };
}

/**
 * The list's flags for a page of orders, in one statement whatever the page holds: each buyer's budget and
 * running months of the months the page touches (user_month_spend, decision 0072), in category mode also
 * the buyers' category budgets and the page's own lines. An order's "others" are its buyer's month without
 * it (a cancelled order is not in the month). Keyed by order id.
 */
export async function pageBudgetFlags(
  db: Db,
  tz: string,
  modo: string,
  page: readonly { id: number; idUser: number; status: string; total: number; transactionDate: Date }[],
): Promise<Map<number, { over: boolean; restante: number }>> {
  const flags = new Map<number, { over: boolean; restante: number }>();
  if (page.length === 0) return flags;
  const byCategory = modo === 'categoria';
  const userIds = [...new Set(page.map((o) => o.idUser))];
  const mesOf = new Map(page.map((o) => [o.id, `${businessMonth(o.transactionDate, tz).key}-01`]));
  const months = [...new Set(mesOf.values())];
  const s = userMonthSpend;
  const b = userCategoryBudgets;
  const l = orderLines;
  const buyers = sql`select ${users.id} as id, ${users.presupuestoDefault} as p,
      (select coalesce(json_agg(json_build_object('m', ${s.mes}::text, 'c', ${s.idCategoria}, 'i', ${s.importe}, 'n', ${s.compras})), '[]'::json)
        from ${s} where ${s.idUser} = ${users.id} and ${s.mes} = any(${sql.param(months)}::date[])) as month,
      ${
        byCategory
          ? sql`(select coalesce(json_agg(json_build_object('id', ${b.categoryId}, 'presupuesto', ${b.presupuesto}, 'nombre', ${categories.nombre})), '[]'::json)
          from ${b} inner join ${categories} on ${categories.id} = ${b.categoryId} where ${b.userId} = ${users.id})`
          : sql`null`
      } as budgets
    from ${users} where ${users.id} = any(${sql.param(userIds)}::int4[])`;
  const lines = byCategory
    ? sql`(select coalesce(json_agg(r), '[]'::json) from (select ${l.orderId} as o, ${l.idCategoria} as "idCategoria",
        ${l.precio} as precio, ${l.cantidad} as cantidad, ${l.impuesto} as impuesto
      from ${l} where ${l.orderId} = any(${sql.param(page.map((o) => o.id))}::int4[])) r)`
    : sql`'[]'::json`;
  // A named prepared statement, one text per mode (the ids and months are parameters; the category parts are
  // in the text only in category mode, so PostgreSQL keeps one generic plan for each: benchmarks, finding 28).
  const [row] = await executeNamed<{
    buyers: {
      id: number;
      p: number | string;
      month: (MonthSpendJson & { m: string })[];
      budgets: CategoryBudgetRow[] | null;
    }[];
    lines: (BudgetLine & { o: number; precio: number | string })[];
  }>(
    db,
    'portal_page_flags',
    sql`
    select (select coalesce(json_agg(r), '[]'::json) from (${buyers}) r) as buyers, ${lines} as lines`,
  );
  const buyerOf = new Map(row!.buyers.map((x) => [x.id, x]));
  const linesOf = new Map<number, BudgetLine[]>();
  for (const x of row!.lines) {
    const line = {
      idCategoria: x.idCategoria,
      precio: Number(x.precio),
      cantidad: x.cantidad,
      impuesto: x.impuesto,
    };
    const list = linesOf.get(x.o);
    if (list) list.push(line);
    else linesOf.set(x.o, [line]);
  }
  for (const o of page) {
    const buyer = buyerOf.get(o.idUser);
    const mes = mesOf.get(o.id)!;
    const month = monthOfRows((buyer?.month ?? []).filter((r) => r.m === mes)).used;
    // Regular mode needs only the order's total; a line list with that total stands for its lines.
    const own: BudgetLine[] = byCategory
      ? (linesOf.get(o.id) ?? [])
      : [{ precio: o.total, cantidad: 1, impuesto: false, idCategoria: 0 }];
    // The month holds this order unless it is cancelled: take its own contribution out.
    const mine = o.status === 'cancelado' ? monthUsedOf([]) : monthUsedOf([{ total: o.total, lines: own }]);
    const categorias = new Map(month.categorias);
    for (const [id, spent] of mine.categorias) categorias.set(id, (categorias.get(id) ?? 0) - spent);
    const figures = approvalFigures({
      modo,
      presupuestoDefault: Number(buyer?.p ?? 0),
      budgets: (buyer?.budgets ?? []).map((x) => ({ ...x, presupuesto: Number(x.presupuesto) })),
      used: { total: month.total - mine.total, categorias },
      lines: own,
    });
    flags.set(o.id, { over: figures.over, restante: figures.restante });
  }
  return flags;
}
