import { type SQL, sql } from 'drizzle-orm';

/**
 * A JSON array of the rows of a subquery, [] when it has none: how one statement carries several lists
 * (a screen's reads, an approval's) in one round trip.
 */
export const jsonRows = (query: SQL, orderBy?: SQL) =>
  sql`(select coalesce(json_agg(r${orderBy ? sql` order by ${orderBy}` : sql``}), '[]'::json) from (${query}) r)`;
