import type { OkMessage } from '@portal/shared/schemas/common';
import type {
  ListCreateBody,
  ListResponse,
  ListSavedResponse,
  ListsResponse,
  ListUpdateBody,
} from '@portal/shared/schemas/lists';
import type { ReorderResponse } from '@portal/shared/schemas/shopping';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { applyCartResponse } from './shopper';

/** The saved lists' query keys: every key starts with `all`, so invalidating it refreshes them all. */
export const listKeys = {
  all: ['listas'] as const,
  index: ['listas', 'indice'] as const,
  detail: (id: number) => ['listas', 'lista', id] as const,
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

/** GET /api/listas: the buyer's lists (name, item count, last change). */
export function listsQuery() {
  return queryOptions({
    queryKey: listKeys.index,
    queryFn: ({ signal }) => api.get<ListsResponse>('/api/listas', { signal }).then((r) => r.listas),
    staleTime: 0,
  });
}

/** GET /api/listas/{id}: a list with its products' current data; 404 when it is not the buyer's. */
export function listQuery(id: number) {
  return queryOptions({
    queryKey: listKeys.detail(id),
    queryFn: ({ signal }) => api.get<ListResponse>(`/api/listas/${id}`, { signal }).then((r) => r.lista),
    staleTime: 0,
  });
}

/** PUT /api/listas/{id}: a rename, new items, or both; the saved list comes back with the answer. */
export function useUpdateList(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: ListUpdateBody) => api.put<ListSavedResponse>(`/api/listas/${id}`, body),
    onSuccess: (res) => {
      queryClient.setQueryData(listKeys.detail(id), res.lista);
      void queryClient.invalidateQueries({ queryKey: listKeys.index });
    },
  });
}

/** DELETE /api/listas/{id}. */
export function useDeleteList() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<OkMessage>(`/api/listas/${id}`),
    onSuccess: (_res, id) => {
      queryClient.removeQueries({ queryKey: listKeys.detail(id) });
      void queryClient.invalidateQueries({ queryKey: listKeys.index });
    },
  });
}

/** POST /api/listas/{id}/al-carrito: the list's items into the cart; the answer's cart goes into the session. */
export function useListToCart() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<ReorderResponse>(`/api/listas/${id}/al-carrito`, {}),
    onSuccess: (res) => applyCartResponse(queryClient, res),
  });
}
