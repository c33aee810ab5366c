import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';

dayjs.extend(utc);
dayjs.extend(timezone);

export const DEFAULT_BUSINESS_TZ = 'America/Mexico_City';

/** True when the IANA zone is known to this runtime. */
export function isValidTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

// Formatting through dayjs's timezone plugin costs tens of microseconds a call, and these run on every
// request and on every line of a report: the zone's calendar fields come from one cached Intl formatter,
// and the zone's offset is remembered per UTC hour, so most instants need no formatter at all.
const zoneFormatters = new Map<string, Intl.DateTimeFormat>();

interface ZonedParts {
  year: string;
  month: string;
  day: string;
  hour: string;
  minute: string;
}

function zoneFormatter(tz: string): Intl.DateTimeFormat {
  let formatter = zoneFormatters.get(tz);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-US', {
      timeZone: tz,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    });
    zoneFormatters.set(tz, formatter);
  }
  return formatter;
}

/** The zone's wall-clock fields of an instant, through Intl. */
function intlFields(ms: number, tz: string) {
  const f = { year: 0, month: 0, day: 0, hour: 0, minute: 0, second: 0 };
  for (const p of zoneFormatter(tz).formatToParts(ms)) {
    if (p.type in f) f[p.type as keyof typeof f] = Number(p.value);
  }
  return f;
}

/** How far the zone's wall clock is ahead of UTC at an instant, in milliseconds. */
function offsetAt(ms: number, tz: string): number {
  const f = intlFields(ms, tz);
  const wall = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  // Date.UTC reads years 0–99 as 1900–1999.
  const fixed = f.year < 100 ? new Date(wall).setUTCFullYear(f.year) : wall;
  return fixed - (ms - (((ms % 1000) + 1000) % 1000));
}

const HOUR_MS = 3_600_000;
/**
 * The offset of each UTC hour already seen, per zone; NaN for an hour in which the offset changes (the
 * instants of such an hour go through Intl). Offsets change at most once in an hour, so equal offsets
 * at its first and last millisecond hold for all of it.
 */
const hourOffsets = new Map<string, Map<number, number>>();

function zoneOffset(ms: number, tz: string): number {
  let hours = hourOffsets.get(tz);
  if (!hours) {
    hours = new Map();
    hourOffsets.set(tz, hours);
  }
  const hour = Math.floor(ms / HOUR_MS);
  let offset = hours.get(hour);
  if (offset === undefined) {
    const first = offsetAt(hour * HOUR_MS, tz);
    offset = first === offsetAt((hour + 1) * HOUR_MS - 1, tz) ? first : Number.NaN;
    if (hours.size >= 50_000) hours.clear();
    hours.set(hour, offset);
  }
  return offset;
}

const two = (n: number) => (n < 10 ? `0${n}` : String(n));

/** The calendar fields of an instant in a zone; null for an invalid instant. */
function zonedParts(instant: Date | string | number, tz: string): ZonedParts | null {
  const date = instant instanceof Date ? instant : dayjs(instant).toDate();
  const ms = date.getTime();
  if (Number.isNaN(ms)) return null;
  const offset = zoneOffset(ms, tz);
  let y: number;
  let mo: number;
  let d: number;
  let h: number;
  let mi: number;
  if (Number.isNaN(offset)) {
    const f = intlFields(ms, tz);
    [y, mo, d, h, mi] = [f.year, f.month, f.day, f.hour, f.minute];
  } else {
    const wall = new Date(ms + offset);
    [y, mo, d, h, mi] = [
      wall.getUTCFullYear(),
      wall.getUTCMonth() + 1,
      wall.getUTCDate(),
      wall.getUTCHours(),
      wall.getUTCMinutes(),
    ];
  }
  return { year: String(y).padStart(4, '0'), month: two(mo), day: two(d), hour: two(h), minute: two(mi) };
}

/** The business-zone calendar date (YYYY-MM-DD) of an instant. */
export function businessDate(instant: Date | string | number, tz: string = DEFAULT_BUSINESS_TZ): string {
  const p = zonedParts(instant, tz);
  return p ? `${p.year}-${p.month}-${p.day}` : dayjs(instant).tz(tz).format('YYYY-MM-DD');
}

export interface MonthRange {
  /** First instant of the month (inclusive). */
  start: Date;
  /** First instant of the next month (exclusive). */
  end: Date;
  /** YYYY-MM of the business month. */
  key: string;
}

/** The business calendar month that contains the instant, as UTC instants [start, end). */
export function businessMonth(instant: Date | string | number, tz: string = DEFAULT_BUSINESS_TZ): MonthRange {
  const key = businessDate(instant, tz).slice(0, 7);
  const cacheKey = `${tz} ${key}`;
  const cached = monthRanges.get(cacheKey);
  if (cached) return { start: new Date(cached.start), end: new Date(cached.end), key };
  const start = dayjs.tz(`${key}-01 00:00:00`, tz);
  const next = start.add(1, 'month').format('YYYY-MM');
  const end = dayjs.tz(`${next}-01 00:00:00`, tz);
  if (monthRanges.size > 1000) monthRanges.clear();
  monthRanges.set(cacheKey, { start: start.valueOf(), end: end.valueOf() });
  return { start: start.toDate(), end: end.toDate(), key };
}

