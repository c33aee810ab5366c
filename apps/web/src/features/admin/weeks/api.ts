/** Access weeks of a client: list (5 per page), create, toggle activo, delete. */
import type {
  WeekCreateBody,
  WeekCreateResponse,
  WeeksMutationResponse,
  WeeksResponse,
} from '@portal/shared/schemas/weeks';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

export function useWeeks(idCliente: number | null, page: number) {
  return useQuery({
    queryKey: adminKeys.weeksPage(idCliente ?? 0, page),
    queryFn: ({ signal }) =>
      api.get<WeeksResponse>(`/api/calendario_semanas?id_cliente=${idCliente}&page=${page}`, { signal }),
    enabled: idCliente !== null,
    placeholderData: keepPreviousData,
  });
}

export function useCreateWeek() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WeekCreateBody) =>
      api.post<WeekCreateResponse>('/api/calendario_semanas', { ...input, activo: 1 }),
    onSuccess: (_res, input) =>
      queryClient.invalidateQueries({ queryKey: adminKeys.weeks(input.id_cliente) }),
  });
}

export function useToggleWeek(idCliente: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, activo, page }: { id: number; activo: boolean; page: number }) =>
      api.put<WeeksMutationResponse>(`/api/calendario_semanas/${id}?page=${page}`, {
        activo: activo ? 1 : 0,
      }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.weeks(idCliente ?? 0) }),
  });
}

export function useDeleteWeek(idCliente: number | null) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, page }: { id: number; page: number }) =>
      api.post<WeeksMutationResponse>(`/api/calendario_semanas/destroy/${id}?page=${page}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.weeks(idCliente ?? 0) }),
  });
}
