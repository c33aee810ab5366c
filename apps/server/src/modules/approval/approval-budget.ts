/**
 * "An approval is refused when…" (docs/domain.md): the buyer's month with an order's lines as they would be
 * approved. One rule, used by the approval itself (one order, in its transaction) and by the authorizers'
 * list (the flags of a whole page, read in a few batched queries).
 */
import {
  type BudgetLine,
  type MonthUsed,
  monthUsedOf,
  spendOf,
  withTopups,
} from '@portal/shared/domain/budget';
import { centavosToPesos, totalsOf } from '@portal/shared/domain/money';
import { businessMonth } from '@portal/shared/domain/time';
import type { ApprovalBudget } from '@portal/shared/schemas/orders';
import { eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { type MonthSpendJson, monthOfRows } from '../../db/order-totals.ts';
import { executeNamed } from '../../db/prepared.ts';
import { categories, orderLines, userCategoryBudgets, userMonthSpend, users } from '../../db/schema/index.ts';
import { areaMonth, areaMonths, areaOthers, usersTopups, userTopups } from '../areas/area-budget.ts';
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
}): Omit<ApprovalBudget, 'area'> & { over: boolean } {
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

/** One order's approval figures (the review screen). */
export async function approvalBudget(
  db: Db | Tx,
  tz: string,
  order: {
    id: number;
    idUser: number;
    transactionDate: Date;
    idArea: number | null;
    status: string;
    total: number;
  },
  buyer: { presupuestoDefault: number },
  modo: string,
  lines: BudgetLine[],
): Promise<ApprovalBudget & { over: boolean; others: Awaited<ReturnType<typeof otherMonthOrders>> }> {
  const month = businessMonth(order.transactionDate, tz);
  const mes = `${month.key}-01`;
  const others = await otherMonthOrders(db, order.idUser, order.id, month);
  const budgets = modo === 'categoria' ? await categoryBudgets(db, [order.idUser]) : [];
  const ajustes = await userTopups(db, order.idUser, mes);
  // The área the order is charged to (decision 0123): its month without this order, then with it as it stands.
  const area = order.idArea !== null ? await areaMonth(db, order.idArea, mes) : null;
  const topped = withTopups(buyer.presupuestoDefault, budgets, ajustes);
  const figures = approvalFigures({
    modo,
    presupuestoDefault: topped.presupuestoDefault,
    budgets: topped.categorias,
    used: monthUsedOf(others),
    lines,
  });
  const areaRestante = area ? area.presupuesto - areaOthers(area, order) - totalsOf(lines).total : 0;
  return {
    ...figures,
    over: figures.over || areaRestante < 0,
    area: area
      ? {
          id: area.id,
          nombre: area.nombre,
          codigo: area.codigo,
          presupuesto: centavosToPesos(area.presupuesto),
          utilizado: centavosToPesos(areaOthers(area, order)),
          restante: centavosToPesos(areaRestante),
        }
      : null,
    others,
  };
}

type FlagBuyer = {
  p: number | string;
  month: (MonthSpendJson & { m: string })[];
  budgets: CategoryBudgetRow[] | null;
};

/**
 * Category mode, in one statement: each buyer's budget, running months of the months the page touches,
 * category budgets, and the page's own lines.
 */
async function categoryFlagBuyers(
  db: Db,
  userIds: number[],
  months: string[],
  orderIds: number[],
): Promise<{ buyers: Map<number, FlagBuyer>; lines: Map<number, BudgetLine[]> }> {
  const s = userMonthSpend;
  const b = userCategoryBudgets;
  const l = orderLines;
  // A named prepared statement (the ids and months are parameters, so its text is the same on every call).
  const [row] = await executeNamed<{
    buyers: (FlagBuyer & { id: number })[];
    lines: (BudgetLine & { o: number; precio: number | string })[];
  }>(
    db,
    'portal_page_flags',
    sql`
    select (select coalesce(json_agg(r), '[]'::json) from (select ${users.id} as id, ${users.presupuestoDefault} as p,
      (select coalesce(json_agg(json_build_object('m', ${s.mes}::text, 'c', ${s.idCategoria}, 'i', ${s.importe}, 'n', ${s.compras})), '[]'::json)
        from ${s} where ${s.idUser} = ${users.id} and ${s.mes} = any(${sql.param(months)}::date[])) as month,
      (select coalesce(json_agg(json_build_object('id', ${b.categoryId}, 'presupuesto', ${b.presupuesto}, 'nombre', ${categories.nombre})), '[]'::json)
        from ${b} inner join ${categories} on ${categories.id} = ${b.categoryId} where ${b.userId} = ${users.id}) as budgets
      from ${users} where ${users.id} = any(${sql.param(userIds)}::int4[])) r) as buyers,
    (select coalesce(json_agg(r), '[]'::json) from (select ${l.orderId} as o, ${l.idCategoria} as "idCategoria",
        ${l.precio} as precio, ${l.cantidad} as cantidad, ${l.impuesto} as impuesto
      from ${l} where ${l.orderId} = any(${sql.param(orderIds)}::int4[])) r) as lines`,
  );
  const lines = new Map<number, BudgetLine[]>();
  for (const x of row!.lines) {
    const line = {
      idCategoria: x.idCategoria,
      precio: Number(x.precio),
      cantidad: x.cantidad,
      impuesto: x.impuesto,
    };
    const list = lines.get(x.o);
    if (list) list.push(line);
    else lines.set(x.o, [line]);
  }
  return { buyers: new Map(row!.buyers.map((x) => [x.id, x])), lines };
}

/**
 * The buyer's running month (user_month_spend) without one order's own contribution, from its lines as they
 * stand: what the buyer's other orders of the month spend. The month holds the order unless it is
 * cancelled.
 */
export function monthWithout(
  month: MonthUsed,
  order: { status: string; total: number },
  lines: readonly BudgetLine[],
): MonthUsed {
  const mine = order.status === 'cancelado' ? monthUsedOf([]) : monthUsedOf([{ total: order.total, lines }]);
  const categorias = new Map(month.categorias);
  for (const [id, spent] of mine.categorias) categorias.set(id, (categorias.get(id) ?? 0) - spent);
  return { total: month.total - mine.total, categorias };
}

/**
 * The list's flags for a page of orders. Regular mode reads nothing more: the page statement brings each
 * row's buyer budget and running month (`presupuestoDefault`, `gastoDelMes`: user_month_spend, category 0,
 * decision 0072). Category mode reads, in one statement whatever the page holds, each buyer's running months
 * of the months the page touches, its category budgets, and the page's own lines. An order's "others" are
 * its buyer's month without it (a cancelled order is not in the month). With them, in the same round trip,
 * the buyers' top-ups and the áreas' months of the page's months (decision 0123): an order over its área
 * is flagged too. Keyed by order id.
 */
export async function pageBudgetFlags(
  db: Db,
  tz: string,
  modo: string,
  page: readonly {
    id: number;
    idUser: number;
    status: string;
    total: number;
    transactionDate: Date;
    presupuestoDefault: number;
    gastoDelMes: number;
    idArea: number | null;
  }[],
): Promise<Map<number, { over: boolean; restante: number }>> {
  const flags = new Map<number, { over: boolean; restante: number }>();
  if (page.length === 0) return flags;
  const byCategory = modo === 'categoria';
  const mesOf = new Map(page.map((o) => [o.id, `${businessMonth(o.transactionDate, tz).key}-01`]));
  const meses = [...new Set(mesOf.values())];
  // The buyers' top-ups and the áreas' months of the months the page touches (decision 0123).
  const buyers = [...new Set(page.map((o) => o.idUser))];
  const [category, topups, areaByMonth] = await Promise.all([
    byCategory
      ? categoryFlagBuyers(
          db,
          buyers,
          meses,
          page.map((o) => o.id),
        )
      : undefined,
    usersTopups(db, buyers, meses),
    Promise.all(
      meses.map(async (mes) => {
        const ids = page.filter((o) => o.idArea !== null && mesOf.get(o.id) === mes).map((o) => o.idArea!);
        return [mes, await areaMonths(db, ids, mes)] as const;
      }),
    ).then((entries) => new Map(entries)),
  ]);
  for (const o of page) {
    const buyer = category?.buyers.get(o.idUser);
    const month = category
      ? monthOfRows((buyer?.month ?? []).filter((r) => r.m === mesOf.get(o.id))).used
      : { total: o.gastoDelMes, categorias: new Map<number, number>() };
    // Regular mode needs only the order's total; a line list with that total stands for its lines.
    const own: BudgetLine[] = category
      ? (category.lines.get(o.id) ?? [])
      : [{ precio: o.total, cantidad: 1, impuesto: false, idCategoria: 0 }];
    const topped = withTopups(
      category ? Number(buyer?.p ?? 0) : o.presupuestoDefault,
      (buyer?.budgets ?? []).map((x) => ({ ...x, presupuesto: Number(x.presupuesto) })),
      topups.get(`${o.idUser}|${mesOf.get(o.id)}`) ?? new Map(),
    );
    const figures = approvalFigures({
      modo,
      presupuestoDefault: topped.presupuestoDefault,
      budgets: topped.categorias,
      used: monthWithout(month, o, own),
      lines: own,
    });
    const area = o.idArea !== null ? areaByMonth.get(mesOf.get(o.id)!)?.get(o.idArea) : undefined;
    const areaOver = area ? area.presupuesto - areaOthers(area, o) - o.total < 0 : false;
    flags.set(o.id, { over: figures.over || areaOver, restante: figures.restante });
  }
  return flags;
}
