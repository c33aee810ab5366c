/**
 * Clients: the paginated list, create and update (multipart, with the logo and the two PDFs),
 * the activo toggle, which sends the client as it is, without its files, and the client's single sign-on.
 */
import { CLIENTS_PER_PAGE } from '@portal/shared/limits';
import {
  type ClientAdminHomeResponse,
  type ClientCreateResponse,
  type ClientDto,
  type ClientFiscalResponse,
  ClientForm,
  type ClientRulesBody,
  type ClientRulesResponse,
  type ClientSummaryResponse,
  type ClientsResponse,
  type ClientsSort,
  type ClientUpdateResponse,
} from '@portal/shared/schemas/clients';
import type { ClientFiscalBody } from '@portal/shared/schemas/fiscal';
import type { SsoConfigBody, SsoConfigView } from '@portal/shared/schemas/sso';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FileValue } from '../../../components/ui/file-field';
import { api, isApiError } from '../../../lib/api';
import { toFormData } from '../../../lib/form-data';
import { adminKeys } from '../api/keys';

export function useClientsPage(page: number, q: string, orden: ClientsSort) {
  return useQuery({
    queryKey: adminKeys.clientsPage(page, q, orden),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page), per_page: String(CLIENTS_PER_PAGE), orden });
      if (q) params.set('q', q);
      return api.get<ClientsResponse>(`/api/clientes?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

/** The client's fields (as the schema reads them) and its three files. */
export interface ClientInput extends ClientForm {
  imagen: FileValue;
  calendario: FileValue;
  manual: FileValue;
}

/**
 * The multipart fields of a client; absent optional fields are not sent. A field set to none (null: an
 * amount left blank — the automatic approval, the second level, the budget cap) is sent blank, which the
 * server reads as none: an absent one would keep the stored value.
 */
export function clientFormData(id: number | null, input: ClientForm) {
  const names = Object.keys(ClientForm.shape) as (keyof ClientForm)[];
  const body = toFormData(input, names);
  for (const name of names) if (input[name] === null) body.set(name, '');
  if (id) body.set('id', String(id));
  return body;
}

/** POST /api/clientes (id null) or POST /api/clientes/update/{id}, multipart. */
export function saveClient(id: number | null, { imagen, calendario, manual, ...fields }: ClientInput) {
  const body = clientFormData(id, fields);
  const files = { imagen, calendario, manual };
  for (const field of ['imagen', 'calendario', 'manual'] as const) {
    const change = files[field];
    if (change.file) body.set(field, change.file, change.file.name);
    else if (change.remove && id) body.set(`eliminar_${field}`, '1');
  }
  return id
    ? api.post<ClientUpdateResponse>(`/api/clientes/update/${id}`, body)
    : api.post<ClientCreateResponse>('/api/clientes', body);
}

export function useSaveClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, input }: { id: number | null; input: ClientInput }) => saveClient(id, input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.clients }),
  });
}

/**
 * A change to a client administrator's own client (decision 0122): the answer's client replaces the one its
 * screens read (GET /api/cliente), then that is read again.
 */
function useOwnClientChange<B, R extends { cliente: ClientDto }>(send: (body: B) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: send,
    onSuccess: (res) =>
      queryClient.setQueryData<ClientAdminHomeResponse>(
        adminKeys.clientHome,
        (old) => old && { ...old, cliente: res.cliente },
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.clientHome }),
  });
}

/** PUT /api/cliente/reglas: a client administrator's own client's levels and rules (decision 0122). */
export function useSaveOwnRules() {
  return useOwnClientChange((body: ClientRulesBody) =>
    api.put<ClientRulesResponse>('/api/cliente/reglas', body),
  );
}

/** PUT /api/clientes/{id}/datos-fiscales: a client administrator's own client's fiscal data (decision 0128). */
export function useSaveFiscal(id: number) {
  return useOwnClientChange((body: ClientFiscalBody) =>
    api.put<ClientFiscalResponse>(`/api/clientes/${id}/datos-fiscales`, body),
  );
}

/** What deactivating the client touches: its active users and those signed in (for the confirmation). */
export function fetchClientSummary(id: number): Promise<ClientSummaryResponse> {
  return api.get<ClientSummaryResponse>(`/api/clientes/${id}/resumen`);
}

/** Activates or deactivates a client: its current data with `activo` flipped, and no files. */
export function useToggleClient() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (client: ClientDto) =>
      api.post<ClientUpdateResponse>(
        `/api/clientes/update/${client.id}`,
        clientFormData(client.id, { ...client, activo: !client.activo }),
      ),
    onSettled: () => queryClient.invalidateQueries({ queryKey: adminKeys.clients }),
  });
}

/**
 * A client's single sign-on (decision 0120), or null when it has none (the server's 404); read while
 * `enabled` (its dialog is open).
 */
export function useClientSso(id: number, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.clientSso(id),
    queryFn: async ({ signal }) => {
      try {
        return await api.get<SsoConfigView>(`/api/clients/${id}/sso`, { signal });
      } catch (error) {
        if (isApiError(error) && error.status === 404) return null;
        throw error;
      }
    },
    enabled,
    staleTime: 0,
  });
}

/** PUT /api/clients/{id}/sso: sets the client's provider, domains and rules (no secret: keep the stored one). */
export function useSaveClientSso(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: SsoConfigBody) => api.put<SsoConfigView>(`/api/clients/${id}/sso`, body),
    onSuccess: (view) => queryClient.setQueryData(adminKeys.clientSso(id), view),
  });
}

/** DELETE /api/clients/{id}/sso: the client's users sign in with their password again. */
export function useRemoveClientSso(id: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.delete<{ status: string; msg: string }>(`/api/clients/${id}/sso`),
    onSuccess: () => queryClient.setQueryData(adminKeys.clientSso(id), null),
  });
}
