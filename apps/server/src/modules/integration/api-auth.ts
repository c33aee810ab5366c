import type { ApiScope } from '@portal/shared/domain/integration';
import { sql } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { rowsOf } from '../../db/client.ts';
import { apiTokens } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, forbidden, tooMany } from '../../lib/errors.ts';
import { hashToken } from '../../lib/tokens.ts';
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

/** The rate limit's window. */
const WINDOW_SECONDS = 60;
/** The longest header value read as a token (a real one is 47 characters). */
const MAX_HEADER = 200;

/** One answer for a missing, malformed, unknown, revoked or expired token: nothing says which. */
function invalidToken(reply: FastifyReply): AppError {
  reply.header('www-authenticate', 'Bearer realm="portal"');
  return new AppError(401, 'INVALID_TOKEN', MSG.tokenInvalido);
}

function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > MAX_HEADER) return null;
  const match = /^Bearer ([A-Za-z0-9_-]{10,120})$/.exec(header.trim());
  return match ? match[1]! : null;
}

interface TokenUse {
  id: number;
  id_cliente: number | null;
  permisos: string[];
  ventana_usos: number;
  retry_after: number;
}

/**
 * Authenticates a token and counts the request in one statement: the live token (not revoked, not
 * expired) whose hash matches gets its last use and its minute's counter updated, so every instance sharing
 * the database sees the same count, and noting the last use costs no extra write. Over the limit, the
 * answer is 429 with `Retry-After` (the seconds until the window ends).
 */
export async function authenticateToken(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  request: FastifyRequest,
  reply: FastifyReply,
  scope: ApiScope,
): Promise<ApiCaller> {
  const value = bearerOf(request);
  if (!value) throw invalidToken(reply);
  const [row] = await rowsOf<TokenUse>(
    deps.db,
    sql`update ${apiTokens} set
          ventana_inicio = case when ventana_inicio is null or ventana_inicio <= now() - make_interval(secs => ${WINDOW_SECONDS})
                                then now() else ventana_inicio end,
          ventana_usos = case when ventana_inicio is null or ventana_inicio <= now() - make_interval(secs => ${WINDOW_SECONDS})
                              then 1 else ventana_usos + 1 end,
          ultimo_uso = now()
        where token_hash = ${hashToken(value)} and revocado_en is null and expira_en > ${deps.clock.now()}
        returning id, id_cliente, permisos, ventana_usos,
          ceil(extract(epoch from (ventana_inicio + make_interval(secs => ${WINDOW_SECONDS}) - now())))::int as retry_after`,
  );
  if (!row) throw invalidToken(reply);
  if (row.ventana_usos > deps.config.API_RATE_LIMIT) {
    reply.header('retry-after', String(Math.max(1, row.retry_after)));
    throw tooMany(MSG.tokenLimite, 'TOKEN_RATE_LIMITED');
  }
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
