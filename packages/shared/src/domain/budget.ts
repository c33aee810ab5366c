/**
 * Monthly budget state (docs/domain.md "Budgets"): consumed by order totals including IVA, computed from the
 * month's non-cancelled orders — their lines, or the server's running month that adds them up the same way
 * (`MonthUsed`, decision 0072) — and the current cart.
 */
import { type Centavos, type PricedLine, totalsOf } from './money.ts';

export type BudgetMode = 'regular' | 'categoria';

export interface BudgetLine extends PricedLine {
  idCategoria: number;
}

export interface MonthOrder {
  lines: readonly BudgetLine[];
  /** The order's stored total (subtotal + IVA rounded once). */
  total: Centavos;
}

/**
 * What a month's non-cancelled orders spend, already added up: the sum of their totals, and per category
 * what its lines spend (IVA rounded per order and category). The server keeps it as its running month.
 */
export interface MonthUsed {
  total: Centavos;
  categorias: ReadonlyMap<number, Centavos>;
}

/** The month's orders added up by the budget rule (what the server's running month holds). */
export function monthUsedOf(orders: readonly MonthOrder[]): MonthUsed {
  let total = 0;
  const categorias = new Map<number, Centavos>();
  for (const o of orders) {
    total += o.total;
    for (const id of new Set(o.lines.map((l) => l.idCategoria)))
      categorias.set(id, (categorias.get(id) ?? 0) + spendOf(o.lines.filter((l) => l.idCategoria === id)));
  }
  return { total, categorias };
}

export interface CategoryBudget {
  id: number;
  /** Monthly budget of this category for this user. */
  presupuesto: Centavos;
}

export interface BudgetFigures {
  presupuesto: Centavos;
  utilizado: Centavos;
  carrito: Centavos;
  restante: Centavos;
}

export interface BudgetState extends BudgetFigures {
  modo: BudgetMode;
  /** Category mode: figures per category id (only categories with a budget). */
  categorias: Map<number, BudgetFigures>;
}

/** The money a set of lines spends: subtotal plus IVA rounded once over them. */
export function spendOf(lines: readonly PricedLine[]): Centavos {
  return totalsOf(lines).total;
}

/**
 * The budget state of one user for one month.
 * Regular: budget = presupuesto_default; used = sum of the month's order totals.
 * Category: per category, used = what that category's lines of each order spend (IVA rounded per order
 * and category), cart likewise; the totals are their sums.
 */
export function budgetState(
  input: {
    modo: BudgetMode;
    presupuestoDefault: Centavos;
    categorias: readonly CategoryBudget[];
    cart: readonly BudgetLine[];
  } & ({ orders: readonly MonthOrder[] } | { used: MonthUsed }),
): BudgetState {
  const used = 'used' in input ? input.used : monthUsedOf(input.orders);
  if (input.modo === 'regular') {
    const utilizado = used.total;
    const carrito = spendOf(input.cart);
    const presupuesto = input.presupuestoDefault;
    return {
      modo: 'regular',
      presupuesto,
      utilizado,
      carrito,
      restante: presupuesto - utilizado - carrito,
      categorias: new Map(),
    };
  }
  const categorias = new Map<number, BudgetFigures>();
  for (const c of input.categorias) {
    if (c.presupuesto <= 0) continue;
    const utilizado = used.categorias.get(c.id) ?? 0;
    const carrito = spendOf(input.cart.filter((l) => l.idCategoria === c.id));
    categorias.set(c.id, {
      presupuesto: c.presupuesto,
      utilizado,
      carrito,
      restante: c.presupuesto - utilizado - carrito,
    });
  }
  let presupuesto = 0;
  let utilizado = 0;
  let carrito = 0;
  for (const f of categorias.values()) {
    presupuesto += f.presupuesto;
    utilizado += f.utilizado;
    carrito += f.carrito;
  }
  return {
    modo: 'categoria',
    presupuesto,
    utilizado,
    carrito,
    restante: presupuesto - utilizado - carrito,
    categorias,
  };
}

/**
 * A buyer's budget of one month with that month's approved top-ups (decision 0123): `ajustes` per category
 * id, 0 for the whole budget (regular mode). A category's top-up adds to that category's budget.
 */
export function withTopups<C extends CategoryBudget>(
  presupuestoDefault: Centavos,
  categorias: readonly C[],
  ajustes: ReadonlyMap<number, Centavos>,
): { presupuestoDefault: Centavos; categorias: C[] } {
  return {
    presupuestoDefault: presupuestoDefault + (ajustes.get(0) ?? 0),
    categorias: categorias.map((c) => ({ ...c, presupuesto: c.presupuesto + (ajustes.get(c.id) ?? 0) })),
  };
}

/** Whether the purchase limit (orders per month, -1 unlimited) still allows one more order. */
export function canPlaceAnotherOrder(limite: number, comprasDelMes: number): boolean {
  return limite === -1 || comprasDelMes < limite;
}
