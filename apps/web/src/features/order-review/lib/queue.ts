/**
 * The review queue: the list's filter travels with the order's address (`/autorizador/orden/12?estatus=
 * todos&q=ana&pagina=2`), so the order screen can go back to the same list and ask the server for the
 * next order under the same filter (GET /api/pedidos/:id/siguiente).
 */
import type { OrderFilter } from '@portal/shared/schemas/orders';

/** The list screen. */
export const ORDERS_LIST = '/autorizador/principal';

const FILTERS: readonly OrderFilter[] = [
  'accionables',
  'todos',
  'pendiente',
  'espera',
  'aprobado',
  'cancelado',
];
/** The list's query parameters that the order screen carries. */
const LIST_PARAMS = ['estatus', 'q', 'pagina'] as const;

export interface QueueFilter {
  status: OrderFilter;
  q: string;
}

function isFilter(value: string | null): value is OrderFilter {
  return FILTERS.includes(value as OrderFilter);
}

/** Only the list's own parameters of a search, as `?…` (or ''). */
export function listSearch(search: string): string {
  const from = new URLSearchParams(search);
  const kept = new URLSearchParams();
  for (const key of LIST_PARAMS) {
    const value = from.get(key);
    if (value) kept.set(key, value);
  }
  const text = kept.toString();
  return text ? `?${text}` : '';
}

/** An order's screen, carrying the list's filter. */
export function orderHref(id: number, search: string): string {
  return `/autorizador/orden/${id}${listSearch(search)}`;
}

/** The list, with the filter the order screen was opened from. */
export function listHref(search: string): string {
  return `${ORDERS_LIST}${listSearch(search)}`;
}

/** The filter of a search: `estatus` (default 'accionables') and `q`. */
export function queueFilter(search: string): QueueFilter {
  const params = new URLSearchParams(search);
  const raw = params.get('estatus');
  return { status: isFilter(raw) ? raw : 'accionables', q: (params.get('q') ?? '').trim() };
}
