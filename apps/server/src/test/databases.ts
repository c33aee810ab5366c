import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import pg from 'pg';
import { inject } from 'vitest';
import { type Database, openDatabase, runMigrations } from '../db/client.ts';

export type DbKind = 'pglite' | 'postgres';

/** The API suites run on PGlite, and also on PostgreSQL when TEST_DATABASE_URL is set (CI sets it). */
export const DB_KINDS: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export interface TestDatabase {
  database: Database;
  drop(): Promise<void>;
}

let pgliteTemplate: Promise<Blob> | undefined;

/**
 * The migrated embedded database the global setup made (test/global-setup.ts), read once per test file.
 * Loading it takes a fraction of creating and migrating a new one.
 */
function migratedPglite(): Promise<Blob> | undefined {
  const file = inject('pgliteTemplate');
  if (!file) return undefined;
  pgliteTemplate ??= readFile(file).then((bytes) => new Blob([bytes]));
  return pgliteTemplate;
}

/**
 * A migrated embedded database in a directory (another process can open it once this one closes it): a
 * copy of the run's template when there is one.
 */
export async function pgliteOnDisk(dataDir: string): Promise<Database> {
  const template = migratedPglite();
  const database = await openDatabase({ dataDir, loadDataDir: template && (await template) });
  if (!template) await runMigrations(database);
  return database;
}

/**
 * A fresh, migrated database: an in-memory PGlite, or a new database on the PostgreSQL server. Both are
 * copies of the run's migrated templates when the global setup made them; otherwise they are migrated here.
 * `{ migrated: false }`: an empty one (a test that applies migrations itself).
 */
export async function freshDatabase(
  kind: DbKind,
  { migrated = true }: { migrated?: boolean } = {},
): Promise<TestDatabase> {
  if (kind === 'pglite') {
    if (!migrated) {
      const empty = await openDatabase({ dataDir: 'memory://' });
      return { database: empty, drop: () => empty.close() };
    }
    const template = migratedPglite();
    const database = await openDatabase({ dataDir: 'memory://', loadDataDir: template && (await template) });
    if (!template) await runMigrations(database);
    return { database, drop: () => database.close() };
  }
  const base = process.env.TEST_DATABASE_URL;
  if (!base) throw new Error('TEST_DATABASE_URL no está definida');
  const name = `portal_test_${Date.now()}_${randomBytes(4).toString('hex')}`;
  const template = migrated ? inject('postgresTemplate') : undefined;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(template ? `create database ${name} template ${template}` : `create database ${name}`);
  await admin.end();
  const url = new URL(base);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString(), poolSize: 30 });
  if (!template && migrated) await runMigrations(database);
  return {
    database,
    drop: async () => {
      await database.close();
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}
