import type { OrderInvoices } from '@portal/shared/schemas/invoices';
import type { BuyerOrderResponse, HistoryResponse } from '@portal/shared/schemas/shopping';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { type HistoryFilters, historyPath } from '../lib/history-filters';

export const historyKeys = {
  all: ['historial'] as const,
  pages: ['historial', 'pagina'] as const,
  /** One page of the history with its filters, keyed by the request it makes. */
  list: (filters: HistoryFilters) => ['historial', 'pagina', historyPath(filters)] as const,
  /** One page without filters (what a purchase answers with). */
  page: (page: number) => historyKeys.list({ status: 'todos', mes: '', q: '', page }),
  detail: (id: number) => ['historial', 'pedido', id] as const,
  /** The order's invoices (decision 0133), under the order's key. */
  invoices: (id: number) => ['historial', 'pedido', id, 'facturas'] as const,
};

/** GET /api/historial/{id}/facturas: the order's CFDIs with their match (decision 0133). */
export function orderInvoicesQuery(id: number) {
  return queryOptions({
    queryKey: historyKeys.invoices(id),
    queryFn: ({ signal }) => api.get<OrderInvoices>(`/api/historial/${id}/facturas`, { signal }),
  });
}

/** The user's orders, newest first, 10 per page (server-paginated), filtered by status, month and number. */
export function historyQuery(filters: HistoryFilters) {
  return queryOptions({
    queryKey: historyKeys.list(filters),
    queryFn: ({ signal }) => api.get<HistoryResponse>(historyPath(filters), { signal }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** One of the user's orders, whom it waits for and since when; 404 when it is not theirs. */
export function orderQuery(id: number) {
  return queryOptions({
    queryKey: historyKeys.detail(id),
    queryFn: ({ signal }) => api.get<BuyerOrderResponse>(`/api/historial/${id}`, { signal }),
    staleTime: 0,
  });
}
