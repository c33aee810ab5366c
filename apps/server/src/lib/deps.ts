import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import type { SessionStore } from '../plugins/session.ts';
import type { Clock } from './clock.ts';
import type { JobRunner } from './jobs.ts';
import type { AppKeys } from './keys.ts';
import type { MailWorker } from './mailer.ts';

/**
 * What a service may use of the running server: the modules' services and their helpers take these
 * (or a `Pick` of them) and the actor, never the Fastify app. A route passes `app.deps`, built once when
 * the app is built (app.ts); a test may build its own.
 */
export interface Deps {
  /** The database (Drizzle): queries and transactions. */
  db: Db;
  /**
   * The heavy readers' handle (db/replica.ts, decision 0129): reports, dashboards, exports and the support
   * search read through it — the streaming replica while it is usable, else `db`. Single statements only;
   * never for what decides money (budgets, limits, approvals) nor right after a write it must see.
   */
  reads: Db;
  /** The validated configuration (config.ts): PUBLIC_URL, BUSINESS_TZ, limits, switches. */
  config: Config;
  /** "Now" for every business decision (lib/clock.ts, decision 0093). */
  clock: Clock;
  /** The outgoing mail: `flush()` after a transaction that queued e-mails. */
  mailer: MailWorker;
  /** Background jobs (pg-boss): queues are defined and jobs sent inside a transaction. */
  jobs: JobRunner;
  /** Open sessions: the cached principal (`kept`), and ending a deactivated account's sessions. */
  sessions: SessionStore;
  /** The keys derived from the configured secret (lib/keys.ts): encryption, typed-name fingerprints. */
  keys: AppKeys;
  /** The server's log, for what fails outside a request's answer (bulk actions, jobs). */
  log: FastifyBaseLogger;
}

/** The services' dependencies, taken from the app's decorations (only these members: never the app itself). */
export function depsOf(app: Deps): Deps {
  const { db, reads, config, clock, mailer, jobs, sessions, keys, log } = app;
  return { db, reads, config, clock, mailer, jobs, sessions, keys, log };
}
