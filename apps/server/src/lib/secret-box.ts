import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Secrets kept at rest (two-factor secrets, webhook signing secrets, the VAPID private key, the clients'
 * single sign-on client secrets): AES-256-GCM with the app's encryption key (lib/keys.ts).
 * Sealed form: `v1.<iv>.<tag>.<ciphertext>` (base64url; a random 12-byte IV per seal, a 16-byte tag). The
 * `context` (what the secret is and whose, e.g. `totp:42`) is authenticated with it, so a sealed value
 * copied to another row or purpose does not open there.
 */
const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_BYTES = 32;

/** A sealed value that does not open: tampered, another key, another context or not a sealed value. */
export class SecretBoxError extends Error {
  constructor() {
    super('El secreto cifrado no se pudo abrir');
    this.name = 'SecretBoxError';
  }
}

function checkKey(key: Buffer): void {
  if (key.length !== KEY_BYTES) throw new Error('La clave de cifrado debe tener 32 bytes');
}

function aad(context: string): Buffer {
  return Buffer.from(`portal-de-compras|${VERSION}|${context}`, 'utf8');
}

/** The context of a webhook endpoint's signing secret: a sealed secret opens only for its own row. */
export function secretContext(endpointId: number): string {
  return `webhook:${endpointId}`;
}

/** The context of the portal's VAPID private key (push_vapid's one row, decision 0117). */
export function vapidContext(id: number): string {
  return `vapid:${id}`;
}

/** The context of a client's single sign-on client secret (client_sso's row of that client, decision 0120). */
export function ssoContext(idCliente: number): string {
  return `sso:${idCliente}`;
}

export function sealSecret(key: Buffer, plaintext: string, context: string): string {
  checkKey(key);
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
  cipher.setAAD(aad(context));
  const data = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  const tag = cipher.getAuthTag();
  return [VERSION, iv.toString('base64url'), tag.toString('base64url'), data.toString('base64url')].join('.');
}

export function openSecret(key: Buffer, sealed: string, context: string): string {
  checkKey(key);
  const parts = sealed.split('.');
  if (parts.length !== 4 || parts[0] !== VERSION) throw new SecretBoxError();
  const [, ivText, tagText, dataText] = parts as [string, string, string, string];
  const iv = Buffer.from(ivText, 'base64url');
  const tag = Buffer.from(tagText, 'base64url');
  const data = Buffer.from(dataText, 'base64url');
  if (iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw new SecretBoxError();
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(context));
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  } catch {
    throw new SecretBoxError();
  }
}

/**
 * Opens a sealed value with the first key of `ring` (current first, then the previous ones: a key
 * rotation, decision 0102) that opens it; `current` says whether that was the first. SecretBoxError when
 * none does.
 */
export function openWithRing(
  ring: readonly Buffer[],
  sealed: string,
  context: string,
): { plaintext: string; current: boolean } {
  for (const [index, key] of ring.entries()) {
    try {
      return { plaintext: openSecret(key, sealed, context), current: index === 0 };
    } catch (err) {
      if (!(err instanceof SecretBoxError)) throw err;
    }
  }
  throw new SecretBoxError();
}
