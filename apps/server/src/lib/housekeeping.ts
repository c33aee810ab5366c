import type { FastifyInstance } from 'fastify';
import { purgeAbandonedUploads } from './files.ts';

/**
 * Removes expired sessions, and uploads a process stopped receiving (an hour after they began; decision
 * 0119), every few minutes; returns a stop function. Sign-in attempts, which this also removed after a day,
 * are the daily retention job's (lib/retention.ts, decision 0101).
 */
export function startHousekeeping(app: FastifyInstance, everyMs = 10 * 60_000): () => void {
  const run = async () => {
    try {
      await app.sessions.purgeExpired();
      await purgeAbandonedUploads(app.db, app.clock.now());
    } catch (err) {
      app.log.warn({ err }, 'limpieza periódica fallida');
    }
  };
  const timer = setInterval(() => void run(), everyMs);
  timer.unref();
  void run();
  return () => clearInterval(timer);
}
