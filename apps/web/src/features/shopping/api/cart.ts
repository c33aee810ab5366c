import type { CartResponse } from '@portal/shared/schemas/shopping';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { applyCartResponse } from './shopper';

export function fetchCart(signal?: AbortSignal): Promise<CartResponse> {
  return api.get<CartResponse>('/api/carrito', { signal });
}

/** Adds a product or sets its quantity. */
export function setCartItem(item: { id: number; cantidad: number }): Promise<CartResponse> {
  return api.post<CartResponse>('/api/carrito/nuevo_item', { item });
}

export function removeCartItem(id: number): Promise<CartResponse> {
  return api.post<CartResponse>('/api/carrito/eliminar_item', { item_id: id });
}

/** Empties the cart at once. */
export function emptyCart(): Promise<CartResponse> {
  return api.post<CartResponse>('/api/carrito/vaciar_carrito', {});
}

/** Every cart change writes the answer (cart, totals, budget, categories) into the session. */
export function useSetCartItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setCartItem,
    onSuccess: (res) => applyCartResponse(queryClient, res),
  });
}

export function useRemoveCartItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: removeCartItem,
    onSuccess: (res) => applyCartResponse(queryClient, res),
  });
}

export function useEmptyCart() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: emptyCart,
    onSuccess: (res) => applyCartResponse(queryClient, res),
  });
}

/** Reloads the cart from the server (after a refused purchase, say) into the session. */
export function useRefreshCart() {
  const queryClient = useQueryClient();
  return () =>
    fetchCart()
      .then((res) => applyCartResponse(queryClient, res))
      .catch(() => {
        // The figures on screen stay; the next route change checks the session again.
      });
}
