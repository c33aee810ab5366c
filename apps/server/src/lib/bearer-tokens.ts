/**
 * Bearer tokens (the integration API's and SCIM's): the token read from the Authorization header, and one
 * statement that finds the live token by its hash and counts the request, so every instance sharing the
 * database sees the same count and noting the last use costs no extra write.
 */
import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Db, rowsOf } from '../db/client.ts';
import { hashToken } from './tokens.ts';

/** The rate limit's window. */
const WINDOW_SECONDS = 60;
/** The longest header value read as a token (a real one is under 60 characters). */
const MAX_HEADER = 200;

/** The token of `Authorization: Bearer …`, or null when the header is missing, too long or malformed. */
export function bearerOf(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > MAX_HEADER) return null;
  const match = /^Bearer ([A-Za-z0-9_-]{10,120})$/i.exec(header.trim());
  return match ? match[1]! : null;
}

/** What the count answers: the token's id, its requests in the current window, the window's seconds left. */
export interface TokenUse {
  id: number;
  ventana_usos: number;
  retry_after: number;
}

/**
 * Finds the live token of `value` in `table` (a table with `token_hash`, `revocado_en`, `ventana_inicio`,
 * `ventana_usos` and `ultimo_uso`; `alsoLive` adds a condition, such as an expiry) and counts this request
 * in its minute's window. `columns` are the table's other columns the caller needs. Undefined: no live token.
 */
export async function countTokenUse<R extends object>(
  db: Db,
  table: PgTable,
  value: string,
  options: { alsoLive?: SQL; columns?: SQL } = {},
): Promise<(TokenUse & R) | undefined> {
  const [row] = await rowsOf<TokenUse & R>(
    db,
    sql`update ${table} set
          ventana_inicio = case when ventana_inicio is null or ventana_inicio <= now() - make_interval(secs => ${WINDOW_SECONDS})
                                then now() else ventana_inicio end,
          ventana_usos = case when ventana_inicio is null or ventana_inicio <= now() - make_interval(secs => ${WINDOW_SECONDS})
                              then 1 else ventana_usos + 1 end,
          ultimo_uso = now()
        where token_hash = ${hashToken(value)} and revocado_en is null ${options.alsoLive ? sql`and ${options.alsoLive}` : sql``}
        returning id, ventana_usos, ${options.columns ? sql`${options.columns},` : sql``}
          ceil(extract(epoch from (ventana_inicio + make_interval(secs => ${WINDOW_SECONDS}) - now())))::int as retry_after`,
  );
  return row;
}

/** Over `limit` requests in the window: sets Retry-After (the seconds until the window ends) and says so. */
export function overRateLimit(reply: FastifyReply, use: TokenUse, limit: number): boolean {
  if (use.ventana_usos <= limit) return false;
  reply.header('retry-after', String(Math.max(1, use.retry_after)));
  return true;
}
