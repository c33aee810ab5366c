/** The enrolment's key for typing into an authenticator app by hand (when the QR cannot be scanned). */

/** The manual key of an otpauth:// URL (its `secret`), or '' when it has none. */
export function secretOf(otpauthUrl: string): string {
  const query = otpauthUrl.split('?')[1] ?? '';
  return (new URLSearchParams(query).get('secret') ?? '').toUpperCase();
}

/** A base32 key in groups of four, as people copy it into an app by hand. */
export function groupedKey(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}
