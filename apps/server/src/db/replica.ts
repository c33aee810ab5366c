/**
 * Heavy readers off the primary (issue 44 item 4, decision 0129): with DATABASE_REPLICA_URL, the reads that
 * may take seconds and never decide money — the order reports, the dashboards, the log export and the
 * support search — run on a PostgreSQL streaming replica. Budgets, limits, approvals and every write stay on
 * the primary (`Database.db`).
 *
 * `reads` is one Drizzle handle over a pool that sends each statement to the replica while it is usable and to
 * the primary otherwise: a replica that does not answer, or that is more than REPLICA_MAX_LAG_SECONDS behind,
 * is left until a later check finds it well (every REPLICA_CHECK_MS), with one log line at each change. A
 * statement the replica fails for want of a connection (or cancels for a conflict with recovery) is run again
 * on the primary at once, so a report read in keyset batches finishes on the primary when the replica stops
 * under it. Never open a transaction on `reads`: it is for single statements.
 */
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import * as schema from './schema/index.ts';

/** The same handle type as client.ts's `Db` (not imported from there: client.ts opens this module). */
type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface ReplicaOptions {
  url: string;
  poolSize: number;
  /** Behind by more than this (seconds), the replica is left for the primary. */
  maxLagSeconds: number;
  /** How often the replica's state is read (ms). */
  checkMs: number;
  /** The server's log (pino's two methods as this module calls them). */
  log: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
}

/** What the last check found: in use or not, and the lag in seconds (null when it did not answer). */
export interface ReplicaState {
  inUse: boolean;
  lagSeconds: number | null;
}

/**
 * The replica's lag: 0 when it has replayed everything it received, else the age of the last transaction it
 * replayed (an idle primary sends nothing new, so a replica that caught up is never "behind").
 */
const LAG_QUERY = `select case
    when not pg_is_in_recovery() or pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() then 0
    else coalesce(extract(epoch from now() - pg_last_xact_replay_timestamp()), 0)
  end::float8 as lag`;

/** A failure that says nothing about the statement itself: the replica is gone, starting, or in recovery's way. */
export function isReplicaFailure(err: unknown): boolean {
  const e = err as { code?: string; message?: string };
  if (typeof e?.code === 'string') {
    // Connection exceptions (08…), shut down or starting (57P01–57P03), cancelled for a recovery conflict.
    if (e.code.startsWith('08') || ['57P01', '57P02', '57P03', '40001'].includes(e.code)) return true;
    if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND'].includes(e.code)) return true;
  }
  return /Connection terminated|timeout exceeded when trying to connect|connection error/i.test(
    e?.message ?? '',
  );
}

/** A pool whose statements go to the replica while it is usable, else (and on a replica failure) to the primary. */
class ReadPool extends pg.Pool {
  constructor(
    config: pg.PoolConfig,
    private readonly primary: pg.Pool,
    private readonly router: ReplicaRouter,
  ) {
    super(config);
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's overloads; Drizzle calls the promise form.
  override query(...args: any[]): any {
    const onPrimary = () => Reflect.apply(this.primary.query, this.primary, args);
    if (!this.router.state.inUse || typeof args[args.length - 1] === 'function') return onPrimary();
    return (Reflect.apply(super.query, this, args) as Promise<unknown>).catch((err: unknown) => {
      if (!isReplicaFailure(err)) throw err;
      this.router.failed(err);
      return onPrimary();
    });
  }

  /** The lag query, on the replica itself. */
  lag(): Promise<number> {
    return super.query<{ lag: number }>(LAG_QUERY).then((r) => Number(r.rows[0]?.lag ?? 0));
  }
}

export class ReplicaRouter {
  readonly pool: ReadPool;
  readonly reads: Db;
  state: ReplicaState = { inUse: false, lagSeconds: null };
  private timer: NodeJS.Timeout | null = null;
  private checking: Promise<void> | null = null;

  constructor(
    primary: pg.Pool,
    private readonly options: ReplicaOptions,
  ) {
    this.pool = new ReadPool(
      { connectionString: options.url, max: options.poolSize, connectionTimeoutMillis: 3000 },
      primary,
      this,
    );
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => {
      client.on('error', () => undefined);
    });
    this.reads = drizzlePg(this.pool, { schema }) as unknown as Db;
  }

  /** The first check (awaited: a server starts with the replica in use when it is well), then one every checkMs. */
  async start(): Promise<void> {
    await this.check();
    this.timer = setInterval(() => void this.check(), this.options.checkMs);
    this.timer.unref();
  }

  /** Reads the replica's lag and decides whether it is used (one check at a time). */
  check(): Promise<void> {
    this.checking ??= this.pool
      .lag()
      .then(
        (lag) => this.set({ inUse: lag <= this.options.maxLagSeconds, lagSeconds: lag }, null),
        (err: unknown) => this.set({ inUse: false, lagSeconds: null }, err),
      )
      .finally(() => {
        this.checking = null;
      });
    return this.checking;
  }

  /** A statement failed on the replica for want of it: left until a check finds it well. */
  failed(err: unknown): void {
    this.set({ inUse: false, lagSeconds: this.state.lagSeconds }, err);
  }

  private set(next: ReplicaState, err: unknown): void {
    const was = this.state.inUse;
    this.state = next;
    if (was === next.inUse) return;
    const { log, maxLagSeconds } = this.options;
    if (next.inUse)
      log.info({ lag: next.lagSeconds }, 'réplica en uso: las lecturas pesadas van a la réplica');
    else if (next.lagSeconds !== null && next.lagSeconds > maxLagSeconds)
      log.warn(
        { lag: next.lagSeconds, max: maxLagSeconds },
        'réplica atrasada: las lecturas pesadas van al primario',
      );
    else log.warn({ err }, 'réplica sin respuesta: las lecturas pesadas van al primario');
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.checking;
    await this.pool.end();
  }
}
