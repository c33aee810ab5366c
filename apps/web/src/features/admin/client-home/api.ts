/** A client administrator's own client (GET /api/cliente, rol 5): its settings, accounts by role and pending budgets. */
import type { ClientAdminHomeResponse } from '@portal/shared/schemas/clients';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

/** `enabled`: false where the signed-in account is not a client administrator (the route answers it 403). */
export function useClientAdminHome(enabled = true) {
  return useQuery({
    queryKey: adminKeys.clientHome,
    queryFn: ({ signal }) => api.get<ClientAdminHomeResponse>('/api/cliente', { signal }),
    // The distributor may change what the client allows: read again on each screen opened.
    staleTime: 0,
    enabled,
  });
}
