#!/usr/bin/env node
/**
 * Front-end budget (docs/decisions/0029-front-end-budget.md). Reads the manifest of the web build
 * (apps/web/dist/.vite/manifest.json) and works out, for each route, the JavaScript the browser must load
 * before the screen shows: the entry, the route's lazy chunks, and everything those import statically.
 * Sizes are gzip at node:zlib's default level, as in Vite's own build report. Exits 1 when the sign-in
 * route is over budget or a role area is not a lazy chunk of its own.
 *
 * Usage: node scripts/check-bundle.mjs   (after `npm run build`)
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const DIST = path.resolve(import.meta.dirname, '../apps/web/dist');
/** kB as Vite prints them (1 kB = 1,000 bytes). */
const LOGIN_BUDGET_KB = 150;
/**
 * The files a screen loads before it shows (decision 0135): each is a request of its own, six at a time on
 * a phone's HTTP/1.1 connection. The build groups the signed-in screens' code by role area
 * (apps/web/chunk-groups.ts): 8 files for /login, 16–21 for an area, against 29 and 78–103 without it.
 */
const MAX_CHUNKS = { login: 10, area: 25 };

/** The lazy route modules each screen needs, as keyed in the manifest (paths relative to apps/web). */
const ROUTES = [
  {
    name: '/login',
    budget: LOGIN_BUDGET_KB,
    lazy: ['src/app/routes/auth/layout.tsx', 'src/app/routes/auth/login.tsx'],
  },
  { name: '/usuario/*', lazy: ['src/app/routes/app-shell.tsx', 'src/app/routes/usuario/pages.tsx'] },
  {
    name: '/autorizador/*',
    lazy: ['src/app/routes/app-shell.tsx', 'src/app/routes/autorizador/pages.tsx'],
  },
  {
    name: '/administrador/*',
    lazy: ['src/app/routes/app-shell.tsx', 'src/app/routes/administrador/pages.tsx'],
  },
  { name: '/cliente/*', lazy: ['src/app/routes/app-shell.tsx', 'src/app/routes/cliente/pages.tsx'] },
];
const ROLE_AREAS = ROUTES.slice(1).map((r) => r.lazy[1]);

let manifest;
try {
  manifest = JSON.parse(readFileSync(path.join(DIST, '.vite/manifest.json'), 'utf8'));
} catch (error) {
  console.error(`No se pudo leer el manifiesto de la compilación (¿falta npm run build?): ${error.message}`);
  process.exit(1);
}

const failures = [];
const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) failures.push('el manifiesto no tiene entrada');

/** The chunk files a module key loads: its own file plus its static imports, transitively. */
function closure(keys) {
  const files = new Set();
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) {
      failures.push(`el manifiesto no tiene ${key}`);
      return;
    }
    if (chunk.file.endsWith('.js')) files.add(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

const gzipCache = new Map();
function gzipBytes(file) {
  if (!gzipCache.has(file)) gzipCache.set(file, gzipSync(readFileSync(path.join(DIST, file))).length);
  return gzipCache.get(file);
}
const kb = (bytes) => (bytes / 1000).toFixed(1);

const entryFiles = entryKey ? closure([entryKey]) : new Set();
const entryGzip = [...entryFiles].reduce((sum, f) => sum + gzipBytes(f), 0);

const rows = ROUTES.map((route) => {
  const files = closure([entryKey, ...route.lazy].filter(Boolean));
  const total = [...files].reduce((sum, f) => sum + gzipBytes(f), 0);
  const over = route.budget !== undefined && total > route.budget * 1000;
  if (over)
    failures.push(`${route.name} carga ${kb(total)} kB de JS gzip; el presupuesto es ${route.budget} kB`);
  const maxChunks = route.budget === undefined ? MAX_CHUNKS.area : MAX_CHUNKS.login;
  if (files.size > maxChunks)
    failures.push(
      `${route.name} carga ${files.size} archivos de JS; el límite es ${maxChunks} (chunk-groups.ts)`,
    );
  return { route: route.name, chunks: files.size, total, budget: route.budget, over };
});

// Each role area is a lazy chunk of its own, never part of the entry nor of another area.
const areaFiles = ROLE_AREAS.map((key) => manifest[key]);
ROLE_AREAS.forEach((key, i) => {
  const chunk = areaFiles[i];
  if (!chunk) {
    failures.push(`falta el chunk de ${key}`);
    return;
  }
  if (!chunk.isDynamicEntry) failures.push(`${key} no es un chunk diferido (lazy)`);
  if (entryFiles.has(chunk.file)) failures.push(`${key} está dentro de la entrada`);
  if (areaFiles.some((other, j) => j !== i && other?.file === chunk.file)) {
    failures.push(`${key} comparte chunk con otra área`);
  }
});

const pad = (s, n) => String(s).padEnd(n);
const lpad = (s, n) => String(s).padStart(n);
console.log(`\nJS por ruta (gzip, kB = 1000 B); entrada ${kb(entryGzip)} kB en ${entryFiles.size} chunk(s)`);
console.log(`${pad('ruta', 18)}${lpad('chunks', 7)}${lpad('JS gzip', 10)}${lpad('límite', 9)}  estado`);
for (const row of rows) {
  const limit = row.budget === undefined ? '—' : String(row.budget);
  const state = row.budget === undefined ? '' : row.over ? 'EXCEDIDO' : 'ok';
  console.log(
    `${pad(row.route, 18)}${lpad(row.chunks, 7)}${lpad(kb(row.total), 10)}${lpad(limit, 9)}  ${state}`,
  );
}
console.log('');

if (failures.length > 0) {
  for (const failure of failures) console.error(`✗ ${failure}`);
  process.exit(1);
}
console.log('✓ Presupuesto de JS y de archivos cumplido; cada área de rol es un chunk diferido propio.');
