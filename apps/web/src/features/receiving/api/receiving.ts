/** The receiver's shipments to receive (decision 0130): the list and one shipment with its lines. */
import type { ReceivableShipmentDetail, ReceivingListResponse } from '@portal/shared/schemas/receiving';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const receivingKeys = {
  all: ['recepcion'] as const,
  page: (page: number, q: string) => ['recepcion', 'pagina', page, q] as const,
  shipment: (id: number, numero: number) => ['recepcion', 'envio', id, numero] as const,
};

/** GET /api/recepcion?page=&q=: 20 a page, newest first. */
export function useReceivingList(page: number, q: string) {
  return useQuery({
    queryKey: receivingKeys.page(page, q),
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({ page: String(page), ...(q ? { q } : {}) });
      return api.get<ReceivingListResponse>(`/api/recepcion?${search}`, { signal });
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** GET /api/recepcion/{id}/envios/{numero} */
export function useReceivableShipment(id: number, numero: number) {
  return useQuery({
    queryKey: receivingKeys.shipment(id, numero),
    queryFn: ({ signal }) =>
      api.get<ReceivableShipmentDetail>(`/api/recepcion/${id}/envios/${numero}`, { signal }),
    staleTime: 0,
  });
}
