import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/** Keys derived from the one configured secret, one per purpose (HKDF), so no key serves two uses. */
export interface AppKeys {
  /** Signs the sign-in form's anonymous session cookie (nothing is stored for it). */
  anonymousSession: Buffer;
  /**
   * The same key of each SECRET_KEY_PREVIOUS, newest first: a sign-in form opened before a key rotation
   * still signs in after it (decision 0102). New cookies are signed with the current key only.
   */
  anonymousSessionPrevious: Buffer[];
  /** Encrypts secrets at rest (two-factor secrets, webhook signing secrets). */
  encryption: Buffer;
  /** The encryption key of each SECRET_KEY_PREVIOUS, newest first: what they sealed still opens. */
  encryptionPrevious: Buffer[];
  /**
   * Keys the fingerprints of typed usernames (the sign-in throttle and the log: issue 38, finding 9). No
   * previous keys (decision 0102): after a rotation the per-name counters of the current 15 minutes start
   * again once, while the per-address ceiling, which does not look at the name, holds.
   */
  typedNames: Buffer;
  /** Whether the key came from SECRET_KEY or a key file, rather than the development fallback. */
  source: 'config' | 'file' | 'development';
}

const DEVELOPMENT_SECRET = 'portal-de-compras: clave de desarrollo, nunca en producción';
const KEY_FILE = 'secret.key';

function derive(master: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), `portal-de-compras/${purpose}`, 32));
}

/**
 * The master secret: SECRET_KEY (required in production, see config.ts); otherwise, for the embedded
 * database on disk, a random key kept beside it in DATA_DIR (created once, readable by the owner only), so
 * a laptop's encrypted secrets survive restarts; otherwise (tests, PostgreSQL in development) a fixed
 * development key.
 */
type KeyConfig = Pick<Config, 'SECRET_KEY' | 'dataDir' | 'DATABASE_URL'> &
  Partial<Pick<Config, 'SECRET_KEY_PREVIOUS'>>;

function masterSecret(config: KeyConfig) {
  if (config.SECRET_KEY) return { master: Buffer.from(config.SECRET_KEY, 'utf8'), source: 'config' as const };
  if (!config.DATABASE_URL && !config.dataDir.startsWith('memory://')) {
    const file = path.join(config.dataDir, KEY_FILE);
    if (!existsSync(file)) {
      mkdirSync(config.dataDir, { recursive: true });
      try {
        writeFileSync(file, randomBytes(48).toString('base64'), { mode: 0o600, flag: 'wx' });
      } catch (err) {
        // Another process created it first: use theirs.
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    chmodSync(file, 0o600);
    return { master: Buffer.from(readFileSync(file, 'utf8').trim(), 'utf8'), source: 'file' as const };
  }
  return { master: createHash('sha256').update(DEVELOPMENT_SECRET).digest(), source: 'development' as const };
}

export function appKeys(config: KeyConfig): AppKeys {
  const { master, source } = masterSecret(config);
  const previous = (config.SECRET_KEY_PREVIOUS ?? []).map((k) => Buffer.from(k, 'utf8'));
  return {
    anonymousSession: derive(master, 'sesion-anonima'),
    anonymousSessionPrevious: previous.map((p) => derive(p, 'sesion-anonima')),
    encryption: derive(master, 'cifrado'),
    encryptionPrevious: previous.map((p) => derive(p, 'cifrado')),
    typedNames: derive(master, 'nombres-tecleados'),
    source,
  };
}

/** The keys a sealed secret may open with, the current one first (lib/secret-box.ts: openWithRing). */
export function encryptionRing(keys: Pick<AppKeys, 'encryption' | 'encryptionPrevious'>): Buffer[] {
  return [keys.encryption, ...keys.encryptionPrevious];
}
