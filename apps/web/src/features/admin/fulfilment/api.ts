/** The fulfilment queue (rol 4): the list, a move, the export (decision 0058); shipments by line (0125). */
import {
  type BulkFulfilmentBody,
  type BulkFulfilmentResponse,
  FULFILMENT_SORT,
  type FulfilmentMoveBody,
  type FulfilmentMoveResponse,
  type FulfilmentQueueResponse,
  type GuiasImportResponse,
  type LineCancelBody,
  type OrderLinesChangeResponse,
  type PromiseBody,
  type ShipmentBody,
  type ShipmentResponse,
} from '@portal/shared/schemas/fulfilment';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiFile } from '../../../lib/api';
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
      if (filters.atrasado) search.set('atrasado', filters.atrasado);
      if (filters.retenido) search.set('retenido', filters.retenido);
      if (filters.desde) search.set('desde', filters.desde);
      if (filters.hasta) search.set('hasta', filters.hasta);
      if (filters.orden && filters.orden !== FULFILMENT_SORT.byDefault) search.set('orden', filters.orden);
      return api.get<FulfilmentQueueResponse>(`/api/surtido?${search}`, { signal });
    },
  });
}

/** POST /api/surtido/{id}/estado; the queue is read again either way (a 409 means someone moved it first). */
export function useMoveFulfilment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: FulfilmentMoveBody & { id: number }) =>
      api.post<FulfilmentMoveResponse>(`/api/surtido/${id}/estado`, body),
    onSettled: (_data, _error, input) => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.fulfilment });
      void queryClient.invalidateQueries({ queryKey: adminKeys.order(input.id) });
    },
  });
}

/**
 * POST /api/surtido/{id}/liberar: releases an order held for credit (decision 0134); the queue is read again
 * either way (a 409 means someone released it first).
 */
export function useReleaseHold() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<{ status: 'ok'; msg: string }>(`/api/surtido/${id}/liberar`),
    onSettled: (_data, _error, id) => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.fulfilment });
      void queryClient.invalidateQueries({ queryKey: adminKeys.order(id) });
    },
  });
}

/** POST /api/surtido/exportar: saves the detail CSV (answers its name); the queue is read again for the new stamps. */
export function useExportOrders() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ ids, reexportar }: { ids: number[]; reexportar: boolean }) => {
      // The file is named by its batch (surtido-lote-12.csv), as the server names it.
      const { blob, filename } = await apiFile('POST', '/api/surtido/exportar', 'surtido.csv', {
        body: reexportar ? { ids, reexportar } : { ids },
        // The server answers JSON to whoever asks for it; the operator wants the spreadsheet.
        accept: 'text/csv',
      });
      saveBlob(blob, filename);
      return filename;
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.fulfilment }),
  });
}

/** The pick list's two formats: the printable one and the spreadsheet. */
export type PickListFormat = 'pdf' | 'csv';

/**
 * POST /api/surtido/lista: one pick list for the selected orders, by product with the total and the orders
 * it serves, saved as the server names it (lista-de-surtido-<fecha>.pdf or .csv). It changes no order.
 */
export function usePickList() {
  return useMutation({
    mutationFn: async ({ ids, formato }: { ids: number[]; formato: PickListFormat }) => {
      const { blob, filename } = await apiFile('POST', '/api/surtido/lista', `lista-de-surtido.${formato}`, {
        body: { ids, formato },
        accept: formato === 'pdf' ? 'application/pdf' : 'text/csv',
      });
      saveBlob(blob, filename);
      return filename;
    },
  });
}

/** POST /api/surtido/estado-lote: each order moved or refused on its own; the queue is read again. */
export function useBulkMove() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: BulkFulfilmentBody) =>
      api.post<BulkFulfilmentResponse>('/api/surtido/estado-lote', body),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.fulfilment }),
  });
}

/** POST /api/surtido/guias: the CSV of guías; answers the moves and the refused rows at once. */
export function useImportGuias() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.set('file', file, file.name);
      return api.post<GuiasImportResponse>('/api/surtido/guias', form);
    },
    onSettled: () => void queryClient.invalidateQueries({ queryKey: adminKeys.fulfilment }),
  });
}

/** After a shipment, a cancelled line or a promised date: the order's page and the queue are read again. */
function useOrderLinesMutation<B, R>(path: (id: number) => string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number; body: B }) => api.post<R>(path(id), body),
    onSettled: (_data, _error, input) => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.fulfilment });
      void queryClient.invalidateQueries({ queryKey: adminKeys.order(input.id) });
    },
  });
}

/** POST /api/surtido/{id}/envios: a shipment of some units of some lines (decision 0125). */
export function useRegisterShipment() {
  return useOrderLinesMutation<ShipmentBody, ShipmentResponse>((id) => `/api/surtido/${id}/envios`);
}

/** POST /api/surtido/{id}/lineas/{linea}/cancelar: units of a line cancelled as unavailable. */
export function useCancelLine(linea: number) {
  return useOrderLinesMutation<LineCancelBody, OrderLinesChangeResponse>(
    (id) => `/api/surtido/${id}/lineas/${linea}/cancelar`,
  );
}

/** POST /api/surtido/{id}/promesa: the promised date of some lines. */
export function useChangePromise() {
  return useOrderLinesMutation<PromiseBody, OrderLinesChangeResponse>((id) => `/api/surtido/${id}/promesa`);
}
