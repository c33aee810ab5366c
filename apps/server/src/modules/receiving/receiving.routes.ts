import { ROLES } from '@portal/shared/domain/roles';
import {
  OrderPhotoResponse,
  PhotoParams,
  ShipmentParams,
  ShipmentReceiptBody,
  ShipmentReceiptResponse,
} from '@portal/shared/schemas/claims';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  ReceivableShipmentDetail,
  ReceivingListResponse,
  ReceivingQuery,
  UserReceiverBody,
  UserReceiverResponse,
} from '@portal/shared/schemas/receiving';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendPhoto, uploadPhoto } from '../fulfilment/photos.service.ts';
import { receiveShipment } from '../fulfilment/receipts.service.ts';
import {
  receivableShipment,
  receiverScope,
  receivingList,
  setUserReceiver,
  userReceiver,
} from './receiving.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419);
const uploadErrors = errorResponses(400, 401, 403, 404, 409, 413, 415, 419);
const readErrors = errorResponses(400, 401, 403, 404);

const UserReceiverSaved = UserReceiverResponse.extend({ status: z.literal('ok'), msg: z.string() });

/**
 * Receivers named by the client (decision 0130). The distributor (rol 4) names them in any client, a client
 * administrator (rol 5) in its own with its client's `usuarios` permission. A receiver (roles 1–3 with the
 * flag) lists its client's shipments sent to its addresses, receives them with the buyer's rule and sees their
 * photos.
 */
export async function receivingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admins = [ROLES.administrador, ROLES.administradorCliente] as const;
  const readers = app.guard({ roles: admins });
  const changers = app.guard({ roles: admins, clientPermission: 'usuarios' });
  const receivers = app.guard({ roles: [ROLES.usuario, ROLES.autorizador, ROLES.superAutorizador] });
  const tags = ['recepcion'];

  r.get(
    '/api/usuarios/:id/receptor',
    {
      preValidation: readers,
      schema: {
        tags,
        summary:
          'Si el usuario es receptor de mercancía y de qué direcciones (ninguna: todas las del cliente)',
        params: IdParam,
        response: { 200: UserReceiverResponse, ...readErrors },
      },
    },
    async (request) => userReceiver(app.deps, request.auth!, request.params.id),
  );
  r.put(
    '/api/usuarios/:id/receptor',
    {
      preValidation: changers,
      schema: {
        tags,
        summary:
          'Nombra o retira a un receptor de mercancía (roles 1 a 3) y elige sus direcciones; el cambio aplica en su siguiente solicitud',
        params: IdParam,
        body: UserReceiverBody,
        response: { 200: UserReceiverSaved, ...errors },
      },
    },
    async (request) => setUserReceiver(app.deps, request, request.auth!, request.params.id, request.body),
  );

  r.get(
    '/api/recepcion',
    {
      preValidation: receivers,
      schema: {
        tags,
        summary:
          'Los envíos por recibir del cliente enviados a las direcciones del receptor, del más reciente al más antiguo (20 por página; búsqueda por pedido o guía)',
        querystring: ReceivingQuery,
        response: { 200: ReceivingListResponse, ...readErrors },
      },
    },
    async (request) => receivingList(app.deps, request.auth!, request.query),
  );
  r.get(
    '/api/recepcion/:id/envios/:numero',
    {
      preValidation: receivers,
      schema: {
        tags,
        summary: 'Un envío por recibir con sus líneas (o quién lo recibió ya)',
        params: ShipmentParams,
        response: { 200: ReceivableShipmentDetail, ...readErrors },
      },
    },
    async (request) => receivableShipment(app.deps, request.auth!, request.params.id, request.params.numero),
  );
  r.post(
    '/api/recepcion/:id/envios/:numero/recepcion',
    {
      preValidation: receivers,
      schema: {
        tags,
        summary:
          'El receptor registra la recepción de un envío, como el comprador: por línea, con nota y fotos; una diferencia abre un reclamo y el comprador recibe un aviso',
        params: ShipmentParams,
        body: ShipmentReceiptBody,
        response: { 200: ShipmentReceiptResponse, ...errors },
      },
    },
    async (request) => {
      const scope = receiverScope(request.auth!);
      const { id, numero } = request.params;
      return receiveShipment(app.deps, request, request.auth!, id, numero, request.body, scope);
    },
  );
  r.post(
    '/api/recepcion/:id/fotos',
    {
      preValidation: receivers,
      schema: {
        tags,
        summary:
          'Sube una foto (multipart: archivo; JPG, PNG o HEIC, hasta 10 MB) de un pedido que el receptor recibe, para nombrarla en su recepción',
        consumes: ['multipart/form-data'],
        params: IdParam,
        response: { 200: OrderPhotoResponse, ...uploadErrors },
      },
    },
    async (request) =>
      uploadPhoto(app.deps, request, request.auth!, request.params.id, receiverScope(request.auth!)),
  );
  r.get(
    '/api/recepcion/:id/fotos/:foto',
    {
      preValidation: receivers,
      schema: {
        tags,
        summary:
          'Una foto de una recepción o un reclamo de un pedido que el receptor recibe (enviado a sus direcciones)',
        params: PhotoParams,
        response: readErrors,
      },
    },
    async (request, reply) =>
      sendPhoto(app.deps, reply, request.params.id, request.params.foto, receiverScope(request.auth!)),
  );
}
