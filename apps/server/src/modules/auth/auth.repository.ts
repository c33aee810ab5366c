import { createHmac } from 'node:crypto';
import { and, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import type { UserRow } from '../../db/principal.ts';
import { authAttempts, clientSso, passwordTokens, users } from '../../db/schema/index.ts';
import { type AuditEntry, audit } from '../../lib/audit.ts';
import { throttleRefusalsTotal } from '../../lib/metrics.ts';

export {
  accessWeekState,
  type ClientRow,
  findUserWithClient,
  type UserRow,
  weekStateColumns,
} from '../../db/principal.ts';

export async function findUserByUsuario(db: Db, usuario: string): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.usuario}) = lower(${usuario.trim()})`)
    .limit(1);
  return row;
}

/**
 * The client signs in only through its own provider (an active single sign-on configuration with
 * `obligatorio`, decision 0120): password sign-in is refused for its roles 1–3.
 */
export async function ssoRequired(db: Db, idCliente: number): Promise<boolean> {
  const [row] = await db
    .select({ obligatorio: clientSso.obligatorio })
    .from(clientSso)
    .where(
      and(eq(clientSso.idCliente, idCliente), eq(clientSso.activo, true), eq(clientSso.obligatorio, true)),
    )
    .limit(1);
  return Boolean(row);
}

/**
 * What the throttle stores for a typed username, and the log's fingerprint of an unknown one: its HMAC
 * under a key derived from the server's secret (`AppKeys.typedNames`), never the text (a password typed in
 * the name field must not be kept) nor a plain hash anyone could look up (issue 38, finding 9). Case and
 * surrounding spaces do not make a new subject.
 */
export function attemptSubject(key: Buffer, usuario: string): string {
  return createHmac('sha256', key).update(usuario.trim().toLowerCase().slice(0, 200)).digest('hex');
}

/** Attempts of a kind from an address since a time; of one typed name (its `attemptSubject`) when given. */
export async function countAttempts(db: Db | Tx, kind: string, since: Date, ip: string, subject?: string) {
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

export interface ThrottleLimits {
  /** Now (the app's clock): the attempt is recorded at it. */
  now: Date;
  since: Date;
  perSubjectAndIp: number;
  perIp: number;
}

export type Reservation =
  | { ok: true; id: number }
  /** `firstRefusal`: no refusal of this subject was noted in the window yet (log it once). */
  | { ok: false; firstRefusal: boolean };

/**
 * Counts and records an attempt atomically: under transaction-scoped advisory locks on the subject and on
 * the address (always taken in that order), the attempts in the window are counted and, when under both
 * ceilings, this one is recorded before the caller checks anything. So a burst of concurrent attempts,
 * on any number of instances, gets exactly the allowed number of checks. The caller removes the
 * reservation when the attempt succeeds (`releaseAttempt`). A refusal is noted once per window: per
 * address once the address is over its ceiling (kind `<kind>:bloqueo-ip`), else per subject and address
 * (kind `<kind>:bloqueo`); only a first refusal is logged by the caller.
 */
export async function reserveAttempt(
  db: Db,
  kind: string,
  subject: string,
  ip: string,
  limits: ThrottleLimits,
): Promise<Reservation> {
  let scope: 'usuario' | 'direccion' = 'usuario';
  const reservation: Reservation = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${kind}|s|${subject}`}, 0))`);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`${kind}|a|${ip}`}, 0))`);
    const [perSubject, perIp] = await Promise.all([
      countAttempts(tx, kind, limits.since, ip, subject),
      countAttempts(tx, kind, limits.since, ip),
    ]);
    if (perSubject >= limits.perSubjectAndIp || perIp >= limits.perIp) {
      // Noted once per window: per address once the address is over its ceiling (whatever name it types
      // next: issue 38, finding 3), else per name and address.
      const byAddress = perIp >= limits.perIp;
      const refusalKind = byAddress ? `${kind}:bloqueo-ip` : `${kind}:bloqueo`;
      const [noted] = await tx
        .select({ n: count() })
        .from(authAttempts)
        .where(
          and(
            eq(authAttempts.kind, refusalKind),
            byAddress ? eq(authAttempts.ip, ip) : eq(authAttempts.subject, subject),
            gt(authAttempts.createdAt, limits.since),
          ),
        );
      const firstRefusal = (noted?.n ?? 0) === 0;
      scope = byAddress ? 'direccion' : 'usuario';
      if (firstRefusal)
        await tx
          .insert(authAttempts)
          .values({ kind: refusalKind, subject: byAddress ? '' : subject, ip, createdAt: limits.now });
      return { ok: false as const, firstRefusal };
    }
    const [row] = await tx
      .insert(authAttempts)
      .values({ kind, subject, ip, createdAt: limits.now })
      .returning({ id: authAttempts.id });
    return { ok: true as const, id: row!.id };
  });
  // Every throttle's refusal passes here: counted once it is committed (decision 0104).
  if (!reservation.ok) throttleRefusalsTotal.inc({ kind, scope });
  return reservation;
}

