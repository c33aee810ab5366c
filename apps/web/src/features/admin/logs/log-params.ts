/**
 * The system log's filters in the page's URL (through `useListParams`, lib/list-params.ts), and its metadata
 * as rows: pure, unit-tested.
 */
import { PageQuery } from '@portal/shared/schemas/form-fields';
import { LogFiltersQuery } from '@portal/shared/schemas/logs';
import { OrderNumberText } from '@portal/shared/schemas/orders';
import { z } from 'zod';
import { lazyValue } from '../../../lib/lazy-value';
import { type ListValues, readListParams, type UrlKeys } from '../../../lib/list-params';
import type { LogFilters } from '../api/keys';

/**
 * `?tipo=&usuario=&cliente=&pedido=&desde=&hasta=&page=`, each field the API's own (`LogFiltersQuery`)
 * but two: `usuario` holds what the administrator typed, a user id (digits, as the older links
 * `?usuario=12` meant) or 2 characters or more of a username or name; `pedido` keeps the order number as
 * typed ("#00012"), which the search box shows back.
 */
export const LogsUrl = lazyValue(() => {
  const api = LogFiltersQuery.shape;
  return z.object({
    event_type: api.event_type,
    usuario: z.union([api.user_id, api.usuario]),
    id_cliente: api.id_cliente,
    pedido: OrderNumberText.optional(),
    desde: api.desde,
    hasta: api.hasta,
    page: PageQuery,
  });
});
export const LOGS_URL_KEYS: UrlKeys<typeof LogsUrl> = { event_type: 'tipo', id_cliente: 'cliente' };

/** The API's filters of the URL's values (a value the server would refuse was already left out). */
export function logFilters(values: ListValues<typeof LogsUrl>): LogFilters {
  return {
    page: values.page,
    event_type: values.event_type ?? null,
    user_id: typeof values.usuario === 'number' ? values.usuario : null,
    usuario: typeof values.usuario === 'string' ? values.usuario : null,
    id_cliente: values.id_cliente ?? null,
    pedido: values.pedido ?? null,
    desde: values.desde ?? null,
    hasta: values.hasta ?? null,
  };
}

/** The filters of a URL's query (what the page reads through `useListParams`). */
export function logFiltersOf(params: URLSearchParams): LogFilters {
  return logFilters(readListParams(LogsUrl, params, LOGS_URL_KEYS));
}

export interface MetadataRow {
  key: string;
  value: string;
}

/** A log entry's metadata as key/value rows (nested values as compact JSON); empty when there is none. */
export function metadataRows(metadata: unknown): MetadataRow[] {
  if (metadata === null || metadata === undefined) return [];
  if (typeof metadata !== 'object' || Array.isArray(metadata))
    return [{ key: 'valor', value: JSON.stringify(metadata) }];
  return Object.entries(metadata as Record<string, unknown>).map(([key, v]) => ({
    key,
    value:
      v === null
        ? '—'
        : typeof v === 'boolean'
          ? v
            ? 'Sí'
            : 'No'
          : typeof v === 'object'
            ? JSON.stringify(v)
            : String(v),
  }));
}
