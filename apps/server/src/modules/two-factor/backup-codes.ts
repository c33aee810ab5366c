import { createHash, randomInt } from 'node:crypto';

/**
 * Backup codes: 10 per account, `xxxx-xxxx` of lowercase letters and digits without the look-alikes
 * (0 o 1 l i), drawn with the system's cryptographic generator (about 39.6 bits each). Shown once; only
 * their SHA-256 is stored (enough for random codes of this size; no slow hash is needed), and each
 * works once.
 */
export const BACKUP_CODE_COUNT = 10;
export const BACKUP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const HALF = 4;

export const BACKUP_CODE_FORMAT = new RegExp(`^[${BACKUP_ALPHABET}]{${HALF}}-[${BACKUP_ALPHABET}]{${HALF}}$`);

function randomPart(): string {
  let out = '';
  for (let i = 0; i < HALF; i++) out += BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)];
  return out;
}

export function newBackupCodes(count = BACKUP_CODE_COUNT): string[] {
  const codes = new Set<string>();
  while (codes.size < count) codes.add(`${randomPart()}-${randomPart()}`);
  return [...codes];
}

/**
 * A typed backup code in its stored form: spaces ignored, upper case accepted, the dash optional; null
 * when it cannot be one.
 */
export function normalizeBackupCode(input: string): string | null {
  const compact = input.replace(/[\s-]/g, '').toLowerCase();
  if (compact.length !== HALF * 2) return null;
  const code = `${compact.slice(0, HALF)}-${compact.slice(HALF)}`;
  return BACKUP_CODE_FORMAT.test(code) ? code : null;
}

export function hashBackupCode(code: string): string {
  return createHash('sha256').update(`portal-de-compras/respaldo|${code}`).digest('hex');
}
