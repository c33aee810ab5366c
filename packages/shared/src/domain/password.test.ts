import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { newPasswordProblem, passwordMeetsPolicy } from './password.ts';

describe('password policy', () => {
  it('needs 8+ characters, an uppercase letter, a digit and a symbol', () => {
    expect(passwordMeetsPolicy('Demo#2026')).toBe(true);
    expect(passwordMeetsPolicy('Ab1#')).toBe(false);
    expect(passwordMeetsPolicy('abcdefg1#')).toBe(false);
    expect(passwordMeetsPolicy('ABCDEFGH#')).toBe(false);
    expect(passwordMeetsPolicy('Abcdefgh1')).toBe(false);
    expect(passwordMeetsPolicy('Ñandú#2026')).toBe(true);
  });

  it('gives the spec messages in order: required, policy, match', () => {
    expect(newPasswordProblem({ newPass: '', confirmPass: '' })).toBe(MSG.todosLosCampos);
    expect(newPasswordProblem({ newPass: 'Demo#2026', confirmPass: 'Demo#2026' }, '')).toBe(
      MSG.todosLosCampos,
    );
    expect(newPasswordProblem({ newPass: 'debil', confirmPass: 'debil' })).toBe(MSG.passwordPolitica);
    expect(newPasswordProblem({ newPass: 'Demo#2026', confirmPass: 'Demo#2027' })).toBe(
      MSG.passwordsNoCoinciden,
    );
    expect(newPasswordProblem({ newPass: 'Demo#2026', confirmPass: 'Demo#2026' }, 'Actual#1')).toBeNull();
  });
});
