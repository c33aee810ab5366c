import { type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';

/**
 * Counts kept as appended rows of +n and −n (decision 0078: the users' counts; decision 0149: the shipments
 * to receive): a writer appends and never waits on another; a reader sums a key's rows and, once it summed more
 * than this many, merges them into one row a key.
 */
export const COUNT_ROWS_TO_MERGE = 64;

/**
 * One row a key for a kept count (`keys` its key columns, `n` its count), in one statement that deletes what
 * it sees and inserts their sums: a row appended meanwhile stays and is summed next time, so the merge is safe
 * beside the writers and beside another merge. `where` limits it to some keys (one client's).
 */
export async function mergeKeptCounts(
  db: Db | Tx,
  table: PgTable,
  keys: PgColumn[],
  n: PgColumn,
  where?: SQL,
): Promise<void> {
  const names = sql.join(
    keys.map((c) => sql.identifier(c.name)),
    sql`, `,
  );
  const count = sql.identifier(n.name);
  const groups = sql.raw(keys.map((_, i) => i + 1).join(', '));
  await db.execute(sql`with gone as (delete from ${table}${where ? sql` where ${where}` : sql``}
      returning ${names}, ${count})
    insert into ${table} (${names}, ${count})
    select ${names}, sum(${count})::int from gone group by ${groups} having sum(${count}) <> 0`);
}
