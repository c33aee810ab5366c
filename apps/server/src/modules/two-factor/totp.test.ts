import { describe, expect, it } from 'vitest';
import {
  checkAgainstDummy,
  codeAt,
  matchingStep,
  newTotpSecret,
  otpauthUrl,
  stepAt,
  TOTP_PERIOD_SECONDS,
} from '../../lib/totp.ts';
import {
  BACKUP_ALPHABET,
  BACKUP_CODE_COUNT,
  BACKUP_CODE_FORMAT,
  hashBackupCode,
  newBackupCodes,
  normalizeBackupCode,
} from './backup-codes.ts';

/** RFC 6238 appendix B: the SHA-1 secret "12345678901234567890" in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';
const DEMO_SECRET = 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD';
/** A fixed clock: a moment in the middle of a step. */
const NOW = Date.UTC(2026, 10, 24, 15, 0, 10);
const T = stepAt(NOW);
const PERIOD_MS = TOTP_PERIOD_SECONDS * 1000;

describe('TOTP', () => {
  it('makes the codes of RFC 6238 (SHA-1, 30 s), as authenticator apps do, in 6 digits', () => {
    expect(codeAt(RFC_SECRET, stepAt(59_000))).toBe('287082');
    expect(codeAt(RFC_SECRET, stepAt(1_111_111_109_000))).toBe('081804');
    expect(codeAt(RFC_SECRET, stepAt(2_000_000_000_000))).toBe('279037');
  });

  it('accepts the codes of steps t-1, t and t+1 and answers which step matched', () => {
    for (const delta of [-1, 0, 1]) {
      expect(matchingStep(DEMO_SECRET, codeAt(DEMO_SECRET, T + delta), NOW, null)).toBe(T + delta);
    }
  });

  it('refuses the codes of t-2 and t+2, and anything that is not 6 digits', () => {
    expect(matchingStep(DEMO_SECRET, codeAt(DEMO_SECRET, T - 2), NOW, null)).toBeNull();
    expect(matchingStep(DEMO_SECRET, codeAt(DEMO_SECRET, T + 2), NOW, null)).toBeNull();
    const code = codeAt(DEMO_SECRET, T);
    expect(matchingStep(DEMO_SECRET, ` ${code}`, NOW, null)).toBeNull();
    expect(matchingStep(DEMO_SECRET, code.slice(0, 5), NOW, null)).toBeNull();
    expect(matchingStep(DEMO_SECRET, `${code}0`, NOW, null)).toBeNull();
    expect(matchingStep(DEMO_SECRET, '', NOW, null)).toBeNull();
  });

  it('follows the step boundaries of the clock', () => {
    const start = T * PERIOD_MS;
    const code = codeAt(DEMO_SECRET, T);
    // The last millisecond of step t+1 still accepts t; the first of t+2 does not.
    expect(matchingStep(DEMO_SECRET, code, start + 2 * PERIOD_MS - 1, null)).toBe(T);
    expect(matchingStep(DEMO_SECRET, code, start + 2 * PERIOD_MS, null)).toBeNull();
    // The first millisecond of step t-1 accepts t (the phone is ahead); the last of t-2 does not.
    expect(matchingStep(DEMO_SECRET, code, start - PERIOD_MS, null)).toBe(T);
    expect(matchingStep(DEMO_SECRET, code, start - PERIOD_MS - 1, null)).toBeNull();
  });

  it('never accepts a step twice: only steps after the last one used', () => {
    const code = codeAt(DEMO_SECRET, T);
    expect(matchingStep(DEMO_SECRET, code, NOW, T - 1)).toBe(T);
    expect(matchingStep(DEMO_SECRET, code, NOW, T)).toBeNull();
    expect(matchingStep(DEMO_SECRET, code, NOW + PERIOD_MS, T)).toBeNull();
    expect(matchingStep(DEMO_SECRET, codeAt(DEMO_SECRET, T - 1), NOW, T)).toBeNull();
    expect(matchingStep(DEMO_SECRET, codeAt(DEMO_SECRET, T + 1), NOW, T)).toBe(T + 1);
  });

  it('refuses the code of another secret; the dummy check answers no', () => {
    const other = newTotpSecret();
    expect(matchingStep(other, codeAt(DEMO_SECRET, T), NOW, null)).toBeNull();
    expect(checkAgainstDummy(codeAt(DEMO_SECRET, T), NOW)).toBeNull();
  });

  it('draws 160-bit base32 secrets and writes the otpauth URL of the contract', () => {
    const secret = newTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(newTotpSecret()).not.toBe(secret);
    const url = new URL(otpauthUrl(secret, 'ana.lopez'));
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Portal de Compras:ana.lopez');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      issuer: 'Portal de Compras',
      secret,
      algorithm: 'SHA1',
      digits: '6',
      period: '30',
    });
  });
});

describe('backup codes', () => {
  it('draws 10 different codes xxxx-xxxx without look-alike characters', () => {
    const codes = newBackupCodes();
    expect(codes).toHaveLength(BACKUP_CODE_COUNT);
    expect(new Set(codes).size).toBe(BACKUP_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(BACKUP_CODE_FORMAT);
    expect(BACKUP_ALPHABET).not.toMatch(/[01ilo]/);
    expect(newBackupCodes()).not.toEqual(codes);
  });

  it('uses the whole alphabet (crypto-random, not a narrow pattern)', () => {
    const seen = new Set(newBackupCodes(200).join('').replace(/-/g, ''));
    expect(seen.size).toBe(BACKUP_ALPHABET.length);
  });

  it('reads a typed code with spaces, capitals or without the dash; refuses what cannot be one', () => {
    expect(normalizeBackupCode(' AB2C-DE3F ')).toBe('ab2c-de3f');
    expect(normalizeBackupCode('ab2cde3f')).toBe('ab2c-de3f');
    expect(normalizeBackupCode('ab2c de3f')).toBe('ab2c-de3f');
    expect(normalizeBackupCode('ab2c-de3')).toBeNull();
    expect(normalizeBackupCode('ab0c-de3f')).toBeNull();
    expect(normalizeBackupCode('')).toBeNull();
  });

  it('stores a hash that is not the code and is the same for the same code', () => {
    const hash = hashBackupCode('ab2c-de3f');
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(hash).not.toContain('ab2c');
    expect(hashBackupCode('ab2c-de3f')).toBe(hash);
    expect(hashBackupCode('ab2c-de3g')).not.toBe(hash);
  });
});
