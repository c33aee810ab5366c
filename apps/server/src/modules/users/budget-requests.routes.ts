import { ROLES } from '@portal/shared/domain/roles';
import {
  BudgetRequestDecisionResponse,
  BudgetRequestsQuery,
  BudgetRequestsResponse,
} from '@portal/shared/schemas/budget-requests';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { decideBudgetRequest, listBudgetRequests } from './budget-requests.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419);

/**
 * Budgets above a client's cap (decision 0122): the distributor's queue and decisions (rol 4); a client
 * administrator (rol 5) reads its own client's requests.
 */
export async function budgetRequestRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const readers = app.guard({ roles: [ROLES.administrador, ROLES.administradorCliente] });
  const distributor = app.guard({ roles: [ROLES.administrador] });
  const tags = ['administracion'];

  r.get(
    '/api/presupuestos/solicitudes',
    {
      preValidation: readers,
      schema: {
        tags,
        summary:
          'Presupuestos por encima del tope de un cliente: la cola del distribuidor (pendientes, las más antiguas primero) o las del propio cliente (rol 5)',
        querystring: BudgetRequestsQuery,
        response: { 200: BudgetRequestsResponse, ...errors },
      },
    },
    async (request) => listBudgetRequests(app.db, request.auth!, request.query),
  );

  for (const [path, decision, summary] of [
    ['aprobar', 'aprobada', 'Aprueba una solicitud pendiente y aplica el presupuesto al usuario'],
    ['rechazar', 'rechazada', 'Rechaza una solicitud pendiente; el usuario conserva su presupuesto'],
  ] as const) {
    r.post(
      `/api/presupuestos/solicitudes/:id/${path}`,
      {
        preValidation: distributor,
        schema: {
          tags,
          summary,
          params: IdParam,
          response: { 200: BudgetRequestDecisionResponse, ...errors },
        },
      },
      async (request) => decideBudgetRequest(app.deps, request, request.auth!, request.params.id, decision),
    );
  }
}
