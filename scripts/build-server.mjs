// Builds the server for production: one ES module, apps/server/dist/server.js, from the TypeScript sources
// and the shared package; the npm packages stay external and load from node_modules. Running plain
// JavaScript instead of transpiling at start saves about 30 MB of memory and a second of start-up.
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const server = path.join(root, 'apps/server');
const pkg = JSON.parse(readFileSync(path.join(server, 'package.json'), 'utf8'));
const external = Object.keys(pkg.dependencies).filter((name) => name !== '@portal/shared');

const started = Date.now();
const { outputFiles } = await build({
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
  write: false,
});
// Each file is replaced by one rename: a server starting while another build runs (the reliability suite
// restarts its instances while the browser suite builds) reads the old file or the new one, never half.
for (const file of outputFiles) {
  mkdirSync(path.dirname(file.path), { recursive: true });
  const partial = `${file.path}.${process.pid}.tmp`;
  writeFileSync(partial, file.contents);
  renameSync(partial, file.path);
}
console.log(`servidor compilado en apps/server/dist/server.js (${Date.now() - started} ms)`);
