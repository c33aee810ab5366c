import { createHash, randomBytes } from 'node:crypto';

/** A random, URL-safe secret (256 bits). */
export function newToken(): string {
  return randomBytes(32).toString('base64url');
}

/** What is stored instead of a token: its SHA-256. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
