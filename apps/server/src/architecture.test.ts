import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

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
  }, 30_000);
});
