import { addMonths } from '@portal/shared/domain/months';
import { businessDate, businessDateRange, DEFAULT_BUSINESS_TZ } from '@portal/shared/domain/time';

/**
 * Dates for tests picked by the calendar, not by counting days or hours from now (issue 45): "two months
 * back" is a day of the month two business months before this one, whatever day this is. Every instant is
 * noon in the business zone, far from any midnight.
 */

/** 12:00 business time of a business date (YYYY-MM-DD). */
export function businessNoon(date: string, tz: string = DEFAULT_BUSINESS_TZ): Date {
  return new Date(businessDateRange(date, date, tz).start.getTime() + 12 * 3_600_000);
}

/** The 15th, 12:00 business time, of the business month `n` months before the month of `now`. */
export function monthsBack(n: number, now: Date = new Date(), tz: string = DEFAULT_BUSINESS_TZ): Date {
  return businessNoon(`${addMonths(businessDate(now, tz).slice(0, 7), -n)}-15`, tz);
}
