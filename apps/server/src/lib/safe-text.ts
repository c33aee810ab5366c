import type { FastifyInstance } from 'fastify';
import { MSG } from '../messages.ts';
import { badRequest } from './errors.ts';

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text the database cannot store: a NUL character (PostgreSQL text and jsonb refuse it) or a lone UTF-16
 * surrogate (jsonb refuses its escape; elsewhere it would silently become U+FFFD).
 */
export function isUnsafeText(text: string): boolean {
  return text.includes('\u0000') || LONE_SURROGATE.test(text);
}

/** Whether any string (or object key) inside a parsed body, query or params is unsafe text. */
export function hasUnsafeText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isUnsafeText(value);
  if (!value || typeof value !== 'object' || depth > 64) return false;
  if (Array.isArray(value)) return value.some((v) => hasUnsafeText(v, depth + 1));
  return Object.entries(value).some(([k, v]) => isUnsafeText(k) || hasUnsafeText(v, depth + 1));
}

export const unsafeTextError = () => badRequest('TEXT_INVALID', MSG.textoNoValido);

/**
 * Refuses such text with a Spanish 400 once the route's guard and schema have run (so an anonymous call
 * still gets 401 and a malformed one the schema's message), before any handler can reach the database.
 */
export function registerSafeText(app: FastifyInstance): void {
  // A plain callback: this runs on every request, and has nothing to wait for.
  app.addHook('preHandler', (request, _reply, done) => {
    if (hasUnsafeText(request.body) || hasUnsafeText(request.query) || hasUnsafeText(request.params))
      done(unsafeTextError());
    else done();
  });
}
