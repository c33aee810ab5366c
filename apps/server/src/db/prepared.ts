import type { Db, Tx } from './client.ts';

/** A transaction handle (one connection, one statement at a time) rather than the pool. */
export const isTransaction = (db: Db | Tx): db is Tx => 'rollback' in db;

const cache = new WeakMap<object, Map<string, unknown>>();

/**
 * A query built once per database handle and run as a named prepared statement: neither the query builder
 * nor PostgreSQL's planner redo their work on each request. `build` receives the handle and must use
 * `sql.placeholder(...)` for every value; the same name must always build the same query.
 */
export function preparedOnce<T>(db: Db, name: string, build: (db: Db) => T): T {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  let statement = statements.get(name) as T | undefined;
  if (!statement) {
    statement = build(db);
    statements.set(name, statement);
  }
  return statement;
}
