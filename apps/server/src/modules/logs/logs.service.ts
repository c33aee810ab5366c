import { businessDateRange } from '@portal/shared/domain/time';
import { LOGS_PER_PAGE } from '@portal/shared/limits';
import type { LogsQuery, LogsResponse } from '@portal/shared/schemas/logs';
import { and, asc, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { rowsOf } from '../../db/client.ts';
import { preparedOnce, shapeOf, type Val } from '../../db/prepared.ts';
import { systemLogs, users } from '../../db/schema/index.ts';

/** Logs are shown 15 per page. */

/** Above this many rows, the unfiltered total comes from the planner's statistics instead of a count. */
export const LOG_COUNT_ESTIMATE_FROM = 100_000;

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
  from?: Val<Date>;
  until?: Val<Date>;
}

function logsWhere(f: LogFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (f.eventType !== undefined) conditions.push(eq(systemLogs.eventType, f.eventType));
  if (f.userId !== undefined) conditions.push(eq(systemLogs.userId, f.userId));
  if (f.from !== undefined) conditions.push(gte(systemLogs.createdAt, f.from));
  if (f.until !== undefined) conditions.push(lt(systemLogs.createdAt, f.until));
  return conditions.length ? and(...conditions) : undefined;
}

/**
 * The system log, newest first, filtered by event type, user and business-date range (inclusive). Each
 * combination of filters is built once and runs as named prepared statements; the unfiltered page carries
 * the planner's row count, so it needs no second statement.
 */
export async function listLogs(app: FastifyInstance, query: LogsQuery): Promise<LogsResponse> {
  const tz = app.config.BUSINESS_TZ;
  const filter: LogFilter = {
    eventType: query.event_type || undefined,
    userId: query.user_id || undefined,
    from: query.desde ? businessDateRange(query.desde, query.desde, tz).start : undefined,
    until: query.hasta ? businessDateRange(query.hasta, query.hasta, tz).end : undefined,
  };
  const { shape, args } = shapeOf(filter);
  const filtered = shape.includes('1');
  const values = { ...filter, offset: (query.page - 1) * LOGS_PER_PAGE };
  const page = preparedOnce(app.db, `portal_logs_page_${shape}`, (d) =>
    d
      .select({
        id: systemLogs.id,
        userId: systemLogs.userId,
        usuario: users.usuario,
        eventType: systemLogs.eventType,
        description: systemLogs.description,
        metadata: systemLogs.metadata,
        createdAt: systemLogs.createdAt,
        estimate: filtered ? sql<null>`null` : ESTIMATE.mapWith(Number),
      })
      .from(systemLogs)
      .leftJoin(users, eq(users.id, systemLogs.userId))
      .where(logsWhere(args))
      .orderBy(desc(systemLogs.id))
      .limit(LOGS_PER_PAGE)
      .offset(sql.placeholder('offset')),
  );
  const exactCount = () =>
    preparedOnce(app.db, `portal_logs_count_${shape}`, (d) =>
      d.select({ n: count() }).from(systemLogs).where(logsWhere(args)),
    )
      .execute(values)
      .then((r) => r[0]?.n ?? 0);
  let rows: Awaited<ReturnType<typeof page.execute>>;
  let total: number;
  if (filtered) {
    [rows, total] = await Promise.all([page.execute(values), exactCount()]);
  } else {
    rows = await page.execute(values);
    const estimate =
      rows[0]?.estimate ??
      Number((await rowsOf<{ n: number | string }>(app.db, sql`select ${ESTIMATE} as n`))[0]?.n ?? -1);
    total = estimate >= LOG_COUNT_ESTIMATE_FROM ? estimate : await exactCount();
  }
  return {
    logs: rows.map((r) => ({
      id: r.id,
      user_id: r.userId,
      usuario: r.usuario ?? null,
      event_type: r.eventType,
      description: r.description,
      metadata: r.metadata,
      created_at: r.createdAt.toISOString(),
    })),
    total,
    page: query.page,
    per_page: LOGS_PER_PAGE,
  };
}

/** The event types present in the log (for the filter). */
export async function logTypes(app: FastifyInstance): Promise<string[]> {
  const rows = await app.db
    .selectDistinct({ eventType: systemLogs.eventType })
    .from(systemLogs)
    .orderBy(asc(systemLogs.eventType));
  return rows.map((r) => r.eventType);
}
