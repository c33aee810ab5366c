/** PostgreSQL errors by kind, the same on PGlite and PostgreSQL, through Drizzle's wrapping (`cause`). */

/** True for a unique-constraint violation (23505); with `constraint`, only that constraint's. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e.code === '23505') {
      if (!constraint) return true;
      return e.constraint === constraint || String(e.message ?? '').includes(constraint);
    }
    e = e.cause as typeof e;
  }
  return false;
}

/** True for a foreign-key violation (23503): a row still referenced, or a reference to a missing row. */
export function isForeignKeyViolation(err: unknown): boolean {
  let e = err as { code?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e.code === '23503') return true;
    e = e.cause as typeof e;
  }
  return false;
}
