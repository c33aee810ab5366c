import type { HistoryResponse, OrderDetailDto } from '@portal/shared/schemas/shopping';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const historyKeys = {
  all: ['historial'] as const,
  pages: ['historial', 'pagina'] as const,
  page: (page: number) => ['historial', 'pagina', page] as const,
  detail: (id: number) => ['historial', 'pedido', id] as const,
};

/** The user's orders, newest first, 10 per page (server-paginated). */
export function historyQuery(page: number) {
  return queryOptions({
    queryKey: historyKeys.page(page),
    queryFn: ({ signal }) => api.get<HistoryResponse>(`/api/historial?page=${page}`, { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** One of the user's orders; 404 when it is not theirs. */
export function orderQuery(id: number) {
  return queryOptions({
    queryKey: historyKeys.detail(id),
    queryFn: ({ signal }) =>
      api.get<{ pedido: OrderDetailDto }>(`/api/historial/${id}`, { signal }).then((r) => r.pedido),
    staleTime: 0,
  });
}
