/**
 * How much of a budget is used, and when that deserves a mark (the dashboard's "≥ 80 %" and "≥ 100 %"
 * counts and badges): one rule for the server's counts and the web's bars.
 */
import { formatCount } from './money.ts';

/** From this share on, a budget is "close": 80 %. */
export const SHARE_NEAR = 0.8;
/** From this share on, a budget is used up: 100 %. */
export const SHARE_OVER = 1;

/** Used ÷ budget; Infinity when something was used without a budget, 0 when neither. */
export function budgetShare(utilizado: number, presupuesto: number): number {
  if (presupuesto > 0) return utilizado / presupuesto;
  return utilizado > 0 ? Number.POSITIVE_INFINITY : 0;
}

export type ShareLevel = 'normal' | 'cerca' | 'excedido';

/** 'excedido' at 100 % or more, 'cerca' from 80 %, else 'normal'. */
export function shareLevel(share: number): ShareLevel {
  if (share >= SHARE_OVER) return 'excedido';
  if (share >= SHARE_NEAR) return 'cerca';
  return 'normal';
}

/** The share as a whole percentage for people ("82%"), floored so 99.6 % never reads as 100%. */
export function sharePercent(share: number): string {
  if (!Number.isFinite(share)) return 'Sin presupuesto';
  return `${formatCount(Math.floor(share * 100))}%`;
}
