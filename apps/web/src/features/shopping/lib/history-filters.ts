/**
 * The buyer's history filters (status, business month, order number) and sort as the URL keeps them
 * (`?status=&mes=&q=&page=&orden=`) and as GET /api/historial takes them.
 */
import { businessDate } from '@portal/shared/domain/time';
import type { OrderStatus } from '@portal/shared/schemas/orders';
import { HISTORY_SORT, HistoryQuery, type HistorySort } from '@portal/shared/schemas/shopping';
import { readListParams } from '../../../lib/list-params';

export type HistoryStatus = OrderStatus | 'todos';

export interface HistoryFilters {
  status: HistoryStatus;
  /** A business month, YYYY-MM, or '' for any. */
  mes: string;
  /** The order number as typed, or ''. */
  q: string;
  page: number;
  /** By date or total (decision 0067); newest first when absent. */
  orden?: HistorySort;
}

export const HISTORY_STATUSES: { value: HistoryStatus; label: string }[] = [
  { value: 'todos', label: 'Todos' },
  { value: 'pendiente', label: 'Pendiente' },
  { value: 'espera', label: 'Espera' },
  { value: 'aprobado', label: 'Aprobado' },
  { value: 'cancelado', label: 'Cancelado' },
];

const MONTHS = [
  'Enero',
  'Febrero',
  'Marzo',
  'Abril',
  'Mayo',
  'Junio',
  'Julio',
  'Agosto',
  'Septiembre',
  'Octubre',
  'Noviembre',
  'Diciembre',
];

/** This business month and the `count - 1` before it, newest first: `{value: '2026-03', label: 'Marzo 2026'}`. */
export function recentMonths(now: Date | number, tz: string, count = 12): { value: string; label: string }[] {
  const [year, month] = businessDate(now, tz).split('-').map(Number) as [number, number];
  return Array.from({ length: count }, (_, i) => {
    const index = year * 12 + (month - 1) - i;
    const y = Math.floor(index / 12);
    const m = index % 12;
    return { value: `${y}-${String(m + 1).padStart(2, '0')}`, label: `${MONTHS[m]} ${y}` };
  });
}

/**
 * The filters a URL holds, read through the endpoint's schema; an unknown status or a malformed month or
 * page is no filter. The number is kept as typed (the field explains a malformed one).
 */
export function filtersFromParams(params: URLSearchParams): HistoryFilters {
  const { status, mes, page, orden } = readListParams(HistoryQuery, params);
  return { status: status ?? 'todos', mes: mes ?? '', q: params.get('q') ?? '', page, orden };
}

/**
 * The URL changes of a filter change: an empty or default value leaves the URL, and any change of status,
 * month or number starts again on page 1.
 */
export function filterChanges(changes: Partial<Omit<HistoryFilters, 'page'>>): Record<string, string | null> {
  const out: Record<string, string | null> = { page: null };
  for (const [key, value] of Object.entries(changes))
    out[key] = value === '' || value === 'todos' ? null : String(value);
  return out;
}

/** Whether any filter is set (the empty list then offers 'Quitar filtros'). */
export function hasFilters(f: HistoryFilters): boolean {
  return f.status !== 'todos' || f.mes !== '' || f.q.trim() !== '';
}

/** The reason the server would refuse the order number (the shared schema's Spanish message), or null. */
export function orderNumberProblem(q: string): string | null {
  const result = HistoryQuery.shape.q.safeParse(q);
  return result.success ? null : (result.error.issues[0]?.message ?? null);
}

/** GET /api/historial with the filters that are set; an order number the server would refuse is left out. */
export function historyPath(f: HistoryFilters): string {
  const params = new URLSearchParams({ page: String(f.page) });
  if (f.status !== 'todos') params.set('status', f.status);
  if (f.mes) params.set('mes', f.mes);
  const q = f.q.trim();
  if (q && !orderNumberProblem(q)) params.set('q', q);
  if (f.orden && f.orden !== HISTORY_SORT.byDefault) params.set('orden', f.orden);
  return `/api/historial?${params}`;
}
