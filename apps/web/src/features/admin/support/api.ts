import type { OlderCommentsResponse } from '@portal/shared/schemas/comments';
/** Support: one search over users and orders, and any order read-only (rol 4). */
import {
  ADMIN_ORDERS_SORT,
  type AdminOrderFilter,
  type AdminOrderResponse,
  type AdminOrdersResponse,
  type AdminOrdersSort,
  type SupportSearchResponse,
} from '@portal/shared/schemas/support';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

/**
 * Users and orders matching `q`; nothing is asked while `q` is null (too short). A new search shows no
 * results until its own arrive (the previous ones are not kept meanwhile: Enter would open one of them).
 */
export function useSupportSearch(q: string | null) {
  return useQuery({
    queryKey: adminKeys.search(q ?? ''),
    queryFn: ({ signal }) =>
      api.get<SupportSearchResponse>(`/api/buscar?${new URLSearchParams({ q: q ?? '' })}`, { signal }),
    enabled: q !== null,
    staleTime: 10_000,
  });
}

/** GET /api/admin/pedidos/{id}/comentarios?antes=: the page of the order's comments older than one. */
export function adminOlderComments(id: number, antes: number): Promise<OlderCommentsResponse> {
  return api.get<OlderCommentsResponse>(`/api/admin/pedidos/${id}/comentarios?antes=${antes}`);
}

export function useAdminOrder(id: number) {
  return useQuery({
    queryKey: adminKeys.order(id),
    queryFn: ({ signal }) => api.get<AdminOrderResponse>(`/api/admin/pedidos/${id}`, { signal }),
  });
}

/** Every client's orders of a status (and month), sorted (newest first), 20 a page (GET /api/admin/pedidos). */
export function useAdminOrders(
  estatus: AdminOrderFilter,
  mes: string | null,
  page: number,
  orden: AdminOrdersSort = ADMIN_ORDERS_SORT.byDefault,
) {
  return useQuery({
    queryKey: adminKeys.orders(estatus, mes, page, orden),
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({ estatus, page: String(page) });
      if (mes) search.set('mes', mes);
      if (orden !== ADMIN_ORDERS_SORT.byDefault) search.set('orden', orden);
      return api.get<AdminOrdersResponse>(`/api/admin/pedidos?${search}`, { signal });
    },
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
