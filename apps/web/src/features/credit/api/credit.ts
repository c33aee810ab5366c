/**
 * Credit and statements (decision 0134): the «Estado de cuenta» of a client (GET /api/estado-cuenta: the
 * client's own for its approvers and administrators, the named one for the distributor; a page of its
 * invoices at a time, decision 0138), its download
 * (CSV or PDF, named by the server) and the distributor's aging of every client (GET /api/credito/clientes).
 */
import type { AgingQuery, AgingResponse, StatementDto } from '@portal/shared/schemas/credit';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api, apiFile } from '../../../lib/api';
import { saveBlob } from '../../../lib/download';

export const creditKeys = {
  all: ['credito'] as const,
  statement: (cliente: number | null, page: number) => ['credito', 'estado-cuenta', cliente, page] as const,
  aging: (query: AgingQuery) => ['credito', 'antiguedad', query] as const,
};

/**
 * The statement with a page of its open invoices (50, oldest first; the summary is the whole client's):
 * `cliente` null reads the signed-in person's own client.
 */
export function useStatement(cliente: number | null, page: number) {
  return useQuery({
    queryKey: creditKeys.statement(cliente, page),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page) });
      if (cliente) params.set('cliente', String(cliente));
      return api.get<StatementDto>(`/api/estado-cuenta?${params}`, { signal });
    },
  });
}

/** Saves the statement as the server names it (estado-de-cuenta-<cliente>-<fecha>.csv|pdf). */
export function useStatementDownload(cliente: number | null) {
  return useMutation({
    mutationFn: async (formato: 'csv' | 'pdf') => {
      const params = new URLSearchParams({ formato });
      if (cliente) params.set('cliente', String(cliente));
      const { blob, filename } = await apiFile(
        'GET',
        `/api/estado-cuenta/descarga?${params}`,
        `estado-de-cuenta.${formato}`,
      );
      saveBlob(blob, filename);
      return filename;
    },
  });
}

export function useAging(query: AgingQuery) {
  return useQuery({
    queryKey: creditKeys.aging(query),
    placeholderData: keepPreviousData,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(query.page) });
      if (query.q) params.set('q', query.q);
      if (query.con_saldo === 'si') params.set('con_saldo', 'si');
      return api.get<AgingResponse>(`/api/credito/clientes?${params}`, { signal });
    },
  });
}
