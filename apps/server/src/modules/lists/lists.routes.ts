import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam, OkMessage } from '@portal/shared/schemas/common';
import {
  ListCreateBody,
  ListResponse,
  ListSavedResponse,
  ListsResponse,
  ListUpdateBody,
} from '@portal/shared/schemas/lists';
import { ReorderResponse } from '@portal/shared/schemas/shopping';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  userCreateList,
  userDeleteList,
  userList,
  userLists,
  userListToCart,
  userUpdateList,
} from './lists.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419, 422);

/** A buyer's saved lists ("Mis listas"): private to their owner (docs/domain.md "Cart", decision 0043). */
export async function listRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const buyer = app.guard({ roles: [ROLES.usuario] });
  const tags = ['listas'];

  r.get(
    '/api/listas',
    {
      preValidation: buyer,
      schema: { tags, summary: 'Las listas del comprador', response: { 200: ListsResponse, ...errors } },
    },
    async (request) => userLists(app.deps, request.auth!),
  );

  r.post(
    '/api/listas',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Guarda una lista nueva (nombre y productos con cantidad)',
        body: ListCreateBody,
        response: { 201: ListSavedResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await userCreateList(app.deps, request.auth!, request.body)),
  );

  r.get(
    '/api/listas/:id',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Una lista con los datos actuales de sus productos',
        params: IdParam,
        response: { 200: ListResponse, ...errors },
      },
    },
    async (request) => ({ lista: await userList(app.deps, request.auth!, request.params.id) }),
  );

  r.put(
    '/api/listas/:id',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Renombra una lista o reemplaza sus productos',
        params: IdParam,
        body: ListUpdateBody,
        response: { 200: ListSavedResponse, ...errors },
      },
    },
    async (request) => userUpdateList(app.deps, request.auth!, request.params.id, request.body),
  );

  r.delete(
    '/api/listas/:id',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Elimina una lista',
        params: IdParam,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => userDeleteList(app.deps, request.auth!, request.params.id),
  );

  r.post(
    '/api/listas/:id/al-carrito',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'Agrega al carrito los productos de la lista, a precios actuales',
        params: IdParam,
        response: { 200: ReorderResponse, ...errors },
      },
    },
    async (request) => userListToCart(app.deps, request.auth!, request.params.id),
  );
}
