/**
 * zod compiles object checks with `new Function` when it can, and finds out by trying once, when the first
 * object schema is built: under the page's Content-Security-Policy (no 'unsafe-eval') that probe is a
 * blocked eval the browser reports on every page. The interpreted checks are the same checks (decision
 * 0095). Imported first by main.tsx, before any module builds a schema.
 */
import { z } from 'zod';

z.config({ jitless: true });
