import { ROLES } from '@portal/shared/domain/roles';
import {
  CommentBody,
  CommentsResponse,
  OlderCommentsQuery,
  OlderCommentsResponse,
} from '@portal/shared/schemas/comments';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  AuthorizerOrdersQuery,
  AuthorizerOrdersResponse,
  AuthorizerOrderView,
  BulkApproveBody,
  BulkCancelBody,
  BulkResponse,
  CancelOrderBody,
  OrderNeighbours,
  OrderNeighboursQuery,
  ReportBody,
  ReturnOrderBody,
  UpdateOrderBody,
  WorkflowResponse,
} from '@portal/shared/schemas/orders';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { audit, requestMeta } from '../../lib/audit.ts';
import { forbidden } from '../../lib/errors.ts';
import { compiledResponse } from '../../lib/response-serializer.ts';
import { authorizerAddComment, authorizerOlderComments } from '../orders/comments.service.ts';
import { sendPurchaseOrder } from '../orders/po-pdf.service.ts';
import { reportStream } from '../reports/report.service.ts';
import {
  authorizerApprove,
  authorizerBulkApprove,
  authorizerBulkCancel,
  authorizerCancel,
  authorizerOrderNeighbours,
  authorizerOrders,
  authorizerOrderView,
  authorizerReturn,
} from './authorizer.service.ts';
import { defineEscalationJobs } from './escalation.service.ts';
import { defineReminderJobs } from './reminders.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419, 422);

/** Roles 2 and 3: the client's orders, review, approve or cancel, reports (docs/domain.md "Order workflow"). */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a route registrar, one route after another (docs/code-style.md)
export async function authorizerRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const authorizer = app.guard({ roles: [ROLES.autorizador, ROLES.superAutorizador] });
  const tags = ['autorizacion'];
  // The daily digest of the orders waiting on each approver (decision 0051).
  defineReminderJobs(app.deps);
  // An order that waits longer than its client's hours escalates to the next person (decision 0113).
  defineEscalationJobs(app.deps);

  r.get(
    '/api/pedidos',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary:
          'Pedidos del cliente, 50 por página, filtrables por estatus, búsqueda y fechas, con orden, suma y avisos de presupuesto',
        querystring: AuthorizerOrdersQuery,
        response: { 200: compiledResponse(AuthorizerOrdersResponse), ...errors },
      },
    },
    async (request) => authorizerOrders(app.deps, request.auth!, request.query),
  );

  r.get(
    '/api/pedidos/:id',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Un pedido con presupuesto, pedidos del mes y acciones',
        params: IdParam,
        response: { 200: AuthorizerOrderView, ...errors },
      },
    },
    async (request) => authorizerOrderView(app.deps, request.auth!, request.params.id),
  );

  r.get(
    '/api/pedidos/:id/pdf',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Orden de compra en PDF de un pedido aprobado del cliente (OC-<número>.pdf)',
        params: IdParam,
        produces: ['application/pdf'],
        response: errors,
      },
    },
    async (request, reply) => {
      const client = request.auth!.client;
      if (!client) throw forbidden();
      return sendPurchaseOrder(app.deps, reply, request.params.id, { idCliente: client.id });
    },
  );

  r.get(
    '/api/pedidos/:id/siguiente',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary:
          'Vecinos de un pedido en la lista con el mismo filtro: anterior, siguiente y el siguiente por atender',
        params: IdParam,
        querystring: OrderNeighboursQuery,
        response: { 200: OrderNeighbours, ...errors },
      },
    },
    async (request) => authorizerOrderNeighbours(app.deps, request.auth!, request.params.id, request.query),
  );

  r.post(
    '/api/update/compra',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Aprueba un pedido guardando las ediciones',
        body: UpdateOrderBody,
        response: { 200: WorkflowResponse, ...errors },
      },
    },
    async (request) => authorizerApprove(app.deps, request, request.auth!, request.body),
  );

  r.post(
    '/api/cancelar/compra/:id',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Cancela un pedido (motivo opcional)',
        params: IdParam,
        body: CancelOrderBody,
        response: { 200: WorkflowResponse, ...errors },
      },
    },
    async (request) =>
      authorizerCancel(app.deps, request, request.auth!, request.params.id, request.body?.motivo),
  );

  r.post(
    '/api/pedidos/:id/devolver',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary:
          'Devuelve al primer nivel un pedido en espera de la aprobación final (comentario obligatorio)',
        params: IdParam,
        body: ReturnOrderBody,
        response: { 200: WorkflowResponse, ...errors },
      },
    },
    async (request) =>
      authorizerReturn(app.deps, request, request.auth!, request.params.id, request.body.comentario),
  );

  r.get(
    '/api/pedidos/:id/comentarios',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Los comentarios anteriores a uno (50 por página) de un pedido del cliente',
        params: IdParam,
        querystring: OlderCommentsQuery,
        response: { 200: OlderCommentsResponse, ...errors },
      },
    },
    async (request) =>
      authorizerOlderComments(app.deps, request.auth!, request.params.id, request.query.antes),
  );

  r.post(
    '/api/pedidos/:id/comentarios',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Agrega un comentario a un pedido del cliente (cualquier estatus)',
        params: IdParam,
        body: CommentBody,
        response: { 201: CommentsResponse, ...errors, ...errorResponses(429) },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(
          await authorizerAddComment(app.deps, request, request.auth!, request.params.id, request.body.texto),
        ),
  );

  r.post(
    '/api/pedidos/aprobar-lote',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Aprueba hasta 50 pedidos tal como están, cada uno por separado; un resultado por pedido',
        body: BulkApproveBody,
        response: { 200: BulkResponse, ...errors },
      },
    },
    async (request) => authorizerBulkApprove(app.deps, request, request.auth!, request.body.ids),
  );

  r.post(
    '/api/pedidos/cancelar-lote',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Cancela hasta 50 pedidos (motivo opcional), cada uno por separado; un resultado por pedido',
        body: BulkCancelBody,
        response: { 200: BulkResponse, ...errors },
      },
    },
    async (request) =>
      authorizerBulkCancel(app.deps, request, request.auth!, request.body.ids, request.body.motivo),
  );

  // The client's reports: its authorizers', and its client administrator's (rol 5, issue 40: the client's
  // reports are its own), always of the caller's own client.
  const reportReaders = app.guard({
    roles: [ROLES.autorizador, ROLES.superAutorizador, ROLES.administradorCliente],
  });
  for (const [url, forced] of [
    ['/api/reporte/autorizador', undefined],
    ['/api/reporte/autorizador/productos/detalle', 'detalle'],
  ] as const) {
    r.post(
      url,
      {
        preValidation: reportReaders,
        schema: {
          tags,
          summary: 'Reporte CSV (UTF-8 con BOM) de los pedidos del cliente en un rango de fechas',
          body: ReportBody,
        },
      },
      async (request, reply) => {
        const auth = request.auth!;
        const body = { ...request.body, tipo: forced ?? request.body.tipo };
        await audit(app.db, {
          userId: auth.user.id,
          eventType: 'reporte_generado',
          description: `Reporte ${body.tipo} del ${body.fecha_inicio} al ${body.fecha_fin}`,
          metadata: {
            tipo: body.tipo,
            fecha_inicio: body.fecha_inicio,
            fecha_fin: body.fecha_fin,
            ...requestMeta(request),
          },
        });
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="reporte.csv"')
          .send(reportStream(app.deps, auth.client!.id, body));
      },
    );
  }
}
