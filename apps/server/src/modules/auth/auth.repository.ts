import { and, count, eq, gt, isNull, type Placeholder, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { authAttempts, clients, passwordTokens, users, weeks } from '../../db/schema/index.ts';

export type UserRow = typeof users.$inferSelect;
export type ClientRow = typeof clients.$inferSelect;

export async function findUserByUsuario(db: Db, usuario: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.usuario}) = lower(${usuario.trim()})`)
    .limit(1);
  return row;
}

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
  };
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

export async function countAttempts(db: Db, kind: string, since: Date, ip: string, subject?: string) {
  const conditions = [
    eq(authAttempts.kind, kind),
    eq(authAttempts.ip, ip),
    gt(authAttempts.createdAt, since),
  ];
  if (subject !== undefined) conditions.push(eq(authAttempts.subject, subject));
  const [row] = await db
    .select({ n: count() })
    .from(authAttempts)
    .where(and(...conditions));
  return row?.n ?? 0;
}

export async function recordAttempt(db: Db, kind: string, subject: string, ip: string) {
  await db.insert(authAttempts).values({ kind, subject, ip });
}

export async function clearAttempts(db: Db, kind: string, subject: string, ip: string) {
  await db
    .delete(authAttempts)
    .where(and(eq(authAttempts.kind, kind), eq(authAttempts.subject, subject), eq(authAttempts.ip, ip)));
}

export async function purgeOldAttempts(db: Db, before: Date) {
  await db.delete(authAttempts).where(sql`${authAttempts.createdAt} < ${before}`);
}

export async function setPassword(db: Db | Tx, userId: number, hash: string, temporary: boolean) {
  await db
    .update(users)
    .set({
      passwordHash: hash,
      passwordChangedAt: new Date(),
      passwordTemporary: temporary,
      updatedAt: new Date(),
    })
    .where(eq(users.id, userId));
}

export async function insertPasswordToken(
  db: Db | Tx,
  values: { userId: number; tokenHash: string; purpose: string; expiresAt: Date },
) {
  await db.insert(passwordTokens).values(values);
}

/** Marks the user's unused links of a purpose as used (only the newest link works). */
export async function retireTokens(db: Db | Tx, userId: number, purpose: string) {
  await db
    .update(passwordTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordTokens.userId, userId),
        eq(passwordTokens.purpose, purpose),
        isNull(passwordTokens.usedAt),
      ),
    );
}

export async function findLiveToken(db: Db, tokenHash: string) {
  const [row] = await db
    .select({ userId: passwordTokens.userId, purpose: passwordTokens.purpose, usuario: users.usuario })
    .from(passwordTokens)
    .innerJoin(users, eq(users.id, passwordTokens.userId))
    .where(
      and(
        eq(passwordTokens.tokenHash, tokenHash),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, new Date()),
      ),
    )
    .limit(1);
  return row;
}

/** Uses a link atomically: only one request can consume it. */
export async function consumeToken(tx: Tx, tokenHash: string) {
  const [row] = await tx
    .update(passwordTokens)
    .set({ usedAt: new Date() })
    .where(
      and(
        eq(passwordTokens.tokenHash, tokenHash),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, new Date()),
      ),
    )
    .returning({ userId: passwordTokens.userId, purpose: passwordTokens.purpose });
  return row;
}
