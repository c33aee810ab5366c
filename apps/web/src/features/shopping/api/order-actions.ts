import type { ReorderResponse, WithdrawResponse } from '@portal/shared/schemas/shopping';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { historyKeys } from './history';
import { applyCartResponse, applyShopper } from './shopper';

/** POST /api/historial/{id}/repetir: the order's lines into the cart at current prices. */
export function repeatOrder(id: number): Promise<ReorderResponse> {
  return api.post<ReorderResponse>(`/api/historial/${id}/repetir`, {});
}

/** The answer carries the cart and the budget after it; they go into the session at once. */
export function useRepeatOrder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: repeatOrder,
    onSuccess: (res) => applyCartResponse(queryClient, res),
  });
}

/** POST /api/historial/{id}/retirar: the buyer withdraws their own pendiente order. */
export function withdrawOrder(id: number): Promise<WithdrawResponse> {
  return api.post<WithdrawResponse>(`/api/historial/${id}/retirar`, {});
}

/**
 * The withdrawn order (now cancelado) and the freed budget come with the answer; a refusal (409: an approver
 * acted first) reloads the order so the screen shows what happened.
 */
export function useWithdrawOrder(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => withdrawOrder(id),
    onSuccess: (res) => {
      // Withdrawn, it is cancelado: it waits for nobody and cannot be withdrawn again.
      queryClient.setQueryData(historyKeys.detail(id), {
        pedido: res.pedido,
        en_espera: null,
        acciones: { retirar: false },
      });
      applyShopper(queryClient, { presupuesto: res.presupuesto, categorias: res.categorias });
      void queryClient.invalidateQueries({ queryKey: historyKeys.pages });
    },
    onError: () => {
      void queryClient.invalidateQueries({ queryKey: historyKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: historyKeys.pages });
    },
  });
}
