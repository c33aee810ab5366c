/**
 * Users of a client: the list (10 per page, administrators never listed), one user, create,
 * update, the activo toggle and the administrator's resets (password, two-factor sign-in). The client's
 * categories of the per-category budgets come from inventory/api (useClientCategories).
 */

import type { OkMessage } from '@portal/shared/schemas/common';
import type { RosterSyncResponse } from '@portal/shared/schemas/roster-sync';
import type {
  BulkDeactivateResponse,
  ResendAccessResponse,
  UnsentAccessResponse,
  UserBody,
  UserCreateResponse,
  UserDto,
  UserStatusFilter,
  UsersResponse,
  UsersSort,
  UserUpdateResponse,
} from '@portal/shared/schemas/users';
import {
  keepPreviousData,
  type QueryClient,
  queryOptions,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';
import { rosterFormData } from './roster-sync';

/** The users list's filters and sort (decision 0067), as in the screen's URL. */
export interface UsersListFilters {
  rol: number | null;
  estatus: UserStatusFilter | null;
  orden: UsersSort;
}

const NO_FILTERS: UsersListFilters = { rol: null, estatus: null, orden: 'usuario_asc' };

export function useUsersPage(
  idCliente: number | null,
  page: number,
  q: string,
  filters: UsersListFilters = NO_FILTERS,
) {
  return useQuery({
    queryKey: adminKeys.usersPage(idCliente ?? 0, page, q, { ...filters }),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ id_cliente: String(idCliente), page: String(page) });
      if (q) params.set('q', q);
      if (filters.rol) params.set('rol', String(filters.rol));
      if (filters.estatus) params.set('estatus', filters.estatus);
      params.set('orden', filters.orden);
      return api.get<UsersResponse>(`/api/usuarios?${params}`, { signal });
    },
    enabled: idCliente !== null,
    placeholderData: keepPreviousData,
  });
}

/** One user with every field, always fresh when the form opens. */
export function useUser(id: number | null) {
  return useQuery({
    queryKey: adminKeys.user(id ?? 0),
    queryFn: ({ signal }) => api.get<{ usuario: UserDto }>(`/api/usuarios/${id}`, { signal }),
    enabled: id !== null,
    staleTime: 0,
  });
}

/**
 * After a change of accounts: the users lists and details, a client administrator's counts by role
 * (GET /api/cliente) and the budget requests (a budget above the cap makes one).
 */
function accountsChanged(queryClient: QueryClient) {
  return Promise.all(
    [adminKeys.users, adminKeys.clientHome, adminKeys.budgetRequests].map((queryKey) =>
      queryClient.invalidateQueries({ queryKey }),
    ),
  );
}

export function useSaveUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: UserBody }) =>
      id
        ? api.put<UserUpdateResponse>(`/api/usuarios/${id}`, { ...input, id, activo: input.activo ? 1 : 0 })
        : api.post<UserCreateResponse>('/api/usuarios', { ...input, activo: input.activo ? 1 : 0 }),
    // Only after a success: a refused form keeps what the administrator typed.
    onSuccess: () => accountsChanged(queryClient),
  });
}

/** The fields the server requires, from a listed user, with `activo` flipped (budgets stay as stored). */
export function useToggleUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: UserDto) =>
      api.put<UserUpdateResponse>(`/api/usuarios/${user.id}`, {
        id: user.id,
        id_cliente: user.id_cliente,
        usuario: user.usuario,
        user_id: user.user_id,
        nombre: user.nombre,
        rol: user.rol,
        direccion_entrega: user.direccion_entrega,
        active_week: user.active_week,
        entrega_week: user.entrega_week,
        activo: user.activo ? 0 : 1,
      }),
    onSettled: () => accountsChanged(queryClient),
  });
}

/** POST /api/recuperar/password/{id}: a temporary password is e-mailed to the user. */
export function useResetPassword() {
  return useMutation({
    mutationFn: (id: number) => api.post<OkMessage>(`/api/recuperar/password/${id}`),
  });
}

/** POST /api/recuperar/2fa/{id}: turns off the user's two-factor sign-in (they are told by e-mail). */
export function useResetTwoFactor() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<OkMessage>(`/api/recuperar/2fa/${id}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

/**
 * POST /api/usuarios/desactivar_lote: with `preview`, what would happen (the confirmation's counts);
 * without, the users are deactivated and their sessions end.
 */
export function useDeactivateUsers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, preview }: { ids: number[]; preview: boolean }) =>
      api.post<BulkDeactivateResponse>('/api/usuarios/desactivar_lote', { ids, vista_previa: preview }),
    onSuccess: (res) => {
      if (!res.vista_previa) void accountsChanged(queryClient);
    },
  });
}

/** GET /api/usuarios/accesos-sin-enviar: the banner's count of welcome e-mails that never left (decision 0097). */
export const unsentAccessQuery = queryOptions({
  queryKey: [...adminKeys.users, 'accesos-sin-enviar'],
  queryFn: ({ signal }) => api.get<UnsentAccessResponse>('/api/usuarios/accesos-sin-enviar', { signal }),
});

export function useUnsentAccess() {
  return useQuery(unsentAccessQuery);
}

/** POST /api/usuarios/reenviar-acceso: a fresh welcome link for each chosen user (skipped ones say why). */
export function useResendAccess() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids: number[]) => api.post<ResendAccessResponse>('/api/usuarios/reenviar-acceso', { ids }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: adminKeys.users }),
  });
}

/**
 * POST /api/cliente/sincronizar (decision 0122): the HR list, previewed (nothing changes) or applied (who is
 * new gets an account, who changed is updated, who left is deactivated); the distributor names the client.
 */
export function useRosterSync() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ file, preview, idCliente }: { file: File; preview: boolean; idCliente?: number | null }) =>
      api.post<RosterSyncResponse>('/api/cliente/sincronizar', rosterFormData(file, preview, idCliente)),
    onSuccess: (res) => {
      if (!res.vista_previa) void accountsChanged(queryClient);
    },
  });
}
