/** GET /api/tablero: one client's figures (or every client's, for an administrator) over a month range. */
import type { DashboardResponse } from '@portal/shared/schemas/dashboard';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export interface DashboardParams {
  desde: string | null;
  hasta: string | null;
  /** An administrator's client (null: every client); authorizers leave it null. */
  cliente: number | null;
}

export function dashboardPath({ desde, hasta, cliente }: DashboardParams): string {
  const params = new URLSearchParams();
  if (desde) params.set('desde', desde);
  if (hasta) params.set('hasta', hasta);
  if (cliente) params.set('cliente', String(cliente));
  const query = params.toString();
  return query ? `/api/tablero?${query}` : '/api/tablero';
}

export function dashboardQuery(params: DashboardParams) {
  return queryOptions({
    queryKey: ['tablero', dashboardPath(params)] as const,
    queryFn: ({ signal }) => api.get<DashboardResponse>(dashboardPath(params), { signal }),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });
}
