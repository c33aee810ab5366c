/**
 * The project's one e-mail check (user form, user schemas, user import, mail recipients, the admin CLI).
 *
 * An address is: no whitespace anywhere, exactly one @, something before it, and after it a domain with
 * a dot that is neither its first nor its last character — what /^[^\s@]+@[^\s@]+\.[^\s@]+$/ meant.
 * That pattern backtracks quadratically (an 80 KB cell with many dots after the @ took seconds of the
 * server's event loop), so this is plain scanning, linear in the length, and the length is checked first:
 * nothing longer than EMAIL_MAX_LENGTH is ever scanned.
 */
export const EMAIL_MAX_LENGTH = 254;

export function isEmailAddress(text: string): boolean {
  if (text.length > EMAIL_MAX_LENGTH) return false;
  if (/\s/.test(text)) return false;
  const at = text.indexOf('@');
  if (at < 1 || text.indexOf('@', at + 1) !== -1) return false;
  const domain = text.slice(at + 1);
  const dot = domain.indexOf('.', 1);
  return dot !== -1 && dot < domain.length - 1;
}
