import { eq, type Placeholder, sql } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';
import { clients, users, weeks } from './schema/index.ts';

/** A user and a client as stored; the signed-in principal is read with these. */
export type UserRow = typeof users.$inferSelect;
export type ClientRow = typeof clients.$inferSelect;

/** The user and its client in one query. */
export async function findUserWithClient(db: Db | Tx, userId: number) {
  const [row] = await db
    .select({ user: users, client: clients })
    .from(users)
    .leftJoin(clients, eq(clients.id, users.idCliente))
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/**
 * The access-week state of a user's client as two columns of a query on `users` (see accessWeekState), so
 * the signed-in user, its client and this state come back in one round trip.
 */
export function weekStateColumns(today: string | Placeholder) {
  return {
    hasAny: sql<boolean>`exists (select 1 from ${weeks} where ${weeks.idCliente} = ${users.idCliente})`,
    inside: sql<boolean>`exists (select 1 from ${weeks} where ${weeks.idCliente} = ${users.idCliente} and ${weeks.activo} and ${weeks.inicio} <= ${today}::date and ${weeks.fin} >= ${today}::date)`,
    /**
     * The last business date through which `inside` keeps its value while no week changes (a change is
     * announced, decision 0071): inside, the latest end among the active weeks that hold `today`; outside,
     * the day before the next active week starts; null when no active week lies ahead (it holds for good).
     */
    through: sql<string | null>`case
      when exists (select 1 from ${weeks} where ${weeks.idCliente} = ${users.idCliente} and ${weeks.activo} and ${weeks.inicio} <= ${today}::date and ${weeks.fin} >= ${today}::date)
      then (select max(${weeks.fin})::text from ${weeks} where ${weeks.idCliente} = ${users.idCliente} and ${weeks.activo} and ${weeks.inicio} <= ${today}::date and ${weeks.fin} >= ${today}::date)
      else (select (min(${weeks.inicio}) - 1)::text from ${weeks} where ${weeks.idCliente} = ${users.idCliente} and ${weeks.activo} and ${weeks.inicio} > ${today}::date)
    end`,
  };
}

/** The first start of an active week of the client after `today`, or null when none lies ahead. */
export async function nextActiveWeekStart(db: Db, idCliente: number, today: string): Promise<string | null> {
  const [row] = await db
    .select({ inicio: sql<string | null>`min(${weeks.inicio})::text` })
    .from(weeks)
    .where(sql`${weeks.idCliente} = ${idCliente} and ${weeks.activo} and ${weeks.inicio} > ${today}::date`);
  return row?.inicio ?? null;
}

/** Whether the client restricts access by weeks, and whether the business date is inside an active one. */
export async function accessWeekState(db: Db, idCliente: number, today: string) {
  const [row] = await db
    .select({
      hasAny: sql<boolean>`exists (select 1 from ${weeks} where ${weeks.idCliente} = ${idCliente})`,
      inside: sql<boolean>`exists (select 1 from ${weeks} where ${weeks.idCliente} = ${idCliente} and ${weeks.activo} and ${weeks.inicio} <= ${today}::date and ${weeks.fin} >= ${today}::date)`,
    })
    .from(sql`(select 1) as one`);
  return { hasAny: Boolean(row?.hasAny), inside: Boolean(row?.inside) };
}
