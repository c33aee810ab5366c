import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_RETENTION } from '../lib/retention.ts';
import { freshDatabase, type TestDatabase } from '../test/harness.ts';
import { rowsOf } from './client.ts';

/**
 * Deleting a row makes PostgreSQL look for the rows that refer to it (to cascade, to set null, or to refuse),
 * one lookup a deleted row. Without an index led by the referring column that lookup scans the whole table:
 * an approver's edit that removed a line scanned every receipt line (finding 54). The tables whose rows the
 * portal deletes in its daily work: the order lines an approver removes, and every table the retention job
 * purges (lib/retention.ts).
 */
const DELETED = [
  'order_lines',
  ...Object.keys(TABLE_RETENTION).filter((t) => 'purged' in TABLE_RETENTION[t]!),
];

describe('foreign keys to rows the portal deletes', () => {
  let fresh: TestDatabase;
  beforeAll(async () => {
    fresh = await freshDatabase('pglite');
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  it('names tables that exist, order_lines and the purged ones among them', async () => {
    const tables = await rowsOf<{ name: string }>(
      fresh.database.db,
      sql`select tablename as name from pg_tables where schemaname = 'public'`,
    );
    const names = new Set(tables.map((t) => t.name));
    expect(DELETED.filter((t) => !names.has(t))).toEqual([]);
    expect(DELETED).toEqual(expect.arrayContaining(['order_lines', 'notifications', 'system_logs']));
  });

  it('have an index led by the referring column', async () => {
    const unindexed = await rowsOf<{ fk: string }>(
      fresh.database.db,
      sql`select c.conrelid::regclass::text || '.' || a.attname || ' → ' || c.confrelid::regclass::text as fk
          from pg_constraint c
            join pg_attribute a on a.attrelid = c.conrelid and a.attnum = c.conkey[1]
          where c.contype = 'f' and c.connamespace = 'public'::regnamespace
            and c.confrelid::regclass::text = any(${sql.param(DELETED)}::text[])
            and not exists (select from pg_index i where i.indrelid = c.conrelid and i.indkey[0] = c.conkey[1])
          order by 1`,
    );
    expect(unindexed.map((r) => r.fk)).toEqual([]);
  });
});
