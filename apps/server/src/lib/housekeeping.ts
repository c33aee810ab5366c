import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/client.ts';
import { authAttempts } from '../db/schema/index.ts';

/** Removes the sign-in throttling rows older than `before` (they no longer count in any window). */
export async function purgeOldAttempts(db: Db, before: Date) {
  await db.delete(authAttempts).where(sql`${authAttempts.createdAt} < ${before}`);
}

/** Removes expired sessions and old throttling rows every few minutes; returns a stop function. */
export function startHousekeeping(app: FastifyInstance, everyMs = 10 * 60_000): () => void {
  const run = async () => {
    try {
      await app.sessions.purgeExpired();
      await purgeOldAttempts(app.db, new Date(app.clock.ms() - 24 * 3_600_000));
    } catch (err) {
      app.log.warn({ err }, 'limpieza periódica fallida');
    }
  };
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
