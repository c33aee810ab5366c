/**
 * The budget top-ups an approver may see (decision 0123; GET /api/ampliaciones: an authorizer those of the
 * áreas it is responsible for, a super authorizer and a client administrator their client's, the distributor
 * those of the client it chose) and the decision on one (POST /api/ampliaciones/{id}/aprobar|rechazar; of
 * two decisions at once the second is 409).
 */
import type { TopupResponse, TopupState, TopupsResponse } from '@portal/shared/schemas/areas';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const topupKeys = {
  all: ['ampliaciones'] as const,
  page: (estado: TopupState | null, page: number, cliente: number | null) =>
    ['ampliaciones', { estado, page, cliente }] as const,
};

/** One page of the requests; `cliente`: only that client's (the distributor's choice), null: all it sees. */
export function useTopups(estado: TopupState | null, page: number, cliente: number | null = null) {
  return useQuery({
    queryKey: topupKeys.page(estado, page, cliente),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page) });
      if (estado) params.set('estado', estado);
      if (cliente) params.set('id_cliente', String(cliente));
      return api.get<TopupsResponse>(`/api/ampliaciones?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

export type TopupDecision = 'aprobar' | 'rechazar';

/** Approves or refuses one request; after either answer (a 409 too) the requests are read again. */
export function useDecideTopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision, respuesta }: { id: number; decision: TopupDecision; respuesta: string }) =>
      api.post<TopupResponse>(`/api/ampliaciones/${id}/${decision}`, {
        ...(respuesta.trim() ? { respuesta: respuesta.trim() } : {}),
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: topupKeys.all }),
  });
}
