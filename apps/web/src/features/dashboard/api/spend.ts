import type { BuyerSpendResponse } from '@portal/shared/schemas/dashboard';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The buyer's last six months against today's budget (GET /api/historial/gasto). */
export function spendQuery() {
  return queryOptions({
    queryKey: ['historial', 'gasto'] as const,
    queryFn: ({ signal }) => api.get<BuyerSpendResponse>('/api/historial/gasto', { signal }),
    staleTime: 30_000,
  });
}
