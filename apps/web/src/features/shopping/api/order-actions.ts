import type { CommentsResponse, OlderCommentsResponse } from '@portal/shared/schemas/comments';
import type { FulfilmentMoveResponse } from '@portal/shared/schemas/fulfilment';
import type { BuyerOrderResponse, ReorderResponse, WithdrawResponse } from '@portal/shared/schemas/shopping';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api';
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

/** POST /api/historial/{id}/comentarios: the buyer comments on their own order (any status). */
export function addBuyerComment(id: number, texto: string): Promise<CommentsResponse> {
  return api.post<CommentsResponse>(`/api/historial/${id}/comentarios`, { texto });
}

/** GET /api/historial/{id}/comentarios?antes=: the page of the order's comments older than one. */
export function buyerOlderComments(id: number, antes: number): Promise<OlderCommentsResponse> {
  return api.get<OlderCommentsResponse>(`/api/historial/${id}/comentarios?antes=${antes}`);
}

/** The answer carries the latest comments and the count: they replace the order's; the history's counts are refetched. */
export function useAddBuyerComment(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (texto: string) => addBuyerComment(id, texto),
    onSuccess: (res) => {
      queryClient.setQueryData<BuyerOrderResponse>(historyKeys.detail(id), (old) =>
        old
          ? {
              ...old,
              pedido: {
                ...old.pedido,
                comentarios: res.comentarios,
                comentarios_total: res.comentarios_total,
              },
            }
          : old,
      );
      void queryClient.invalidateQueries({ queryKey: historyKeys.pages });
    },
    onError: (error) => {
      // Not theirs any more (404): the detail's own 404 handling takes over.
      if (isApiError(error) && error.status === 404)
        void queryClient.invalidateQueries({ queryKey: historyKeys.detail(id) });
    },
  });
}

/** POST /api/historial/{id}/recibido: the buyer confirms receipt of a shipped order, with an optional note. */
export function confirmReceipt(id: number, nota: string): Promise<FulfilmentMoveResponse> {
  return api.post<FulfilmentMoveResponse>(`/api/historial/${id}/recibido`, nota.trim() ? { nota } : {});
}

/** The order and the history are read again either way: received, or moved by someone else first (409). */
export function useConfirmReceipt(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (nota: string) => confirmReceipt(id, nota),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: historyKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: historyKeys.pages });
    },
  });
}
