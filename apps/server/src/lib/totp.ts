import { timingSafeEqual } from 'node:crypto';
import { HOTP, Secret, TOTP } from 'otpauth';
import { openWithRing, sealSecret } from './secret-box.ts';

/**
 * Time-based one-time codes (RFC 6238) as authenticator apps make them: SHA-1, 6 digits, 30-second
 * steps; a code of the step before or after the current one is accepted too (clock drift), and only a
 * step later than the last one accepted for the account (a code never works twice).
 */
export const TOTP_ISSUER = 'Portal de Compras';
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
export const TOTP_ALGORITHM = 'SHA1';
/** Steps accepted on each side of the current one. */
export const TOTP_WINDOW = 1;
/** 160 bits, the size RFC 4226 recommends and authenticator apps expect. */
const SECRET_BYTES = 20;

/** A user's secret as stored: encrypted and bound to the user (a copy in another row does not open). */
export function sealTotpSecret(key: Buffer, userId: number, secretBase32: string): string {
  return sealSecret(key, secretBase32, totpContext(userId));
}

/** Opens a user's secret with the current key or a previous one (lib/keys.ts: encryptionRing). */
export function openTotpSecret(ring: readonly Buffer[], userId: number, sealed: string): string {
  return openWithRing(ring, sealed, totpContext(userId)).plaintext;
}

/** What a user's secret is sealed with, besides the key: whose it is. */
export function totpContext(userId: number): string {
  return `totp:${userId}`;
}

export const CODE_FORMAT = /^\d{6}$/;

/** A new random secret, in base32 (what the authenticator app is given). */
export function newTotpSecret(): string {
  return new Secret({ size: SECRET_BYTES }).base32;
}

/** The otpauth:// URL an authenticator app reads (from a QR code): issuer "Portal de Compras", label = usuario. */
export function otpauthUrl(secretBase32: string, usuario: string): string {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: usuario,
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  }).toString();
}

/** The time step of an instant. */
export function stepAt(ms: number): number {
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: ms });
}

/** The code of a time step. */
export function codeAt(secretBase32: string, step: number): string {
  return HOTP.generate({
    secret: Secret.fromBase32(secretBase32),
    algorithm: TOTP_ALGORITHM,
    digits: TOTP_DIGITS,
    counter: step,
  });
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/**
 * The step a code belongs to, when it is the code of the current step or of one next to it and that step
 * is later than `lastStep`; otherwise null. Every step of the window is computed and compared, whatever
 * the code, so the time taken does not depend on which (if any) matched.
 */
export function matchingStep(
  secretBase32: string,
  code: string,
  now: number,
  lastStep: number | null,
): number | null {
  const current = stepAt(now);
  const given = CODE_FORMAT.test(code) ? code : '-'.repeat(TOTP_DIGITS);
  let found: number | null = null;
  for (let step = current - TOTP_WINDOW; step <= current + TOTP_WINDOW; step++) {
    const matches = same(codeAt(secretBase32, step), given);
    if (matches && found === null && (lastStep === null || step > lastStep)) found = step;
  }
  return found;
}

/** A fixed secret no account has: the same work is done when there is no account to check against. */
const DUMMY_SECRET = newTotpSecret();

/** Spends the time of a real check (matchingStep) and answers no. */
export function checkAgainstDummy(code: string, now: number): null {
  matchingStep(DUMMY_SECRET, code, now, null);
  return null;
}
