import { ROLES } from '@portal/shared/domain/roles';
import { MAX_ID } from '@portal/shared/limits';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden } from '../../lib/errors.ts';
import { sendRemision } from './remision.service.ts';

/** An order's id and the number of one of its shipments (1, 2… within the order). */
const ShipmentParams = IdParam.extend({ numero: z.coerce.number().int().positive().max(MAX_ID) });

const errors = errorResponses(400, 401, 403, 404);

/**
 * The remisión (packing slip) of a shipment as a PDF (issue 41 item 7, decision 0125): the operator's of any
 * client's order, the buyer's of its own orders, and the approvers' (roles 2 and 3) of their client's orders.
 * An order out of reach, a missing one and a shipment the order does not have all answer 404.
 */
export async function remisionRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const operator = app.guard({ roles: [ROLES.administrador] });
  const buyer = app.guard({ roles: [ROLES.usuario] });
  const authorizer = app.guard({ roles: [ROLES.autorizador, ROLES.superAutorizador] });
  const schema = (tags: string[], summary: string) => ({
    tags,
    summary,
    params: ShipmentParams,
    produces: ['application/pdf'],
    response: errors,
  });

  r.get(
    '/api/surtido/:id/envios/:numero/remision',
    {
      preValidation: operator,
      schema: schema(
        ['surtido'],
        'Remisión en PDF (remision-<pedido>-<envío>.pdf) de un envío de un pedido de cualquier cliente',
      ),
    },
    async (request, reply) => sendRemision(app.deps, reply, request.params.id, request.params.numero, {}),
  );

  r.get(
    '/api/historial/:id/envios/:numero/remision',
    {
      preValidation: buyer,
      schema: schema(
        ['compras'],
        'Remisión en PDF (remision-<pedido>-<envío>.pdf) de un envío de un pedido propio',
      ),
    },
    async (request, reply) =>
      sendRemision(app.deps, reply, request.params.id, request.params.numero, {
        idUser: request.auth!.user.id,
      }),
  );

  r.get(
    '/api/pedidos/:id/envios/:numero/remision',
    {
      preValidation: authorizer,
      schema: schema(
        ['autorizacion'],
        'Remisión en PDF (remision-<pedido>-<envío>.pdf) de un envío de un pedido del cliente',
      ),
    },
    async (request, reply) => {
      // The client's orders, as the purchase order's PDF (GET /api/pedidos/{id}/pdf) scopes them.
      const client = request.auth!.client;
      if (!client) throw forbidden();
      return sendRemision(app.deps, reply, request.params.id, request.params.numero, {
        idCliente: client.id,
      });
    },
  );
}
