import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readSourceIfPresent } from './test/source-tree.ts';

/**
 * The dependency rule of `npm run lint` (.dependency-cruiser.cjs, docs/decisions/0041): lib/, db/ and
 * plugins/ never import modules/, and modules do not import each other in a circle. `npm run lint` checks
 * the tree as committed (and `npm test` runs it first); this shows that the same check fails on the tree
 * with a back-arrow and a cycle added.
 */
const root = fileURLToPath(new URL('../../../', import.meta.url));
const depcruise = `${root}node_modules/.bin/depcruise`;

function cruise(): { ok: boolean; output: string } {
  try {
    const output = execFileSync(
      depcruise,
      ['apps/server/src', 'packages/shared/src', '--config', '.dependency-cruiser.cjs'],
      { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
    );
    return { ok: true, output };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('server dependency rule', () => {
  it('a back-arrow from lib/ to modules/ and a module cycle fail the check', () => {
    const tag = `${process.pid}-${Date.now()}`;
    const backArrow = `${root}apps/server/src/lib/back-arrow-${tag}.ts`;
    const cycle = `${root}apps/server/src/modules/orders/cycle-${tag}.ts`;
    try {
      writeFileSync(backArrow, "export { findUserByUsuario } from '../modules/auth/auth.repository.ts';\n");
      // shopping already imports orders (the user's history), so orders → shopping closes a circle.
      writeFileSync(cycle, "export { lockBuyer } from '../shopping/cart.service.ts';\n");
      const result = cruise();
      expect(result.ok).toBe(false);
      expect(result.output).toContain(
        `lower-layers-not-to-modules: apps/server/src/lib/back-arrow-${tag}.ts`,
      );
      expect(result.output).toContain('no-circular-modules: apps/server/src/modules/orders');
    } finally {
      rmSync(backArrow, { force: true });
      rmSync(cycle, { force: true });
    }
  }, 120_000);
});

/**
 * One clock for the server (lib/clock.ts, decision 0093): business code reads "now" from the app's clock
 * (or one passed to it), so a test can place the whole server at an instant. Reading the machine's clock
 * anywhere else fails here; an elapsed time uses performance.now().
 */
describe('one clock', () => {
  const server = `${root}apps/server/src/`;
  const RAW_CLOCK = /\bDate\.now\(\)|\bnew Date\(\s*\)/;
  /** Test code and the test harness may read the machine's clock; lib/clock.ts is the clock. */
  const exempt = (file: string) =>
    /\.test\.ts$/.test(file) || /^(test|security)\//.test(file) || file === 'lib/clock.ts';

  function offenders(): string[] {
    const found: string[] = [];
    for (const file of readdirSync(server, { recursive: true, encoding: 'utf8' })) {
      if (!file.endsWith('.ts') || exempt(file)) continue;
      // Another probe of this file (a back arrow, a cycle), gone since the listing, reads as empty.
      readSourceIfPresent(`${server}${file}`)
        .split('\n')
        .forEach((line, i) => {
          if (RAW_CLOCK.test(line) && !line.trimStart().startsWith('*') && !line.trimStart().startsWith('//'))
            found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    return found;
  }

  it('no server code reads Date.now() or new Date() but the clock', () => {
    expect(offenders()).toEqual([]);
  });

  it('a module that reads the machine’s clock is found', () => {
    const probe = `${server}modules/orders/raw-clock-${process.pid}.ts`;
    try {
      writeFileSync(probe, 'export const today = () => new Date();\nexport const ms = () => Date.now();\n');
      const found = offenders().filter((o) => o.includes(`raw-clock-${process.pid}`));
      expect(found).toHaveLength(2);
    } finally {
      rmSync(probe, { force: true });
    }
  });
});

/**
 * Services with explicit dependencies (lib/deps.ts): a module's services and repositories take `Deps` (or a
 * `Pick` of it) and the actor, never the Fastify app; the routes pass `app.deps`. A `*.service.ts` or
 * `*.repository.ts` that imports FastifyInstance or takes an `app` parameter fails here.
 */
describe('services take their dependencies, not the app', () => {
  const modules = `${root}apps/server/src/modules/`;
  const SERVICE = /\.(service|repository)\.ts$/;
  const APP = /\bFastifyInstance\b|(?:^|[(,])\s*app\??\s*:/;

  function offenders(): string[] {
    const found: string[] = [];
    for (const file of readdirSync(modules, { recursive: true, encoding: 'utf8' })) {
      if (!SERVICE.test(file)) continue;
      readFileSync(`${modules}${file}`, 'utf8')
        .split('\n')
        .forEach((line, i) => {
          const code = line.trimStart();
          if (APP.test(line) && !code.startsWith('*') && !code.startsWith('/*') && !code.startsWith('//'))
            found.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    return found;
  }

  it('no service or repository of a module imports FastifyInstance or takes an app', () => {
    expect(offenders()).toEqual([]);
  });

  it('a service that takes the app is found, by its import and by its parameter', () => {
    const service = `${modules}orders/app-probe-${process.pid}.service.ts`;
    const repository = `${modules}orders/app-probe-${process.pid}.repository.ts`;
    try {
      writeFileSync(
        service,
        "import type { FastifyInstance } from 'fastify';\nexport const rows = (app: FastifyInstance) => app.db;\n",
      );
      writeFileSync(repository, 'export function rows(\n  app: { db: unknown },\n) {\n  return app.db;\n}\n');
      const found = offenders().filter((o) => o.includes(`app-probe-${process.pid}`));
      expect(found.sort()).toEqual([
        `orders/app-probe-${process.pid}.repository.ts:2: app: { db: unknown },`,
        `orders/app-probe-${process.pid}.service.ts:1: import type { FastifyInstance } from 'fastify';`,
        `orders/app-probe-${process.pid}.service.ts:2: export const rows = (app: FastifyInstance) => app.db;`,
      ]);
    } finally {
      rmSync(service, { force: true });
      rmSync(repository, { force: true });
    }
  });
});
