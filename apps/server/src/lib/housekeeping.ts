import type { FastifyInstance } from 'fastify';
import { purgeOldAttempts } from '../modules/auth/auth.repository.ts';

/** Removes expired sessions and old throttling rows every few minutes; returns a stop function. */
export function startHousekeeping(app: FastifyInstance, everyMs = 10 * 60_000): () => void {
  const run = async () => {
    try {
      await app.sessions.purgeExpired();
      await purgeOldAttempts(app.db, new Date(Date.now() - 24 * 3_600_000));
    } catch (err) {
      app.log.warn({ err }, 'limpieza periódica fallida');
    }
  };
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
