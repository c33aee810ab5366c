import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam, OkMessage } from '@portal/shared/schemas/common';
import { ScimTokenCreated, ScimTokenView } from '@portal/shared/schemas/scim';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { scopedClient } from '../../lib/client-scope.ts';
import { MSG } from '../../messages.ts';
import { createScimToken, getScimToken, revokeScimToken } from './scim-token.service.ts';

const errors = errorResponses(400, 401, 403, 404, 419);

/**
 * A client's SCIM provisioning token (decision 0121); the value is shown once. Rol 4 for any client, rol 5
 * for its own when its client allows `identidad` (another client's id answers like a missing one).
 */
export async function scimTokenRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({
    roles: [ROLES.administrador, ROLES.administradorCliente],
    clientPermission: 'identidad',
  });
  const tags = ['administracion'];

  r.get(
    '/api/clients/:id/scim/token',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'El aprovisionamiento (SCIM) del cliente: la URL base y el token activo (su prefijo y fechas; null si no tiene)',
        params: IdParam,
        response: { 200: ScimTokenView, ...errors },
      },
    },
    async (request) => getScimToken(app.deps, scopedClient(request.auth!, request.params.id)!),
  );

  r.post(
    '/api/clients/:id/scim/token',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Genera el token de aprovisionamiento (SCIM) del cliente: se muestra solo en esta respuesta y revoca el anterior',
        params: IdParam,
        response: { 201: ScimTokenCreated, ...errors },
      },
    },
    async (request, reply) => {
      const created = await createScimToken(
        app.deps,
        request,
        request.auth!,
        scopedClient(request.auth!, request.params.id)!,
      );
      return reply.status(201).send(created);
    },
  );

  r.delete(
    '/api/clients/:id/scim/token',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Revoca el token de aprovisionamiento (SCIM) del cliente; 404 si no tiene uno activo',
        params: IdParam,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await revokeScimToken(
        app.deps,
        request,
        request.auth!,
        scopedClient(request.auth!, request.params.id)!,
      );
      return { status: 'ok' as const, msg: MSG.scimTokenRevocado };
    },
  );
}
