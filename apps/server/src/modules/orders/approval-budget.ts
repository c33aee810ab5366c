/**
 * "An approval is refused when…" (docs/domain.md): the buyer's month with an order's lines as they would be
 * approved. One rule, used by the approval itself (one order, in its transaction) and by the authorizers'
 * list (the flags of a whole page, read in a few batched queries).
 */
import { type BudgetLine, spendOf } from '@portal/shared/domain/budget';
import { centavosToPesos, totalsOf } from '@portal/shared/domain/money';
import { businessMonth } from '@portal/shared/domain/time';
import type { ApprovalBudget } from '@portal/shared/schemas/orders';
import { and, eq, gte, inArray, lt, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { categories, orders, userCategoryBudgets, users } from '../../db/schema/index.ts';
import { budgetLinesOf, otherMonthOrders } from './authorizer.repository.ts';

interface CategoryBudgetRow {
  id: number;
  presupuesto: number;
  nombre: string;
}

/**
 * The figures and the verdict, from what was read: the buyer's monthly budget (regular) or category
 * budgets (categoria), the buyer's other non-cancelled orders of the month, and this order's lines.
 */
export function approvalFigures(input: {
  modo: string;
  presupuestoDefault: number;
  budgets: readonly CategoryBudgetRow[];
  others: readonly { total: number; lines: readonly BudgetLine[] }[];
  lines: readonly BudgetLine[];
}): ApprovalBudget & { over: boolean } {
  const { others, lines, budgets } = input;
  const productos = lines.reduce((n, l) => n + l.cantidad, 0);
  if (input.modo !== 'categoria') {
    const utilizado = others.reduce((s, o) => s + o.total, 0);
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
    const used = others.reduce((s, o) => s + spendOf(o.lines.filter((l) => l.idCategoria === b.id)), 0);
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
    ...approvalFigures({ modo, presupuestoDefault: buyer.presupuestoDefault, budgets, others, lines }),
    others,
  };
}

/**
 * The list's flags for a page of orders, in at most four queries whatever the page holds: the buyers'
 * budgets, every non-cancelled order of each (buyer, month) the page touches, their lines (category mode
 * only) and the buyers' category budgets (category mode only). Keyed by order id.
 */
export async function pageBudgetFlags(
  db: Db,
  tz: string,
  modo: string,
  page: readonly { id: number; idUser: number; total: number; transactionDate: Date }[],
): Promise<Map<number, { over: boolean; restante: number }>> {
  const flags = new Map<number, { over: boolean; restante: number }>();
  if (page.length === 0) return flags;
  const userIds = [...new Set(page.map((o) => o.idUser))];
  // One range over every month the page touches, for all its buyers at once (one index scan of
  // (id_user, transaction_date) per buyer); each order then keeps only its own buyer's month.
  const monthOf = new Map<number, string>();
  let from = Number.POSITIVE_INFINITY;
  let to = Number.NEGATIVE_INFINITY;
  for (const o of page) {
    const m = businessMonth(o.transactionDate, tz);
    monthOf.set(o.id, `${o.idUser}:${m.key}`);
    from = Math.min(from, m.start.getTime());
    to = Math.max(to, m.end.getTime());
  }
  const [buyers, monthOrders, budgets] = await Promise.all([
    db
      .select({ id: users.id, presupuestoDefault: users.presupuestoDefault })
      .from(users)
      .where(inArray(users.id, userIds)),
    db
      .select({
        id: orders.id,
        idUser: orders.idUser,
        status: orders.status,
        total: orders.total,
        transactionDate: orders.transactionDate,
      })
      .from(orders)
      .where(
        and(
          inArray(orders.idUser, userIds),
          gte(orders.transactionDate, new Date(from)),
          lt(orders.transactionDate, new Date(to)),
          ne(orders.status, 'cancelado'),
        ),
      ),
    modo === 'categoria' ? categoryBudgets(db, userIds) : Promise.resolve([]),
  ]);
  // The page's own orders are read too: a cancelled one is not in the month's orders but has its lines.
  const orderIds = [...new Set([...monthOrders.map((o) => o.id), ...page.map((o) => o.id)])];
  const lines = modo === 'categoria' ? await budgetLinesOf(db, orderIds) : [];
  const linesOf = new Map<number, BudgetLine[]>();
  for (const l of lines) {
    const list = linesOf.get(l.orderId);
    if (list) list.push(l);
    else linesOf.set(l.orderId, [l]);
  }
  const byMonth = new Map<string, { id: number; total: number; lines: BudgetLine[] }[]>();
  const wanted = new Set(monthOf.values());
  for (const o of monthOrders) {
    const key = `${o.idUser}:${businessMonth(o.transactionDate, tz).key}`;
    if (!wanted.has(key)) continue;
    const list = byMonth.get(key) ?? [];
    list.push({ id: o.id, total: o.total, lines: linesOf.get(o.id) ?? [] });
    byMonth.set(key, list);
  }
  const presupuesto = new Map(buyers.map((b) => [b.id, b.presupuestoDefault]));
  for (const o of page) {
    const others = (byMonth.get(monthOf.get(o.id)!) ?? []).filter((x) => x.id !== o.id);
    // Regular mode needs only the order's total; a line list with that total stands for its lines.
    const own: BudgetLine[] =
      modo === 'categoria'
        ? (linesOf.get(o.id) ?? [])
        : [{ precio: o.total, cantidad: 1, impuesto: false, idCategoria: 0 }];
    const figures = approvalFigures({
      modo,
      presupuestoDefault: presupuesto.get(o.idUser) ?? 0,
      budgets: budgets.filter((b) => b.userId === o.idUser),
      others,
      lines: own,
    });
    flags.set(o.id, { over: figures.over, restante: figures.restante });
  }
  return flags;
}
