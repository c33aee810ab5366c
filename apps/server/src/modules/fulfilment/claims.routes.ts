import { ROLES } from '@portal/shared/domain/roles';
import {
  ClaimBody,
  ClaimCreatedResponse,
  ClaimDecisionBody,
  ClaimDecisionResponse,
  ClaimQueueQuery,
  ClaimQueueResponse,
  OrderPhotoResponse,
  PhotoParams,
  ShipmentParams,
  ShipmentReceiptBody,
  ShipmentReceiptResponse,
} from '@portal/shared/schemas/claims';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden } from '../../lib/errors.ts';
import { buyerOpenClaim, claimQueue, operatorDecideClaim } from './claims.service.ts';
import { sendPhoto, uploadPhoto } from './photos.service.ts';
import { receiveShipment } from './receipts.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419);
const uploadErrors = errorResponses(400, 401, 403, 404, 409, 413, 415, 419);
const readErrors = errorResponses(400, 401, 403, 404);

/**
 * Receipts per shipment, claims and their photos (issue 41 items 4–5, decision 0127): the buyer's receipt,
 * claim and photos (rol 1, own orders), the operator's queue and decisions (rol 4), and each photo for who may
 * see its order (the buyer, the client's approvers, the operator).
 */
export async function claimRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const operator = app.guard({ roles: [ROLES.administrador] });
  const buyer = app.guard({ roles: [ROLES.usuario] });
  const authorizer = app.guard({ roles: [ROLES.autorizador, ROLES.superAutorizador] });

  r.post(
    '/api/historial/:id/envios/:numero/recepcion',
    {
      preValidation: buyer,
      schema: {
        tags: ['compras'],
        summary:
          'El comprador registra la recepción de un envío de un pedido propio, línea por línea (las no indicadas llegaron completas); una diferencia abre un reclamo; recibir el último envío de un pedido «Enviado» lo pasa a «Entregado»',
        params: ShipmentParams,
        body: ShipmentReceiptBody,
        response: { 200: ShipmentReceiptResponse, ...errors },
      },
    },
    async (request) =>
      receiveShipment(
        app.deps,
        request,
        request.auth!,
        request.params.id,
        request.params.numero,
        request.body,
      ),
  );

  r.post(
    '/api/historial/:id/reclamos',
    {
      preValidation: buyer,
      schema: {
        tags: ['compras'],
        summary:
          'El comprador reclama unidades enviadas de un pedido propio (faltantes, dañadas, equivocadas o no solicitadas) y pide reposición o crédito',
        params: IdParam,
        body: ClaimBody,
        response: { 200: ClaimCreatedResponse, ...errors },
      },
    },
    async (request) => buyerOpenClaim(app.deps, request, request.auth!, request.params.id, request.body),
  );

  r.post(
    '/api/historial/:id/fotos',
    {
      preValidation: buyer,
      schema: {
        tags: ['compras'],
        summary:
          'Sube una foto (multipart: archivo; JPG, PNG o HEIC, hasta 10 MB) de un pedido propio aprobado, para nombrarla en una recepción o un reclamo',
        consumes: ['multipart/form-data'],
        params: IdParam,
        response: { 200: OrderPhotoResponse, ...uploadErrors },
      },
    },
    async (request) => uploadPhoto(app.deps, request, request.auth!, request.params.id),
  );

  r.get(
    '/api/historial/:id/fotos/:foto',
    {
      preValidation: buyer,
      schema: {
        tags: ['compras'],
        summary: 'Una foto de una recepción o un reclamo de un pedido propio',
        params: PhotoParams,
        response: readErrors,
      },
    },
    async (request, reply) =>
      sendPhoto(app.deps, reply, request.params.id, request.params.foto, { idUser: request.auth!.user.id }),
  );

  r.get(
    '/api/pedidos/:id/fotos/:foto',
    {
      preValidation: authorizer,
      schema: {
        tags: ['autorizacion'],
        summary: 'Una foto de una recepción o un reclamo de un pedido del cliente',
        params: PhotoParams,
        response: readErrors,
      },
    },
    async (request, reply) => {
      // The client's orders, as the remisión's and the purchase order's routes scope them.
      const client = request.auth!.client;
      if (!client) throw forbidden();
      return sendPhoto(app.deps, reply, request.params.id, request.params.foto, { idCliente: client.id });
    },
  );

  r.get(
    '/api/surtido/:id/fotos/:foto',
    {
      preValidation: operator,
      schema: {
        tags: ['surtido'],
        summary: 'Una foto de una recepción o un reclamo de un pedido de cualquier cliente',
        params: PhotoParams,
        response: readErrors,
      },
    },
    async (request, reply) => sendPhoto(app.deps, reply, request.params.id, request.params.foto, {}),
  );

  r.get(
    '/api/surtido/reclamos',
    {
      preValidation: operator,
      schema: {
        tags: ['surtido'],
        summary:
          'Reclamos de todos los clientes, 50 por página, del más reciente al más antiguo: pendientes (abiertos o con devolución, por omisión), todos o de un estado',
        querystring: ClaimQueueQuery,
        response: { 200: ClaimQueueResponse, ...readErrors },
      },
    },
    async (request) => claimQueue(app.deps, request.query),
  );

  r.post(
    '/api/surtido/reclamos/:id',
    {
      preValidation: operator,
      schema: {
        tags: ['surtido'],
        summary:
          'Decide un reclamo: aceptar (reposición: un envío sin costo; crédito: el importe deja de contar en el presupuesto), rechazar con motivo, o pedir la devolución con una guía',
        params: IdParam,
        body: ClaimDecisionBody,
        response: { 200: ClaimDecisionResponse, ...errors },
      },
    },
    async (request) => operatorDecideClaim(app.deps, request, request.auth!, request.params.id, request.body),
  );
}
