import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PGlite } from '@electric-sql/pglite';
import { type SQL, sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { type ReplicaOptions, ReplicaRouter } from './replica.ts';
import * as schema from './schema/index.ts';

export type Schema = typeof schema;
/** One type for both drivers: the PostgreSQL dialect through Drizzle. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

/** The rows of a raw statement as the driver gives them (both drivers answer `{ rows }`). */
export async function rowsOf<T>(db: Db | Tx, query: SQL): Promise<T[]> {
  return ((await db.execute(query)) as unknown as { rows: T[] }).rows;
}

const here = path.dirname(fileURLToPath(import.meta.url));
/** The committed migrations: next to this file in the sources, in src/db from the built bundle (dist/). */
export const MIGRATIONS_DIR = existsSync(path.join(here, 'migrations'))
  ? path.join(here, 'migrations')
  : path.resolve(here, '../src/db/migrations');

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** The embedded instance, when there is one. */
  pglite?: PGlite;
  pool?: pg.Pool;
  /**
   * The connections of the named prepared statements run outside transactions (`preparedOnce`,
   * `executeNamed`): they take PostgreSQL's generic plan from the first call (decision 0083).
   */
  plannedPool?: pg.Pool;
  /** The PostgreSQL server's address (the session cache's listening connection opens its own). */
  url?: string;
  /**
   * The heavy readers' handle (db/replica.ts, decision 0129): the streaming replica's while it is usable,
   * else the primary's; `db` itself when no replica is configured. Single statements only, never money.
   */
  reads: Db;
  /** The replica's router, with DATABASE_REPLICA_URL. */
  replica?: ReplicaRouter;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** A PostgreSQL server; when absent the embedded database is used. */
  databaseUrl?: string;
  /** Where the embedded database lives; `memory://` for a throwaway one. */
  dataDir?: string;
  /** The embedded database's starting contents (a `dumpDataDir` tarball) instead of an empty one. */
  loadDataDir?: Blob;
  poolSize?: number;
  /** A streaming replica for the heavy readers (only with `databaseUrl`). */
  replica?: Omit<ReplicaOptions, 'poolSize'>;
}

// Bigint columns (COUNT, SUM) come back as strings from pg; money fits in a JS number.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));
pg.types.setTypeParser(1700, (v) => Number(v));

function openPool(url: string, max: number, options?: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max, connectionTimeoutMillis: 5000, options });
  pool.on('error', () => {
    // A dropped idle connection is replaced on next use; queries report their own errors.
  });
  // A connection checked out of the pool (inside a transaction, between two statements) that the server
  // drops emits 'error' on its client; unheard, that event would end the process. The statement that
  // uses it next fails (a 503 for a request) and the pool discards it when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => undefined);
  });
  return pool;
}

/** The handle whose connections plan the app's named statements once (decision 0083), by the app's handle. */
const plannedHandles = new WeakMap<object, Db>();

/**
 * Where a named prepared statement outside a transaction runs: the planned pool's handle on a PostgreSQL
 * server, the handle itself otherwise (the embedded database, a test's own handle).
 */
export function plannedHandle(db: Db): Db {
  return plannedHandles.get(db) ?? db;
}

export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const max = options.poolSize ?? 20;
    const pool = openPool(options.databaseUrl, max);
    // Every named statement of the app has a plan that is the same for any values (docs/architecture.md, "A
    // hot query"), yet PostgreSQL often keeps planning one for each call's values when its estimates favour
    // that: up to 1 ms a call (docs/benchmarks.md, finding 34). Its own connections take the generic plan;
    // the others keep planning unnamed statements for their values.
    const plannedPool = openPool(options.databaseUrl, max, '-c plan_cache_mode=force_generic_plan');
    const db = drizzlePg(pool, { schema }) as unknown as Db;
    plannedHandles.set(db, drizzlePg(plannedPool, { schema }) as unknown as Db);
    const replica = options.replica
      ? new ReplicaRouter(pool, { ...options.replica, poolSize: max })
      : undefined;
    await replica?.start();
    return {
      db,
      reads: replica?.reads ?? db,
      ...(replica ? { replica } : {}),
      kind: 'postgres',
      pool,
      plannedPool,
      url: options.databaseUrl,
      close: async () => {
        await Promise.all([pool.end(), plannedPool.end(), replica?.close()]);
      },
    };
  }
  const dataDir = options.dataDir ?? './data';
  let target = dataDir;
  if (!dataDir.startsWith('memory://')) {
    target = path.resolve(dataDir, 'pglite');
    mkdirSync(target, { recursive: true });
  }
  // Loaded only for the embedded database: the module alone holds about 40 MB that a server on
  // PostgreSQL never needs.
  const { PGlite } = await import('@electric-sql/pglite');
  const { pg_trgm } = await import('@electric-sql/pglite/contrib/pg_trgm');
  const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
  // pg_trgm: the trigram indexes of the searches (migration 0020, decision 0068).
  const pglite = await PGlite.create(target, {
    extensions: { pg_trgm },
    // bytea in and out through Node's native hex codec: PGlite's own goes a byte at a time through arrays
    // of strings, which holds the server for about a minute on a 20 MB file (issue 38, finding 7).
    serializers: { [BYTEA_OID]: (value: Uint8Array) => `\\x${bufferOf(value).toString('hex')}` },
    parsers: { [BYTEA_OID]: (text: string) => Buffer.from(text.slice(2), 'hex') },
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
  });
  const db = drizzlePglite(pglite, { schema }) as unknown as Db;
  return { db, reads: db, kind: 'pglite', pglite, close: () => pglite.close() };
}

/** PostgreSQL's type id of bytea. */
const BYTEA_OID = 17;

/** The bytes of a Uint8Array as a Buffer, without copying them. */
function bufferOf(value: Uint8Array): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value.buffer, value.byteOffset, value.byteLength);
}

/** Applies the committed migrations; on a server, one instance at a time (advisory lock). */
export async function runMigrations(database: Database): Promise<void> {
  if (database.kind === 'pglite' && database.pglite) {
    const { drizzle: drizzlePglite } = await import('drizzle-orm/pglite');
    const { migrate: migratePglite } = await import('drizzle-orm/pglite/migrator');
    await migratePglite(drizzlePglite(database.pglite), { migrationsFolder: MIGRATIONS_DIR });
    return;
  }
  const pool = database.pool!;
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock(727274)');
    await migratePg(drizzlePg(client), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('select pg_advisory_unlock(727274)').catch(() => undefined);
    client.release();
  }
}

export async function ping(db: Db): Promise<void> {
  await db.execute(sql`select 1`);
}
