/**
 * A client's ship-to addresses (decision 0126): the address book a page at a time (GET /api/direcciones),
 * one created or changed (POST/PUT), deactivated (DELETE, 409 while it is an active buyer's default), and
 * a buyer's default and allowed ones (GET/PUT /api/usuarios/{id}/direcciones). The distributor names the
 * client; a client administrator's is its own (changes need its client's `usuarios`).
 */

import type {
  AddressBody,
  AddressesResponse,
  AddressResponse,
  UserAddressesBody,
  UserAddressesResponse,
} from '@portal/shared/schemas/addresses';
import type { UserReceiverBody, UserReceiverResponse } from '@portal/shared/schemas/receiving';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from '../api/keys';

/** One page of the book (inactive ones too, after the active ones); `perPage` 200 for a form's choice. */
export function useAddresses(idCliente: number | null, page: number, perPage = 20, inactivas = true) {
  return useQuery({
    queryKey: [...adminKeys.addresses(idCliente ?? 0), { page, perPage, inactivas }],
    queryFn: ({ signal }) =>
      api.get<AddressesResponse>(
        `/api/direcciones?id_cliente=${idCliente}&page=${page}&por_pagina=${perPage}${inactivas ? '&inactivas=1' : ''}`,
        { signal },
      ),
    enabled: idCliente !== null,
    placeholderData: keepPreviousData,
  });
}

/** Creates an address (id null) or changes one; the client's book is read again. */
export function useSaveAddress(idCliente: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: { id: number | null; body: AddressBody }) =>
      id === null
        ? api.post<AddressResponse>('/api/direcciones', { ...body, id_cliente: idCliente })
        : api.put<AddressResponse>(`/api/direcciones/${id}`, body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['admin', 'direcciones'] }),
  });
}

export function useDeactivateAddress() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<AddressResponse>(`/api/direcciones/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'direcciones'] }),
  });
}

export function useUserAddresses(userId: number) {
  return useQuery({
    queryKey: adminKeys.userAddresses(userId),
    queryFn: ({ signal }) =>
      api.get<UserAddressesResponse>(`/api/usuarios/${userId}/direcciones`, { signal }),
    staleTime: 0,
  });
}

export function useSaveUserAddresses(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UserAddressesBody) =>
      api.put<UserAddressesResponse & { msg: string }>(`/api/usuarios/${userId}/direcciones`, body),
    onSuccess: (res) => {
      queryClient.setQueryData(adminKeys.userAddresses(userId), {
        id_direccion: res.id_direccion,
        direcciones: res.direcciones,
      });
      void queryClient.invalidateQueries({ queryKey: ['admin', 'direcciones'] });
    },
  });
}

/** GET /api/usuarios/{id}/receptor: «Receptor de mercancía» and its addresses (decision 0130). */
export function useUserReceiver(userId: number) {
  return useQuery({
    queryKey: adminKeys.userReceiver(userId),
    queryFn: ({ signal }) => api.get<UserReceiverResponse>(`/api/usuarios/${userId}/receptor`, { signal }),
    staleTime: 0,
  });
}

export function useSaveUserReceiver(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: UserReceiverBody) =>
      api.put<UserReceiverResponse & { msg: string }>(`/api/usuarios/${userId}/receptor`, body),
    onSuccess: (res) =>
      queryClient.setQueryData(adminKeys.userReceiver(userId), {
        receptor: res.receptor,
        direcciones: res.direcciones,
      }),
  });
}
