/** The administrator's home figures (GET /api/admin/resumen). */
import type { AdminOverview } from '@portal/shared/schemas/overview';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

/** The home's figures, kept fresh while the page is open; also asked for at boot (decision 0141). */
export const adminOverviewQuery = queryOptions({
  queryKey: adminKeys.overview,
  queryFn: ({ signal }) => api.get<AdminOverview>('/api/admin/resumen', { signal }),
  staleTime: 10_000,
  refetchInterval: 60_000,
});

export function useAdminOverview() {
  return useQuery(adminOverviewQuery);
}
