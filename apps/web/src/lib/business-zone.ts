/**
 * The business time zone the session announces. Kept apart from format.ts so the route guards (in the
 * entry chunk) can set it without pulling dayjs into every screen's first load.
 */
let sessionZone: string | null = null;

/** Set from the session (`zona_horaria`); format.ts shows every date in it. */
export function setBusinessTimeZone(zone: string | null | undefined): void {
  sessionZone = zone || null;
}

/** The session's zone, or null before the first session check. */
export function sessionTimeZone(): string | null {
  return sessionZone;
}
