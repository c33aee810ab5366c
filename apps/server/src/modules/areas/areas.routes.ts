import { ROLES } from '@portal/shared/domain/roles';
import {
  AreaBody,
  AreaResponse,
  AreasQuery,
  AreasResponse,
  AreaTransferBody,
  TopupBody,
  TopupDecisionBody,
  TopupResponse,
  TopupsQuery,
  TopupsResponse,
} from '@portal/shared/schemas/areas';
import { errorResponses, IdParam, OkMessage } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { createArea, deleteArea, listAreas, transferBetweenAreas, updateArea } from './areas.service.ts';
import { decideTopup, listTopups, requestTopup } from './topups.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419, 422);

/**
 * Áreas (cost centres) with their monthly budgets, transfers between them, and budget top-ups
 * (decision 0123). The distributor (rol 4) works on any client; a client administrator (rol 5) on its own,
 * changing áreas only with its client's `presupuestos` permission.
 */
export async function areaRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const readers = app.guard({ roles: [ROLES.administrador, ROLES.administradorCliente] });
  const changers = app.guard({
    roles: [ROLES.administrador, ROLES.administradorCliente],
    clientPermission: 'presupuestos',
  });
  const tags = ['areas'];

  r.get(
    '/api/areas',
    {
      preValidation: readers,
      schema: {
        tags,
        summary: 'Las áreas (centros de costo) de un cliente, con el presupuesto y el gasto del mes',
        querystring: AreasQuery,
        response: { 200: AreasResponse, ...errors },
      },
    },
    async (request) => listAreas(app.deps, request.auth!, request.query),
  );
  r.post(
    '/api/areas',
    {
      preValidation: changers,
      schema: { tags, summary: 'Crea un área', body: AreaBody, response: { 201: AreaResponse, ...errors } },
    },
    async (request, reply) => {
      reply.code(201);
      return createArea(app.deps, request, request.auth!, request.body);
    },
  );
  r.put(
    '/api/areas/:id',
    {
      preValidation: changers,
      schema: {
        tags,
        summary: 'Modifica un área',
        params: IdParam,
        body: AreaBody,
        response: { 200: AreaResponse, ...errors },
      },
    },
    async (request) => updateArea(app.deps, request, request.auth!, request.params.id, request.body),
  );
  r.delete(
    '/api/areas/:id',
    {
      preValidation: changers,
      schema: {
        tags,
        summary: 'Elimina un área sin usuarios ni pedidos',
        params: IdParam,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => deleteArea(app.deps, request, request.auth!, request.params.id),
  );
  r.post(
    '/api/areas/transferencias',
    {
      preValidation: changers,
      schema: {
        tags,
        summary: 'Transfiere presupuesto de este mes de un área a otra del mismo cliente',
        body: AreaTransferBody,
        response: { 200: AreasResponse, ...errors },
      },
    },
    async (request) => transferBetweenAreas(app.deps, request, request.auth!, request.body),
  );

  r.post(
    '/api/ampliaciones',
    {
      preValidation: app.guard({ roles: [ROLES.usuario] }),
      schema: {
        tags,
        summary: 'Solicita una ampliación del presupuesto de este mes (el propio o el del área)',
        body: TopupBody,
        response: { 201: TopupResponse, ...errors },
      },
    },
    async (request, reply) => {
      reply.code(201);
      return requestTopup(app.deps, request, request.auth!, request.body);
    },
  );
  r.get(
    '/api/ampliaciones',
    {
      preValidation: app.guard(),
      schema: {
        tags,
        summary:
          'Solicitudes de ampliación: las propias (comprador), las de sus áreas (responsable), las del cliente o todas',
        querystring: TopupsQuery,
        response: { 200: TopupsResponse, ...errors },
      },
    },
    async (request) => listTopups(app.deps, request.auth!, request.query),
  );
  const deciders = app.guard({
    roles: [ROLES.autorizador, ROLES.superAutorizador, ROLES.administrador, ROLES.administradorCliente],
  });
  for (const [path, decision, summary] of [
    ['aprobar', 'aprobada', 'Aprueba una ampliación pendiente: el presupuesto de ese mes crece'],
    ['rechazar', 'rechazada', 'Rechaza una ampliación pendiente'],
  ] as const) {
    r.post(
      `/api/ampliaciones/:id/${path}`,
      {
        preValidation: deciders,
        schema: {
          tags,
          summary,
          params: IdParam,
          body: TopupDecisionBody,
          response: { 200: TopupResponse, ...errors },
        },
      },
      async (request) =>
        decideTopup(app.deps, request, request.auth!, request.params.id, decision, request.body?.respuesta),
    );
  }
}
