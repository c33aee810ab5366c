import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { type DrizzleTransactionLike, fromDrizzle, fromPglite, PgBoss } from 'pg-boss';
import { type Database, rowsOf, type Tx } from '../db/client.ts';

declare module 'fastify' {
  interface FastifyInstance {
    jobs: JobRunner;
  }
}

export interface JobContext {
  /** pg-boss job id. */
  id: string;
  /** 0 on the first attempt. */
  retryCount: number;
  /** True when a failure now is final (no retry follows). */
  lastAttempt: boolean;
  /** Aborted when the server stops or the job's claim is lost: stop between batches. */
  signal: AbortSignal;
}

export interface QueueDefinition<T extends object> {
  name: string;
  handler: (data: T, ctx: JobContext) => Promise<void>;
  /** Retries after a failed or expired attempt (default 2). */
  retryLimit?: number;
  /** Seconds between retries (default 10); with `retryBackoff`, the first delay, doubling each time. */
  retryDelay?: number;
  /** Exponential backoff between retries (pg-boss: base·2^n to base·2^(n+1), capped by `retryDelayMax`). */
  retryBackoff?: boolean;
  /** The longest delay between retries with backoff, in seconds. */
  retryDelayMax?: number;
  /**
   * How often an idle worker looks for due jobs, including retries after their delay (at least 0.5 s).
   * Without it, new jobs wake a worker at once and the rest wait for a 30-second backstop poll.
   */
  pollingIntervalSeconds?: number;
  /** Jobs of this queue one instance runs at once (default 1). */
  localConcurrency?: number;
  /** A job running longer than this is considered dead and retried (default 30 min). */
  expireInSeconds?: number;
  /**
   * Runs when a job failed for good in a way its handler could not report itself (its process died on
   * the last attempt, or it expired): the payload goes to a dead-letter queue and this settles it.
   */
  onDeadLetter?: (data: T) => Promise<void>;
  /**
   * Also enqueued by pg-boss's cron on this expression, read in `tz`: every instance writes the same
   * schedule row, and pg-boss sends one job per occurrence however many instances run. An occurrence
   * missed while no instance ran is sent once when one starts (`missed: 'once'`).
   */
  cron?: { expression: string; tz: string };
}

/** One queue's backlog (JobRunner.queueStats). */
export interface QueueStats {
  name: string;
  /** Jobs due and waiting for a worker. */
  ready: number;
  /** Jobs waiting for their start time (a retry's delay, a scheduled start). */
  deferred: number;
  /** Jobs running (pg-boss's last count). */
  active: number;
  /** Seconds the oldest due job has waited since it could start; 0 when none waits. */
  oldestReadySeconds: number;
}

/**
 * A running job refreshes its heartbeat every HEARTBEAT_SECONDS / 2; one whose heartbeats stop for
 * HEARTBEAT_SECONDS (its process died) is failed by the next supervision pass, which every instance runs
 * every SUPERVISE_SECONDS, and retried after its retry delay: about half a minute after a crash.
 */
const HEARTBEAT_SECONDS = 10;
const SUPERVISE_SECONDS = 10;

/**
 * Background jobs on pg-boss (docs/domain.md "Imports"): the queue lives in the same database (PGlite through
 * pg-boss's own `fromPglite` adapter, or PostgreSQL through a small pool of its own), so jobs survive
 * restarts and any number of instances share them. Queues are defined while the app is built, started in
 * `onReady` and stopped (waiting for running jobs) in `onClose`.
 */
export class JobRunner {
  private readonly boss: PgBoss;
  private readonly definitions = new Map<string, QueueDefinition<object>>();
  private started: Promise<void> | null = null;
  private stopped = false;
  /** Aborted at `stop`, so running handlers end at their next checkpoint. */
  private readonly stopping = new AbortController();

  constructor(
    private readonly database: Database,
    private readonly log: FastifyBaseLogger,
  ) {
    const common = {
      schema: 'pgboss',
      // Cron schedules (queues with `cron`) and supervision (expiry, retention, dead letters).
      schedule: true,
      useListenNotify: true,
      superviseIntervalSeconds: SUPERVISE_SECONDS,
      monitorIntervalSeconds: SUPERVISE_SECONDS,
    } as const;
    if (database.kind === 'pglite' && database.pglite) {
      this.boss = new PgBoss({ ...common, db: fromPglite(database.pglite), backend: 'pglite' });
    } else {
      const options = (database.pool as unknown as { options?: { connectionString?: string } } | undefined)
        ?.options;
      const connectionString = options?.connectionString;
      if (!connectionString) throw new Error('JobRunner: falta la cadena de conexión de PostgreSQL');
      this.boss = new PgBoss({ ...common, connectionString, max: 4, application_name: 'portal-jobs' });
    }
    this.boss.on('error', (err) => this.log.error({ err }, 'error en la cola de trabajos'));
  }

  /** Declares a queue and its worker (before `start`). */
  define<T extends object>(definition: QueueDefinition<T>): void {
    if (this.started) throw new Error(`JobRunner: la cola ${definition.name} se definió tarde`);
    this.definitions.set(definition.name, definition as unknown as QueueDefinition<object>);
  }

