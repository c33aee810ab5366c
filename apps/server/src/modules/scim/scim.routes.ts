import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import { getScimGroup, listScimGroups, patchScimGroup, replaceScimGroup } from './scim-groups.service.ts';
import {
  listResponse,
  resourceTypes,
  SCIM_CONTENT_TYPE,
  SCIM_MAX_RESULTS,
  SCIM_PREFIX,
  ScimError,
  schemas,
  scimErrorBody,
  serviceProviderConfig,
} from './scim-protocol.ts';
import { authenticateScim, type ScimCaller, scimBaseUrl } from './scim-token.service.ts';
import {
  createScimUser,
  deleteScimUser,
  getScimUser,
  listScimUsers,
  patchScimUser,
  replaceScimUser,
} from './scim-users.service.ts';

declare module 'fastify' {
  interface FastifyRequest {
    scimCaller: ScimCaller | null;
  }
}

type Query = Record<string, string | undefined>;
type IdParams = { id: string };

/** Hidden from the portal's OpenAPI document: SCIM is described by its own discovery endpoints. */
const hidden = { schema: { hide: true } };

function sendError(reply: FastifyReply, status: number, detail: string, scimType?: string) {
  return reply
    .status(status)
    .type(`${SCIM_CONTENT_TYPE}; charset=utf-8`)
    .send(scimErrorBody(status, detail, scimType));
}

/**
 * SCIM 2.0 provisioning (RFC 7643/7644; issue 40 item 5, decision 0121) under /scim/v2, per client:
 * `Authorization: Bearer <the client's SCIM token>`, no cookie, no XSRF (the session plugin reads only
 * /api paths). The token's client is the tenant. Bodies are application/scim+json (application/json too);
 * every refusal is SCIM's error message (RFC 7644 §3.12) with its `scimType`.
 */
export async function scimRoutes(app: FastifyInstance) {
  if (!app.hasRequestDecorator('scimCaller')) app.decorateRequest('scimCaller', null);

  await app.register(
    async (scim) => {
      // JSON only: a text/plain body is refused (415) rather than read as a string.
      scim.removeContentTypeParser('text/plain');
      scim.addContentTypeParser(SCIM_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
        try {
          done(null, body === '' ? undefined : JSON.parse(body as string));
        } catch {
          done(new ScimError(400, MSG.scimJsonInvalido, 'invalidSyntax'), undefined);
        }
      });

      scim.setErrorHandler((error: FastifyError | AppError | ScimError, request, reply) => {
        if (error instanceof ScimError) return sendError(reply, error.status, error.message, error.scimType);
        if (error instanceof AppError) {
          if (error.retryAfter !== undefined) reply.header('retry-after', String(error.retryAfter));
          return sendError(reply, error.statusCode, error.message);
        }
        const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
        if (status === 415) return sendError(reply, 415, MSG.scimTipoNoAdmitido);
        if (status === 400) return sendError(reply, 400, MSG.scimJsonInvalido, 'invalidSyntax');
        if (status >= 400 && status < 500) return sendError(reply, status, MSG.datosInvalidos);
        request.log.error({ err: error }, 'error no controlado en SCIM');
        return sendError(reply, 500, MSG.errorInterno);
      });

      scim.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
        request.scimCaller = await authenticateScim(app.deps, request, reply);
      });
      scim.addHook('onSend', async (_request, reply, payload) => {
        reply.header('cache-control', 'no-store');
        const type = String(reply.getHeader('content-type') ?? '');
        if (type.startsWith('application/json')) reply.type(`${SCIM_CONTENT_TYPE}; charset=utf-8`);
        return payload;
      });

      const caller = (request: FastifyRequest) => request.scimCaller!;
      const deps = app.deps;

      scim.get('/ServiceProviderConfig', hidden, async () => serviceProviderConfig(scimBaseUrl(deps)));
      scim.get('/ResourceTypes', hidden, async () => {
        const list = resourceTypes(scimBaseUrl(deps));
        return listResponse(list, list.length, 1);
      });
      scim.get('/Schemas', hidden, async () => {
        const list = schemas(scimBaseUrl(deps));
        return listResponse(list, list.length, 1);
      });

      scim.get<{ Querystring: Query }>('/Users', hidden, async (request) =>
        listScimUsers(deps, caller(request), request.query, SCIM_MAX_RESULTS),
      );
      scim.get<{ Params: IdParams }>('/Users/:id', hidden, async (request) =>
        getScimUser(deps, caller(request), request.params.id),
      );
      scim.post('/Users', hidden, async (request, reply) => {
        const user = await createScimUser(deps, caller(request), request.body);
        return reply.status(201).header('location', user.meta.location).send(user);
      });
      scim.put<{ Params: IdParams }>('/Users/:id', hidden, async (request) =>
        replaceScimUser(deps, caller(request), request.params.id, request.body),
      );
      scim.patch<{ Params: IdParams }>('/Users/:id', hidden, async (request) =>
        patchScimUser(deps, caller(request), request.params.id, request.body),
      );
      scim.delete<{ Params: IdParams }>('/Users/:id', hidden, async (request, reply) => {
        await deleteScimUser(deps, caller(request), request.params.id);
        return reply.status(204).send();
      });

      scim.get<{ Querystring: Query }>('/Groups', hidden, async (request) =>
        listScimGroups(deps, caller(request), request.query, SCIM_MAX_RESULTS),
      );
      scim.get<{ Params: IdParams; Querystring: Query }>('/Groups/:id', hidden, async (request) =>
        getScimGroup(deps, caller(request), request.params.id, request.query),
      );
      scim.patch<{ Params: IdParams }>('/Groups/:id', hidden, async (request) =>
        patchScimGroup(deps, caller(request), request.params.id, request.body),
      );
      scim.put<{ Params: IdParams }>('/Groups/:id', hidden, async (request) =>
        replaceScimGroup(deps, caller(request), request.params.id, request.body),
      );
      // The groups are the fixed roles: they are neither created nor deleted.
      const fixed = async () => {
        throw new ScimError(405, MSG.scimGruposFijos, 'mutability');
      };
      scim.post('/Groups', hidden, fixed);
      scim.delete<{ Params: IdParams }>('/Groups/:id', hidden, fixed);
    },
    { prefix: SCIM_PREFIX },
  );
}
