import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses } from '@portal/shared/schemas/common';
import { LogFiltersQuery, LogsQuery, LogsResponse, LogTypesResponse } from '@portal/shared/schemas/logs';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { audit, requestMeta } from '../../lib/audit.ts';
import { withScopedClient } from '../../lib/client-scope.ts';
import { compiledResponse } from '../../lib/response-serializer.ts';
import { exportLogs, listLogs, logTypes } from './logs.service.ts';

const errors = errorResponses(400, 401, 403, 404);

/**
 * Rol 4: the system log ("Registros del sistema"), read-only. Rol 5, a client's administrator: the entries of
 * its own client only (decision 0122).
 */
export async function logRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador, ROLES.administradorCliente] });
  const tags = ['logs'];

  r.get(
    '/api/logs',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Registros del sistema, los más recientes primero (15 por página), filtrados por tipo, usuario (ID o nombre/usuario), cliente, pedido y fechas',
        querystring: LogsQuery,
        response: { 200: compiledResponse(LogsResponse), ...errors },
      },
    },
    async (request) => listLogs(app.deps, withScopedClient(request.auth!, request.query)),
  );

  r.get(
    '/api/logs/exportar',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Los registros filtrados (mismos filtros que /api/logs, sin página) como CSV (UTF-8 con BOM), enviado por partes',
        querystring: LogFiltersQuery,
      },
    },
    async (request, reply) => {
      const auth = request.auth!;
      // Another client's id is refused before anything is logged as exported.
      const query = withScopedClient(request.auth!, request.query);
      const filtros = Object.fromEntries(
        Object.entries(request.query).filter(([, v]) => v !== undefined && v !== ''),
      );
      await audit(app.db, {
        userId: auth.user.id,
        eventType: 'registros_exportados',
        description: 'Registros del sistema exportados a CSV',
        metadata: { filtros, ...requestMeta(request) },
      });
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="registros.csv"')
        .send(exportLogs(app.deps, query));
    },
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
    async () => ({ tipos: await logTypes(app.deps) }),
  );
}
