/**
 * The rules of a cart change (docs/domain.md "Cart"), in the order the server checks them after the account
 * checks: product assigned, product active, quantity 1..cantidad_limite, monthly purchase limit, budget.
 * The browser may call this to answer early; the server decides.
 */
import { MSG } from '../messages.ts';
import { type BudgetLine, type BudgetMode, type BudgetState, canPlaceAnotherOrder } from './budget.ts';
import { centavosToPesos, formatMXN } from './money.ts';

export type CartRefusalCode =
  | 'NOT_ASSIGNED'
  | 'INACTIVE_PRODUCT'
  | 'BAD_QUANTITY'
  | 'OVER_QUANTITY_LIMIT'
  | 'PURCHASE_LIMIT'
  | 'BUDGET'
  | 'CATEGORY_BUDGET';

export interface CartRefusal {
  code: CartRefusalCode;
  msg: string;
}

/** A quantity is a whole number of at least 1. */
export function isValidQuantity(cantidad: unknown): cantidad is number {
  return typeof cantidad === 'number' && Number.isInteger(cantidad) && cantidad >= 1;
}

export function quantityProblem(cantidad: unknown, cantidadLimite: number): CartRefusal | null {
  if (!isValidQuantity(cantidad)) return { code: 'BAD_QUANTITY', msg: MSG.cantidadInvalida };
  if (cantidad > cantidadLimite)
    return { code: 'OVER_QUANTITY_LIMIT', msg: MSG.excedeCantidad(cantidadLimite) };
  return null;
}

/**
 * An approver's quantity for an order line (docs/domain.md "Edits"): a whole number of at least 1, at most
 * the buyer's current `cantidad_limite` — except an unchanged quantity above a since-lowered limit, which is
 * kept. The server's approval and the review screen's field both ask this.
 */
export function approverQuantityProblem(
  cantidad: unknown,
  cantidadLimite: number,
  original: number | undefined,
): CartRefusal | null {
  if (!isValidQuantity(cantidad)) return { code: 'BAD_QUANTITY', msg: MSG.cantidadAutorizadorInvalida };
  if (cantidad > cantidadLimite && cantidad !== original)
    return { code: 'OVER_QUANTITY_LIMIT', msg: MSG.excedeCantidad(cantidadLimite) };
  return null;
}

/** Replaces (or adds) one product's line in a cart. */
export function withLine(cart: readonly (BudgetLine & { id: number })[], line: BudgetLine & { id: number }) {
  const others = cart.filter((l) => l.id !== line.id);
  return [...others, line];
}

export interface CartChangeInput {
  asignado: boolean;
  activo: boolean;
  cantidad: unknown;
  cantidadLimite: number;
  limiteDeCompras: number;
  comprasDelMes: number;
  /** The item is already in the cart (an update, not an add). */
  enCarrito: boolean;
  modo: BudgetMode;
  idCategoria: number;
  categoriaNombre: string;
  /** Budget state with the cart as it would be after the change. */
  after: BudgetState;
  /** Budget state with the cart without this product. */
  without: BudgetState;
}

export function cartChangeProblem(input: CartChangeInput): CartRefusal | null {
  if (!input.asignado) return { code: 'NOT_ASSIGNED', msg: MSG.productoNoAsignado };
  if (!input.activo) return { code: 'INACTIVE_PRODUCT', msg: MSG.productoInactivo };
  const q = quantityProblem(input.cantidad, input.cantidadLimite);
  if (q) return q;
  if (!canPlaceAnotherOrder(input.limiteDeCompras, input.comprasDelMes)) {
    return { code: 'PURCHASE_LIMIT', msg: MSG.limiteDeCompras };
  }
  if (input.modo === 'categoria') {
    const after = input.after.categorias.get(input.idCategoria);
    if (!after || after.restante < 0) {
      const before = input.without.categorias.get(input.idCategoria);
      const disponible = Math.max(0, before?.restante ?? 0);
      return {
        code: 'CATEGORY_BUDGET',
        msg: MSG.presupuestoCategoria(input.categoriaNombre, formatMXN(centavosToPesos(disponible), false)),
      };
    }
    return null;
  }
  if (input.after.restante < 0) {
    return { code: 'BUDGET', msg: input.enCarrito ? MSG.presupuestoActualizar : MSG.presupuestoAgregar };
  }
  return null;
}
