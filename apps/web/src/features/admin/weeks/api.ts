/** Access weeks of a client: list (5 per page), a month, create, generate, toggle activo, delete. */
import type {
  WeekCreateBody,
  WeekCreateResponse,
  WeekGenerateBody,
  WeekGenerateResponse,
  WeekPreviewResponse,
  WeeksMonthResponse,
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

/** The client's weeks that touch a month ('YYYY-MM'), for the calendar. */
export function useWeeksMonth(idCliente: number | null, mes: string) {
  return useQuery({
    queryKey: adminKeys.weeksMonth(idCliente ?? 0, mes),
    queryFn: ({ signal }) =>
      api.get<WeeksMonthResponse>(`/api/calendario_semanas/mes?id_cliente=${idCliente}&mes=${mes}`, {
        signal,
      }),
    enabled: idCliente !== null,
    placeholderData: keepPreviousData,
  });
}

/** What a generator rule would create (saves nothing). */
export function usePreviewWeeks() {
  return useMutation({
    mutationFn: (input: WeekGenerateBody) =>
      api.post<WeekPreviewResponse>('/api/calendario_semanas/generar/vista_previa', input),
  });
}

export function useGenerateWeeks() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WeekGenerateBody) =>
      api.post<WeekGenerateResponse>('/api/calendario_semanas/generar', input),
    onSuccess: (_res, input) =>
      queryClient.invalidateQueries({ queryKey: adminKeys.weeks(input.id_cliente) }),
  });
}
