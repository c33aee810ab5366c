import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { appKeys, encryptionRing } from './keys.ts';
import { openSecret, openWithRing, SecretBoxError, sealSecret } from './secret-box.ts';

const key = randomBytes(32);
const SECRET = 'KVKFKRCPNZQUYMLXOVYDSQKJKZDTSRLD';

/** Flips one bit of one part of a sealed value (1 = IV, 2 = tag, 3 = ciphertext). */
function flip(sealed: string, part: 1 | 2 | 3): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[0] = bytes[0]! ^ 0x01;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('secret box (AES-256-GCM)', () => {
  it('opens what it sealed, in a versioned form that does not show the secret', () => {
    const sealed = sealSecret(key, SECRET, 'totp:7');
    expect(sealed).toMatch(/^v1\.[\w-]{16}\.[\w-]{22}\.[\w-]+$/);
    expect(sealed).not.toContain(SECRET);
    expect(openSecret(key, sealed, 'totp:7')).toBe(SECRET);
  });

  it('uses a new IV every time: the same secret never seals the same way', () => {
    const a = sealSecret(key, SECRET, 'totp:7');
    const b = sealSecret(key, SECRET, 'totp:7');
    expect(a).not.toBe(b);
    expect(a.split('.')[1]).not.toBe(b.split('.')[1]);
  });

  it.each([1, 2, 3] as const)('refuses a value with part %i tampered', (part) => {
    const sealed = sealSecret(key, SECRET, 'totp:7');
    expect(() => openSecret(key, flip(sealed, part), 'totp:7')).toThrow(SecretBoxError);
  });

  it('refuses another key, another context (another user), another version and garbage', () => {
    const sealed = sealSecret(key, SECRET, 'totp:7');
    expect(() => openSecret(randomBytes(32), sealed, 'totp:7')).toThrow(SecretBoxError);
    expect(() => openSecret(key, sealed, 'totp:8')).toThrow(SecretBoxError);
    expect(() => openSecret(key, sealed.replace(/^v1\./, 'v2.'), 'totp:7')).toThrow(SecretBoxError);
    expect(() => openSecret(key, sealed.split('.').slice(0, 3).join('.'), 'totp:7')).toThrow(SecretBoxError);
    expect(() => openSecret(key, 'v1.a.b.c', 'totp:7')).toThrow(SecretBoxError);
    expect(() => openSecret(key, '', 'totp:7')).toThrow(SecretBoxError);
    // Its message names no secret.
    try {
      openSecret(key, flip(sealed, 3), 'totp:7');
    } catch (err) {
      expect(String(err)).not.toContain(SECRET);
    }
  });

  it('needs a 32-byte key', () => {
    expect(() => sealSecret(randomBytes(16), SECRET, 'x')).toThrow(/32 bytes/);
  });

  it("works with the app's encryption key, which depends on SECRET_KEY", () => {
    const config = { SECRET_KEY: 'k'.repeat(40), dataDir: 'memory://', DATABASE_URL: undefined };
    const sealed = sealSecret(appKeys(config).encryption, SECRET, 'totp:1');
    expect(openSecret(appKeys(config).encryption, sealed, 'totp:1')).toBe(SECRET);
    const other = appKeys({ ...config, SECRET_KEY: 'j'.repeat(40) }).encryption;
    expect(() => openSecret(other, sealed, 'totp:1')).toThrow(SecretBoxError);
  });
});

describe('the key ring (SECRET_KEY and SECRET_KEY_PREVIOUS, decision 0102)', () => {
  const A = 'a'.repeat(40);
  const B = 'b'.repeat(40);
  const C = 'c'.repeat(40);
  const keys = (secret: string, previous?: string[]) =>
    appKeys({
      SECRET_KEY: secret,
      SECRET_KEY_PREVIOUS: previous,
      dataDir: 'memory://',
      DATABASE_URL: undefined,
    });

  it('opens with the current key first, then each previous one, and says which', () => {
    const underA = sealSecret(keys(A).encryption, SECRET, 'totp:3');
    const underB = sealSecret(keys(B).encryption, SECRET, 'totp:3');
    const underC = sealSecret(keys(C).encryption, SECRET, 'totp:3');
    const ring = encryptionRing(keys(C, [B, A]));
    expect(ring).toHaveLength(3);
    expect(openWithRing(ring, underC, 'totp:3')).toEqual({ plaintext: SECRET, current: true });
    expect(openWithRing(ring, underB, 'totp:3')).toEqual({ plaintext: SECRET, current: false });
    expect(openWithRing(ring, underA, 'totp:3')).toEqual({ plaintext: SECRET, current: false });
    // Context still binds under every key; a key not in the ring does not open.
    expect(() => openWithRing(ring, underB, 'totp:4')).toThrow(SecretBoxError);
    expect(() => openWithRing(encryptionRing(keys(C, [B])), underA, 'totp:3')).toThrow(SecretBoxError);
    expect(() => openWithRing(encryptionRing(keys(C)), underB, 'totp:3')).toThrow(SecretBoxError);
  });

  it('derives every purpose of each previous key as it did when that key was current', () => {
    const rotated = keys(B, [A]);
    const before = keys(A);
    expect(rotated.encryptionPrevious).toEqual([before.encryption]);
    expect(rotated.anonymousSessionPrevious).toEqual([before.anonymousSession]);
    expect(rotated.encryption).toEqual(keys(B).encryption);
    // The typed-names key has no previous keys: it is the current key's.
    expect(rotated.typedNames).toEqual(keys(B).typedNames);
    expect(keys(B).encryptionPrevious).toEqual([]);
  });
});
