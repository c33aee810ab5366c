import { stdSerializers } from 'pino';

/**
 * The logger's `err` serializer (loggerOptions in app.ts, so every log line with an `err` gets it): pino's
 * own, applied to a copy of the error without the values of a failed statement's parameters. A database
 * error keeps what is needed to find the fault — the statement, PostgreSQL's error code and constraint —
 * and loses what may be a secret: a temporary password, a hash or a token was a parameter of some insert.
 *
 * - Drizzle's "Failed query: <sql>\nparams: <values>" keeps the statement; "params: …" becomes
 *   "params: [oculto]", in the message and in the stack, at every level of the cause chain.
 * - Parameter arrays (`params`, `parameters`, `values`, `bindings`) are dropped, and so are PostgreSQL's
 *   `detail` ("Key (x)=(value) already exists", "Failing row contains (…)") and `where`, which quote data.
 * - Any string parameter of 4 or more characters that still shows up (PostgreSQL quotes a value it could
 *   not convert: `invalid input syntax for type integer: "…"`) is replaced by "[oculto]".
 * - Only strings, numbers and booleans of the error's own fields are kept, besides nested errors.
 * A string (some callers log `err: error.message`) gets the same treatment as a message.
 */
export const HIDDEN = '[oculto]';

const PARAM_KEYS = new Set(['params', 'parameters', 'values', 'bindings']);
const DROPPED_KEYS = new Set([...PARAM_KEYS, 'detail', 'where', 'queryOptions', 'cause', 'errors']);
/** Shorter values are not searched for in texts: "1" or "no" would blank out half a message. */
const MIN_REDACTED_LENGTH = 4;
const MAX_DEPTH = 8;

type ErrorLike = Error & Record<string, unknown>;

function isErrorLike(value: unknown): value is ErrorLike {
  return typeof value === 'object' && value !== null && typeof (value as Error).message === 'string';
}

/** Drizzle's parameter line runs from "params:" to the end of the message. */
function withoutParamsLine(message: string): string {
  return message.replace(/(^|\n)params:[\s\S]*$/, `$1params: ${HIDDEN}`);
}

/** In a stack the message is followed by the frames ("\n    at …") and by "caused by: …" sections. */
function withoutParamsInStack(stack: string): string {
  return stack.replace(/(^|\n)params:[\s\S]*?(?=\n\s+at |\ncaused by: |$)/g, `$1params: ${HIDDEN}`);
}

function redact(text: string, values: readonly string[]): string {
  let out = text;
  for (const v of values) if (out.includes(v)) out = out.split(v).join(HIDDEN);
  return out;
}

/** Every string parameter (arrays flattened) anywhere in the cause chain, longest first. */
function parameterValues(err: ErrorLike): string[] {
  const found = new Set<string>();
  const add = (value: unknown, depth: number): void => {
    if (typeof value === 'string') {
      if (value.length >= MIN_REDACTED_LENGTH) found.add(value);
    } else if (Array.isArray(value) && depth < MAX_DEPTH) for (const v of value) add(v, depth + 1);
  };
  let current: unknown = err;
  for (let depth = 0; isErrorLike(current) && depth < MAX_DEPTH; depth++) {
    for (const key of PARAM_KEYS) add(current[key], 0);
    current = current.cause;
  }
  return [...found].sort((a, b) => b.length - a.length);
}

/** A copy of the error (same prototype, so the same type name) holding nothing of the parameters. */
function scrubbed(err: ErrorLike, values: readonly string[], depth: number): ErrorLike {
  const copy = Object.create(Object.getPrototypeOf(err)) as ErrorLike;
  const define = (key: string, value: unknown) =>
    Object.defineProperty(copy, key, { value, enumerable: false, writable: true, configurable: true });
  const message = redact(withoutParamsLine(err.message), values);
  define('message', message);
  if (typeof err.stack === 'string') {
    const stack = err.message ? err.stack.split(err.message).join(message) : err.stack;
    define('stack', redact(withoutParamsInStack(stack), values));
  }
  for (const key of Object.keys(err)) {
    if (DROPPED_KEYS.has(key)) continue;
    const value = err[key];
    if (typeof value === 'string') copy[key] = redact(withoutParamsLine(value), values);
    else if (typeof value === 'number' || typeof value === 'boolean') copy[key] = value;
    else if (isErrorLike(value) && depth < MAX_DEPTH) copy[key] = scrubbed(value, values, depth + 1);
  }
  const cause = err.cause;
  if (isErrorLike(cause) && depth < MAX_DEPTH) define('cause', scrubbed(cause, values, depth + 1));
  else if (typeof cause === 'string') define('cause', redact(withoutParamsLine(cause), values));
  if (Array.isArray(err.errors) && depth < MAX_DEPTH)
    copy.errors = err.errors.filter(isErrorLike).map((e) => scrubbed(e, values, depth + 1));
  return copy;
}

/** The first value of a field along the cause chain (a driver's error code sits on Drizzle's cause). */
function alongCauses(err: ErrorLike, key: string): string | undefined {
  let current: unknown = err;
  for (let depth = 0; isErrorLike(current) && depth < MAX_DEPTH; depth++) {
    const value = current[key];
    if (typeof value === 'string' && value) return value;
    current = current.cause;
  }
  return undefined;
}

/** The shape Fastify's logger option expects of an `err` serializer (a logged string stays a string). */
export interface SerializedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

export function errSerializer(err: unknown): SerializedError {
  return serializeErr(err) as SerializedError;
}

function serializeErr(err: unknown): unknown {
  if (typeof err === 'string') return withoutParamsLine(err);
  if (!isErrorLike(err)) return err;
  try {
    const values = parameterValues(err);
    const out = stdSerializers.err(scrubbed(err, values, 0)) as unknown as Record<string, unknown>;
    for (const key of ['code', 'constraint']) {
      if (out[key] === undefined) {
        const value = alongCauses(err, key);
        if (value !== undefined) out[key] = redact(value, values);
      }
    }
    return out;
  } catch {
    return { type: 'Error', message: 'error al registrar un error' };
  }
}
