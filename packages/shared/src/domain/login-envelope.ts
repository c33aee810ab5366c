/**
 * The sign-in envelope: `{data, hmac}` carrying `{usuario, password, ts}` encrypted (AES-256-CTR) and
 * authenticated (HMAC-SHA256, encrypt-then-MAC) with keys derived by HKDF-SHA256 from the session's XSRF
 * token. A body captured in one session is useless in another, and the session (and its token) is
 * replaced at sign-in. Pure JavaScript (@noble), so it also works on a plain-http intranet host where
 * WebCrypto is unavailable. See docs/decisions/0005-login-envelope.md.
 */
import { ctr } from '@noble/ciphers/aes.js';
import { hkdf } from '@noble/hashes/hkdf.js';
import { hmac } from '@noble/hashes/hmac.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { bytesToHex, hexToBytes, randomBytes, utf8ToBytes } from '@noble/hashes/utils.js';

const INFO = utf8ToBytes('portal-de-compras/login/v1');
/** How old an envelope may be when it arrives. */
export const ENVELOPE_MAX_AGE_MS = 5 * 60 * 1000;

export interface LoginCredentials {
  usuario: string;
  password: string;
}

export interface LoginEnvelope {
  data: string;
  hmac: string;
}

function keys(xsrfToken: string) {
  const okm = hkdf(sha256, utf8ToBytes(xsrfToken), undefined, INFO, 64);
  return { enc: okm.slice(0, 32), mac: okm.slice(32) };
}

function toBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

function fromBase64(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0);
  return diff === 0;
}

export function sealLogin(credentials: LoginCredentials, xsrfToken: string, now = Date.now()): LoginEnvelope {
  const k = keys(xsrfToken);
  const iv = randomBytes(16);
  const plain = utf8ToBytes(JSON.stringify({ ...credentials, ts: now }));
  const cipher = ctr(k.enc, iv).encrypt(plain);
  const joined = new Uint8Array(iv.length + cipher.length);
  joined.set(iv, 0);
  joined.set(cipher, iv.length);
  const data = toBase64(joined);
  return { data, hmac: bytesToHex(hmac(sha256, k.mac, utf8ToBytes(data))) };
}

/** The credentials inside an envelope, or null when it is forged, from another session, or stale. */
export function openLogin(
  envelope: LoginEnvelope,
  xsrfToken: string,
  /** The server's clock (the app's, decision 0093). */
  now: number,
): LoginCredentials | null {
  try {
    if (typeof envelope.data !== 'string' || typeof envelope.hmac !== 'string') return null;
    if (!/^[0-9a-f]{64}$/i.test(envelope.hmac)) return null;
    const k = keys(xsrfToken);
    const expected = hmac(sha256, k.mac, utf8ToBytes(envelope.data));
    if (!constantTimeEqual(expected, hexToBytes(envelope.hmac.toLowerCase()))) return null;
    const joined = fromBase64(envelope.data);
    if (joined.length <= 16) return null;
    const plain = ctr(k.enc, joined.slice(0, 16)).decrypt(joined.slice(16));
    const parsed: unknown = JSON.parse(new TextDecoder().decode(plain));
    if (!parsed || typeof parsed !== 'object') return null;
    const { usuario, password, ts } = parsed as Record<string, unknown>;
    if (typeof usuario !== 'string' || typeof password !== 'string' || typeof ts !== 'number') return null;
    if (Math.abs(now - ts) > ENVELOPE_MAX_AGE_MS) return null;
    return { usuario, password };
  } catch {
    return null;
  }
}
