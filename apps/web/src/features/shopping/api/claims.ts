/** The buyer's receipts per shipment and claims (decision 0127): photos, a shipment's receipt, a claim. */
import type {
  ClaimBody,
  ClaimCreatedResponse,
  OrderPhotoDto,
  ShipmentReceiptBody,
  ShipmentReceiptResponse,
} from '@portal/shared/schemas/claims';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { historyKeys } from './history';

/**
 * Whose routes a receipt goes through: the buyer's own order (`/api/historial`) or a receiver's shipment
 * (`/api/recepcion`, decision 0130); both take the same bodies.
 */
export type ReceiptRoutes = '/api/historial' | '/api/recepcion';

/** POST {routes}/{id}/fotos: one photo (multipart `archivo`), stored at once; its id goes in the body. */
export function uploadOrderPhoto(
  id: number,
  file: File,
  routes: ReceiptRoutes = '/api/historial',
): Promise<OrderPhotoDto> {
  const form = new FormData();
  form.set('archivo', file, file.name);
  return api.post<OrderPhotoDto>(`${routes}/${id}/fotos`, form);
}

/** The order and the history are read again either way: done, or refused because it changed (409). */
function useOrderChange<V, R>(id: number, call: (input: V) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: historyKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: historyKeys.pages });
    },
  });
}

/** POST {routes}/{id}/envios/{numero}/recepcion: one shipment received, once. */
export function useReceiveShipment(id: number, routes: ReceiptRoutes = '/api/historial') {
  return useOrderChange(id, ({ numero, body }: { numero: number; body: ShipmentReceiptBody }) =>
    api.post<ShipmentReceiptResponse>(`${routes}/${id}/envios/${numero}/recepcion`, body),
  );
}

/** POST /api/historial/{id}/reclamos: a claim on shipped units, by hand. */
export function useOpenClaim(id: number) {
  return useOrderChange(id, (body: ClaimBody) =>
    api.post<ClaimCreatedResponse>(`/api/historial/${id}/reclamos`, body),
  );
}
