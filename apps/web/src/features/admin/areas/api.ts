/**
 * A client's áreas (cost centres, decision 0123): the list with this month's figures (GET /api/areas), one
 * created or changed (POST/PUT /api/areas), deleted (DELETE, 409 while it has users or orders), and this
 * month's budget moved from one to another (POST /api/areas/transferencias). The distributor names the
 * client; a client administrator's is its own (changes need its client's `presupuestos`).
 */

import { ROLES } from '@portal/shared/domain/roles';
import type { AreaBody, AreaResponse, AreasResponse, AreaTransferBody } from '@portal/shared/schemas/areas';
import type { OkMessage } from '@portal/shared/schemas/common';
import type { UsersResponse } from '@portal/shared/schemas/users';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

/**
 * The month's figures move with every order, top-up and transfer of the client (most of them made on other
 * screens or by other people): read again each time a screen opens.
 */
export function useAreas(idCliente: number | null) {
  return useQuery({
    queryKey: adminKeys.areas(idCliente ?? 0),
    queryFn: ({ signal }) => api.get<AreasResponse>(`/api/areas?id_cliente=${idCliente}`, { signal }),
    enabled: idCliente !== null,
    staleTime: 0,
  });
}

/** Creates an área (id null) or changes one; the client's áreas (and its users' área select) are read again. */
export function useSaveArea(idCliente: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: AreaBody }) =>
      id === null
        ? api.post<AreaResponse>('/api/areas', { ...body, id_cliente: idCliente })
        : api.put<AreaResponse>(`/api/areas/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.areas(idCliente) }),
  });
}

export function useDeleteArea(idCliente: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<OkMessage>(`/api/areas/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.areas(idCliente) }),
  });
}

/** Moves this month's budget; the answer is the client's áreas with their new figures. */
export function useTransferBudget(idCliente: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: AreaTransferBody) => api.post<AreasResponse>('/api/areas/transferencias', body),
    onSuccess: (res) => queryClient.setQueryData(adminKeys.areas(idCliente), res),
  });
}

/**
 * The client's active approvers (roles 2 and 3) whose name or username contains `q`, first page of each
 * role (the users list's own endpoint), for an área's responsible.
 */
export function useApprovers(idCliente: number, q: string) {
  return useQuery({
    queryKey: [...adminKeys.users, 'aprobadores', idCliente, q] as const,
    queryFn: async ({ signal }) => {
      const page = (rol: number) => {
        const params = new URLSearchParams({
          id_cliente: String(idCliente),
          page: '1',
          rol: String(rol),
          estatus: 'activo',
          orden: 'nombre_asc',
        });
        if (q) params.set('q', q);
        return api.get<UsersResponse>(`/api/usuarios?${params}`, { signal });
      };
      const [two, three] = await Promise.all([page(ROLES.autorizador), page(ROLES.superAutorizador)]);
      return [...two.usuarios, ...three.usuarios];
    },
    staleTime: 30_000,
  });
}
