import type { ScimTokenCreated, ScimTokenView } from '@portal/shared/schemas/scim';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { clientExists } from '../../db/clients.ts';
import { scimTokens } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { bearerOf, countTokenUse, overRateLimit } from '../../lib/bearer-tokens.ts';
import type { Deps } from '../../lib/deps.ts';
import { notFound } from '../../lib/errors.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { SCIM_PREFIX, ScimError } from './scim-protocol.ts';

/** Every SCIM token starts so (recognisable in a secret scanner and in the list). */
export const SCIM_TOKEN_PREFIX = 'scim_';
/** The characters of a token kept to recognise it. */
const SHOWN_CHARS = 12;

export const scimBaseUrl = (deps: Pick<Deps, 'config'>) =>
  `${deps.config.PUBLIC_URL.replace(/\/$/, '')}${SCIM_PREFIX}`;

async function clientOrNotFound(db: Db | Tx, id: number): Promise<void> {
  if (!(await clientExists(db, id))) throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
}

/** GET /api/clients/{id}/scim/token: the base URL and the live token's prefix and dates (null: none). */
export async function getScimToken(
  deps: Pick<Deps, 'db' | 'config'>,
  idCliente: number,
): Promise<ScimTokenView> {
  await clientOrNotFound(deps.db, idCliente);
  const [row] = await deps.db
    .select({ prefijo: scimTokens.prefijo, createdAt: scimTokens.createdAt, ultimoUso: scimTokens.ultimoUso })
    .from(scimTokens)
    .where(and(eq(scimTokens.idCliente, idCliente), isNull(scimTokens.revocadoEn)));
  return {
    url: scimBaseUrl(deps),
    token: row
      ? {
          prefijo: row.prefijo,
          creado: row.createdAt.toISOString(),
          ultimo_uso: row.ultimoUso?.toISOString() ?? null,
        }
      : null,
  };
}

/**
 * POST /api/clients/{id}/scim/token: a new token, whose value is in this answer only; the client's previous
 * token is revoked in the same transaction (one live token per client, a partial unique index).
 */
export async function createScimToken(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  request: FastifyRequest,
  auth: AuthContext,
  idCliente: number,
): Promise<ScimTokenCreated> {
  const token = `${SCIM_TOKEN_PREFIX}${newToken()}`;
  const prefijo = token.slice(0, SHOWN_CHARS);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await clientOrNotFound(tx, idCliente);
    // One creation at a time per client: the revoke and the insert below see each other.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`scim|${idCliente}`}, 0))`);
    const revoked = await tx
      .update(scimTokens)
      .set({ revocadoEn: now })
      .where(and(eq(scimTokens.idCliente, idCliente), isNull(scimTokens.revocadoEn)))
      .returning({ id: scimTokens.id });
    const [row] = await tx
      .insert(scimTokens)
      .values({ idCliente, tokenHash: hashToken(token), prefijo, createdBy: auth.user.id, createdAt: now })
      .returning({ id: scimTokens.id });
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'scim_token_creado',
      description: `Token de aprovisionamiento (SCIM) ${prefijo}… creado${revoked.length ? '; el anterior queda revocado' : ''}`,
      metadata: {
        id_token_scim: row!.id,
        id_cliente: idCliente,
        revocados: revoked.map((r) => r.id),
        ...requestMeta(request),
      },
    });
  });
  return { token, prefijo, creado: now.toISOString(), url: scimBaseUrl(deps) };
}

/** DELETE /api/clients/{id}/scim/token: the live token is refused from the next request on; none is 404. */
export async function revokeScimToken(
  deps: Pick<Deps, 'db' | 'clock'>,
  request: FastifyRequest,
  auth: AuthContext,
  idCliente: number,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await clientOrNotFound(tx, idCliente);
    const [row] = await tx
      .update(scimTokens)
      .set({ revocadoEn: deps.clock.now() })
      .where(and(eq(scimTokens.idCliente, idCliente), isNull(scimTokens.revocadoEn)))
      .returning({ id: scimTokens.id, prefijo: scimTokens.prefijo });
    if (!row) throw notFound(MSG.scimTokenNoExiste, 'SCIM_TOKEN_NOT_FOUND');
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'scim_token_revocado',
      description: `Token de aprovisionamiento (SCIM) ${row.prefijo}… revocado`,
      metadata: { id_token_scim: row.id, id_cliente: idCliente, ...requestMeta(request) },
    });
  });
}

/** Who calls /scim/v2: a client's live SCIM token. */
export interface ScimCaller {
  tokenId: number;
  idCliente: number;
}

function unauthorized(reply: FastifyReply): ScimError {
  reply.header('www-authenticate', 'Bearer realm="scim"');
  return new ScimError(401, MSG.tokenInvalido);
}

/**
 * Authenticates a SCIM request and counts it in one statement, as the integration API does (api-auth.ts):
 * the live token whose hash matches gets its last use and its minute's counter updated. A missing, wrong or
 * revoked token is one 401; over API_RATE_LIMIT requests a minute, 429 with Retry-After.
 */
export async function authenticateScim(
  deps: Pick<Deps, 'db' | 'config'>,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<ScimCaller> {
  const value = bearerOf(request);
  if (!value) throw unauthorized(reply);
  const row = await countTokenUse<{ id_cliente: number }>(deps.db, scimTokens, value, {
    columns: sql`id_cliente`,
  });
  if (!row) throw unauthorized(reply);
  if (overRateLimit(reply, row, deps.config.API_RATE_LIMIT)) throw new ScimError(429, MSG.tokenLimite);
  return { tokenId: row.id, idCliente: row.id_cliente };
}
