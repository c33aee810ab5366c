/** Support: one search over users and orders, and any order read-only (rol 4). */
import type { AdminOrderResponse, SupportSearchResponse } from '@portal/shared/schemas/support';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

/** Users and orders matching `q`; nothing is asked while `q` is null (too short). */
export function useSupportSearch(q: string | null) {
  return useQuery({
    queryKey: adminKeys.search(q ?? ''),
    queryFn: ({ signal }) =>
      api.get<SupportSearchResponse>(`/api/buscar?${new URLSearchParams({ q: q ?? '' })}`, { signal }),
    enabled: q !== null,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}

export function useAdminOrder(id: number) {
  return useQuery({
    queryKey: adminKeys.order(id),
    queryFn: ({ signal }) => api.get<AdminOrderResponse>(`/api/admin/pedidos/${id}`, { signal }),
  });
}
