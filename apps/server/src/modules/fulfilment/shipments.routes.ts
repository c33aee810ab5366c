import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  LineCancelBody,
  LineParams,
  OrderLinesChangeResponse,
  PromiseBody,
  ShipmentBody,
  ShipmentResponse,
} from '@portal/shared/schemas/fulfilment';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerGuard } from '../integration/api-auth.ts';
import { defineLateDigestJob } from './late-lines.service.ts';
import {
  integrationShipment,
  operatorCancelLine,
  operatorPromise,
  operatorShipment,
} from './shipments.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419);

/**
 * Shipments, lines cancelled as unavailable and promised dates (decision 0125): the operator's (rol 4) and
 * the integrations' (surtido:escribir) writes, and the operators' daily digest of late lines.
 */
export async function shipmentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const operator = app.guard({ roles: [ROLES.administrador] });
  const tags = ['surtido'];
  defineLateDigestJob(app.deps);

  r.post(
    '/api/surtido/:id/envios',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Registra un envío de un pedido aprobado: líneas y cantidades (no más de lo que falta por enviar), guía, paquetería y fecha; el pedido queda en «Envío parcial» o «Enviado»',
        params: IdParam,
        body: ShipmentBody,
        response: { 200: ShipmentResponse, ...errors },
      },
    },
    async (request) => operatorShipment(app.deps, request, request.auth!, request.params.id, request.body),
  );

  r.post(
    '/api/surtido/:id/lineas/:linea/cancelar',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Cancela unidades de una línea por falta de existencia (todas las que faltan por enviar si no se indica cantidad), con motivo: su importe deja de contar en el presupuesto del mes; avisa al comprador y a quienes aprobaron',
        params: LineParams,
        body: LineCancelBody,
        response: { 200: OrderLinesChangeResponse, ...errors },
      },
    },
    async (request) =>
      operatorCancelLine(
        app.deps,
        request,
        request.auth!,
        request.params.id,
        request.params.linea,
        request.body,
      ),
  );

  r.post(
    '/api/surtido/:id/promesa',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Cambia la fecha prometida de las líneas indicadas (o de todas las que faltan por enviar) de un pedido aprobado',
        params: IdParam,
        body: PromiseBody,
        response: { 200: OrderLinesChangeResponse, ...errors },
      },
    },
    async (request) => operatorPromise(app.deps, request, request.auth!, request.params.id, request.body),
  );

  r.post(
    '/api/v1/pedidos/:id/envios',
    {
      onRequest: bearerGuard(app, 'surtido:escribir'),
      schema: {
        tags: ['api v1'],
        security: [{ bearer: [] }],
        summary: 'Registra un envío de un pedido aprobado, como el operador (permiso surtido:escribir)',
        description:
          'Cuerpo: lineas [{id, cantidad}] (id de la línea del pedido; no más de lo que falta por enviar), guia, ' +
          'paqueteria y fecha (AAAA-MM-DD, hoy si no se envía). El pedido pasa a parcial, o a enviado cuando no ' +
          'queda nada por enviar. 409 si una cantidad excede lo pendiente o el pedido ya no tiene nada por enviar ' +
          '(quien llegó primero gana); 404 para un pedido de otro cliente con un token de un cliente. Idempotente ' +
          'con Idempotency-Key. Emite el webhook pedido.envio (y pedido.surtido cuando cambia el estado).',
        params: IdParam,
        body: ShipmentBody,
        response: { 200: ShipmentResponse, ...errorResponses(400, 401, 403, 404, 409, 422, 429) },
      },
    },
    async (request, reply) =>
      integrationShipment(app.deps, request, reply, request.apiCaller!, request.params.id, request.body),
  );
}
