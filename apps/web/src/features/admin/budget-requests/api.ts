/**
 * Budgets above a client's cap (decision 0122): the requests (GET /api/presupuestos/solicitudes — the
 * pending ones of every client for the distributor, every state of its own client for a client
 * administrator) and the distributor's decision on one (approve or refuse; the loser of two answers 409).
 */
import type { BudgetRequestState } from '@portal/shared/domain/client-admin';
import type {
  BudgetRequestDecisionResponse,
  BudgetRequestsResponse,
} from '@portal/shared/schemas/budget-requests';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

/** A page of the requests (of one state, or all); the administrator's home asks for the pending ones at boot. */
export function budgetRequestsQuery(estado: BudgetRequestState | null, page: number) {
  return queryOptions({
    queryKey: adminKeys.budgetRequestsPage(estado, page),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page) });
      if (estado) params.set('estado', estado);
      return api.get<BudgetRequestsResponse>(`/api/presupuestos/solicitudes?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

export function useBudgetRequests(estado: BudgetRequestState | null, page: number) {
  return useQuery(budgetRequestsQuery(estado, page));
}

export type BudgetDecision = 'aprobar' | 'rechazar';

/** Approves or refuses one request; after either answer (a 409 too) the requests and users are read again. */
export function useDecideBudgetRequest() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, decision }: { id: number; decision: BudgetDecision }) =>
      api.post<BudgetRequestDecisionResponse>(`/api/presupuestos/solicitudes/${id}/${decision}`),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.budgetRequests }),
        queryClient.invalidateQueries({ queryKey: adminKeys.users }),
      ]),
  });
}
