import { businessDate } from '@portal/shared/domain/time';
import type { CartItemDto, PurchaseResponse } from '@portal/shared/schemas/shopping';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { getBusinessTimeZone } from '../../../lib/format';
import { historyKeys } from './history';
import { applyShopper } from './shopper';

export interface OrderToSend {
  carrito: readonly CartItemDto[];
  /** The note for the approvers (trimmed; none when empty). */
  nota?: string;
  /** The address book entry chosen in the cart (decision 0126); none: the buyer's default. */
  idDireccion?: number | null;
}

/**
 * Sends the cart as an order: the items as the cart shows them (the server checks they still match), the
 * note for the approvers and the chosen delivery address, if any.
 */
export function submitOrder({ carrito, nota, idDireccion }: OrderToSend): Promise<PurchaseResponse> {
  return api.post<PurchaseResponse>('/api/compra', {
    orden: carrito.map((item) => ({ id: item.id, cantidad: item.cantidad })),
    fecha: businessDate(Date.now(), getBusinessTimeZone()),
    ...(nota ? { nota } : {}),
    ...(idDireccion ? { id_direccion: idDireccion } : {}),
  });
}

/**
 * `onSent` runs with the new order before the cart empties; it belongs to the hook (not to `mutate`), so
 * it runs even though the cart's screen changes as soon as the cart is empty.
 */
export function useSubmitOrder(onSent: (res: PurchaseResponse) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: submitOrder,
    onSuccess: (res) => {
      onSent(res);
      // The cart is empty now (on the server too); budget and categories come from the answer.
      applyShopper(queryClient, {
        carrito: [],
        totales: { subtotal: 0, iva: 0, total: 0 },
        presupuesto: res.presupuesto,
        categorias: res.categorias,
      });
      // The history's first page came with the answer; the other pages moved by one order.
      queryClient.removeQueries({ queryKey: historyKeys.pages });
      queryClient.setQueryData(historyKeys.page(1), res.transacciones);
    },
  });
}
