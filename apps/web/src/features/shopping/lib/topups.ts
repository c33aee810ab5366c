/**
 * A buyer's budget top-up (decision 0123): which budget a refusal asks more of — the área's for
 * AREA_BUDGET, the buyer's own for BUDGET, one category's for CATEGORY_BUDGET — and what the request
 * dialog shows of it. Pure: unit-tested.
 */
import type { BudgetAlertLevel } from '@portal/shared/domain/budget-alerts';
import type { ShopperSession } from '@portal/shared/schemas/shopping';

export type TopupDestino = 'usuario' | 'area';

/** What a request is for: the área's budget, or the buyer's own (one category's in category mode). */
export interface TopupTarget {
  destino: TopupDestino;
  /** Category mode, the buyer's own budget: the category, when known. */
  idCategoria: number | null;
}

/** The refusal codes a top-up answers. */
const TOPUP_CODES = new Set(['BUDGET', 'CATEGORY_BUDGET', 'AREA_BUDGET']);

export function isTopupRefusal(code: string | null | undefined): boolean {
  return code !== null && code !== undefined && TOPUP_CODES.has(code);
}

/**
 * The request a refusal offers ('Solicitar ampliación'), or null for any other refusal. A category
 * refusal asks for that category's budget (`idCategoria`, when the caller knows it).
 */
export function topupTargetOf(
  code: string | null | undefined,
  idCategoria: number | null = null,
): TopupTarget | null {
  if (code === 'AREA_BUDGET') return { destino: 'area', idCategoria: null };
  if (code === 'CATEGORY_BUDGET') return { destino: 'usuario', idCategoria };
  if (code === 'BUDGET') return { destino: 'usuario', idCategoria: null };
  return null;
}

/**
 * The request a refusal offers this buyer: topupTargetOf's, except in category mode for a category with no
 * budget of its own, or when no category has one (the server refuses such a request).
 */
export function topupOffer(
  shopper: ShopperSession,
  code: string | null | undefined,
  idCategoria: number | null = null,
): TopupTarget | null {
  const target = topupTargetOf(code, idCategoria);
  if (!target || target.destino === 'area') return target;
  if (shopper.presupuesto.tipo_presupuesto !== 'categoria') return { destino: 'usuario', idCategoria: null };
  const allowed = topupCategories(shopper);
  // No category named (a refused purchase, all products): the dialog asks which, if any may be raised.
  if (target.idCategoria === null) return allowed.length > 0 ? target : null;
  return allowed.some((c) => c.value === String(target.idCategoria)) ? target : null;
}

/**
 * Category mode: the categories whose budget the buyer may ask to raise — those with a budget of their
 * own this month (the server refuses the others).
 */
export function topupCategories(shopper: ShopperSession): { value: string; label: string }[] {
  if (shopper.presupuesto.tipo_presupuesto !== 'categoria') return [];
  return shopper.categorias
    .filter((c) => (c.presupuesto ?? 0) > 0)
    .map((c) => ({ value: String(c.id), label: c.nombre }));
}

/**
 * The category a refused purchase ran out of (its answer names it only in words): the first one the cart
 * leaves below zero, else null.
 */
export function overspentCategory(shopper: ShopperSession): number | null {
  if (shopper.presupuesto.tipo_presupuesto !== 'categoria') return null;
  return shopper.categorias.find((c) => (c.presupuesto ?? 0) > 0 && (c.restante ?? 0) < 0)?.id ?? null;
}

/**
 * What is left of the budget a request is for (pesos, after the cart), with its name for the dialog:
 * 'Presupuesto del área Mantenimiento', 'Tu presupuesto de Papelería', 'Tu presupuesto del mes'.
 */
export function remainingFor(
  shopper: ShopperSession,
  target: TopupTarget,
): { nombre: string; restante: number } | null {
  const p = shopper.presupuesto;
  if (target.destino === 'area')
    return p.area ? { nombre: `Presupuesto del área ${p.area.nombre}`, restante: p.area.restante } : null;
  if (p.tipo_presupuesto === 'categoria') {
    const c = shopper.categorias.find((x) => x.id === target.idCategoria);
    return c ? { nombre: `Tu presupuesto de ${c.nombre}`, restante: c.restante ?? 0 } : null;
  }
  return { nombre: 'Tu presupuesto del mes', restante: p.presupuesto_restante };
}

/**
 * Whether a budget card offers 'Solicitar ampliación' by itself (without a refusal first): once the
 * client's first alert threshold is reached, or nothing is left.
 */
export function offersTopup(level: BudgetAlertLevel, restante: number): boolean {
  return level !== 'normal' || restante <= 0;
}
