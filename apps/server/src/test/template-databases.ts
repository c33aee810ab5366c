import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openDatabase, runMigrations } from '../db/client.ts';

/**
 * What the API suites' global setup hands every test file (vitest's provide/inject): a migrated embedded
 * database as a `dumpDataDir` tarball on disk, and the name of a migrated database on the PostgreSQL server
 * to copy (`create database … template …`). Empty when there is none.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
    postgresTemplate: string;
  }
}

export interface TemplateDatabases {
  /** The tarball's path. */
  pglite: string;
  /** The template database's name, or '' without TEST_DATABASE_URL. */
  postgres: string;
  remove(): Promise<void>;
}

async function onServer(base: string, statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: base });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/** Migrates one database of each kind once, for the test files to copy instead of migrating their own. */
export async function createTemplateDatabases(databaseUrl?: string): Promise<TemplateDatabases> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'portal-test-db-'));
  const tarball = path.join(dir, 'pglite.tar');
  let postgres = '';
  const remove = async () => {
    await rm(dir, { recursive: true, force: true });
    if (postgres && databaseUrl)
      await onServer(databaseUrl, `drop database if exists ${postgres} with (force)`);
  };
  try {
    const embedded = await openDatabase({ dataDir: 'memory://' });
    try {
      await runMigrations(embedded);
      const dump = await embedded.pglite!.dumpDataDir('none');
      await writeFile(tarball, Buffer.from(await dump.arrayBuffer()));
    } finally {
      await embedded.close();
    }
    if (databaseUrl) {
      postgres = `portal_template_${Date.now()}_${randomBytes(4).toString('hex')}`;
      await onServer(databaseUrl, `create database ${postgres}`);
      const url = new URL(databaseUrl);
      url.pathname = `/${postgres}`;
      const server = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
      try {
        await runMigrations(server);
      } finally {
        // A template database can be copied only while nobody is connected to it.
        await server.close();
      }
    }
  } catch (err) {
    await remove();
    throw err;
  }
  return { pglite: tarball, postgres, remove };
}