/** Removes a reservation whose attempt succeeded (it was not a failure). */
export async function releaseAttempt(db: Db, id: number) {
  await db.delete(authAttempts).where(eq(authAttempts.id, id));
}

export async function clearAttempts(db: Db | Tx, kind: string, subject: string, ip: string) {
  await db
    .delete(authAttempts)
    .where(and(eq(authAttempts.kind, kind), eq(authAttempts.subject, subject), eq(authAttempts.ip, ip)));
}

/**
 * A successful sign-in's bookkeeping, in one transaction: the throttle's attempts of this username and
 * address are cleared, the user's `ultimo_acceso` is now (the users list's "Último acceso"), and the
 * 'login' entry is written. With two-factor sign-in it runs after the second step, never after the password.
 */
export async function recordSignIn(
  db: Db,
  signIn: { userId: number; subject: string; ip: string; entry: AuditEntry },
) {
  await db.transaction(async (tx) => {
    await clearAttempts(tx, 'login', signIn.subject, signIn.ip);
    // The time of the record, like the log entry's: the database's (not a decision, decision 0093).
    await tx.update(users).set({ ultimoAcceso: sql`now()` }).where(eq(users.id, signIn.userId));
    await audit(tx, signIn.entry);
  });
}

export async function setPassword(
  db: Db | Tx,
  userId: number,
  hash: string,
  temporary: boolean,
  /** When it is set (the app's clock): its six months and a temporary one's 72 hours count from it. */
  at: Date,
) {
  await db
    .update(users)
    .set({
      passwordHash: hash,
      passwordChangedAt: at,
      passwordTemporary: temporary,
      updatedAt: at,
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
export async function retireTokens(db: Db | Tx, userId: number, purpose: string, at: Date) {
  await db
    .update(passwordTokens)
    .set({ usedAt: at })
    .where(
      and(
        eq(passwordTokens.userId, userId),
        eq(passwordTokens.purpose, purpose),
        isNull(passwordTokens.usedAt),
      ),
    );
}

/**
 * Marks every unused link of the user, or users, (welcome and recovery) as used. Called in the same transaction as
 * any change of the e-mail, the username or the active flag, and as any password set: a link sent for
 * the account as it was must not open the account as it is.
 */
export async function retireAllLinks(tx: Tx, userId: number | number[], at: Date) {
  const ids = Array.isArray(userId) ? userId : [userId];
  if (ids.length === 0) return;
  await tx
    .update(passwordTokens)
    .set({ usedAt: at })
    .where(and(inArray(passwordTokens.userId, ids), isNull(passwordTokens.usedAt)));
}

/**
 * Replaces a stored hash by a stronger one of the same password: only while the stored one is still
 * `before` (a password changed meanwhile is kept), and without touching when the password was set.
 */
export async function replacePasswordHash(db: Db, userId: number, before: string, hash: string) {
  await db
    .update(users)
    .set({ passwordHash: hash })
    .where(and(eq(users.id, userId), eq(users.passwordHash, before)));
}

export async function findLiveToken(db: Db, tokenHash: string, now: Date) {
  const [row] = await db
    .select({ userId: passwordTokens.userId, purpose: passwordTokens.purpose, usuario: users.usuario })
    .from(passwordTokens)
    .innerJoin(users, eq(users.id, passwordTokens.userId))
    .where(
      and(
        eq(passwordTokens.tokenHash, tokenHash),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, now),
      ),
    )
    .limit(1);
  return row;
}

/** Uses a link atomically: only one request can consume it. */
export async function consumeToken(tx: Tx, tokenHash: string, now: Date) {
  const [row] = await tx
    .update(passwordTokens)
    .set({ usedAt: now })
    .where(
      and(
        eq(passwordTokens.tokenHash, tokenHash),
        isNull(passwordTokens.usedAt),
        gt(passwordTokens.expiresAt, now),
      ),
    )
    .returning({ userId: passwordTokens.userId, purpose: passwordTokens.purpose });
  return row;
}
