// Builds the server for production: one ES module, apps/server/dist/server.js, from the TypeScript sources
// and the shared package; the npm packages stay external and load from node_modules. Running plain
// JavaScript instead of transpiling at start saves about 30 MB of memory and a second of start-up.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'apps/server');
const pkg = JSON.parse(readFileSync(path.join(server, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => name !== '@portal/shared');

const started = Date.now();
await build({
  entryPoints: [path.join(server, 'src/server.ts')],
  outfile: path.join(server, 'dist/server.js'),
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Subpath imports of the external packages (drizzle-orm/pg-core, …) are external too.
  external: [...external, ...external.map((name) => `${name}/*`)],
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
});
console.log(`servidor compilado en apps/server/dist/server.js (${Date.now() - started} ms)`);
