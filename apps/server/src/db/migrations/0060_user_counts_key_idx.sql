-- The users list's kept total (decision 0078) sums the user_counts rows of its filter's keys on every page.
-- The table had no index: after many users came in (an import, a directory sync) and their +1 rows were
-- merged, it keeps the pages they filled, and every list read them all twice (271 pages for 7 rows after
-- 50,000 users, finding 46). With the keys and the count in one index the sums read its few pages alone
-- (index-only, the visibility map set by autovacuum). Written by hand: the schema builder has no INCLUDE.
CREATE INDEX IF NOT EXISTS "user_counts_key_idx" ON "user_counts" ("id_cliente", "rol", "activo") INCLUDE ("n");
