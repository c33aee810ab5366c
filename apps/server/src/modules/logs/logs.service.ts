import { businessDateRange } from '@portal/shared/domain/time';
import type { LogsQuery, LogsResponse } from '@portal/shared/schemas/admin-b';
import { and, asc, count, desc, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { systemLogs, users } from '../../db/schema/index.ts';

/** Spec §9: logs are shown 15 per page. */
export const LOGS_PER_PAGE = 15;

/** Above this many rows, the unfiltered total comes from the planner's statistics instead of a count. */
export const LOG_COUNT_ESTIMATE_FROM = 100_000;

/**
 * The total of the unfiltered log. Counting an append-only table that only grows reads all of it on every
 * page view (about 90 ms at 300,000 rows); past LOG_COUNT_ESTIMATE_FROM rows the statistics PostgreSQL
 * keeps (`reltuples`, refreshed by autovacuum) are close enough to draw the pager. Filtered lists stay exact.
 */
async function unfilteredTotal(app: FastifyInstance): Promise<{ n: number }[]> {
  const estimate = await app.db.execute(
    sql`select reltuples::bigint as n from pg_class where oid = 'system_logs'::regclass`,
  );
  const n = Number((estimate as unknown as { rows: { n: number }[] }).rows[0]?.n ?? -1);
  if (n >= LOG_COUNT_ESTIMATE_FROM) return [{ n }];
  return app.db.select({ n: count() }).from(systemLogs);
}

/** The system log, newest first, filtered by event type, user and business-date range (inclusive). */
export async function listLogs(app: FastifyInstance, query: LogsQuery): Promise<LogsResponse> {
  const tz = app.config.BUSINESS_TZ;
  const conditions: SQL[] = [];
  if (query.event_type) conditions.push(eq(systemLogs.eventType, query.event_type));
  if (query.user_id) conditions.push(eq(systemLogs.userId, query.user_id));
  if (query.desde)
    conditions.push(gte(systemLogs.createdAt, businessDateRange(query.desde, query.desde, tz).start));
  if (query.hasta)
    conditions.push(lt(systemLogs.createdAt, businessDateRange(query.hasta, query.hasta, tz).end));
  const where = conditions.length ? and(...conditions) : undefined;
  const [rows, totals] = await Promise.all([
    app.db
      .select({
        id: systemLogs.id,
        userId: systemLogs.userId,
        usuario: users.usuario,
        eventType: systemLogs.eventType,
        description: systemLogs.description,
        metadata: systemLogs.metadata,
        createdAt: systemLogs.createdAt,
      })
      .from(systemLogs)
      .leftJoin(users, eq(users.id, systemLogs.userId))
      .where(where)
      .orderBy(desc(systemLogs.id))
      .limit(LOGS_PER_PAGE)
      .offset((query.page - 1) * LOGS_PER_PAGE),
    where ? app.db.select({ n: count() }).from(systemLogs).where(where) : unfilteredTotal(app),
  ]);
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
    total: totals[0]?.n ?? 0,
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
