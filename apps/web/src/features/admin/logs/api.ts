/** The system log (GET /api/logs, 15 per page, newest first) and its event types. */
import type { LogsResponse } from '@portal/shared/schemas/logs';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys, type LogFilters } from '../api/keys';

export function useLogs(filters: LogFilters) {
  return useQuery({
    queryKey: adminKeys.logs(filters),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({ page: String(filters.page) });
      if (filters.event_type) search.set('event_type', filters.event_type);
      if (filters.user_id) search.set('user_id', String(filters.user_id));
      if (filters.desde) search.set('desde', filters.desde);
      if (filters.hasta) search.set('hasta', filters.hasta);
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
