/**
 * The authorizer's local edits of a pending order (docs/domain.md "Order workflow"): quantities
 * and removals stay in the browser until Approve sends them. Totals and the buyer's remaining budget are
 * recomputed here in centavos with the same functions the server uses, so the screen warns before the
 * server refuses.
 */

import { spendOf } from '@portal/shared/domain/budget';
import { approverQuantityProblem } from '@portal/shared/domain/cart';
import {
  type Centavos,
  formatCentavos,
  pesosToCentavos,
  type Totals,
  totalsOf,
} from '@portal/shared/domain/money';
import { MSG } from '@portal/shared/messages';
import type { AuthorizerOrderView } from '@portal/shared/schemas/orders';

/** Product id -> quantity of every line kept; a product missing from the map is removed. */
export type Quantities = ReadonlyMap<number, number>;

type Line = AuthorizerOrderView['pedido']['lineas'][number];

interface PricedCategoryLine {
  precio: Centavos;
  cantidad: number;
  impuesto: boolean;
  categoria: string;
}

export function initialQuantities(lineas: readonly Line[]): Quantities {
  return new Map(lineas.map((l) => [l.id_producto, l.cantidad]));
}

function keptLines(lineas: readonly Line[], quantities: Quantities): PricedCategoryLine[] {
  return lineas.flatMap((l) => {
    const cantidad = quantities.get(l.id_producto);
    if (cantidad === undefined) return [];
    return [{ precio: pesosToCentavos(l.costo), cantidad, impuesto: l.impuesto, categoria: l.categoria }];
  });
}

export function totalsFor(lineas: readonly Line[], quantities: Quantities): Totals {
  return totalsOf(keptLines(lineas, quantities));
}

export function unitsFor(quantities: Quantities): number {
  let n = 0;
  for (const q of quantities.values()) n += q;
  return n;
}

/** True when some quantity differs from the order's or some line was removed. */
export function hasEdits(lineas: readonly Line[], quantities: Quantities): boolean {
  return lineas.some((l) => quantities.get(l.id_producto) !== l.cantidad);
}

export interface CategoryFigures {
  id: number;
  nombre: string;
  disponible: Centavos;
  utilizado: Centavos;
  /** What this order spends in the category (with IVA). */
  pedido: Centavos;
  restante: Centavos;
  /** The order has lines of this category. */
  tocada: boolean;
}

/**
 * The área the order is charged to (decision 0123): its budget of the order's month, what its other orders
 * of that month spend, and what is left once this order (as edited) is counted.
 */
export interface AreaAfter {
  nombre: string;
  codigo: string;
  disponible: Centavos;
  utilizado: Centavos;
  restante: Centavos;
}

export interface BudgetAfter {
  disponible: Centavos;
  utilizado: Centavos;
  /** Budget left in the month once this order (as edited) is counted. */
  restante: Centavos;
  /** Approving would leave the month (or a category the order touches) over budget. */
  excedido: boolean;
  categorias: CategoryFigures[];
  /** Category mode: categories of kept lines that have no budget for this user (approval is refused). */
  sinPresupuesto: string[];
  /** The order's área, or null; over it, `excedido` too. */
  area: AreaAfter | null;
}

/** The área's month with the order as edited (its total with IVA, as the server's approval counts it). */
function areaAfter(view: AuthorizerOrderView, lines: PricedCategoryLine[]): AreaAfter | null {
  const area = view.presupuesto.area;
  if (!area) return null;
  const disponible = pesosToCentavos(area.presupuesto);
  const utilizado = pesosToCentavos(area.utilizado);
  return {
    nombre: area.nombre,
    codigo: area.codigo,
    disponible,
    utilizado,
    restante: disponible - utilizado - totalsOf(lines).total,
  };
}

/**
 * The buyer's month with the order as edited (docs/domain.md: budget − other non-cancelled orders of the
 * order's month − this order's total ≥ 0; in category mode the same per category the order touches).
 */
export function budgetAfter(view: AuthorizerOrderView, quantities: Quantities): BudgetAfter {
  const { presupuesto } = view;
  const lines = keptLines(view.pedido.lineas, quantities);
  const disponible = pesosToCentavos(presupuesto.disponible);
  const utilizado = pesosToCentavos(presupuesto.utilizado);
  const area = areaAfter(view, lines);
  const areaOver = area !== null && area.restante < 0;
  if (presupuesto.tipo_presupuesto !== 'categoria') {
    const restante = disponible - utilizado - spendOf(lines);
    return {
      disponible,
      utilizado,
      restante,
      excedido: restante < 0 || areaOver,
      categorias: [],
      sinPresupuesto: [],
      area,
    };
  }
  const categorias = presupuesto.categorias.map((c) => {
    const own = lines.filter((l) => l.categoria === c.nombre);
    const pedido = spendOf(own);
    const cDisponible = pesosToCentavos(c.disponible);
    const cUtilizado = pesosToCentavos(c.utilizado);
    return {
      id: c.id,
      nombre: c.nombre,
      disponible: cDisponible,
      utilizado: cUtilizado,
      pedido,
      restante: cDisponible - cUtilizado - pedido,
      tocada: own.length > 0,
    };
  });
  const pedido = categorias.reduce((s, c) => s + c.pedido, 0);
  const restante = disponible - utilizado - pedido;
  // A line whose category has no budget for this user cannot be approved either.
  const sinPresupuesto = [
    ...new Set(
      lines
        .filter((l) => !categorias.some((c) => c.nombre === l.categoria && c.disponible > 0))
        .map((l) => l.categoria),
    ),
  ];
  const excedido =
    sinPresupuesto.length > 0 || categorias.some((c) => c.tocada && c.restante < 0) || areaOver;
  return { disponible, utilizado, restante, excedido, categorias, sinPresupuesto, area };
}

