import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam, OkMessage } from '@portal/shared/schemas/common';
import {
  AgingQuery,
  AgingResponse,
  StatementDownloadQuery,
  StatementDto,
  StatementQuery,
} from '@portal/shared/schemas/credit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { compiledResponse } from '../../lib/response-serializer.ts';
import { releaseCreditHold } from './release.service.ts';
import { clientsAging, sendStatement, statement } from './statement.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419);

/**
 * Credit and statements (issue 42 item 4, decision 0134): the client's «Estado de cuenta» (its approvers and
 * administrators; the distributor naming the client), the distributor's aging of every client, and the
 * release of an order held for credit (rol 4).
 */
export async function creditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const operator = app.guard({ roles: [ROLES.administrador] });
  const readers = app.guard({
    roles: [ROLES.autorizador, ROLES.superAutorizador, ROLES.administrador, ROLES.administradorCliente],
  });
  const tags = ['crédito'];

  r.get(
    '/api/estado-cuenta',
    {
      preValidation: readers,
      schema: {
        tags,
        summary:
          'Estado de cuenta de un cliente: facturas abiertas con vencimiento, pagos y notas de crédito aplicados, saldo, antigüedad, límite y crédito disponible (roles 2, 3 y 5: el propio cliente; rol 4: cliente=id)',
        querystring: StatementQuery,
        // A page of 50 open invoices with their applications: serialised by the compiled function (0074).
        response: { 200: compiledResponse(StatementDto), ...errors },
      },
    },
    async (request) => statement(app.deps, request.auth!, request.query),
  );

  r.get(
    '/api/estado-cuenta/descarga',
    {
      preValidation: readers,
      schema: {
        tags,
        summary: 'El estado de cuenta como archivo: formato=pdf (por omisión) o csv',
        querystring: StatementDownloadQuery,
        response: errors,
      },
    },
    async (request, reply) => sendStatement(app.deps, reply, request.auth!, request.query),
  );

  r.get(
    '/api/credito/clientes',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Antigüedad de saldos de todos los clientes por nombre, 25 por página: saldo, vencido, 0–30/31–60/61–90/90+, límite, política y pedidos retenidos',
        querystring: AgingQuery,
        response: { 200: AgingResponse, ...errors },
      },
    },
    async (request) => clientsAging(app.deps, request.query),
  );

  r.post(
    '/api/surtido/:id/liberar',
    {
      preValidation: operator,
      schema: {
        tags: ['surtido'],
        summary:
          'Libera un pedido retenido por crédito: vuelve a poder prepararse y enviarse (409 si ya no está retenido)',
        params: IdParam,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => releaseCreditHold(app.deps, request, request.auth!, request.params.id),
  );
}
