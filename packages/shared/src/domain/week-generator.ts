/**
 * The access-week generator (docs/domain.md "Access weeks", decision 0064): the weeks a rule makes between
 * two calendar dates. A generated week starts on a Monday and lasts `dias` days (5: Monday to Friday); it
 * is made only when it lies wholly inside the range. Pure: the server previews and saves with it.
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc.js';
import { addDays } from './time.ts';

dayjs.extend(utc);

/** The longest range a generator covers: two years from its first day. */
export const WEEK_GENERATOR_MAX_YEARS = 2;
/** The most weeks one generation may make (a second guard after the range). */
export const WEEK_GENERATOR_MAX_WEEKS = 200;

export const WEEK_GENERATOR_MODES = ['mensual', 'semanal', 'cada_n'] as const;
export type WeekGeneratorMode = (typeof WEEK_GENERATOR_MODES)[number];
/** Which Monday of each month the monthly rule takes. */
export const WEEK_OF_MONTH = ['1', '2', '3', '4', 'ultima'] as const;
export type WeekOfMonth = (typeof WEEK_OF_MONTH)[number];

export interface WeekRule {
  desde: string;
  hasta: string;
  modo: WeekGeneratorMode;
  /** mensual: the 1st–4th or the last Monday of each month. */
  semana_del_mes?: WeekOfMonth;
  /** cada_n: every N weeks from the first Monday of the range. */
  cada?: number;
  /** Days each week lasts, its Monday included (1–7). */
  dias: number;
}

export interface GeneratedWeek {
  inicio: string;
  fin: string;
}

/** The last day a range starting on `desde` may reach (two years later, the day before). */
export function generatorRangeEnd(desde: string): string {
  return dayjs.utc(desde).add(WEEK_GENERATOR_MAX_YEARS, 'year').subtract(1, 'day').format('YYYY-MM-DD');
}

/** 0 = Sunday … 6 = Saturday. */
function weekday(iso: string): number {
  return dayjs.utc(iso).day();
}

/** The first Monday on or after a date. */
export function mondayOnOrAfter(iso: string): string {
  return addDays(iso, (8 - weekday(iso)) % 7);
}

/** The Monday a monthly rule takes in the month of `monthStart` (YYYY-MM-01). */
function mondayOfMonth(monthStart: string, which: WeekOfMonth): string {
  const first = mondayOnOrAfter(monthStart);
  if (which !== 'ultima') return addDays(first, 7 * (Number(which) - 1));
  const nextMonth = dayjs.utc(monthStart).add(1, 'month').format('YYYY-MM-DD');
  let monday = first;
  while (addDays(monday, 7) < nextMonth) monday = addDays(monday, 7);
  return monday;
}

/**
 * The weeks a rule makes, oldest first. Stops after `max` + 1 weeks, so a caller can tell "more than max"
 * without building an endless list.
 */
export function generateWeeks(rule: WeekRule, max = WEEK_GENERATOR_MAX_WEEKS): GeneratedWeek[] {
  const out: GeneratedWeek[] = [];
  const push = (inicio: string) => {
    const fin = addDays(inicio, rule.dias - 1);
    if (inicio >= rule.desde && fin <= rule.hasta) out.push({ inicio, fin });
  };
  if (rule.modo === 'mensual') {
    let month = dayjs.utc(rule.desde).startOf('month');
    const last = dayjs.utc(rule.hasta).startOf('month');
    while (!month.isAfter(last) && out.length <= max) {
      push(mondayOfMonth(month.format('YYYY-MM-DD'), rule.semana_del_mes ?? '1'));
      month = month.add(1, 'month');
    }
    return out;
  }
  const step = rule.modo === 'semanal' ? 7 : 7 * (rule.cada ?? 1);
  for (let monday = mondayOnOrAfter(rule.desde); monday <= rule.hasta && out.length <= max; ) {
    push(monday);
    monday = addDays(monday, step);
  }
  return out;
}
