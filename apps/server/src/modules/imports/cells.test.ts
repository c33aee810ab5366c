import { describe, expect, it } from 'vitest';
import { isEmailCell } from './cells.ts';

describe('import cells: e-mail', () => {
  it('accepts addresses and refuses the rest', () => {
    expect(isEmailCell('ana@empresa.mx')).toBe(true);
    expect(isEmailCell('no-es-correo')).toBe(false);
    expect(isEmailCell(`${'a'.repeat(250)}@b.mx`)).toBe(false);
  });

  it('refuses a pathological cell in milliseconds (it froze the event loop for seconds)', () => {
    // The former pattern backtracked quadratically on many dots after the @ and a failing last character.
    // The fastest of three runs: backtracking is slow every time, a pause of a loaded machine is not.
    for (const cell of [`a@${'.'.repeat(80_000)}@`, `a@${'a.'.repeat(40_000)} `]) {
      let fastest = Number.POSITIVE_INFINITY;
      for (let i = 0; i < 3; i++) {
        const start = performance.now();
        expect(isEmailCell(cell)).toBe(false);
        fastest = Math.min(fastest, performance.now() - start);
      }
      expect(fastest).toBeLessThan(50);
    }
  });
});
