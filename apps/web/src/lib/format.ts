/**
 * The one place the web app formats figures for people. Money comes from the shared domain (MXN, truncated
 * to 2 decimals, never rounded); dates are shown in the business time zone the session announces.
 */
import 'dayjs/locale/es';
import { formatCount } from '@portal/shared/domain/money';
import {
  DEFAULT_BUSINESS_TZ,
  formatDate as formatDateIn,
  formatDateTime as formatDateTimeIn,
  formatIsoDate,
} from '@portal/shared/domain/time';
import dayjs from 'dayjs';
import { sessionTimeZone } from './business-zone';

export { formatCentavos, formatMXN } from '@portal/shared/domain/money';
export { formatCount, formatIsoDate };

dayjs.locale('es');

/** The session's business zone (every date below is shown in it), by default the spec's. */
export function getBusinessTimeZone(): string {
  return sessionTimeZone() ?? DEFAULT_BUSINESS_TZ;
}

/** dd/MM/yyyy (orders, history). */
export function formatDate(instant: Date | string | number): string {
  return formatDateIn(instant, getBusinessTimeZone());
}

/** dd/MM/yyyy HH:mm: the one date-and-time format (docs/decisions/0066). */
export function formatDateTime(instant: Date | string | number): string {
  return formatDateTimeIn(instant, getBusinessTimeZone());
}

/** Order number as shown to people: '#' plus the id padded to 5 digits. */
export function formatOrderNumber(id: number): string {
  return `#${String(id).padStart(5, '0')}`;
}

/** 'pendiente' -> 'Pendiente'. */
export function titleCase(text: string): string {
  return text.replace(/\p{L}+/gu, (word) => word.charAt(0).toUpperCase() + word.slice(1).toLowerCase());
}

/** No time zone's clock is more than 14 hours from UTC (UTC+14 is the farthest ahead, UTC−12 behind). */
const FARTHEST_ZONE_MS = 14 * 3_600_000;

/**
 * The current year in the business zone (footer). More than 14 hours from a New Year in UTC every zone is in
 * UTC's year, so the zone is read only near one: the first zoned formatter costs the first screen's render
 * 20–35 ms of CPU (ICU's zone data), which pages without dates no longer pay (docs/benchmarks.md).
 */
export function currentYear(): number {
  const now = Date.now();
  const year = new Date(now).getUTCFullYear();
  const earliest = new Date(now - FARTHEST_ZONE_MS).getUTCFullYear();
  const latest = new Date(now + FARTHEST_ZONE_MS).getUTCFullYear();
  if (earliest === year && latest === year) return year;
  return Number(formatDateIn(now, getBusinessTimeZone()).slice(-4));
}

/** "1 pedido movido" / "1,200 pedidos movidos": a count with its noun in singular or plural. */
export function plural(n: number, one: string, many: string): string {
  return `${formatCount(n)} ${n === 1 ? one : many}`;
}
