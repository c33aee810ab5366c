// `npm run typecheck`: tsc on each TypeScript project, as many at once as the machine has cores. The checker
// is TypeScript 7, the native compiler (the `typescript-native` alias): the same checks in about a sixth of
// the time of 5.9 (decision 0079). TypeScript 5.9 stays installed for the tools that call the compiler's
// JavaScript API (dependency-cruiser's TypeScript parsing). Each project's output is printed whole when it
// ends; exits 1 if any project has errors.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { availableParallelism } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
// The package exports no path to its command: it is found next to its package.json.
const tsc = path.join(
  path.dirname(createRequire(import.meta.url).resolve('typescript-native/package.json')),
  'bin/tsc',
);
const PROJECTS = [
  'packages/shared',
  'apps/server',
  'apps/web',
  // The service worker: the worker's own globals, not the page's (decision 0118).
  'apps/web/src/service-worker',
  'scripts/bench',
];

function check(project) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn(process.execPath, [tsc, '-p', project], { cwd: root });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('close', (code) => {
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      process.stdout.write(`tsc -p ${project}: ${code === 0 ? 'ok' : 'errors'} (${seconds} s)\n${output}`);
      resolve(code === 0);
    });
  });
}

const queue = [...PROJECTS];
let failed = false;
async function worker() {
  for (let project = queue.shift(); project; project = queue.shift()) {
    if (!(await check(project))) failed = true;
  }
}
await Promise.all(Array.from({ length: Math.min(availableParallelism(), PROJECTS.length) }, worker));
process.exit(failed ? 1 : 0);
