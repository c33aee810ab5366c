/** The administrator's home figures (GET /api/admin/resumen). */
import type { AdminOverview } from '@portal/shared/schemas/overview';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

export function useAdminOverview() {
  return useQuery({
    queryKey: adminKeys.overview,
    queryFn: ({ signal }) => api.get<AdminOverview>('/api/admin/resumen', { signal }),
    staleTime: 10_000,
    refetchInterval: 60_000,
  });
}
