/** The system log (GET /api/logs, 15 per page, newest first), its export and its event types. */
import type { LogsResponse } from '@portal/shared/schemas/logs';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys, type LogFilters } from '../api/keys';

/** The filters as the API's query string (without the page). */
export function logFilterParams(filters: LogFilters): URLSearchParams {
  const search = new URLSearchParams();
  if (filters.event_type) search.set('event_type', filters.event_type);
  if (filters.user_id) search.set('user_id', String(filters.user_id));
  if (filters.usuario) search.set('usuario', filters.usuario);
  if (filters.id_cliente) search.set('id_cliente', String(filters.id_cliente));
  if (filters.pedido) search.set('pedido', filters.pedido);
  if (filters.desde) search.set('desde', filters.desde);
  if (filters.hasta) search.set('hasta', filters.hasta);
  return search;
}

/** The CSV of the filtered log: a plain same-origin GET, streamed by the server straight to a file. */
export function logExportUrl(filters: LogFilters): string {
  const search = logFilterParams(filters).toString();
  return `/api/logs/exportar${search ? `?${search}` : ''}`;
}

export function useLogs(filters: LogFilters) {
  return useQuery({
    queryKey: adminKeys.logs(filters),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    queryFn: ({ signal }) => {
      const search = logFilterParams(filters);
      search.set('page', String(filters.page));
      return api.get<LogsResponse>(`/api/logs?${search}`, { signal });
    },
  });
}

export function useLogTypes() {
  return useQuery({
    queryKey: adminKeys.logTypes,
    queryFn: ({ signal }) => api.get<{ tipos: string[] }>('/api/logs/tipos', { signal }).then((r) => r.tipos),
  });
}