  start(): Promise<void> {
    this.started ??= this.doStart();
    return this.started;
  }

  private async doStart(): Promise<void> {
    await this.boss.start();
    for (const def of this.definitions.values()) {
      const retryLimit = def.retryLimit ?? 2;
      const deadLetter = def.onDeadLetter ? `${def.name}__fallidos` : undefined;
      if (deadLetter) await this.ensureQueue(deadLetter, { retryLimit: 5, retryDelay: 30 });
      await this.ensureQueue(def.name, {
        retryLimit,
        retryDelay: def.retryDelay ?? 10,
        ...(def.retryBackoff
          ? { retryBackoff: true, ...(def.retryDelayMax ? { retryDelayMax: def.retryDelayMax } : {}) }
          : {}),
        expireInSeconds: def.expireInSeconds ?? 1800,
        heartbeatSeconds: HEARTBEAT_SECONDS,
        // pg-boss refuses an explicit undefined here: a queue without dead letters leaves the key out.
        ...(deadLetter ? { deadLetter } : {}),
        notify: true,
      });
      await this.boss.work<object>(
        def.name,
        {
          pollingIntervalSeconds: def.pollingIntervalSeconds ?? 5,
          // With LISTEN/NOTIFY a worker polls only every 30 s as a backstop; a job due later (a retry
          // after its delay) sends no notification, so a queue that sets its interval polls at it.
          ...(def.pollingIntervalSeconds ? { notifyPollingIntervalSeconds: def.pollingIntervalSeconds } : {}),
          localConcurrency: def.localConcurrency ?? 1,
        },
        async ([job]) => {
          if (!job) return;
          await def.handler(job.data, {
            id: job.id,
            retryCount: job.retryCount,
            lastAttempt: job.retryCount >= retryLimit,
            signal: AbortSignal.any([job.signal, this.stopping.signal]),
          });
        },
      );
      // Loads the queue into pg-boss's cache now, outside any transaction: a `send` inside a caller's
      // transaction must never need a second query (on PGlite, one connection, it would wait forever).
      await this.boss.findJobs(def.name, { id: '00000000-0000-0000-0000-000000000000' });
      if (def.cron)
        await this.boss.schedule(def.name, def.cron.expression, {}, { tz: def.cron.tz, missed: 'once' });
      if (deadLetter && def.onDeadLetter) {
        const settle = def.onDeadLetter;
        await this.boss.work<object>(deadLetter, { pollingIntervalSeconds: 30 }, async ([job]) => {
          if (job) await settle(job.data);
        });
      }
    }
  }

  private async ensureQueue(name: string, options: Parameters<PgBoss['createQueue']>[1]): Promise<void> {
    // A queue created by an earlier version keeps its row: bring its settings up to date.
    if (await this.boss.getQueue(name)) await this.boss.updateQueue(name, options);
    else await this.boss.createQueue(name, options);
  }

  /**
   * Enqueues a job; resolves with its id once it is stored. Given a transaction, the job is written in it:
   * it exists if and only if the caller's change commits.
   */
  async send<T extends object>(name: string, data: T, tx?: Tx): Promise<string> {
    if (!this.definitions.has(name)) throw new Error(`JobRunner: cola desconocida ${name}`);
    await this.start();
    const id = await this.boss.send(
      name,
      data,
      tx ? { db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql) } : undefined,
    );
    if (!id) throw new Error(`JobRunner: no se pudo encolar en ${name}`);
    return id;
  }

  /** Stops fetching, lets running jobs finish (up to `timeoutMs`), then closes pg-boss's connections. */
  /**
   * Every queue's backlog for the metrics (decision 0104): jobs due and waiting for a worker, jobs waiting
   * for their start (retries after their delay), how long the oldest due job has waited since it could
   * start, all read now on pg-boss's fetch index (partial: only queued jobs); and the jobs running, as
   * pg-boss's monitor last counted them (every SUPERVISE_SECONDS). Empty until the runner has started.
   */
  async queueStats(): Promise<QueueStats[]> {
    if (!this.started || this.stopped) return [];
    await this.started;
    const [queues, waiting] = await Promise.all([
      this.boss.getQueues(),
      rowsOf<{ name: string; ready: number; deferred: number; oldest: number | null }>(
        this.database.db,
        sql`
        select name,
          count(*) filter (where start_after <= now())::int as ready,
          count(*) filter (where start_after > now())::int as deferred,
          extract(epoch from now() - min(start_after) filter (where start_after <= now()))::float8 as oldest
        from pgboss.job
        where state < 'active' and not blocked
        group by name`,
      ),
    ]);
    const byName = new Map(waiting.map((w) => [w.name, w]));
    return queues.map((q) => {
      const w = byName.get(q.name);
      return {
        name: q.name,
        ready: w?.ready ?? 0,
        deferred: w?.deferred ?? 0,
        active: q.activeCount,
        oldestReadySeconds: Math.max(0, w?.oldest ?? 0),
      };
    });
  }

  async stop(timeoutMs = 15_000): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    this.stopping.abort(new Error('El servidor se está deteniendo'));
    if (!this.started) return;
    await this.started.catch(() => undefined);
    await this.boss.stop({ graceful: true, timeout: timeoutMs });
  }
}
