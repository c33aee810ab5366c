import { randomBytes, randomInt, scrypt, timingSafeEqual } from 'node:crypto';

/**
 * Password hashing with scrypt (memory-hard, salted), in Node's own crypto.
 * Format: scrypt$N$r$p$salt(base64)$hash(base64). A stored hash made with lower parameters than the
 * current ones still verifies and is replaced at the next successful sign-in (needsRehash).
 */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/** OWASP's recommendation for scrypt: 128 MiB and about 0.35 s per hash here (decision 0035). */
export const SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 2 ** 17, r: 8, p: 1 });
/**
 * The test suites' and the browser tests' server's parameters (TEST_PASSWORD_HASHING), never a production
 * start: scrypt with 1 MiB, about 2 ms a hash, so the suites' thousands of sign-ins cost little CPU (decision
 * 0052). The re-hash tests turn the production parameters on.
 */
export const TEST_SCRYPT_PARAMS: Readonly<ScryptParams> = Object.freeze({ N: 1024, r: 8, p: 1 });
let current: Readonly<ScryptParams> = SCRYPT_PARAMS;

/**
 * For the test suites' setup only: the parameters of new hashes (and the re-hash threshold), so that the
 * suites' thousands of sign-ins stay fast; without an argument, the production ones again. The tests of
 * the re-hash run with the production parameters. Refused in production.
 */
export function setHashParamsForTests(params?: ScryptParams): void {
  if (process.env.NODE_ENV === 'production') throw new Error('setHashParamsForTests: not in production');
  current = params ? Object.freeze({ ...params }) : SCRYPT_PARAMS;
}

const KEYLEN = 32;
/** scrypt needs 128 * N * r bytes (128 MiB); room for that and for stored hashes up to twice the cost. */
const MAXMEM = 256 * 1024 * 1024;
/**
 * At most two derivations at once: each holds 128 MiB, and on a 2-core machine more in parallel finish no
 * sooner; libuv's other threads stay free for files and compression.
 */
const MAX_PARALLEL = 2;
let running = 0;
const waiting: (() => void)[] = [];

async function derive(password: string, salt: Buffer, n: number, r: number, p: number): Promise<Buffer> {
  if (running >= MAX_PARALLEL) await new Promise<void>((resolve) => waiting.push(resolve));
  else running++;
  try {
    return await new Promise((resolve, reject) => {
      scrypt(password.normalize('NFC'), salt, KEYLEN, { N: n, r, p, maxmem: MAXMEM }, (err, key) =>
        err ? reject(err) : resolve(key),
      );
    });
  } finally {
    // The slot passes to the next waiter, or is freed.
    const next = waiting.shift();
    if (next) next();
    else running--;
  }
}

/** The work of a check at the current parameters, for a password that has no usable hash to check. */
async function dummyDerive(password: string): Promise<void> {
  await derive(password, Buffer.alloc(16), current.N, current.r, current.p);
}

interface StoredHash {
  n: number;
  r: number;
  p: number;
  salt: Buffer;
  hash: Buffer;
}

function parse(stored: string): StoredHash | null {
  const [scheme, n, r, p, salt, hash, ...rest] = stored.split('$');
  if (scheme !== 'scrypt' || !n || !r || !p || !salt || !hash || rest.length) return null;
  const params = [Number(n), Number(r), Number(p)];
  if (!params.every((v) => Number.isSafeInteger(v) && v > 0)) return null;
  return {
    n: params[0]!,
    r: params[1]!,
    p: params[2]!,
    salt: Buffer.from(salt, 'base64'),
    hash: Buffer.from(hash, 'base64'),
  };
}

export async function hashPassword(password: string): Promise<string> {
  const { N, r, p } = current;
  const salt = randomBytes(16);
  const key = await derive(password, salt, N, r, p);
  return `scrypt$${N}$${r}$${p}$${salt.toString('base64')}$${key.toString('base64')}`;
}

/** True when a stored hash was made with lower parameters than the current ones (or is not one of ours). */
export function needsRehash(stored: string): boolean {
  const parsed = parse(stored);
  return !parsed || parsed.n < current.N || parsed.r < current.r || parsed.p < current.p;
}

export async function verifyPassword(password: string, stored: string | null | undefined): Promise<boolean> {
  const parsed = stored ? parse(stored) : null;
  if (!parsed) {
    // Same work as a real check, so an unknown user takes as long as a wrong password.
    await dummyDerive(password);
    return false;
  }
  const key = await derive(password, parsed.salt, parsed.n, parsed.r, parsed.p);
  const ok = key.length === parsed.hash.length && timingSafeEqual(key, parsed.hash);
  // A weak hash checks faster; a failure on one takes the current cost too (a success is re-hashed).
  if (!ok && needsRehash(stored!)) await dummyDerive(password);
  return ok;
}

/** A random temporary password that meets the policy (uppercase, lowercase, digit, symbol, 12 chars). */
export function temporaryPassword(): string {
  const upper = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const lower = 'abcdefghijkmnopqrstuvwxyz';
  const digits = '23456789';
  const symbols = '#$%&*+-=?@';
  const all = upper + lower + digits + symbols;
  const pick = (set: string) => set[randomInt(set.length)];
  const chars = [pick(upper), pick(lower), pick(digits), pick(symbols)];
  while (chars.length < 12) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}
