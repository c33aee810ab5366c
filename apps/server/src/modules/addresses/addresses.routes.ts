import { ROLES } from '@portal/shared/domain/roles';
import {
  AddressBody,
  AddressesQuery,
  AddressesResponse,
  AddressResponse,
  UserAddressesBody,
  UserAddressesResponse,
} from '@portal/shared/schemas/addresses';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  buyerShipTo,
  createAddress,
  deactivateAddress,
  listAddresses,
  setUserAddresses,
  updateAddress,
  userAddressesOf,
} from './addresses.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419, 422);

const UserAddressesSaved = UserAddressesResponse.extend({ status: z.literal('ok'), msg: z.string() });

/**
 * Ship-to addresses (decision 0126): a client's address book and each buyer's choice of them. The
 * distributor (rol 4) works on any client; a client administrator (rol 5) on its own, changing them with
 * its client's `usuarios` permission (the addresses are part of its people's profiles). The buyer reads
 * the ones it may send its order to.
 */
export async function addressRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admins = [ROLES.administrador, ROLES.administradorCliente] as const;
  const readers = app.guard({ roles: admins });
  const changers = app.guard({ roles: admins, clientPermission: 'usuarios' });
  const tags = ['direcciones'];

  r.get(
    '/api/direcciones',
    {
      preValidation: readers,
      schema: {
        tags,
        summary:
          'Direcciones de entrega de un cliente, por nombre (20 por página; con inactivas=1 también las inactivas)',
        querystring: AddressesQuery,
        response: { 200: AddressesResponse, ...errors },
      },
    },
    async (request) => listAddresses(app.deps, request.auth!, request.query),
  );
  r.post(
    '/api/direcciones',
    {
      preValidation: changers,
      schema: {
        tags,
        summary: 'Crea una dirección de entrega del cliente',
        body: AddressBody,
        response: { 201: AddressResponse, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return createAddress(app.deps, request, request.auth!, request.body);
    },
  );
  r.put(
    '/api/direcciones/:id',
    {
      preValidation: changers,
      schema: {
        tags,
        summary: 'Modifica (o reactiva) una dirección de entrega; los pedidos ya hechos conservan su copia',
        params: IdParam,
        body: AddressBody,
        response: { 200: AddressResponse, ...errors },
      },
    },
    async (request) => updateAddress(app.deps, request, request.auth!, request.params.id, request.body),
  );
  r.delete(
    '/api/direcciones/:id',
    {
      preValidation: changers,
      schema: {
        tags,
        summary: 'Desactiva una dirección de entrega que no es la predeterminada de ningún usuario activo',
        params: IdParam,
        response: { 200: AddressResponse, ...errors },
      },
    },
    async (request) => deactivateAddress(app.deps, request, request.auth!, request.params.id),
  );

  r.get(
    '/api/usuarios/:id/direcciones',
    {
      preValidation: readers,
      schema: {
        tags,
        summary: 'La dirección predeterminada de un comprador y las demás que puede elegir',
        params: IdParam,
        response: { 200: UserAddressesResponse, ...errors },
      },
    },
    async (request) => userAddressesOf(app.deps, request.auth!, request.params.id),
  );
  r.put(
    '/api/usuarios/:id/direcciones',
    {
      preValidation: changers,
      schema: {
        tags,
        summary: 'Fija la dirección predeterminada de un comprador y las demás que puede elegir',
        params: IdParam,
        body: UserAddressesBody,
        response: { 200: UserAddressesSaved, ...errors },
      },
    },
    async (request) => setUserAddresses(app.deps, request, request.auth!, request.params.id, request.body),
  );

  r.get(
    '/api/carrito/direcciones',
    {
      preValidation: app.guard({ roles: [ROLES.usuario] }),
      schema: {
        tags,
        summary: 'Las direcciones a las que el comprador puede enviar su pedido (la predeterminada primero)',
        response: { 200: UserAddressesResponse, ...errors },
      },
    },
    async (request) => buyerShipTo(app.deps, request.auth!),
  );
}
