/**
 * Business months as 'YYYY-MM' keys (docs/domain.md "Time"): the dashboard's ranges.
 */

/** The longest range the dashboard answers, in months, both ends counted. */
export const DASHBOARD_MAX_MONTHS = 24;
/** The default range: the last 12 months, the current one included. */
export const DASHBOARD_DEFAULT_MONTHS = 12;

const MONTH = /^(\d{4})-(0[1-9]|1[0-2])$/;

export function isMonthKey(value: string): boolean {
  return MONTH.test(value);
}

/** Months from `from` to `to`, both inclusive (0 when `to` is before `from`). */
export function monthsBetween(from: string, to: string): number {
  const [fy, fm] = from.split('-').map(Number) as [number, number];
  const [ty, tm] = to.split('-').map(Number) as [number, number];
  return Math.max(0, (ty - fy) * 12 + (tm - fm) + 1);
}

/** The month `n` months after `key` (negative: before). */
export function addMonths(key: string, n: number): string {
  const [y, m] = key.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + n;
  return `${String(Math.floor(index / 12)).padStart(4, '0')}-${String((index % 12) + 1).padStart(2, '0')}`;
}

/** Every month key from `from` to `to`, inclusive. */
export function monthKeys(from: string, to: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < monthsBetween(from, to); i++) out.push(addMonths(from, i));
  return out;
}

/** The months' Spanish names, January first. */
export const MONTH_NAMES = [
  'enero',
  'febrero',
  'marzo',
  'abril',
  'mayo',
  'junio',
  'julio',
  'agosto',
  'septiembre',
  'octubre',
  'noviembre',
  'diciembre',
] as const;

/** The Spanish name of a business month 'YYYY-MM' ('2026-11' → 'noviembre'). */
export function monthName(key: string): string {
  return MONTH_NAMES[Number(key.slice(5, 7)) - 1] ?? key;
}
