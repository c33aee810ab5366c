/**
 * Budget alerts (docs/domain.md "Budget alerts", decision 0054): the client's thresholds are whole
 * percentages of a monthly budget; a threshold is crossed when used / budget ≥ threshold %. Used and budget
 * are the budget figures' own (budget.ts): orders of the month that are not cancelled, with IVA, per user or
 * per category. Integer arithmetic on centavos only, so 79.99% never reads as 80%.
 */
import type { Centavos } from './money.ts';

/** The thresholds as stored: without repeats, ascending. */
export function normalizeThresholds(values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => a - b);
}

/** The whole percentage of the budget used, rounded down (82.9% is 82); 0 when there is no budget. */
export function usedPercent(utilizado: Centavos, presupuesto: Centavos): number {
  if (presupuesto <= 0 || utilizado <= 0) return 0;
  return Math.floor((utilizado * 100) / presupuesto);
}

/** The thresholds that used / budget has reached, ascending. A budget of 0 (none) reaches none. */
export function crossedThresholds(
  utilizado: Centavos,
  presupuesto: Centavos,
  thresholds: readonly number[],
): number[] {
  if (presupuesto <= 0) return [];
  return normalizeThresholds(thresholds).filter((t) => utilizado * 100 >= t * presupuesto);
}

/**
 * How the buyer's "Utilizado" card reads: `agotado` (red) from 100%, `aviso` (amber) from the client's
 * first threshold, `normal` below it or without a budget.
 */
export type BudgetAlertLevel = 'normal' | 'aviso' | 'agotado';

export function budgetAlertLevel(
  utilizado: Centavos,
  presupuesto: Centavos,
  thresholds: readonly number[],
): BudgetAlertLevel {
  if (presupuesto <= 0) return 'normal';
  if (utilizado >= presupuesto) return 'agotado';
  return crossedThresholds(utilizado, presupuesto, thresholds).length > 0 ? 'aviso' : 'normal';
}
