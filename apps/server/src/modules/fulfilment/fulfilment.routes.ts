import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  BulkFulfilmentBody,
  BulkFulfilmentResponse,
  ExportBody,
  FulfilmentMoveBody,
  FulfilmentMoveResponse,
  FulfilmentQueueQuery,
  FulfilmentQueueResponse,
  GuiasImportResponse,
  PickListBody,
  ReceiptBody,
} from '@portal/shared/schemas/fulfilment';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerGuard } from '../integration/api-auth.ts';
import { sendPurchaseOrder } from '../orders/po-pdf.service.ts';
import {
  buyerConfirmReceipt,
  fulfilmentQueue,
  importGuias,
  integrationMoveFulfilment,
  operatorBulkMove,
  operatorMoveFulfilment,
  sendExport,
} from './fulfilment.service.ts';
import { sendPickList } from './pick-list.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419);
const uploadErrors = errorResponses(400, 401, 403, 413, 415, 419);
const v1Errors = errorResponses(400, 401, 403, 404, 409, 429);

/**
 * Fulfilment of approved orders (docs/domain.md "Fulfilment", decision 0058): the operator's queue, moves,
 * export and purchase orders (rol 4), and the buyer's confirmation of receipt (rol 1).
 */
export async function fulfilmentRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const operator = app.guard({ roles: [ROLES.administrador] });
  const buyer = app.guard({ roles: [ROLES.usuario] });
  const tags = ['surtido'];

  r.get(
    '/api/surtido',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Pedidos aprobados de todos los clientes por surtir, 50 por página: filtros por cliente, estado de surtido, exportados y fechas; orden fecha_desc (por omisión) o fecha_asc',
        querystring: FulfilmentQueueQuery,
        response: { 200: FulfilmentQueueResponse, ...errors },
      },
    },
    async (request) => fulfilmentQueue(app.deps, request.query),
  );

  r.post(
    '/api/surtido/exportar',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Exporta los pedidos elegidos (CSV de detalle; JSON con Accept: application/json) y los marca con fecha, quién y número de lote; los ya exportados solo con reexportar',
        body: ExportBody,
        response: errors,
      },
    },
    async (request, reply) => sendExport(app.deps, request, reply, request.auth!, request.body),
  );

  r.post(
    '/api/surtido/lista',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Lista de surtido de 1 a 200 pedidos aprobados aún no enviados, agrupada por producto (total y pedidos de cada uno), en PDF o CSV (lista-de-surtido-<fecha>); no cambia ningún pedido',
        body: PickListBody,
        response: errors,
      },
    },
    async (request, reply) => sendPickList(app.deps, request, reply, request.auth!, request.body),
  );

  r.post(
    '/api/surtido/estado-lote',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Avanza el surtido de 1 a 200 pedidos al mismo estado: cada uno se mueve o se rechaza por su cuenta, con las reglas y los textos del movimiento de un pedido',
        body: BulkFulfilmentBody,
        response: { 200: BulkFulfilmentResponse, ...errors },
      },
    },
    async (request) => operatorBulkMove(app.deps, request, request.auth!, request.body),
  );

  r.post(
    '/api/surtido/guias',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Carga un CSV de guías (multipart: file; columnas pedido, guia, paqueteria): cada fila pasa su pedido a «Enviado» con la guía; responde los errores por fila',
        consumes: ['multipart/form-data'],
        response: { 200: GuiasImportResponse, ...uploadErrors },
      },
    },
    async (request) => importGuias(app.deps, request, request.auth!),
  );

  r.post(
    '/api/surtido/:id/estado',
    {
      preValidation: operator,
      schema: {
        tags,
        summary:
          'Avanza el surtido de un pedido aprobado (por_surtir → en_surtido → enviado → entregado); enviado admite guía y comentario',
        params: IdParam,
        body: FulfilmentMoveBody,
        response: { 200: FulfilmentMoveResponse, ...errors },
      },
    },
    async (request) =>
      operatorMoveFulfilment(app.deps, request, request.auth!, request.params.id, request.body),
  );

  // The integration API's move (decision 0059): a bearer token with surtido:escribir, no cookie, no XSRF.
  r.post(
    '/api/v1/pedidos/:id/surtido',
    {
      onRequest: bearerGuard(app, 'surtido:escribir'),
      schema: {
        tags: ['api v1'],
        security: [{ bearer: [] }],
        summary: 'Avanza el surtido de un pedido aprobado, como el operador (permiso surtido:escribir)',
        description:
          'Estados: por_surtir → en_surtido → enviado → entregado (solo hacia adelante). 409 si el pedido no está ' +
          'aprobado o ya está en ese estado o uno posterior (quien llegó primero gana); 404 para un pedido de otro ' +
          'cliente con un token de un cliente. Emite el webhook pedido.surtido.',
        params: IdParam,
        body: FulfilmentMoveBody,
        response: { 200: FulfilmentMoveResponse, ...v1Errors },
      },
    },
    async (request) =>
      integrationMoveFulfilment(app.deps, request, request.apiCaller!, request.params.id, request.body),
  );

  r.get(
    '/api/surtido/:id/pdf',
    {
      preValidation: operator,
      schema: {
        tags,
        summary: 'Orden de compra en PDF (OC-<número>.pdf) de un pedido aprobado de cualquier cliente',
        params: IdParam,
        response: errors,
      },
    },
    async (request, reply) => sendPurchaseOrder(app.deps, reply, request.params.id, {}),
  );

  r.post(
    '/api/historial/:id/recibido',
    {
      preValidation: buyer,
      schema: {
        tags,
        summary: 'El comprador confirma que recibió un pedido propio enviado, con una nota opcional',
        params: IdParam,
        body: ReceiptBody,
        response: { 200: FulfilmentMoveResponse, ...errors },
      },
    },
    async (request) =>
      buyerConfirmReceipt(app.deps, request, request.auth!, request.params.id, request.body?.nota),
  );
}
