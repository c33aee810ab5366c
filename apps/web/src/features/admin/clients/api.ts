/**
 * Clients (spec §7): the paginated list, create and update (multipart, with the logo and the two PDFs)
 * and the activo toggle, which sends the client as it is, without its files.
 */
import { CLIENTS_PER_PAGE } from '@portal/shared/limits';
import type {
  ClientCreateResponse,
  ClientDto,
  ClientsResponse,
  ClientUpdateResponse,
  ModoPresupuesto,
} from '@portal/shared/schemas/clients';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

export function useClientsPage(page: number, q: string) {
  return useQuery({
    queryKey: adminKeys.clientsPage(page, q),
    queryFn: ({ signal }) => {
      const params = new URLSearchParams({ page: String(page), per_page: String(CLIENTS_PER_PAGE) });
      if (q) params.set('q', q);
      return api.get<ClientsResponse>(`/api/clientes?${params}`, { signal });
    },
    placeholderData: keepPreviousData,
  });
}

/** A document of the client: keep what is stored, replace it with a new file, or remove it. */
export interface FileChange {
  file: File | null;
  remove: boolean;
}

export interface ClientInput {
  nombre: string;
  color: string;
  color2: string;
  presupuesto_default: number;
  cantidad_autorizadores: number;
  limite_de_compras: number;
  modo_presupuesto: ModoPresupuesto;
  mostrar_presupuesto_a_usuarios: boolean;
  /** Two-factor sign-in mandatory for the client's roles 2 and 3. */
  requiere_2fa: boolean;
  activo: boolean;
  imagen: FileChange;
  calendario: FileChange;
  manual: FileChange;
}

function clientFormData(id: number | null, input: Omit<ClientInput, 'imagen' | 'calendario' | 'manual'>) {
  const body = new FormData();
  if (id) body.set('id', String(id));
  body.set('nombre', input.nombre.trim());
  body.set('color', input.color);
  body.set('color2', input.color2);
  body.set('presupuesto_default', String(input.presupuesto_default));
  body.set('cantidad_autorizadores', String(input.cantidad_autorizadores));
  body.set('limite_de_compras', String(input.limite_de_compras));
  body.set('modo_presupuesto', input.modo_presupuesto);
  body.set('mostrar_presupuesto_a_usuarios', input.mostrar_presupuesto_a_usuarios ? '1' : '0');
  body.set('requiere_2fa', input.requiere_2fa ? '1' : '0');
  body.set('activo', input.activo ? '1' : '0');
  return body;
}

/** POST /api/clientes (id null) or POST /api/clientes/update/{id}, multipart. */
export function saveClient(id: number | null, input: ClientInput) {
  const body = clientFormData(id, input);
  for (const field of ['imagen', 'calendario', 'manual'] as const) {
    const change = input[field];
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
