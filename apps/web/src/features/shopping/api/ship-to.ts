import type { UserAddressesResponse } from '@portal/shared/schemas/addresses';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** The addresses the buyer may send its order to, its default first (decision 0126). */
export const shipToQuery = () =>
  queryOptions({
    queryKey: ['carrito', 'direcciones'] as const,
    queryFn: ({ signal }) => api.get<UserAddressesResponse>('/api/carrito/direcciones', { signal }),
    staleTime: 60_000,
  });

export function useShipTo() {
  return useQuery(shipToQuery());
}
