/**
 * The figures of the shopper's four budget cards, in centavos: the month's, or on a category page
 * in category mode that category's. What the cart takes is not sent apart per category: it is what is left
 * of the budget once the month's orders and the remaining are taken out.
 */
import { type BudgetAlertLevel, budgetAlertLevel, usedPercent } from '@portal/shared/domain/budget-alerts';
import { type Centavos, pesosToCentavos } from '@portal/shared/domain/money';
import { monthName } from '@portal/shared/domain/months';
import { MSG } from '@portal/shared/messages';
import type { CategoryDto, ShopperSession } from '@portal/shared/schemas/shopping';
import { cartUnits } from './cart-rules';

export interface BudgetCardFigures {
  /** The figures are the category's, not the month's. */
  byCategory: boolean;
  total: Centavos;
  utilizado: Centavos;
  restante: Centavos;
  /** The cart's value with IVA, as the budget counts it. */
  enCarrito: Centavos;
  /** Units in the cart (of the category when byCategory). */
  unidades: number;
  /** Share of the budget taken by the orders and the cart, 0 to 100. */
  usedPct: number;
}

export function budgetCardFigures(
  shopper: ShopperSession,
  categoria?: CategoryDto | null,
): BudgetCardFigures {
  const { presupuesto: p } = shopper;
  const byCategory =
    p.tipo_presupuesto === 'categoria' && categoria != null && categoria.presupuesto !== null;
  const total = pesosToCentavos(byCategory ? (categoria.presupuesto ?? 0) : p.presupuesto_total);
  const utilizado = pesosToCentavos(byCategory ? (categoria.utilizado ?? 0) : p.presupuesto_utilizado);
  const restante = pesosToCentavos(byCategory ? (categoria.restante ?? 0) : p.presupuesto_restante);
  const enCarrito = total - utilizado - restante;
  const unidades = byCategory ? cartUnits(shopper.carrito, categoria.id) : p.productos_totales;
  const usedPct = total > 0 ? Math.min(100, ((utilizado + Math.max(0, enCarrito)) / total) * 100) : 0;
  return { byCategory, total, utilizado, restante, enCarrito, unidades, usedPct };
}

export interface UsedAlert {
  /** `aviso` (amber) from the client's first threshold, `agotado` (red) from 100%. */
  level: BudgetAlertLevel;
  /** 'Has usado el 82% de tu presupuesto de noviembre' once a threshold is reached; null below. */
  sentence: string | null;
}

/**
 * How the "Utilizado" card reads (decision 0054): the month's orders against the budget shown (the month's,
 * or the category's on its page), by the client's thresholds, with the rule the alert e-mails use.
 */
export function usedAlert(
  shopper: ShopperSession,
  figures: Pick<BudgetCardFigures, 'byCategory' | 'total' | 'utilizado'>,
  categoria?: CategoryDto | null,
): UsedAlert {
  const { presupuesto: p } = shopper;
  const level = budgetAlertLevel(figures.utilizado, figures.total, p.alertas_presupuesto);
  if (level === 'normal' || !p.mes) return { level: 'normal', sentence: null };
  const sentence = MSG.presupuestoUsado(
    usedPercent(figures.utilizado, figures.total),
    monthName(p.mes),
    figures.byCategory ? categoria?.nombre : undefined,
  );
  return { level, sentence };
}

export interface CategoryRemaining {
  id: number;
  nombre: string;
  icono: string;
  /** This month's budget of the category (0: none, its products cannot be bought). */
  total: Centavos;
  restante: Centavos;
  /** Share taken by the orders and the cart, 0 to 100. */
  usedPct: number;
}

/**
 * Category mode, all products: what each of the buyer's categories has left (the cards show only the
 * sum), categories with a budget first, each group in the sidebar's order. Null in regular mode.
 */
export function categoryRemaining(shopper: ShopperSession): CategoryRemaining[] | null {
  if (shopper.presupuesto.tipo_presupuesto !== 'categoria') return null;
  const rows = shopper.categorias.map((c) => {
    const total = pesosToCentavos(c.presupuesto ?? 0);
    const restante = pesosToCentavos(c.restante ?? 0);
    const usedPct = total > 0 ? Math.min(100, Math.max(0, ((total - restante) / total) * 100)) : 100;
    return { id: c.id, nombre: c.nombre, icono: c.icono, total, restante, usedPct };
  });
  return [...rows.filter((r) => r.total > 0), ...rows.filter((r) => r.total <= 0)];
}

export interface AreaFigures {
  nombre: string;
  codigo: string;
  /** The área's budget this month (its top-ups and transfers included). */
  total: Centavos;
  /** The month's orders of everyone in the área. */
  utilizado: Centavos;
  /** The buyer's cart, as the área counts it. */
  enCarrito: Centavos;
  /** What the área has left after the cart. */
  restante: Centavos;
  /** Share taken by the orders and the cart, 0 to 100. */
  usedPct: number;
  /** By the client's thresholds, with the orders and the cart counted. */
  level: BudgetAlertLevel;
}

/** The buyer's área this month (decision 0123), in centavos; null when the buyer has none. */
export function areaFigures(shopper: ShopperSession): AreaFigures | null {
  const { area, alertas_presupuesto } = shopper.presupuesto;
  if (!area) return null;
  const total = pesosToCentavos(area.presupuesto);
  const utilizado = pesosToCentavos(area.utilizado);
  const restante = pesosToCentavos(area.restante);
  const taken = total - restante;
  return {
    nombre: area.nombre,
    codigo: area.codigo,
    total,
    utilizado,
    enCarrito: taken - utilizado,
    restante,
    usedPct: total > 0 ? Math.min(100, Math.max(0, (taken / total) * 100)) : 100,
    level: budgetAlertLevel(taken, total, alertas_presupuesto),
  };
}
