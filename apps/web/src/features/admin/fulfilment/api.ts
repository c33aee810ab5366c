/** The fulfilment queue (rol 4): the list, a move, the export (decision 0058). */
import type { FulfilmentState } from '@portal/shared/domain/fulfilment';
import {
  FULFILMENT_SORT,
  type FulfilmentMoveResponse,
  type FulfilmentQueueResponse,
} from '@portal/shared/schemas/fulfilment';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiBlob } from '../../../lib/api';
import { saveBlob } from '../../../lib/download';
import { adminKeys, type FulfilmentFilters } from '../api/keys';

export function useFulfilmentQueue(filters: FulfilmentFilters) {
  return useQuery({
    queryKey: adminKeys.fulfilmentPage(filters),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({ page: String(filters.page) });
      if (filters.cliente) search.set('cliente', String(filters.cliente));
      if (filters.surtido) search.set('surtido', filters.surtido);
      if (filters.exportado) search.set('exportado', filters.exportado);
      if (filters.desde) search.set('desde', filters.desde);
      if (filters.hasta) search.set('hasta', filters.hasta);
      if (filters.orden && filters.orden !== FULFILMENT_SORT.byDefault) search.set('orden', filters.orden);
      return api.get<FulfilmentQueueResponse>(`/api/surtido?${search}`, { signal });
    },
  });
}

export interface MoveInput {
  id: number;
  estado: FulfilmentState;
  guia?: string;
  comentario?: string;
}

/** POST /api/surtido/{id}/estado; the queue is read again either way (a 409 means someone moved it first). */
export function useMoveFulfilment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: MoveInput) =>
      api.post<FulfilmentMoveResponse>(`/api/surtido/${id}/estado`, body),
    onSettled: (_data, _error, input) => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.fulfilment });
      void queryClient.invalidateQueries({ queryKey: adminKeys.order(input.id) });
    },
  });
}

/** POST /api/surtido/exportar: saves the detail CSV; the queue is read again for the new stamps. */
export function useExportOrders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, reexportar }: { ids: number[]; reexportar: boolean }) => {
      const blob = await apiBlob('POST', '/api/surtido/exportar', {
        body: reexportar ? { ids, reexportar } : { ids },
        // The server answers JSON to whoever asks for it; the operator wants the spreadsheet.
        accept: 'text/csv',
      });
      saveBlob(blob, 'surtido.csv');
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.fulfilment }),
  });
}
