/**
 * Web Push (issue 43 item 7, decision 0117): what a device's subscription must look like, and the limits of
 * what the portal pushes. The browser hands the subscription over as `PushSubscription.toJSON()`:
 * `{ endpoint, expirationTime, keys: { p256dh, auth } }`, the keys in base64url (RFC 8291 section 2).
 */

/** Devices (subscriptions) one person keeps; subscribing one more removes the one used longest ago. */
export const PUSH_DEVICES_PER_USER = 10;

/** The longest endpoint accepted (the push services' URLs are a few hundred characters). */
export const PUSH_ENDPOINT_MAX = 2048;

/** The browser's public key: an uncompressed P-256 point (0x04, then x and y), 65 bytes. */
export const PUSH_P256DH_BYTES = 65;

/** The browser's authentication secret: 16 bytes. */
export const PUSH_AUTH_BYTES = 16;

/**
 * A base64url text's bytes (padding optional, as browsers write it without), or null when it is not
 * base64url. Works in the browser and in Node (atob).
 */
export function base64UrlBytes(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text)) return null;
  const bare = text.replace(/=+$/, '');
  if (bare.length % 4 === 1) return null;
  const base64 = bare.replace(/-/g, '+').replace(/_/g, '/');
  try {
    const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
    return Uint8Array.from(binary, (c) => c.charCodeAt(0));
  } catch {
    return null;
  }
}

/** Whether `text` is base64url for an uncompressed P-256 point's 65 bytes (the curve itself is checked by the server). */
export function isP256dh(text: string): boolean {
  const bytes = base64UrlBytes(text);
  return bytes !== null && bytes.length === PUSH_P256DH_BYTES && bytes[0] === 0x04;
}

/** Whether `text` is base64url for 16 bytes. */
export function isPushAuth(text: string): boolean {
  return base64UrlBytes(text)?.length === PUSH_AUTH_BYTES;
}

/** The lengths the portal cuts a push's texts to: the payload stays well under Web Push's 4 KB. */
export const PUSH_TITLE_MAX = 120;
export const PUSH_TEXT_MAX = 240;
export const PUSH_PATH_MAX = 300;
