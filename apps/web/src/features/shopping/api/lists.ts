import type { ListCreateBody, ListSavedResponse } from '@portal/shared/schemas/lists';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

export const listKeys = {
  all: ['listas'] as const,
};

/** POST /api/listas: a new saved list (name and products with their quantities). */
export function createList(body: ListCreateBody): Promise<ListSavedResponse> {
  return api.post<ListSavedResponse>('/api/listas', body);
}

export function useCreateList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createList,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: listKeys.all }),
  });
}
