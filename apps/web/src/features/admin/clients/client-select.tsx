import { Anchor, Select, type SelectProps, Text } from '@mantine/core';
import { CLIENTS_MAX_PER_PAGE } from '@portal/shared/limits';
import type { ClientDto, ClientsResponse } from '@portal/shared/schemas/clients';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { api } from '../../../lib/api';
import { rememberClient } from '../../../lib/chosen-client';
import { adminKeys } from '../api/keys';

/** Every client, for the administrator's dropdowns (the server allows up to 1000 at once). */
export const allClientsQuery = queryOptions({
  queryKey: adminKeys.allClients,
  queryFn: () => api.get<ClientsResponse>(`/api/clientes?per_page=${CLIENTS_MAX_PER_PAGE}`),
  staleTime: 30_000,
});

export function useAllClients() {
  return useQuery(allClientsQuery);
}

/**
 * The selected client lives in the URL (`?cliente=`), so a reload, a shared link or the sidebar (which
 * carries the last one, lib/chosen-client.ts) keeps it. An id that is not one of the clients, or before
 * the clients have loaded, is no choice: the screen shows its client picker.
 */
export function useSelectedClient(): [
  number | null,
  (id: number | null) => void,
  /** An id is in the address and the clients are still being read: not yet known to be a choice. */
  boolean,
] {
  const [params, setParams] = useSearchParams();
  const clients = useAllClients();
  const raw = params.get('cliente');
  const wanted = raw && /^\d{1,10}$/.test(raw) && Number(raw) > 0 ? Number(raw) : null;
  const id = wanted && clients.data?.clientes.some((c) => c.id === wanted) ? wanted : null;
  // An id the cached list does not have may be a client created since: the list is read again once.
  const [rechecked, setRechecked] = useState<number | null>(null);
  const unknown = wanted !== null && clients.data !== undefined && id === null;
  useEffect(() => {
    if (unknown && rechecked !== wanted) {
      setRechecked(wanted);
      void clients.refetch();
    }
  }, [unknown, rechecked, wanted, clients.refetch]);
  useEffect(() => {
    if (id) rememberClient(id);
  }, [id]);
  const set = (next: number | null) => {
    rememberClient(next);
    setParams(
      (prev) => {
        const p = new URLSearchParams(prev);
        if (next) p.set('cliente', String(next));
        else p.delete('cliente');
        p.delete('page');
        return p;
      },
      { replace: true },
    );
  };
  const pending =
    wanted !== null && (clients.isPending || (unknown && (rechecked !== wanted || clients.isFetching)));
  return [id, set, pending];
}

interface ClientSelectProps extends Omit<SelectProps, 'data' | 'value' | 'onChange'> {
  value: number | null;
  onChange: (id: number | null, client: ClientDto | null) => void;
}

/** A searchable client dropdown ('Cliente'). */
export function ClientSelect({ value, onChange, ...props }: ClientSelectProps) {
  const { data, isLoading } = useAllClients();
  const clients = data?.clientes ?? [];
  return (
    <Select
      label="Cliente"
      placeholder={isLoading ? 'Cargando clientes…' : 'Selecciona un cliente'}
      searchable
      clearable
      // Picking the client already chosen (it follows from screen to screen) keeps it; the × clears it.
      allowDeselect={false}
      nothingFoundMessage="Sin coincidencias"
      data={clients.map((c) => ({
        value: String(c.id),
        label: c.activo ? c.nombre : `${c.nombre} (inactivo)`,
      }))}
      value={value ? String(value) : null}
      onChange={(v) => {
        const id = v ? Number(v) : null;
        onChange(id, clients.find((c) => c.id === id) ?? null);
      }}
      {...props}
    />
  );
}

/** Below a screen with the client select: the clients could not be read, with 'Reintentar'. */
export function ClientsLoadProblem() {
  const clients = useAllClients();
  if (!clients.isError) return null;
  return (
    <Text size="sm" c="red">
      No se pudo cargar la lista de clientes.{' '}
      <Anchor component="button" type="button" onClick={() => void clients.refetch()}>
        Reintentar
      </Anchor>
    </Text>
  );
}
