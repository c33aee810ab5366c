import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam, OkMessage } from '@portal/shared/schemas/common';
import {
  SsoConfigBody,
  SsoConfigView,
  SsoDiscoverBody,
  SsoDiscoverResponse,
} from '@portal/shared/schemas/sso';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scopedClient } from '../../lib/client-scope.ts';
import { MSG } from '../../messages.ts';
import { deleteSsoConfig, getSsoConfig, saveSsoConfig } from './sso.service.ts';
import { discoverSso, finishSsoLogin, startSsoLogin } from './sso-login.service.ts';

const errors = errorResponses(400, 401, 403, 404, 419);

/** A browser navigation's answer: to the provider, to the portal, or to the sign-in page with a reason. */
const REDIRECT = {
  302: z.null().meta({
    description:
      'Redirección (Location): al proveedor de identidad, a / con la sesión iniciada, o a /login?sso=<código> con el motivo',
  }),
};

/** A query parameter as a browser sends it: a repeated one counts as absent. */
const param = z.preprocess((v) => (typeof v === 'string' ? v : undefined), z.string().max(4096).optional());

/**
 * Single sign-on with each client's own identity provider (issue 40 item 4, decision 0120): the sign-in
 * page's discovery, the start of the flow and the provider's callback (public), and the client's
 * configuration: rol 4 for any client, rol 5 for its own when its client allows `identidad` (another
 * client's id answers like a missing one, lib/client-scope.ts, decision 0122).
 */
export async function ssoRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({
    roles: [ROLES.administrador, ROLES.administradorCliente],
    clientPermission: 'identidad',
  });
  const store = app.sessions;

  r.post(
    '/api/sso/descubrir',
    {
      schema: {
        tags: ['auth'],
        summary: '¿El dominio de este correo entra con la cuenta de su empresa (OpenID Connect)?',
        body: SsoDiscoverBody,
        response: { 200: SsoDiscoverResponse, ...errors },
      },
    },
    async (request) => discoverSso(app.deps, request.body.correo),
  );

  r.get(
    '/api/sso/iniciar',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Lleva el navegador al proveedor de identidad de la empresa del correo (flujo de código con PKCE, state y nonce); si no se puede, a /login?sso=<código>',
        querystring: z.object({ correo: param }),
        response: { ...REDIRECT, ...errors },
      },
    },
    async (request, reply) => {
      const location = await startSsoLogin(app.deps, store, request, reply, request.query.correo);
      return reply.header('cache-control', 'no-store').redirect(location, 302);
    },
  );

  r.get(
    '/api/sso/retorno',
    {
      schema: {
        tags: ['auth'],
        summary:
          'Regreso del proveedor de identidad: inicia la sesión de la cuenta del correo verificado y lleva a /, o a /login?sso=<código>',
        querystring: z.object({
          code: param,
          state: param,
          iss: param,
          error: param,
          error_description: param,
        }),
        response: { ...REDIRECT, ...errors },
      },
    },
    async (request, reply) => {
      const location = await finishSsoLogin(app.deps, store, request, reply, request.query);
      return reply.header('cache-control', 'no-store').redirect(location, 302);
    },
  );

  r.get(
    '/api/clients/:id/sso',
    {
      preValidation: admin,
      schema: {
        tags: ['administracion'],
        summary:
          'El inicio de sesión con la cuenta de la empresa del cliente (el secreto nunca se devuelve); 404 si no tiene',
        params: IdParam,
        response: { 200: SsoConfigView, ...errors },
      },
    },
    async (request) => getSsoConfig(app.deps, scopedClient(request.auth!, request.params.id)!),
  );

  r.put(
    '/api/clients/:id/sso',
    {
      preValidation: admin,
      schema: {
        tags: ['administracion'],
        summary:
          'Guarda el proveedor de identidad del cliente: emisor, id y secreto de cliente (vacío conserva el guardado), dominios de correo, obligatorio, alta automática, activo',
        params: IdParam,
        body: SsoConfigBody,
        response: { 200: SsoConfigView, ...errors },
      },
    },
    async (request) =>
      saveSsoConfig(
        app.deps,
        request,
        request.auth!,
        scopedClient(request.auth!, request.params.id)!,
        request.body,
      ),
  );

  r.delete(
    '/api/clients/:id/sso',
    {
      preValidation: admin,
      schema: {
        tags: ['administracion'],
        summary: 'Quita el inicio de sesión con la cuenta de la empresa del cliente',
        params: IdParam,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await deleteSsoConfig(
        app.deps,
        request,
        request.auth!,
        scopedClient(request.auth!, request.params.id)!,
      );
      return { status: 'ok' as const, msg: MSG.ssoEliminado };
    },
  );
}