export type QuantityCheck =
  | { ok: true; quantities: Quantities }
  | { ok: false; error: string /** The old quantity is put back (budget). */; restore: boolean };

/**
 * A whole number > 0, at most the buyer's cantidad_limite (an unchanged
 * quantity above a since-lowered limit is kept, as the server does), and a raise is accepted only if the
 * remaining budget stays ≥ 0; otherwise the old quantity is restored. Lowering is always accepted.
 */
export function checkQuantity(
  view: AuthorizerOrderView,
  quantities: Quantities,
  productId: number,
  raw: number | string,
): QuantityCheck {
  const value = typeof raw === 'number' ? raw : raw.trim() === '' ? Number.NaN : Number(raw);
  const original = view.pedido.lineas.find((l) => l.id_producto === productId)?.cantidad;
  // The server's own rule (packages/shared): whole, ≥ 1, within the limit unless unchanged.
  const problem = approverQuantityProblem(value, view.limites[String(productId)] ?? 1, original);
  if (problem) return { ok: false, error: problem.msg, restore: false };
  const current = quantities.get(productId) ?? original ?? value;
  const next = new Map(quantities);
  next.set(productId, value);
  if (value > current) {
    const after = budgetAfter(view, next);
    const categoria = view.pedido.lineas.find((l) => l.id_producto === productId)?.categoria;
    const own = after.categorias.find((c) => c.nombre === categoria);
    const over = own ? own.restante < 0 : after.restante < 0;
    if (over) return { ok: false, error: MSG.presupuestoAutorizador, restore: true };
    if (after.area && after.area.restante < 0)
      return { ok: false, error: MSG.presupuestoAreaAutorizador(after.area.nombre), restore: true };
  }
  return { ok: true, quantities: next };
}

/** The lines Approve sends (UpdateOrderBody.orden): every kept line with its quantity, in the order's order. */
export function approvalLines(
  lineas: readonly Line[],
  quantities: Quantities,
): { id: number; cantidad: number }[] {
  return lineas.flatMap((l) => {
    const cantidad = quantities.get(l.id_producto);
    return cantidad === undefined ? [] : [{ id: l.id_producto, cantidad }];
  });
}

/**
 * What the approval dialog lists as changed: removed lines, changed quantities and, when anything changed,
 * the order's total before and after (centavos).
 */
export function editSummary(
  lineas: readonly Line[],
  quantities: Quantities,
  originalTotal: Centavos,
  editedTotal: Centavos,
): string[] {
  const changes = lineas.flatMap((l) => {
    const q = quantities.get(l.id_producto);
    if (q === undefined) return [`${l.nombre}: se quita del pedido`];
    if (q !== l.cantidad) return [`${l.nombre}: ${l.cantidad} → ${q}`];
    return [];
  });
  if (changes.length > 0)
    changes.push(`Total: ${formatCentavos(originalTotal)} → ${formatCentavos(editedTotal)}`);
  return changes;
}

/**
 * Why approving as edited would exceed the budget: the categories the order overdraws or that have no
 * budget, or the month; and the área's, when the order overdraws it (decision 0123).
 */
export function overBudgetText(budget: BudgetAfter, comprador: string): string {
  const area =
    budget.area && budget.area.restante < 0
      ? `el presupuesto del área ${budget.area.nombre} quedaría excedido por ${formatCentavos(-budget.area.restante)}`
      : null;
  let own: string | null;
  if (budget.categorias.length > 0 || budget.sinPresupuesto.length > 0) {
    const over = [
      ...budget.categorias
        .filter((c) => c.tocada && c.restante < 0 && !budget.sinPresupuesto.includes(c.nombre))
        .map((c) => `${c.nombre} (por ${formatCentavos(-c.restante)})`),
      ...budget.sinPresupuesto.map((nombre) => `${nombre} (sin presupuesto asignado)`),
    ].join(', ');
    own = over || !area ? `Con este pedido se excedería el presupuesto de: ${over}.` : null;
  } else {
    own =
      budget.restante < 0 || !area
        ? `Con este pedido, el presupuesto del mes de ${comprador} quedaría excedido por ${formatCentavos(-budget.restante)}.`
        : null;
  }
  if (!area) return own ?? '';
  return own ? `${own} Además, ${area}.` : `Con este pedido, ${area}.`;
}

/** The buyer's name as shown: 'Usuario' when the record has none (the string 'null'). */
export function buyerName(nombre: string | null | undefined): string {
  const name = (nombre ?? '').trim();
  return !name || name === 'null' ? 'Usuario' : name;
}
