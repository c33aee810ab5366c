import {
  type ApiScope,
  TOKEN_PREFIX,
  TOKEN_SHOWN_CHARS,
  TOKENS_PER_PAGE,
  TOKENS_PER_SCOPE,
} from '@portal/shared/domain/integration';
import type {
  TokenCreateBody,
  TokenCreateResponse,
  TokenDto,
  TokensResponse,
} from '@portal/shared/schemas/integration';
import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { apiTokens, clients, users, type webhookEndpoints } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';

const tokenColumns = {
  id: apiTokens.id,
  nombre: apiTokens.nombre,
  prefijo: apiTokens.prefijo,
  idCliente: apiTokens.idCliente,
  cliente: clients.nombre,
  permisos: apiTokens.permisos,
  expiraEn: apiTokens.expiraEn,
  revocadoEn: apiTokens.revocadoEn,
  ultimoUso: apiTokens.ultimoUso,
  createdAt: apiTokens.createdAt,
  creadoPor: users.nombre,
};

type TokenRow = {
  id: number;
  nombre: string;
  prefijo: string;
  idCliente: number | null;
  cliente: string | null;
  permisos: string[];
  expiraEn: Date;
  revocadoEn: Date | null;
  ultimoUso: Date | null;
  createdAt: Date;
  creadoPor: string | null;
};

function toDto(row: TokenRow, now: Date): TokenDto {
  return {
    id: row.id,
    nombre: row.nombre,
    prefijo: row.prefijo,
    id_cliente: row.idCliente,
    cliente: row.cliente,
    permisos: row.permisos as ApiScope[],
    estado: row.revocadoEn ? 'revocado' : row.expiraEn <= now ? 'vencido' : 'activo',
    expira_en: row.expiraEn.toISOString(),
    revocado_en: row.revocadoEn?.toISOString() ?? null,
    ultimo_uso: row.ultimoUso?.toISOString() ?? null,
    creado_en: row.createdAt.toISOString(),
    creado_por: row.creadoPor,
  };
}

async function tokenById(db: Db | Tx, id: number, now: Date): Promise<TokenDto> {
  const [row] = await db
    .select(tokenColumns)
    .from(apiTokens)
    .leftJoin(clients, eq(clients.id, apiTokens.idCliente))
    .leftJoin(users, eq(users.id, apiTokens.createdBy))
    .where(eq(apiTokens.id, id));
  if (!row) throw notFound(MSG.tokenNoEncontrado, 'TOKEN_NOT_FOUND');
  return toDto(row, now);
}

/**
 * A client scope must name an existing client (400 otherwise: it is a field of the form). Takes the scope's
 * lock for `what` (tokens or webhooks) until the transaction ends, so its count and a new row are exact
 * under concurrent creations.
 */
export async function checkClientScope(tx: Tx, idCliente: number | null, what: 'tokens' | 'webhooks') {
  await tx.execute(
    sql`select pg_advisory_xact_lock(hashtextextended(${`${what}|${idCliente ?? 'todos'}`}, 0))`,
  );
  if (idCliente === null) return;
  const [row] = await tx.select({ id: clients.id }).from(clients).where(eq(clients.id, idCliente));
  if (!row) throw badRequest('VALIDATION', MSG.clienteNoEncontrado, { id_cliente: MSG.clienteNoEncontrado });
}

/** The scope's condition: one client, or the tokens and webhooks of every client (null). */
export function scopeIs(
  column: typeof apiTokens.idCliente | typeof webhookEndpoints.idCliente,
  id: number | null,
) {
  return id === null ? isNull(column) : eq(column, id);
}

/** GET /api/integracion/tokens: newest first, revoked and expired ones included (with their state). */
export async function listTokens(db: Db, page: number, now: Date): Promise<TokensResponse> {
  const [rows, [total]] = await Promise.all([
    db
      .select(tokenColumns)
      .from(apiTokens)
      .leftJoin(clients, eq(clients.id, apiTokens.idCliente))
      .leftJoin(users, eq(users.id, apiTokens.createdBy))
      .orderBy(desc(apiTokens.id))
      .limit(TOKENS_PER_PAGE)
      .offset((page - 1) * TOKENS_PER_PAGE),
    db.select({ n: count() }).from(apiTokens),
  ]);
  return {
    tokens: rows.map((r) => toDto(r, now)),
    total: total?.n ?? 0,
    page,
    per_page: TOKENS_PER_PAGE,
  };
}

/**
 * POST /api/integracion/tokens: a new token; its value is in this answer only. Stored: its SHA-256 (what
 * a request's token is looked up by) and its first characters (to recognise it in the list).
 */
export async function createToken(
  deps: Pick<Deps, 'clock' | 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  body: TokenCreateBody,
): Promise<TokenCreateResponse> {
  const valor = `${TOKEN_PREFIX}${newToken()}`;
  const id = await deps.db.transaction(async (tx) => {
    await checkClientScope(tx, body.id_cliente, 'tokens');
    const [live] = await tx
      .select({ n: count() })
      .from(apiTokens)
      .where(
        and(
          scopeIs(apiTokens.idCliente, body.id_cliente),
          isNull(apiTokens.revocadoEn),
          gt(apiTokens.expiraEn, deps.clock.now()),
        ),
      );
    if ((live?.n ?? 0) >= TOKENS_PER_SCOPE) throw conflict('TOKENS_FULL', MSG.tokensLlenos(TOKENS_PER_SCOPE));
    const [row] = await tx
      .insert(apiTokens)
      .values({
        nombre: body.nombre,
        prefijo: valor.slice(0, TOKEN_SHOWN_CHARS),
        tokenHash: hashToken(valor),
        idCliente: body.id_cliente,
        permisos: body.permisos,
        expiraEn: new Date(deps.clock.ms() + body.vigencia_dias * 86_400_000),
        createdBy: auth.user.id,
      })
      .returning({ id: apiTokens.id });
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'token_creado',
      description: `Token de integración «${body.nombre}» creado`,
      metadata: {
        id_token: row!.id,
        id_cliente: body.id_cliente,
        permisos: body.permisos,
        vigencia_dias: body.vigencia_dias,
        ...requestMeta(request),
      },
    });
    return row!.id;
  });
  return { status: 'ok', msg: MSG.tokenCreado, token: await tokenById(deps.db, id, deps.clock.now()), valor };
}

/** POST /api/integracion/tokens/{id}/revocar: refused from the next request on; a second revoke is 409. */
export async function revokeToken(
  deps: Pick<Deps, 'clock' | 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<TokenDto> {
  await deps.db.transaction(async (tx) => {
    const [exists] = await tx.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.id, id));
    if (!exists) throw notFound(MSG.tokenNoEncontrado, 'TOKEN_NOT_FOUND');
    const updated = await tx
      .update(apiTokens)
      .set({ revocadoEn: deps.clock.now() })
      .where(and(eq(apiTokens.id, id), isNull(apiTokens.revocadoEn)))
      .returning({ nombre: apiTokens.nombre });
    if (updated.length === 0) throw conflict('TOKEN_ALREADY_REVOKED', MSG.tokenYaRevocado);
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'token_revocado',
      description: `Token de integración «${updated[0]!.nombre}» revocado`,
      metadata: { id_token: id, ...requestMeta(request) },
    });
  });
  return tokenById(deps.db, id, deps.clock.now());
}
