import { randomBytes } from 'node:crypto';
import { sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, uniq } from '../test/factories.ts';
import { freshDatabase, type TestDatabase } from '../test/harness.ts';
import { rowsOf } from './client.ts';
import { isReplicaFailure, ReplicaRouter } from './replica.ts';

/**
 * The heavy readers' router (decision 0129) over real PostgreSQL databases: a copy of the primary stands in
 * for the replica (a server that is not in recovery reports no lag), so a row only the copy holds shows
 * where a statement ran. The streaming replica itself, its lag and its stop under a report are the
 * reliability suite's (apps/server/reliability/replica.test.ts).
 */
describe.runIf(process.env.TEST_DATABASE_URL)('the replica router (postgres)', () => {
  const base = process.env.TEST_DATABASE_URL!;
  let primary: TestDatabase;
  let primaryName: string;
  let copyName: string;
  let copyUrl: string;
  const logged: string[] = [];
  const log = {
    info: (_o: unknown, msg: string) => void logged.push(msg),
    warn: (_o: unknown, msg: string) => void logged.push(msg),
  };
  const onServer = async (text: string) => {
    const c = new pg.Client({ connectionString: base });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };

  beforeAll(async () => {
    primary = await freshDatabase('postgres');
    // The copy is made while nothing else is connected to the primary's database.
    const url = new URL(primary.database.url!);
    primaryName = url.pathname.slice(1);
    await primary.database.close();
    copyName = `portal_replica_${randomBytes(4).toString('hex')}`;
    await onServer(`create database ${copyName} template ${primaryName}`);
    const { openDatabase } = await import('./client.ts');
    const reopened = await openDatabase({ databaseUrl: url.toString(), poolSize: 5 });
    primary = { database: reopened, drop: () => reopened.close() };
    url.pathname = `/${copyName}`;
    copyUrl = url.toString();
  });
  afterAll(async () => {
    await primary?.drop();
    await onServer(`drop database if exists ${primaryName} with (force)`);
    await onServer(`drop database if exists ${copyName} with (force)`);
  });

  const names = async (db: Parameters<typeof rowsOf>[0], like: string) =>
    (await rowsOf<{ nombre: string }>(db, sql`select nombre from clients where nombre like ${like}`)).map(
      (r) => r.nombre,
    );

  it('reads run on the replica while it answers; a replica that does not answer sends them to the primary, with one log line', async () => {
    const marker = uniq('Solo en el primario');
    await makeClient(primary.database.db, { nombre: marker });
    const router = new ReplicaRouter(primary.database.pool!, {
      url: copyUrl,
      poolSize: 2,
      maxLagSeconds: 30,
      checkMs: 60_000,
      log,
    });
    await router.start();
    expect(router.state).toEqual({ inUse: true, lagSeconds: 0 });
    // The copy predates the marker: the read went to the replica.
    expect(await names(router.reads, marker)).toEqual([]);
    await router.close();

    logged.length = 0;
    const closed = new URL(copyUrl);
    closed.port = '1';
    const down = new ReplicaRouter(primary.database.pool!, {
      url: closed.toString(),
      poolSize: 2,
      maxLagSeconds: 30,
      checkMs: 60_000,
      log,
    });
    await down.start();
    // Never in use: nothing changed, nothing logged; every read on the primary.
    expect(down.state).toEqual({ inUse: false, lagSeconds: null });
    expect(await names(down.reads, marker)).toEqual([marker]);
    await down.close();
  });

  it('a replica that stops under a statement hands it to the primary at once and is left until a check finds it well', async () => {
    const marker = uniq('Después de la copia');
    await makeClient(primary.database.db, { nombre: marker });
    logged.length = 0;
    const router = new ReplicaRouter(primary.database.pool!, {
      url: copyUrl,
      poolSize: 2,
      maxLagSeconds: 30,
      checkMs: 60_000,
      log,
    });
    await router.start();
    expect(await names(router.reads, marker)).toEqual([]);
    // A slow read, and the replica's connections ended under it (what a stopped server does to them).
    const slow = rowsOf<{ nombre: string }>(
      router.reads,
      sql`select nombre from (select pg_sleep(0.6)) s, clients where nombre like ${marker}`,
    );
    await new Promise((r) => setTimeout(r, 200));
    await onServer(
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${copyName}' and pid <> pg_backend_pid()`,
    );
    expect((await slow).map((r) => r.nombre)).toEqual([marker]);
    expect(router.state.inUse).toBe(false);
    expect(logged).toEqual([
      'réplica en uso: las lecturas pesadas van a la réplica',
      'réplica sin respuesta: las lecturas pesadas van al primario',
    ]);
    // On the primary until the next check, which finds the replica answering again.
    expect(await names(router.reads, marker)).toEqual([marker]);
    await router.check();
    expect(router.state.inUse).toBe(true);
    expect(logged.at(-1)).toBe('réplica en uso: las lecturas pesadas van a la réplica');
    expect(await names(router.reads, marker)).toEqual([]);
    await router.close();
  });

  it('a statement that is wrong fails as it would on the primary (not retried there)', async () => {
    const router = new ReplicaRouter(primary.database.pool!, {
      url: copyUrl,
      poolSize: 1,
      maxLagSeconds: 30,
      checkMs: 60_000,
      log,
    });
    await router.start();
    const failure = await rowsOf(router.reads, sql`select * from no_such_table`).catch((e: unknown) => e);
    // Drizzle wraps the driver's error; the router saw the driver's own.
    const cause = (failure as { cause?: unknown }).cause ?? failure;
    expect((cause as { code?: string }).code).toBe('42P01');
    expect(isReplicaFailure(cause)).toBe(false);
    expect(router.state.inUse).toBe(true);
    await router.close();
  });
});
