import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { sessions, twoFactorBackupCodes, users } from '../../db/schema/index.ts';

/** The user's two-factor columns (encrypted secrets, last step). */
export async function twoFactorState(db: Db | Tx, userId: number) {
  const [row] = await db
    .select({
      totpSecret: users.totpSecret,
      totpPendingSecret: users.totpPendingSecret,
      totpLastStep: users.totpLastStep,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  return row;
}

/** Starts (or restarts) an enrolment: the new secret, sealed, waits for its first code. */
export async function setPendingSecret(db: Db, userId: number, sealed: string) {
  const [row] = await db
    .update(users)
    .set({ totpPendingSecret: sealed })
    .where(and(eq(users.id, userId), isNull(users.totpSecret)))
    .returning({ id: users.id });
  return Boolean(row);
}

/**
 * Turns the pending secret into the active one, with the step of the code that confirmed it as the last
 * step used. Conditional: only while that same pending secret is there and no secret is active.
 */
export async function activatePending(tx: Tx, userId: number, sealedPending: string, step: number, at: Date) {
  const [row] = await tx
    .update(users)
    .set({
      totpSecret: sealedPending,
      totpPendingSecret: null,
      totpEnabledAt: at,
      totpLastStep: step,
    })
    .where(and(eq(users.id, userId), eq(users.totpPendingSecret, sealedPending), isNull(users.totpSecret)))
    .returning({ id: users.id });
  return Boolean(row);
}

/**
 * Records a code's step as used, only when it is later than the last one (a conditional update, so two
 * requests with the same code cannot both pass).
 */
export async function useStep(db: Db | Tx, userId: number, step: number) {
  const [row] = await db
    .update(users)
    .set({ totpLastStep: step })
    .where(
      and(
        eq(users.id, userId),
        isNotNull(users.totpSecret),
        or(isNull(users.totpLastStep), lt(users.totpLastStep, step)),
      ),
    )
    .returning({ id: users.id });
  return Boolean(row);
}

/** Uses a backup code: only one request can mark an unused code as used. */
export async function useBackupCode(db: Db | Tx, userId: number, codeHash: string, at: Date) {
  const rows = await db
    .update(twoFactorBackupCodes)
    .set({ usedAt: at })
    .where(
      and(
        eq(twoFactorBackupCodes.userId, userId),
        eq(twoFactorBackupCodes.codeHash, codeHash),
        isNull(twoFactorBackupCodes.usedAt),
      ),
    )
    .returning({ id: twoFactorBackupCodes.id });
  return rows.length > 0;
}

/** The user's backup codes become these (the old ones stop working). */
export async function replaceBackupCodes(tx: Tx, userId: number, hashes: string[]) {
  await tx.delete(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.userId, userId));
  await tx.insert(twoFactorBackupCodes).values(hashes.map((codeHash) => ({ userId, codeHash })));
}

export async function unusedBackupCodes(db: Db | Tx, userId: number) {
  const [row] = await db
    .select({ n: count() })
    .from(twoFactorBackupCodes)
    .where(and(eq(twoFactorBackupCodes.userId, userId), isNull(twoFactorBackupCodes.usedAt)));
  return row?.n ?? 0;
}

/** Turns two-factor sign-in off: secrets, last step and backup codes go. Answers whether it was active. */
export async function disableTwoFactor(tx: Tx, userId: number) {
  const [row] = await tx
    .update(users)
    .set({ totpSecret: null, totpPendingSecret: null, totpEnabledAt: null, totpLastStep: null })
    .where(and(eq(users.id, userId), isNotNull(users.totpSecret)))
    .returning({ id: users.id });
  await tx.delete(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.userId, userId));
  return Boolean(row);
}

/** Counts a wrong code against a sign-in waiting for its second factor; answers the new count. */
export async function countWrongCode(db: Db, sessionId: string) {
  const [row] = await db
    .update(sessions)
    .set({ failedCodes: sql`${sessions.failedCodes} + 1` })
    .where(eq(sessions.id, sessionId))
    .returning({ failedCodes: sessions.failedCodes });
  return row?.failedCodes ?? Number.POSITIVE_INFINITY;
}
