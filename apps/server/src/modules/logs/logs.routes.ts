import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses } from '@portal/shared/schemas/common';
import { LogsQuery, LogsResponse, LogTypesResponse } from '@portal/shared/schemas/logs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { listLogs, logTypes } from './logs.service.ts';

const errors = errorResponses(400, 401, 403);

/** Rol 4: the system log ("Registros del sistema"), read-only. */
export async function logRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['logs'];

  r.get(
    '/api/logs',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Registros del sistema, los más recientes primero (15 por página), con filtros',
        querystring: LogsQuery,
        response: { 200: LogsResponse, ...errors },
      },
    },
    async (request) => listLogs(app, request.query),
  );

  r.get(
    '/api/logs/tipos',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Tipos de evento registrados',
        response: { 200: LogTypesResponse, ...errors },
      },
    },
    async () => ({ tipos: await logTypes(app) }),
  );
}
