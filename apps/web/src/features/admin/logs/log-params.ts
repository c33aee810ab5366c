/** The system log's filters in the page's URL, and its metadata as rows: pure, unit-tested. */
import type { LogFilters } from '../api/keys';

const ISO = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^\d{1,10}$/;
/** An order number as people type it (the server's rule: packages/shared/src/schemas/shopping.ts). */
export const ORDER_NUMBER = /^#?\d{1,9}$/;

const positiveId = (v: string | null) => (v && ID.test(v) && Number(v) > 0 ? Number(v) : null);

/**
 * The filters of `?tipo=&usuario=&cliente=&pedido=&desde=&hasta=&page=`. `usuario` holds what the
 * administrator typed: digits are a user id (as the older links `?usuario=12` meant), anything else of 2
 * characters or more searches usernames and names. Values the server would refuse are left out.
 */
export function logFiltersOf(params: URLSearchParams): LogFilters {
  const date = (k: string) => {
    const v = params.get(k);
    return v && ISO.test(v) ? v : null;
  };
  const user = (params.get('usuario') ?? '').trim();
  const pedido = (params.get('pedido') ?? '').trim();
  return {
    page: Math.max(1, Math.floor(Number(params.get('page')) || 1)),
    event_type: params.get('tipo') || null,
    user_id: positiveId(user),
    usuario: !ID.test(user) && user.length >= 2 ? user.slice(0, 100) : null,
    id_cliente: positiveId(params.get('cliente')),
    pedido: ORDER_NUMBER.test(pedido) ? pedido : null,
    desde: date('desde'),
    hasta: date('hasta'),
  };
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
