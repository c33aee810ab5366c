import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses } from '@portal/shared/schemas/common';
import { BuyerSpendResponse, DashboardQuery, DashboardResponse } from '@portal/shared/schemas/dashboard';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { buyerSpend, dashboard } from './dashboard.service.ts';

const errors = errorResponses(400, 401, 403, 404);

/**
 * The spend dashboard (decision 0055): authorizers and client administrators (decision 0122) see their
 * client; administrators any client or all.
 */
export async function dashboardRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const viewers = app.guard({
    roles: [ROLES.autorizador, ROLES.superAutorizador, ROLES.administrador, ROLES.administradorCliente],
  });
  r.get(
    '/api/tablero',
    {
      preValidation: viewers,
      schema: {
        tags: ['tablero'],
        summary:
          'Tablero de gasto: meses por estatus, compradores y categorías del mes contra su presupuesto, productos principales',
        querystring: DashboardQuery,
        response: { 200: DashboardResponse, ...errors },
      },
    },
    async (request) => dashboard(app.deps, request.auth!, request.query),
  );

  r.get(
    '/api/historial/gasto',
    {
      preValidation: app.guard({ roles: [ROLES.usuario] }),
      schema: {
        tags: ['tablero'],
        summary:
          'Mi gasto de los últimos 6 meses contra mi presupuesto (y por categoría con presupuestos por categoría)',
        response: { 200: BuyerSpendResponse, ...errors },
      },
    },
    async (request) => buyerSpend(app.deps, request.auth!),
  );
}
