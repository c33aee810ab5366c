/**
 * zod compiles object checks with `new Function` when it can, and finds out by trying once, when the first
 * object schema is built: under the page's Content-Security-Policy (no 'unsafe-eval') that probe is a
 * blocked eval the browser reports on every page. The interpreted checks are the same checks (decision
 * 0095). Imported first by main.tsx, before any module builds a schema.
 *
 * zod keeps its settings in `globalThis.__zod_globalConfig` and adopts an object already there (what
 * `z.config` writes to); setting it here, without importing zod, keeps zod out of the entry chunk, which
 * the sign-in page loads (its budget, decision 0029).
 */
declare global {
  var __zod_globalConfig: { jitless?: boolean } | undefined;
}

// The object zod uses (or will adopt), changed in place: right whichever of the two loads first.
globalThis.__zod_globalConfig ??= {};
globalThis.__zod_globalConfig.jitless = true;

export {};
