import { ErrorBody } from '@portal/shared/schemas/common';
import type { RouteOptions } from 'fastify';
import { z } from 'zod';

/**
 * The answers any API route can give whatever its handler does (issue 38, finding 10): a malformed
 * request (400), no or an ended session (401), a role or a client that may not (403), a missing record or
 * one of another client (404), a path or query too long (414), the database unreachable (503); with a
 * body, a body too large (413) or of a type the route does not read (415); a change, a missing or wrong
 * XSRF token (419; the integration API's token-authenticated routes take no cookie).
 */
function commonErrors(route: RouteOptions): number[] {
  const methods = [route.method].flat();
  const changes = methods.some((m) => m !== 'GET' && m !== 'HEAD');
  const codes = [400, 401, 403, 404, 414, 503];
  if (changes) codes.push(413, 415);
  if (changes && !route.url.startsWith('/api/v1/')) codes.push(419);
  return codes;
}

/** What a route that sends a file (PDF, CSV) answers on success, as the document shows it. */
const FILE_ANSWER = {
  description: 'El archivo (PDF o CSV), como descarga',
  content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } },
};

/**
 * onRoute hook: every `/api` route's `schema.response` declares every status the route may answer, so the
 * OpenAPI document does too. A route that declares no success answer (2xx, or a 3xx redirect) sends a file (200). Declared
 * entries of the route itself are kept as they are.
 */
export function declareResponses(route: RouteOptions): void {
  // The document's own pages (/api/docs, hidden from it) are not API routes.
  if (!route.url.startsWith('/api/') || !route.schema || route.schema.hide) return;
  const response = { ...((route.schema.response as Record<string, unknown> | undefined) ?? {}) };
  // A redirect (a browser's navigation, such as single sign-on's 302s) is its route's success answer.
  if (!Object.keys(response).some((code) => code.startsWith('2') || code.startsWith('3')))
    response[200] = FILE_ANSWER;
  for (const code of commonErrors(route)) response[code] ??= ErrorBody;
  route.schema = { ...route.schema, response };
}
