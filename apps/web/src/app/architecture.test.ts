import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The web app's dependency rule of `npm run lint` (.dependency-cruiser.cjs, issue 39): app/ composes the
 * features; a feature never imports another feature or app/; components/ and lib/ import neither. The
 * committed tree passes (`npm run lint`); this shows the same check fails once a probe breaks each rule.
 */
const root = path.resolve(__dirname, '../../../..');
const depcruise = path.join(root, 'node_modules/.bin/depcruise');

function cruise(): { ok: boolean; output: string } {
  try {
    const output = execFileSync(depcruise, ['apps/web/src', '--config', '.dependency-cruiser.cjs'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    return { ok: true, output };
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('web dependency rule', () => {
  it('a feature importing another feature, and a component importing a feature, fail the check', () => {
    const tag = `${process.pid}-${Date.now()}`;
    const sideways = path.join(root, `apps/web/src/features/shopping/sideways-${tag}.ts`);
    const upwards = path.join(root, `apps/web/src/components/ui/upwards-${tag}.ts`);
    try {
      writeFileSync(sideways, "export { resultSentence } from '../admin/imports/import-jobs';\n");
      writeFileSync(upwards, "export { spendQuery } from '../../features/dashboard/api/spend';\n");
      const result = cruise();
      expect(result.ok).toBe(false);
      expect(result.output).toContain(
        `web-features-not-to-other-features: apps/web/src/features/shopping/sideways-${tag}.ts`,
      );
      expect(result.output).toContain(
        `web-primitives-not-to-features: apps/web/src/components/ui/upwards-${tag}.ts`,
      );
    } finally {
      rmSync(sideways, { force: true });
      rmSync(upwards, { force: true });
    }
  }, 120_000);
});
