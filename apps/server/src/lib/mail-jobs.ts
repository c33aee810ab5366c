import type { Db } from '../db/client.ts';
import type { Deps } from './deps.ts';

/**
 * Declares a scheduled job that writes e-mails (the approvers' reminders and escalation, the notification
 * digests): `run` at the clock's now, in the business time zone's schedule, with a retry, the mailer flushed
 * when it enqueued anything (called while the app is built).
 */
export function defineMailJob(
  deps: Deps,
  job: {
    name: string;
    cron: string;
    expireInSeconds: number;
    run: (deps: { db: Db; publicUrl: string; tz: string }, now: Date) => Promise<number>;
  },
): void {
  deps.jobs.define<Record<string, never>>({
    name: job.name,
    retryLimit: 2,
    retryDelay: 60,
    expireInSeconds: job.expireInSeconds,
    cron: { expression: job.cron, tz: deps.config.BUSINESS_TZ },
    handler: async () => {
      const enqueued = await job.run(
        { db: deps.db, publicUrl: deps.config.PUBLIC_URL, tz: deps.config.BUSINESS_TZ },
        deps.clock.now(),
      );
      if (enqueued > 0) void deps.mailer.flush();
    },
  });
}
