import { ROLES } from '@portal/shared/domain/roles';
import { ErrorBody } from '@portal/shared/schemas/common';
import { AdminOverview } from '@portal/shared/schemas/overview';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { adminOverview } from './admin-overview.service.ts';

/** Rol 4: the figures of the administrator's home page. */
export async function adminOverviewRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/admin/resumen',
    {
      preValidation: app.guard({ roles: [ROLES.administrador] }),
      schema: {
        tags: ['administracion'],
        summary:
          'Resumen: clientes y usuarios activos, pedidos del mes por estado, importaciones, ampliaciones por decidir',
        response: { 200: AdminOverview, 401: ErrorBody, 403: ErrorBody },
      },
    },
    async () => adminOverview(app.deps),
  );
}
