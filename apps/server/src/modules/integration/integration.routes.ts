import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  DeliveriesQuery,
  DeliveriesResponse,
  DeliveryResendResponse,
  TokenCreateBody,
  TokenCreateResponse,
  TokenRevokeResponse,
  TokensQuery,
  TokensResponse,
  WebhookCreateBody,
  WebhookCreateResponse,
  WebhookDeactivateResponse,
  WebhooksQuery,
  WebhooksResponse,
} from '@portal/shared/schemas/integration';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MSG } from '../../messages.ts';
import { createToken, listTokens, revokeToken } from './tokens.service.ts';
import { defineWebhookJobs } from './webhook-delivery.ts';
import {
  createWebhook,
  deactivateWebhook,
  listDeliveries,
  listWebhooks,
  resendDelivery,
} from './webhooks.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419);

/**
 * Rol 4: integration tokens and webhook endpoints ("Integraciones"). A token's value and an endpoint's
 * signing secret are in the creation answer only (decisions 0059 and 0060).
 */
export async function integrationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['integracion'];
  defineWebhookJobs(app.deps);

  r.get(
    '/api/integracion/tokens',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Tokens de integración (20 por página), con su estado y último uso; nunca su valor',
        querystring: TokensQuery,
        response: { 200: TokensResponse, ...errors },
      },
    },
    async (request) => listTokens(app.db, request.query.page, app.clock.now()),
  );

  r.post(
    '/api/integracion/tokens',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Crea un token (nombre, cliente o todos, permisos, vigencia de 1 a 365 días); el valor solo viene en esta respuesta',
        body: TokenCreateBody,
        response: { 201: TokenCreateResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createToken(app.deps, request, request.auth!, request.body)),
  );

  r.post(
    '/api/integracion/tokens/:id/revocar',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Revoca un token: la siguiente solicitud con él recibe 401',
        params: IdParam,
        response: { 200: TokenRevokeResponse, ...errors },
      },
    },
    async (request) => ({
      status: 'ok' as const,
      msg: MSG.tokenRevocado,
      token: await revokeToken(app.deps, request, request.auth!, request.params.id),
    }),
  );

  r.get(
    '/api/integracion/webhooks',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Webhooks registrados (20 por página), con sus entregas pendientes y fallidas',
        querystring: WebhooksQuery,
        response: { 200: WebhooksResponse, ...errors },
      },
    },
    async (request) => listWebhooks(app.db, request.query.page),
  );

  r.post(
    '/api/integracion/webhooks',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Registra un webhook (URL https, eventos, cliente o todos); el secreto de firma solo viene en esta respuesta',
        body: WebhookCreateBody,
        response: { 201: WebhookCreateResponse, ...errors },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createWebhook(app.deps, request, request.auth!, request.body)),
  );

  r.post(
    '/api/integracion/webhooks/:id/desactivar',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Desactiva un webhook: no recibe eventos nuevos y sus entregas pendientes se dan por fallidas',
        params: IdParam,
        response: { 200: WebhookDeactivateResponse, ...errors },
      },
    },
    async (request) => ({
      status: 'ok' as const,
      msg: MSG.webhookDesactivado,
      webhook: await deactivateWebhook(app.deps, request, request.auth!, request.params.id),
    }),
  );

  r.get(
    '/api/integracion/webhooks/:id/entregas',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Bitácora de entregas de un webhook (20 por página): estado, intentos, código y latencia',
        params: IdParam,
        querystring: DeliveriesQuery,
        response: { 200: DeliveriesResponse, ...errors },
      },
    },
    async (request) => listDeliveries(app.db, request.params.id, request.query.page),
  );

  r.post(
    '/api/integracion/entregas/:id/reenviar',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Reenvía una entrega (el mismo evento, con su mismo id, firmado de nuevo)',
        params: IdParam,
        response: { 200: DeliveryResendResponse, ...errors },
      },
    },
    async (request) => ({
      status: 'ok' as const,
      msg: MSG.entregaReenviada,
      entrega: await resendDelivery(app.deps, request, request.auth!, request.params.id),
    }),
  );
}
