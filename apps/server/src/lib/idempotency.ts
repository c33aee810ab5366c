/**
 * `Idempotency-Key` for the v1 API's writes (decision 0124): the first successful answer to a key is kept,
 * in the write's own transaction, with the SHA-256 of the request (method, path, body); a retry with the
 * same key and request answers it again (header `Idempotency-Replayed: true`) and writes nothing, the
 * same key with another request is refused (422). A write that failed keeps nothing: its retry runs
 * again. Two requests with one key at once: the second waits on the first's row and answers its result.
 * Keys are per token and live IDEMPOTENCY_RETENTION_HOURS (lib/retention.ts).
 */
import { createHash } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/client.ts';
import { apiIdempotencyKeys } from '../db/schema/index.ts';
import { MSG } from '../messages.ts';
import { badRequest, unprocessable } from './errors.ts';

/** Visible ASCII, 1 to 200 characters (a UUID, or the integration's own request id). */
const KEY = /^[\x21-\x7e]{1,200}$/;

/** The request's `Idempotency-Key`, or undefined; 400 when it is malformed. */
function keyOf(request: FastifyRequest): string | undefined {
  const raw = request.headers['idempotency-key'];
  if (raw === undefined) return undefined;
  const value = Array.isArray(raw) ? raw.join(',') : raw;
  if (!KEY.test(value)) throw badRequest('IDEMPOTENCY_KEY', MSG.idempotencyKeyInvalida);
  return value;
}

/**
 * Runs `write` in a transaction; with an `Idempotency-Key`, at most once per token and key (see the
 * file's head). The answer is JSON with status 200.
 */
export async function idempotentWrite<T>(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  tokenId: number,
  write: (tx: Tx) => Promise<T>,
): Promise<T> {
  const clave = keyOf(request);
  if (clave === undefined) return db.transaction(write);
  const huella = createHash('sha256')
    .update(`${request.method} ${request.url.split('?')[0]}\n${JSON.stringify(request.body ?? null)}`)
    .digest('hex');
  const outcome = await db.transaction(async (tx) => {
    // Claims the key: a concurrent request with it waits here until the first one ends.
    const [claimed] = await tx
      .insert(apiIdempotencyKeys)
      .values({ tokenId, clave, huella, statusCode: 200, respuesta: {} })
      .onConflictDoNothing()
      .returning({ id: apiIdempotencyKeys.id });
    if (!claimed) {
      const [first] = await tx
        .select({ huella: apiIdempotencyKeys.huella, respuesta: apiIdempotencyKeys.respuesta })
        .from(apiIdempotencyKeys)
        .where(and(eq(apiIdempotencyKeys.tokenId, tokenId), eq(apiIdempotencyKeys.clave, clave)));
      if (!first || first.huella !== huella)
        throw unprocessable('IDEMPOTENCY_KEY_REUSED', MSG.idempotencyKeyReusada);
      return { replayed: true as const, body: first.respuesta as T };
    }
    const body = await write(tx);
    await tx
      .update(apiIdempotencyKeys)
      .set({ respuesta: body as object })
      .where(eq(apiIdempotencyKeys.id, claimed.id));
    return { replayed: false as const, body };
  });
  if (outcome.replayed) reply.header('idempotency-replayed', 'true');
  return outcome.body;
}
