import { Readable } from 'node:stream';
import { logEventLabel } from '@portal/shared/domain/log-events';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { businessDateRange, formatDateTime } from '@portal/shared/domain/time';
import { LOGS_PER_PAGE } from '@portal/shared/limits';
import {
  LOG_EXPORT_HEADER,
  type LogFiltersQuery,
  type LogsQuery,
  type LogsResponse,
} from '@portal/shared/schemas/logs';
import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableName,
  gte,
  lt,
  type Placeholder,
  type SQL,
  sql,
} from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type Db, rowsOf } from '../../db/client.ts';
import {
  builtOnce,
  pageWindow,
  preparedOnce,
  searchStatement,
  shapeOf,
  type Val,
} from '../../db/prepared.ts';
import { clients, systemLogs, users } from '../../db/schema/index.ts';
import { foldedLike, foldedPattern } from '../../db/search.ts';
import { BOM, csvRow } from '../../lib/csv.ts';
import type { Deps } from '../../lib/deps.ts';
import { PagerTotals } from '../../lib/pager-totals.ts';

/** Logs are shown 15 per page. */

/** Above this many rows, the unfiltered total comes from the planner's statistics instead of a count. */
export const LOG_COUNT_ESTIMATE_FROM = 100_000;

/**
 * A filtered list counts at most this many entries: counting 85,000 matches of a large client took 30 ms
 * of PostgreSQL per page view, for a pager nobody walks to its end (the export has them all).
 */
export const LOG_COUNT_CAP = 10_000;

/**
 * Filters whose count reached the cap, remembered per process (decision 0087). The log is append-only (no
 * statement deletes or changes an entry), so a filter once past the cap stays past it: its count, the
 * largest part of a page of a large client's event type (10,001 index entries, about 1.6 ms of
 * PostgreSQL), is skipped for a minute. A count under the cap is never reused, so a small filter's total
 * moves with every new entry.
 */
const overTheCap = new PagerTotals(LOG_COUNT_CAP + 1, 60_000);

/** The export reads the log this many entries at a time and hands the response pieces of about 32 KB. */
export const LOG_EXPORT_BATCH = 1_000;
const CHUNK_CHARS = 32_768;

/**
 * The planner's row count of the log. Counting an append-only table that only grows reads all of it on
 * every page view (about 90 ms at 300,000 rows); past LOG_COUNT_ESTIMATE_FROM rows the statistics
 * PostgreSQL keeps (`reltuples`, refreshed by autovacuum) are close enough to draw the pager. Filtered
 * lists stay exact.
 */
const ESTIMATE = sql<number>`(select reltuples::bigint from pg_class where oid = 'system_logs'::regclass)`;

interface LogFilter {
  eventType?: Val<string>;
  userId?: Val<number>;
  /** The users whose username or name matched the `usuario` search (resolved first, see userIdsLike). */
  userIds?: Val<number[]>;
  idCliente?: Val<number>;
  idPedido?: Val<number>;
  from?: Val<Date>;
  until?: Val<Date>;
}

/** The user columns the log's user filter searches (the users list's folding). */
const SEARCHED_USER = [users.usuario, users.nombre];