/** Month boundaries already computed, by zone and month (they never change). */
const monthRanges = new Map<string, { start: number; end: number }>();

/** The instants [start, end) covering the business dates from..to inclusive (YYYY-MM-DD). */
export function businessDateRange(from: string, to: string, tz: string = DEFAULT_BUSINESS_TZ) {
  const start = dayjs.tz(`${from} 00:00:00`, tz);
  const end = dayjs.tz(`${to} 00:00:00`, tz).add(1, 'day');
  return { start: start.toDate(), end: dayjs.tz(end.format('YYYY-MM-DD 00:00:00'), tz).toDate() };
}

/** A strict YYYY-MM-DD calendar date. */
export function isIsoDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  return dayjs(value, 'YYYY-MM-DD').format('YYYY-MM-DD') === value;
}

/** dd/MM/yyyy in the business zone (orders, history). */
export function formatDate(instant: Date | string | number, tz: string = DEFAULT_BUSINESS_TZ): string {
  const p = zonedParts(instant, tz);
  return p ? `${p.day}/${p.month}/${p.year}` : dayjs(instant).tz(tz).format('DD/MM/YYYY');
}

/**
 * dd/MM/yyyy HH:mm in the business zone: the one date-and-time format of every screen, e-mail, PDF and
 * export (docs/decisions/0066; the specification's dd-MM-yy HH:mm for clients and users gave way to it).
 */
export function formatDateTime(instant: Date | string | number, tz: string = DEFAULT_BUSINESS_TZ): string {
  const p = zonedParts(instant, tz);
  return p
    ? `${p.day}/${p.month}/${p.year} ${p.hour}:${p.minute}`
    : dayjs(instant).tz(tz).format('DD/MM/YYYY HH:mm');
}

/** dd/MM/yyyy of a plain calendar date (YYYY-MM-DD), with no zone shift. */
export function formatIsoDate(isoDate: string): string {
  const [y, m, d] = isoDate.split('-');
  return `${d}/${m}/${y}`;
}

/**
 * Adds whole days to a calendar date (YYYY-MM-DD). Date arithmetic on the UTC calendar, which has no
 * offsets: `Date.UTC` carries the day over month and year ends and knows the leap days. A statement computes
 * one due date per invoice with it, thousands a request, so not through dayjs (finding 47: a fifth of the
 * statement's CPU).
 */
export function addDays(isoDate: string, days: number): string {
  const y = Number(isoDate.slice(0, 4));
  const m = Number(isoDate.slice(5, 7));
  const d = Number(isoDate.slice(8, 10));
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/**
 * Password age: true once six calendar months have passed since it was set, on the business zone's calendar
 * and wall clock (set 31 August 09:00 → due 28 or 29 February 09:00; the machine's own zone plays no part).
 * Checked on every request, so with Date's own arithmetic on the zone's remembered offsets rather than
 * dayjs's (which cost 20 µs a call).
 */
export function passwordExpired(
  changedAt: Date | null,
  now: Date,
  tz: string = DEFAULT_BUSINESS_TZ,
): boolean {
  if (!changedAt) return true;
  return now.getTime() >= addCalendarMonths(changedAt.getTime(), 6, tz);
}

/** The zone's offset at an instant, through the remembered hours or, in an hour that changes it, Intl. */
function offsetOf(ms: number, tz: string): number {
  const offset = zoneOffset(ms, tz);
  return Number.isNaN(offset) ? offsetAt(ms, tz) : offset;
}

/**
 * The instant `months` calendar months after `ms` at the same wall-clock time in the zone; a day past the end
 * of the target month is its last day (31 August + 6 → 28/29 February).
 */
export function addCalendarMonths(ms: number, months: number, tz: string = DEFAULT_BUSINESS_TZ): number {
  const wall = new Date(ms + offsetOf(ms, tz));
  const day = wall.getUTCDate();
  wall.setUTCDate(1);
  wall.setUTCMonth(wall.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(wall.getUTCFullYear(), wall.getUTCMonth() + 1, 0)).getUTCDate();
  wall.setUTCDate(Math.min(day, lastDay));
  const target = wall.getTime();
  // The wall time read back as an instant: the offset at the guess, then once more across a change.
  const guess = target - offsetOf(target, tz);
  return target - offsetOf(guess, tz);
}

/**
 * The latest instant at `hour`:00 business time that is not after `now` (today's, or yesterday's when that
 * hour has not come yet): when a daily digest at that hour was last due.
 */
export function lastBusinessHour(now: Date, hour: number, tz: string = DEFAULT_BUSINESS_TZ): Date {
  const today = businessDate(now, tz);
  const at = (date: string) => dayjs.tz(`${date} ${String(hour).padStart(2, '0')}:00:00`, tz).toDate();
  const slot = at(today);
  return slot.getTime() <= now.getTime() ? slot : at(addDays(today, -1));
}
