import { Column, is, type Placeholder, SQL, Subquery, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { type Db, plannedHandle, type Tx } from './client.ts';
import { hasTrigram, offsetOf } from './search.ts';

/** A transaction handle (one connection, one statement at a time) rather than the pool. */
export const isTransaction = (db: Db | Tx): db is Tx => 'rollback' in db;

/**
 * Several queries built on `db` (Drizzle's builders run when awaited): at once on the pool, one after the
 * other on a transaction, whose one connection must not be handed a query while another runs (node-postgres
 * queues it but deprecates that).
 */
export async function allOn<const T extends readonly PromiseLike<unknown>[]>(
  db: Db | Tx,
  queries: T,
): Promise<AllResults<T>> {
  if (!isTransaction(db)) return (await Promise.all(queries)) as AllResults<T>;
  const results: unknown[] = [];
  for (const query of queries) results.push(await query);
  return results as AllResults<T>;
}

type AllResults<T extends readonly unknown[]> = { -readonly [K in keyof T]: Awaited<T[K]> };

const cache = new WeakMap<object, Map<string, unknown>>();

/**
 * A query built once per database handle and run as a named prepared statement: neither the query builder
 * nor PostgreSQL's planner redo their work on each request. `build` receives the handle and must use
 * `sql.placeholder(...)` for every value; the same name must always build the same query. On a PostgreSQL
 * server it runs on the planned pool's connections, which keep its generic plan from the first call
 * (decision 0083): its plan must not depend on the values — one that matches a pattern (`LIKE`) stays on
 * the first pool, planned for each call's pattern.
 */
/** The statements built for a database handle (by name, or by key for the unnamed ones). */
function statementsOf(db: Db): Map<string, unknown> {
  let statements = cache.get(db);
  if (!statements) {
    statements = new Map();
    cache.set(db, statements);
  }
  return statements;
}

export function preparedOnce<P>(
  db: Db,
  name: string,
  build: (db: Db) => { prepare(name: string): P },
  { planFitsAnyPattern = false }: { planFitsAnyPattern?: boolean } = {},
): P {
  const statements = statementsOf(db);
  let statement = statements.get(name) as P | undefined;
  if (!statement) {
    const planned = plannedHandle(db);
    let builder = build(planned);
    // Built again on the first pool only when it matches a pattern (or shows no text to tell), unless its
    // text fixes the path whatever the pattern (see executeNamedOnce).
    if (planned !== db && !planFitsAnyPattern) {
      const text = (builder as { toSQL?: () => { sql: string } }).toSQL?.().sql;
      if (text === undefined || matchesPattern(text)) builder = build(db);
    }
    statement = builder.prepare(name);
    compileRowMapper(statement as unknown as PreparedInternals);
    statements.set(name, statement);
  }
  return statement;
}

/**
 * A query built once per database handle and run unnamed: the query builder's work is done once (a fifth of
 * the filtered log's Node time when built on every call, docs/benchmarks.md finding 36), while PostgreSQL
 * still plans every call for its values — for a statement whose best plan depends on them (the system log
 * filtered by a user, an order or a small client, finding 29). `build` follows `preparedOnce`'s rules; `key`
 * names the query as `preparedOnce`'s name would, but no statement is kept on the server.
 */
export function builtOnce<P>(db: Db, key: string, build: (db: Db) => { prepare(name: string): P }): P {
  const statements = statementsOf(db);
  const slot = `unnamed:${key}`;
  let statement = statements.get(slot) as P | undefined;
  if (!statement) {
    // No name: the driver sends the text with every call (PostgreSQL's unnamed statement, planned each time).
    statement = build(db).prepare('');
    compileRowMapper(statement as unknown as PreparedInternals);
    statements.set(slot, statement);
  }
  return statement;
}

/**
 * A statement matching a search term (`foldedLike`): with a term of three letters or digits in a row it is
 * kept on one generic plan, the trigram indexes' plan being the same for any such term (`hasTrigram`,
 * decision 0083; planning it on every call was most of its cost, docs/benchmarks.md findings 61 and 66);
 * a shorter term gives the indexes nothing to narrow and is planned for its pattern (`builtOnce`). `name`
 * names both: `portal_<name>_qt` kept, `<name>_q` planned.
 */
export function searchStatement<P>(
  db: Db,
  name: string,
  term: string,
  build: (db: Db) => { prepare(name: string): P },
): P {
  return hasTrigram(term)
    ? preparedOnce(db, `portal_${name}_qt`, build, { planFitsAnyPattern: true })
    : builtOnce(db, `${name}_q`, build);
}

/**
 * A statement that matches a pattern (`LIKE`) is planned for each call's pattern, on the first pool: how many
 * rows a pattern matches decides the plan (the administrator's search by a buyer's name read the newest
 * orders backwards on a generic plan, 37 ms a call; docs/benchmarks.md, finding 34).
 */
const matchesPattern = (text: string) => /\bi?like\b/i.test(text);

/** One selected field of a Drizzle statement, as its builder ordered them. */
interface SelectedField {
  path: string[];
  field: unknown;
}

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** The decoder Drizzle's row mapper would look up for a field (a column, an SQL chunk, an alias...). */
function decoderOf(field: unknown): Decoder {
  // An SQL chunk's decoder is internal to Drizzle's types (`.mapWith()` sets it).
  const of = (chunk: SQL) => (chunk as unknown as { decoder: Decoder }).decoder;
  if (is(field, Column)) return field;
  if (is(field, SQL)) return of(field);
  if (is(field, Subquery)) return of((field as unknown as { _: { sql: SQL } })._.sql);
  return of((field as SQL.Aliased).sql);
}

/**
 * The rows of a prepared statement are mapped by a function made once for it, with each field's decoder
 * looked up once: Drizzle's own mapper looks each one up again on every row through `is()` checks, a tenth
 * of a list's Node time (docs/benchmarks.md, finding 33). The result is the same: null stays null, any other
 * value goes through its decoder, and a nested field (`{ user: users, cliente: { id, nombre } }`) builds the
 * same nested object. Drizzle's mapper stays for a statement with a left (or right, or full) join, where it
 * turns a joined table's missing row into null: `joinsNotNullableMap` marks each joined table.
 */
function compileRowMapper(statement: PreparedInternals): void {
  const fields = statement.fields as SelectedField[] | undefined;
  const joins = statement.joinsNotNullableMap as Record<string, boolean> | undefined;
  if (!fields || statement.customResultMapper) return;
  const nested = fields.some((f) => f.path.length !== 1);
  if (nested && joins && Object.values(joins).some((notNull) => !notNull)) return;
  const paths = fields.map((f) => f.path);
  const decoders = fields.map((f) => decoderOf(f.field));
  statement.customResultMapper = (rows: unknown[][]) =>
    rows.map((row) => {
      const result: Record<string, unknown> = {};
      for (let i = 0; i < paths.length; i++) {
        const raw = row[i];
        const value = raw === null ? null : decoders[i]!.mapFromDriverValue(raw);
        const path = paths[i]!;
        let node = result;
        for (let p = 0; p < path.length - 1; p++) {
          node[path[p]!] ??= {};
          node = node[path[p]!] as Record<string, unknown>;
        }
        node[path[path.length - 1]!] = value;
      }
      return result;
    });
}

/**
 * A page's window for a statement prepared once per shape: the LIMIT written into the statement's text and,
 * on the first page, no OFFSET at all; deeper pages take their OFFSET as the `offset` parameter. Drizzle
 * sends a number LIMIT as a parameter, and with a LIMIT or an OFFSET it cannot see PostgreSQL's generic plan
 * assumes a tenth of the rows are read: it then costs more than the first page's custom plan, and the
 * statement was planned again on every call (docs/benchmarks.md, finding 28). Name the statement with
 * `shape` ('p1' or 'pn'); run it with `offset` among its values.
 */
export interface PageWindow {
  shape: 'p1' | 'pn';
  limit: number;
  offset: Placeholder | 0;
  values: { offset: number };
}

export function pageWindow(page: number, perPage: number): PageWindow {
  const first = page <= 1;
  return {
    shape: first ? 'p1' : 'pn',
    // An SQL chunk where drizzle takes a number: it writes it into the text (`typeof limit === 'object'`).
    limit: sql.raw(String(Math.trunc(perPage))) as unknown as number,
    // Drizzle writes no OFFSET clause for 0.
    offset: first ? 0 : sql.placeholder('offset'),
    values: { offset: first ? 0 : offsetOf(page, perPage) },
  };
}

/** A value, or the placeholder a prepared statement fills with it. */
export type Val<T> = T | Placeholder;

/**
 * For a statement prepared once per combination of optional filters: `shape` names which of the values
 * are given (a digit each, in order), and `args` holds each given value's placeholder (undefined for the
 * others), so one builder serves both the prepared statement and a plain query of the values themselves.
 */
export function shapeOf<T extends object>(
  values: T,
): { shape: string; args: { [K in keyof T]: Placeholder | (undefined extends T[K] ? undefined : never) } } {
  const args: Record<string, Placeholder | undefined> = {};
  let shape = '';
  for (const [key, value] of Object.entries(values)) {
    shape += value === undefined ? '0' : '1';
    args[key] = value === undefined ? undefined : sql.placeholder(key);
  }
  return {
    shape,
    args: args as { [K in keyof T]: Placeholder | (undefined extends T[K] ? undefined : never) },
  };
}

/**
 * Inside a transaction (decision 0073): a query builder's statement run as a named prepared statement on the
 * transaction's connection. PostgreSQL keeps prepared statements per connection and the pool reuses its
 * connections, so after its first run on a connection the statement is not parsed again (pg skips the
 * parse of a name the connection already holds) and its plan can be cached. The builder is the one the
 * pool's `preparedOnce` uses, with the same placeholders, so one name always carries one text.
 */
export function preparedIn<P>(tx: Tx, name: string, build: (db: Tx) => { prepare(name: string): P }): P {
  const first = builtIn.get(name);
  if (first) {
    // The text, parameters and result mapping of the name's first build, on this transaction's connection:
    // the query builder does not run again (finding 31: building was a tenth of a purchase's Node time).
    const statement = tx._.session.prepareQuery(
      first.getQuery(),
      first.fields as never,
      name,
      first._isResponseInArrayMode,
      first.customResultMapper as never,
      first.queryMetadata as never,
    ) as unknown as PreparedInternals;
    statement.joinsNotNullableMap = first.joinsNotNullableMap;
    return statement as unknown as P;
  }
  const statement = build(tx).prepare(name);
  compileRowMapper(statement as unknown as PreparedInternals);
  builtIn.set(name, statement as unknown as PreparedInternals);
  return statement;
}

/**
 * A column that switches the rest of its transaction to generic plans (`set_config(…, true)` ends with the
 * transaction): for a transaction made only of named statements whose plans do not depend on the values,
 * selected by its first statement (decision 0083).
 */
export const genericPlansForTheTransaction = sql<string>`set_config('plan_cache_mode', 'force_generic_plan', true)`;

/** What Drizzle's prepared query keeps of its build (node-postgres and PGlite alike). */
interface PreparedInternals {
  getQuery(): { sql: string; params: unknown[] };
  fields: unknown;
  _isResponseInArrayMode: boolean;
  customResultMapper: unknown;
  queryMetadata: unknown;
  joinsNotNullableMap: unknown;
}

/** A name's first statement inside a transaction (the same name always builds the same statement). */
const builtIn = new Map<string, PreparedInternals>();

/** `preparedOnce` on the pool, `preparedIn` inside a transaction: one builder for both. */
export function prepared<P>(
  db: Db | Tx,
  name: string,
  build: (db: Db | Tx) => { prepare(name: string): P },
): P {
  return isTransaction(db) ? preparedIn(db, name, build) : preparedOnce(db, name, build);
}

const dialect = new PgDialect();

/** The first build of each name of `executeNamedOnce`. */
const builtRaw = new Map<string, { sql: string; params: unknown[] }>();

/**
 * `executeNamed` for a raw statement whose every value is a placeholder (`sql.placeholder(name)`): built once
 * per name, then run with `values` (building the purchase's statement on every call was a twentieth of its
 * Node time, docs/benchmarks.md finding 36). The same name must always build the same statement.
 */
export async function executeNamedOnce<T>(
  tx: Db | Tx,
  name: string,
  build: () => SQL,
  values: Record<string, unknown>,
  { planFitsAnyPattern = false }: { planFitsAnyPattern?: boolean } = {},
): Promise<T[]> {
  let built = builtRaw.get(name);
  if (!built) {
    built = dialect.sqlToQuery(build());
    builtRaw.set(name, built);
  }
  // Outside a transaction, on the planned pool (decision 0083), like `preparedOnce`; a statement that
  // matches a pattern too when its text fixes the access path whatever the pattern (`planFitsAnyPattern`:
  // the support search's trigram matches in a materialized CTE, docs/benchmarks.md finding 56).
  const generic = planFitsAnyPattern || !matchesPattern(built.sql);
  const on = !isTransaction(tx) && generic ? plannedHandle(tx) : tx;
  const result = await on._.session.prepareQuery(built, undefined, name, false).execute(values);
  return (result as unknown as { rows: T[] }).rows;
}
/** Statement text → its name: a name never carries two texts, whatever a caller builds. */
const namesOf = new Map<string, string>();

/**
 * A raw statement (data-modifying CTEs, upserts) run as a named prepared statement on the transaction's
 * connection, like `preparedIn`; every value must be a parameter, so its text is the same on every call.
 * Answers the rows.
 */
export async function executeNamed<T>(tx: Db | Tx, name: string, query: SQL): Promise<T[]> {
  const built = dialect.sqlToQuery(query);
  let named = namesOf.get(built.sql);
  // A caller that inlines values would make a new text each call: past a bound, statements go unnamed.
  if (!named && namesOf.size < 256) {
    named = `${name}_${namesOf.size}`;
    namesOf.set(built.sql, named);
  }
  // Outside a transaction, on the planned pool (decision 0083), like `preparedOnce`.
  const on = named && !isTransaction(tx) && !matchesPattern(built.sql) ? plannedHandle(tx) : tx;
  const result = await on._.session.prepareQuery(built, undefined, named, false).execute();
  return (result as unknown as { rows: T[] }).rows;
}
