import { ROLES } from '@portal/shared/domain/roles';
import {
  AssignAllBody,
  AssignAllResponse,
  AssignBody,
  AssignResponse,
  UserProductsQuery,
  UserProductsResponse,
} from '@portal/shared/schemas/assignments';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { assignAll, assignProduct, userProductList } from './assignments.service.ts';

const errors = errorResponses(400, 401, 403, 404, 419);

/** Rol 4: which products of its client a rol-1 user may buy, and how many of each per order. */
export async function assignmentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['administracion'];

  r.get(
    '/api/usuarios/:id/productos',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Productos del cliente del usuario (rol 1) con su asignación y cantidad límite',
        params: IdParam,
        querystring: UserProductsQuery,
        response: { 200: UserProductsResponse, ...errors },
      },
    },
    async (request) => userProductList(app.db, request.params.id, request.query),
  );

  r.post(
    '/api/productos/asignar',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Habilita o deshabilita un producto para un usuario y fija su cantidad límite',
        body: AssignBody,
        response: { 200: AssignResponse, ...errors },
      },
    },
    async (request) => assignProduct(app, request, request.auth!, request.body),
  );

  r.post(
    '/api/productos/asignar_todos',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Habilita o deshabilita todos los productos del cliente (o los de ids) para un usuario',
        body: AssignAllBody,
        response: { 200: AssignAllResponse, ...errors },
      },
    },
    async (request) => assignAll(app, request, request.auth!, request.body),
  );
}
