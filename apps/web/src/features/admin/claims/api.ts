/** Claims on shipped units (rol 4, decision 0127): every client's, and the operator's decision. */
import type {
  ClaimDecisionBody,
  ClaimDecisionResponse,
  ClaimQueueQuery,
  ClaimQueueResponse,
} from '@portal/shared/schemas/claims';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

/** GET /api/surtido/reclamos?estado=&page=: 50 a page, newest first; `pendientes` by default. */
export function useClaimQueue({ estado, page }: ClaimQueueQuery) {
  return useQuery({
    queryKey: adminKeys.claimsPage(estado, page),
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({ estado, page: String(page) });
      return api.get<ClaimQueueResponse>(`/api/surtido/reclamos?${search}`, { signal });
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * POST /api/surtido/reclamos/{id}: accept, refuse or ask for the goods back. The claims, the order's page and
 * the fulfilment queue (a replacement ships) are read again either way: a 409 means someone decided first.
 */
export function useDecideClaim() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; idPedido: number; body: ClaimDecisionBody }) =>
      api.post<ClaimDecisionResponse>(`/api/surtido/reclamos/${id}`, body),
    onSettled: (_data, _error, input) => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.claims });
      void queryClient.invalidateQueries({ queryKey: adminKeys.order(input.idPedido) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.fulfilment });
    },
  });
}
