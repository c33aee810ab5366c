/**
 * Product assignments of a rol-1 user: the client's products with `asignado` and `cantidad_limite`
 * (server-paginated, searchable, by category), one product at a time, all of them, a category, a copy of
 * another user's; and the same for many users at once (decision 0061).
 */
import { USER_PRODUCTS_PER_PAGE } from '@portal/shared/limits';
import type {
  AssignAllResponse,
  AssignBody,
  AssignResponse,
  BatchAssignBody,
  BatchAssignResponse,
  CopyAssignmentsResponse,
  CopyMode,
  UserProductsResponse,
} from '@portal/shared/schemas/assignments';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

/** A rol-1 user's page of its client's products; `enabled`: false until it is wanted. */
export function useUserProducts(
  id: number,
  page: number,
  q: string,
  categoria: number | null,
  enabled = true,
) {
  return useQuery({
    enabled,
    queryKey: adminKeys.userProductsPage(id, page, q, categoria),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page), per_page: String(USER_PRODUCTS_PER_PAGE) });
      if (q) params.set('q', q);
      if (categoria) params.set('categoria', String(categoria));
      return api.get<UserProductsResponse>(`/api/usuarios/${id}/productos?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/**
 * POST /api/productos/asignar; the page shows the answer at once (no reload of the list). Several changes
 * may be in flight (a switch, then a limit): each answer updates its own product, and only the answer to
 * the latest change sets the user's count, so an older answer arriving last cannot put back an old count.
 */
/** The last change sent from any row of the page (each row has its own mutation). */
const latest = { current: 0 };

export function useAssignProduct(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    // One change of this user's products at a time, in the order they were made: a limit saved while the
    // switch's change is on its way reaches the server after it, never before.
    scope: { id: `asignar-${userId}` },
    mutationFn: async (input: AssignBody) => {
      const seq = ++latest.current;
      const res = await api.post<AssignResponse>('/api/productos/asignar', {
        ...input,
        status: input.status ? 1 : 0,
      });
      return { res, seq };
    },
    onSuccess: ({ res, seq }) => {
      queryClient.setQueriesData<UserProductsResponse>(
        { queryKey: adminKeys.userProducts(userId) },
        (old) =>
          old && {
            ...old,
            usuario: seq === latest.current ? res.usuario : old.usuario,
            productos: old.productos.map((p) =>
              p.id === res.producto.id
                ? { ...p, asignado: res.producto.asignado, cantidad_limite: res.producto.cantidad_limite }
                : p,
            ),
          },
      );
      // Other pages and the users list (counts) catch up in the background.
      void queryClient.invalidateQueries({ queryKey: adminKeys.userProducts(userId), refetchType: 'none' });
      void queryClient.invalidateQueries({ queryKey: adminKeys.user(userId) });
    },
    onSettled: (result) => {
      // Once the latest change is answered, the page reads the server's state again: a reload of the page
      // that started between two changes (and answered late) cannot leave an old count behind.
      if (result?.seq === latest.current)
        void queryClient.invalidateQueries({ queryKey: adminKeys.userProducts(userId) });
    },
  });
}

/** POST /api/productos/asignar_todos: every product of the user's client. */
export function useAssignAll(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (status: boolean) =>
      api.post<AssignAllResponse>('/api/productos/asignar_todos', {
        id_user: userId,
        status: status ? 1 : 0,
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.userProducts(userId) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.user(userId) });
    },
  });
}

/** POST /api/usuarios/{id}/productos/copiar: another rol-1 user's products for this one. */
export function useCopyAssignments(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { desde_usuario_id: number; modo: CopyMode }) =>
      api.post<CopyAssignmentsResponse>(`/api/usuarios/${userId}/productos/copiar`, input),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.userProducts(userId) });
      void queryClient.invalidateQueries({ queryKey: adminKeys.user(userId) });
    },
  });
}

/** POST /api/productos/asignar_lote: products (a list, a category or several) for up to 500 users at once. */
export function useAssignBatch() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: BatchAssignBody) =>
      api.post<BatchAssignResponse>('/api/productos/asignar_lote', {
        ...input,
        asignado: input.asignado ? 1 : 0,
      }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: adminKeys.allUserProducts });
      void queryClient.invalidateQueries({ queryKey: adminKeys.users });
    },
  });
}
