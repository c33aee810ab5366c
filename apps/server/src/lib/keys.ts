import { createHash, hkdfSync, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.ts';

/** Keys derived from the one configured secret, one per purpose (HKDF), so no key serves two uses. */
export interface AppKeys {
  /** Signs the sign-in form's anonymous session cookie (nothing is stored for it). */
  anonymousSession: Buffer;
  /** Encrypts secrets at rest (two-factor secrets). */
  encryption: Buffer;
  /** Keys the fingerprints of typed usernames (the sign-in throttle and the log: issue 38, finding 9). */
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
function masterSecret(config: Pick<Config, 'SECRET_KEY' | 'dataDir' | 'DATABASE_URL'>) {
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

export function appKeys(config: Pick<Config, 'SECRET_KEY' | 'dataDir' | 'DATABASE_URL'>): AppKeys {
  const { master, source } = masterSecret(config);
  return {
    anonymousSession: derive(master, 'sesion-anonima'),
    encryption: derive(master, 'cifrado'),
    typedNames: derive(master, 'nombres-tecleados'),
    source,
  };
}
