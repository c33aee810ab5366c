/**
 * The review queue: the list's view travels with the order's address (`/autorizador/orden/12?estatus=
 * todos&q=ana&orden=total_asc&desde=2026-03-01&pagina=2`), so the order screen can go back to the same
 * list and ask the server for the next order under the same filter, sort and period (GET
 * /api/pedidos/:id/siguiente).
 */
import { OrderNeighboursQuery } from '@portal/shared/schemas/orders';
import type { z } from 'zod';
import { readListParams } from '../../../lib/list-params';

/** The list screen. */
export const ORDERS_LIST = '/autorizador/principal';

/** The list's URL names of the query's fields where they differ (`?estatus=`, `?pagina=`). */
export const LIST_URL_KEYS = { status: 'estatus', page: 'pagina' } as const;
/** The list's query parameters that the order screen carries. */
const LIST_PARAMS = ['estatus', 'q', 'orden', 'desde', 'hasta', 'pagina'] as const;

/** The list's view as the neighbours' query reads it; no search is ''. */
export type QueueFilter = Omit<z.output<typeof OrderNeighboursQuery>, 'q'> & { q: string };

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

/** The view of a search: `estatus` (default 'accionables'), `q`, `orden` (default newest first) and the period. */
export function queueFilter(search: string): QueueFilter {
  const view = readListParams(OrderNeighboursQuery, new URLSearchParams(search), LIST_URL_KEYS);
  return { ...view, q: view.q ?? '' };
}
