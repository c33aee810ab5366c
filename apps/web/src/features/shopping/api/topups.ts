/**
 * The buyer's budget top-ups (decision 0123): its own requests (GET /api/ampliaciones, newest first) and a
 * new one (POST /api/ampliaciones), from a refusal or a budget card.
 */
import type { TopupBody, TopupResponse, TopupsResponse } from '@portal/shared/schemas/areas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const topupKeys = {
  own: ['comprador', 'ampliaciones'] as const,
};

/** The buyer's own requests, first page (20, newest first). */
export const ownTopupsQuery = queryOptions({
  queryKey: topupKeys.own,
  queryFn: ({ signal }) => api.get<TopupsResponse>('/api/ampliaciones?page=1', { signal }),
});

export function useOwnTopups() {
  return useQuery(ownTopupsQuery);
}

export function useRequestTopup() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: TopupBody) => api.post<TopupResponse>('/api/ampliaciones', body),
    onSettled: () => queryClient.invalidateQueries({ queryKey: topupKeys.own }),
  });
}
