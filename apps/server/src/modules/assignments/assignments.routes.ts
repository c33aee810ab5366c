import { ROLES } from '@portal/shared/domain/roles';
import {
  AssignAllBody,
  AssignAllResponse,
  AssignBody,
  AssignResponse,
  BatchAssignBody,
  BatchAssignResponse,
  CopyAssignmentsBody,
  CopyAssignmentsResponse,
  UserProductsQuery,
  UserProductsResponse,
} from '@portal/shared/schemas/assignments';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  assignAll,
  assignBatch,
  assignProduct,
  copyAssignments,
  userProductList,
} from './assignments.service.ts';

const errors = errorResponses(400, 401, 403, 404, 419);
const bulkErrors = errorResponses(400, 401, 403, 404, 419, 422);

/**
 * Rol 4: which products of its client a rol-1 user may buy, and how many of each per order. Rol 5, a
 * client's administrator: its own client's buyers, read always and changed when its client allows
 * `asignaciones` (decision 0122).
 */
export async function assignmentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admins = [ROLES.administrador, ROLES.administradorCliente] as const;
  const reader = app.guard({ roles: admins });
  const admin = app.guard({ roles: admins, clientPermission: 'asignaciones' });
  const tags = ['administracion'];

  r.get(
    '/api/usuarios/:id/productos',
    {
      preValidation: reader,
      schema: {
        tags,
        summary: 'Productos del cliente del usuario (rol 1) con su asignación y cantidad límite',
        params: IdParam,
        querystring: UserProductsQuery,
        response: { 200: UserProductsResponse, ...errors },
      },
    },
    async (request) => userProductList(app.db, request.auth!, request.params.id, request.query),
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
    async (request) => assignProduct(app.deps, request, request.auth!, request.body),
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
    async (request) => assignAll(app.deps, request, request.auth!, request.body),
  );

  r.post(
    '/api/usuarios/:id/productos/copiar',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Copia los productos asignados de otro usuario (rol 1) del mismo cliente',
        description:
          "modo 'reemplazar': las asignaciones del usuario quedan iguales a las de desde_usuario_id (asignado y " +
          "cantidad límite). modo 'agregar': se habilitan, con la cantidad límite del otro usuario, los productos " +
          'que él tiene habilitados y este no; un producto que ambos tienen habilitado conserva su cantidad ' +
          'límite y nada se deshabilita. El mismo usuario: 400; otro cliente o inexistente: 404; un usuario que ' +
          'no es rol 1: 422. Las líneas del carrito no cambian (decisión 0061).',
        params: IdParam,
        body: CopyAssignmentsBody,
        response: { 200: CopyAssignmentsResponse, ...bulkErrors },
      },
    },
    async (request) => copyAssignments(app.deps, request, request.auth!, request.params.id, request.body),
  );

  r.post(
    '/api/productos/asignar_lote',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Habilita o deshabilita productos (una lista o una categoría) para hasta 500 usuarios',
        description:
          'Una transacción y una sola sentencia para todos los pares usuario × producto. Los usuarios son rol 1 ' +
          'de un mismo cliente (el del primero); productos o categoria_id de ese cliente. Cualquier usuario, ' +
          'producto o categoría de otro cliente o inexistente: 404 y nada cambia; un usuario que no es rol 1: ' +
          '422. Sin cantidad_limite cada asignación conserva la suya (1 en las nuevas), como en ' +
          '/api/productos/asignar.',
        body: BatchAssignBody,
        response: { 200: BatchAssignResponse, ...bulkErrors },
      },
    },
    async (request) => assignBatch(app.deps, request, request.auth!, request.body),
  );
}