function logsWhere(f: LogFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (f.eventType !== undefined) conditions.push(eq(systemLogs.eventType, f.eventType));
  if (f.userId !== undefined) conditions.push(eq(systemLogs.userId, f.userId));
  // One array parameter (a plain array inside sql`` would be spread into a list of parameters).
  if (f.userIds !== undefined)
    conditions.push(
      sql`${systemLogs.userId} = any(${Array.isArray(f.userIds) ? sql.param(f.userIds) : f.userIds}::integer[])`,
    );
  if (f.idCliente !== undefined) conditions.push(eq(systemLogs.idCliente, f.idCliente));
  if (f.idPedido !== undefined) conditions.push(eq(systemLogs.idPedido, f.idPedido));
  if (f.from !== undefined) conditions.push(gte(systemLogs.createdAt, f.from));
  if (f.until !== undefined) conditions.push(lt(systemLogs.createdAt, f.until));
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * The ids of the users whose username or name contain the search (the users list's folding). Read once per
 * request, before the page and its count, which then go straight to `(user_id, id)`. A term with a trigram
 * is found through the trigram indexes on a plan kept for any such term (planning it on every call was
 * most of its cost, docs/benchmarks.md finding 61); a shorter one is planned for its pattern.
 */
async function userIdsLike(db: Db, usuario: string | undefined): Promise<number[] | undefined> {
  const like = foldedPattern(usuario);
  if (like === undefined) return undefined;
  const build = (d: Db) =>
    d
      .select({ id: users.id })
      .from(users)
      .where(foldedLike(SEARCHED_USER, sql.placeholder('like')));
  const rows = await searchStatement(db, 'logs_user_ids', usuario!, build).execute({ like });
  return rows.map((r) => r.id);
}

/**
 * A name search that found exactly one user, with no user id given, is that user's filter: the same entries,
 * and a statement whose plan is the same for any user (`listLogs`).
 */
function oneUser<F extends LogFilter & { userIds?: number[] }>(f: F): F {
  return f.userIds?.length === 1 && f.userId === undefined
    ? { ...f, userId: f.userIds[0], userIds: undefined }
    : f;
}

/** The query's filters as values (the business-date range in the business zone, inclusive). */
async function filterOf(
  db: Db,
  query: LogFiltersQuery,
  tz: string,
): Promise<LogFilter & { userIds?: number[] }> {
  return {
    eventType: query.event_type || undefined,
    userId: query.user_id || undefined,
    userIds: await userIdsLike(db, query.usuario),
    idCliente: query.id_cliente || undefined,
    idPedido: query.pedido || undefined,
    from: query.desde ? businessDateRange(query.desde, query.desde, tz).start : undefined,
    until: query.hasta ? businessDateRange(query.hasta, query.hasta, tz).end : undefined,
  };
}

/**
 * A column of the row of `table` whose id an entry's `key` holds, as a sub-select. Written with qualified
 * names: a one-table select of Drizzle writes its columns unqualified, which inside the sub-select would
 * name the sub-select's own table.
 */
function nameOf(table: typeof users | typeof clients, column: AnyPgColumn, key: AnyPgColumn) {
  const q = (name: string) => sql.identifier(name);
  return sql<string | null>`(select n.${q(column.name)} from ${table} n
    where n.${q(table.id.name)} = ${q(getTableName(systemLogs))}.${q(key.name)})`;
}

/**
 * An entry with its user's and client's names. The names are sub-selects by primary key rather than joins:
 * a filtered page is planned for each call's values (finding 29), and the two left joins were most of its
 * planning (0.24 against 0.09 ms, docs/benchmarks.md finding 37).
 */
const LOG_COLUMNS = {
  id: systemLogs.id,
  userId: systemLogs.userId,
  usuario: nameOf(users, users.usuario, systemLogs.userId),
  nombre: nameOf(users, users.nombre, systemLogs.userId),
  eventType: systemLogs.eventType,
  description: systemLogs.description,
  metadata: systemLogs.metadata,
  idCliente: systemLogs.idCliente,
  cliente: nameOf(clients, clients.nombre, systemLogs.idCliente),
  idPedido: systemLogs.idPedido,
  createdAt: systemLogs.createdAt,
};

/**
 * The system log, newest first, filtered by event type, user (id, or username/name text), client, order
 * and business-date range (inclusive). Each combination of filters is built once and runs as named
 * prepared statements; the unfiltered page carries the planner's row count, so it needs no second
 * statement.
 */
export async function listLogs(deps: Pick<Deps, 'config' | 'db'>, query: LogsQuery): Promise<LogsResponse> {
  const filter = oneUser(await filterOf(deps.db, query, deps.config.BUSINESS_TZ));
  if (filter.userIds?.length === 0)
    return { logs: [], total: 0, total_limitado: false, page: query.page, per_page: LOGS_PER_PAGE };
  const { shape, args } = shapeOf(filter);
  const filtered = shape.includes('1');
  // Counted up to LOG_COUNT_CAP + 1 entries: past the cap the pager says "más de 10,000" (decision 0062).
  const cappedOf = (d: Db, f: LogFilter) =>
    d
      .select({ one: sql`1`.as('one') })
      .from(systemLogs)
      .where(logsWhere(f))
      .limit(LOG_COUNT_CAP + 1);
  /**
   * The page, each row carrying the list's total when `total` says so: unfiltered the planner's estimate,
   * filtered the capped count (one statement for both, finding 36).
   */
  const pageOf = (
    d: Db,
    f: LogFilter,
    limit: number,
    offset: Placeholder | number,
    total: 'estimate' | 'count' | 'none',
  ) =>
    d
      .select({
        ...LOG_COLUMNS,
        listTotal:
          total === 'estimate'
            ? ESTIMATE.mapWith(Number)
            : total === 'count'
              ? sql<number>`(select count(*)::int from (${cappedOf(d, f)}) capped)`.mapWith(Number)
              : sql<null>`null`,
      })
      .from(systemLogs)
      .where(logsWhere(f))
      .orderBy(desc(systemLogs.id))
      .limit(limit)
      .offset(offset);
  const countOf = (d: Db, f: LogFilter) => d.select({ n: count() }).from(cappedOf(d, f).as('capped'));
  let rows: Awaited<ReturnType<typeof pageOf>>;
  let total: number;
  if (filtered) {
    // Filtered, the statements are planned for each call's values (unnamed): an order's or a small client's
    // entries are few among 300,000, and a plan PostgreSQL kept for a filter read the log backwards by id for
    // them, the whole table for a rare value (docs/benchmarks.md, findings 29 and 37). Built once per shape
    // all the same (`builtOnce`). One user's entries alone have the same best plan for any user (their
    // `(user_id, id)` index, read backwards): named statements, planned once (finding 37).
    const userOnly = Object.entries(filter).every(([k, v]) => (k === 'userId') === (v !== undefined));
    const statement = <P>(name: string, build: (d: Db) => { prepare(name: string): P }) =>
      userOnly ? preparedOnce(deps.db, `portal_${name}`, build) : builtOnce(deps.db, name, build);
    const window = pageWindow(query.page, LOGS_PER_PAGE);
    const values = { ...filter, ...window.values };
    // Keyed by the filter's values (a name search by the ids it found, which a new user can change).
    const key = JSON.stringify(filter);
    const known = overTheCap.known(key);
    // A count past the cap is remembered (decision 0087); any other is counted in the page's statement.
    const carried = known === undefined ? 'count' : 'none';
    rows = await statement(`logs_filtered_page_${carried}_${shape}_${window.shape}`, (d) =>
      pageOf(d, args, window.limit, window.offset, carried),
    ).execute(values);
    total =
      known ??
      rows[0]?.listTotal ??
      // An empty first page holds nothing; a page past the end carries no total: counted apart.
      (query.page > 1
        ? ((await statement(`logs_filtered_count_${shape}`, (d) => countOf(d, args)).execute(values))[0]?.n ??
          0)
        : 0);
    if (known === undefined) overTheCap.remember(key, total);
  } else {
    // Unfiltered, every call reads the newest entries the same way: one named statement, one kept plan.
    const window = pageWindow(query.page, LOGS_PER_PAGE);
    const values = { ...filter, ...window.values };
    rows = await preparedOnce(deps.db, `portal_logs_page_${shape}_${window.shape}`, (d) =>
      pageOf(d, args, window.limit, window.offset, 'estimate'),
    ).execute(values);
    const estimate =
      rows[0]?.listTotal ??
      Number((await rowsOf<{ n: number | string }>(deps.db, sql`select ${ESTIMATE} as n`))[0]?.n ?? -1);
    total =
      estimate >= LOG_COUNT_ESTIMATE_FROM
        ? estimate
        : ((
            await preparedOnce(deps.db, `portal_logs_count_${shape}`, (d) => countOf(d, args)).execute(values)
          )[0]?.n ?? 0);
  }
  const capped = filtered && total > LOG_COUNT_CAP;
  return {
    total_limitado: capped,
    logs: rows.map((r) => ({
      id: r.id,
      user_id: r.userId,
      usuario: r.usuario ?? null,
      nombre: r.nombre ?? null,
      event_type: r.eventType,
      description: r.description,
      metadata: r.metadata,
      id_cliente: r.idCliente,
      cliente: r.cliente ?? null,
      id_pedido: r.idPedido,
      created_at: r.createdAt.toISOString(),
    })),
    total: capped ? LOG_COUNT_CAP : total,
    page: query.page,
    per_page: LOGS_PER_PAGE,
  };
}

/** The filtered log, newest first, LOG_EXPORT_BATCH entries at a time (keyset on the id). */
async function* logBatches(db: Db, filter: LogFilter) {
  let before: number | undefined;
  for (;;) {
    const where = and(logsWhere(filter), before === undefined ? undefined : lt(systemLogs.id, before));
    const batch = await db
      .select(LOG_COLUMNS)
      .from(systemLogs)
      .where(where)
      .orderBy(desc(systemLogs.id))
      .limit(LOG_EXPORT_BATCH);
    if (batch.length === 0) return;
    yield batch;
    if (batch.length < LOG_EXPORT_BATCH) return;
    before = batch[batch.length - 1]!.id;
  }
}

/**
 * GET /api/logs/exportar: the filtered log as CSV (UTF-8 with BOM, the project's formula-safe writer),
 * streamed batch by batch: the whole log is never held in memory.
 */
export function exportLogs(deps: Pick<Deps, 'config' | 'reads'>, query: LogFiltersQuery): Readable {
  const tz = deps.config.BUSINESS_TZ;
  // Off the primary when a replica is configured (decision 0129).
  const db = deps.reads;
  async function* generate() {
    yield BOM + csvRow(LOG_EXPORT_HEADER);
    const filter = await filterOf(db, query, tz);
    if (filter.userIds?.length === 0) return;
    for await (const batch of logBatches(db, filter)) {
      let chunk = '';
      for (const r of batch) {
        const metadata = r.metadata && typeof r.metadata === 'object' ? JSON.stringify(r.metadata) : '';
        chunk += csvRow([
          r.id,
          formatDateTime(r.createdAt, tz),
          r.userId,
          r.usuario,
          r.nombre,
          r.cliente,
          r.idPedido === null ? null : `#${orderNumber(r.idPedido)}`,
          logEventLabel(r.eventType),
          r.eventType,
          r.description,
          metadata === '{}' ? '' : metadata,
        ]);
        if (chunk.length >= CHUNK_CHARS) {
          yield chunk;
          chunk = '';
        }
      }
      if (chunk) yield chunk;
    }
  }
  return Readable.from(generate(), { objectMode: false });
}

/** The event types present in the log (for the filter). */
export async function logTypes(deps: Pick<Deps, 'db'>): Promise<string[]> {
  const rows = await deps.db
    .selectDistinct({ eventType: systemLogs.eventType })
    .from(systemLogs)
    .orderBy(asc(systemLogs.eventType));
  return rows.map((r) => r.eventType);
}
