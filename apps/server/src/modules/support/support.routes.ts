import { ROLES } from '@portal/shared/domain/roles';
import { OlderCommentsQuery, OlderCommentsResponse } from '@portal/shared/schemas/comments';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  AdminOrderResponse,
  AdminOrdersQuery,
  AdminOrdersResponse,
  SupportSearchQuery,
  SupportSearchResponse,
} from '@portal/shared/schemas/support';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminOlderComments } from '../orders/comments.service.ts';
import { adminOrder, adminOrders, supportSearch } from './support.service.ts';

const errors = errorResponses(400, 401, 403, 404, 419);

/** Rol 4: one search over users and orders, and any order read-only (support when a buyer calls). */
export async function supportRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['administracion'];

  r.get(
    '/api/buscar',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Busca usuarios (usuario, nombre, correo) y pedidos (número, comprador): hasta 10 de cada uno',
        querystring: SupportSearchQuery,
        response: { 200: SupportSearchResponse, ...errors },
      },
    },
    async (request) => supportSearch(app.deps.reads, request.query.q),
  );

  r.get(
    '/api/admin/pedidos',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Pedidos de todos los clientes por estatus (por_autorizar: pendientes y en espera) y mes, 20 por página, solo lectura; orden fecha_desc (por omisión), fecha_asc, total_desc o total_asc',
        querystring: AdminOrdersQuery,
        response: { 200: AdminOrdersResponse, ...errors },
      },
    },
    async (request) => adminOrders(app.db, request.query, app.config.BUSINESS_TZ),
  );

  r.get(
    '/api/admin/pedidos/:id',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Un pedido de cualquier cliente, solo lectura: líneas, totales, eventos y comentarios',
        params: IdParam,
        response: { 200: AdminOrderResponse, ...errors },
      },
    },
    async (request) => adminOrder(app.db, request.params.id),
  );

  r.get(
    '/api/admin/pedidos/:id/comentarios',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Los comentarios anteriores a uno (50 por página) de un pedido de cualquier cliente',
        params: IdParam,
        querystring: OlderCommentsQuery,
        response: { 200: OlderCommentsResponse, ...errors },
      },
    },
    async (request) => adminOlderComments(app.deps, request.params.id, request.query.antes),
  );
}
