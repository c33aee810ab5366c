/**
 * "Now" for the whole server (decision 0093). Every business decision — the month a purchase counts in,
 * today's access week, a link's or a session's expiry, a delegation's days, the dashboard's months — reads
 * the time through one Clock: the app's (`app.clock`), or one passed down to code that has no app. The
 * system clock is the default; a test places the whole server at a chosen instant with `clockAt`, or holds
 * it still with `manualClock`. `architecture.test.ts` fails when server code reads `Date.now()` or
 * `new Date()` anywhere else; elapsed times (durations, deadlines of a wait) use `performance.now()`.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  ms(): number;
  /** The same instant as a Date. */
  now(): Date;
}

function clockOf(ms: () => number): Clock {
  return { ms, now: () => new Date(ms()) };
}

/** The machine's clock. */
export const systemClock: Clock = clockOf(() => Date.now());

/** A clock that reads `at` now and runs on from it as the system clock does (timeouts and windows still pass). */
export function clockAt(at: Date | string | number, base: Clock = systemClock): Clock {
  const offset = new Date(at).getTime() - base.ms();
  if (Number.isNaN(offset)) throw new Error(`Not an instant: ${String(at)}`);
  return clockOf(() => base.ms() + offset);
}

export interface ManualClock extends Clock {
  /** Moves the clock to an instant. */
  set(at: Date | string | number): void;
  /** Moves the clock forward (or back, with a negative amount) by milliseconds. */
  advance(ms: number): void;
}

/** A clock that stays at `at` until it is moved. */
export function manualClock(at: Date | string | number): ManualClock {
  let t = new Date(at).getTime();
  if (Number.isNaN(t)) throw new Error(`Not an instant: ${String(at)}`);
  return {
    ...clockOf(() => t),
    set(next) {
      t = new Date(next).getTime();
    },
    advance(ms) {
      t += ms;
    },
  };
}
