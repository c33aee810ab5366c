import type { ApiScope } from '@portal/shared/domain/integration';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { apiTokens } from '../../db/schema/index.ts';
import { bearerOf, countTokenUse, overRateLimit } from '../../lib/bearer-tokens.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, forbidden, tooMany } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';

/** Who calls the v1 API: a live integration token. */
export interface ApiCaller {
  tokenId: number;
  /** null = every client. */
  idCliente: number | null;
  permisos: ApiScope[];
}

declare module 'fastify' {
  interface FastifyRequest {
    apiCaller: ApiCaller | null;
  }
}

/** One answer for a missing, malformed, unknown, revoked or expired token: nothing says which. */
function invalidToken(reply: FastifyReply): AppError {
  reply.header('www-authenticate', 'Bearer realm="portal"');
  return new AppError(401, 'INVALID_TOKEN', MSG.tokenInvalido);
}

interface ApiTokenColumns {
  id_cliente: number | null;
  permisos: string[];
}

/**
 * Authenticates a token and counts the request in one statement (lib/bearer-tokens.ts): the live token (not
 * revoked, not expired). Over the limit, the answer is 429 with `Retry-After`.
 */
export async function authenticateToken(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: ApiScope,
): Promise<ApiCaller> {
  const value = bearerOf(request);
  if (!value) throw invalidToken(reply);
  const row = await countTokenUse<ApiTokenColumns>(deps.db, apiTokens, value, {
    alsoLive: sql`expira_en > ${deps.clock.now()}`,
    columns: sql`id_cliente, permisos`,
  });
  if (!row) throw invalidToken(reply);
  if (overRateLimit(reply, row, deps.config.API_RATE_LIMIT))
    throw tooMany(MSG.tokenLimite, 'TOKEN_RATE_LIMITED');
  if (!row.permisos.includes(scope)) throw forbidden(MSG.tokenSinPermiso, 'TOKEN_SCOPE');
  const caller: ApiCaller = {
    tokenId: row.id,
    idCliente: row.id_cliente,
    permisos: row.permisos as ApiScope[],
  };
  request.apiCaller = caller;
  return caller;
}

/** The v1 API's guard: a bearer token carrying `scope` (a hook that runs before the query is validated). */
export function bearerGuard(app: FastifyInstance, scope: ApiScope): onRequestAsyncHookHandler {
  if (!app.hasRequestDecorator('apiCaller')) app.decorateRequest('apiCaller', null);
  return async function bearer(request, reply) {
    await authenticateToken(app.deps, request, reply, scope);
  };
}
