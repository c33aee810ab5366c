import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import {
  newPasswordProblem,
  passwordMeetsPolicy,
  passwordRuleChecks,
  TEMPORARY_PASSWORD_TTL_HOURS,
  temporaryPasswordExpired,
} from './password.ts';

describe('password policy', () => {
  it('needs 8+ characters, an uppercase letter, a digit and a symbol', () => {
    expect(passwordMeetsPolicy('Demo#2026')).toBe(true);
    expect(passwordMeetsPolicy('Ab1#')).toBe(false);
    expect(passwordMeetsPolicy('abcdefg1#')).toBe(false);
    expect(passwordMeetsPolicy('ABCDEFGH#')).toBe(false);
    expect(passwordMeetsPolicy('Abcdefgh1')).toBe(false);
    expect(passwordMeetsPolicy('Ñandú#2026')).toBe(true);
  });

  it('checks each rule on its own, in the order the checklist lists them', () => {
    const met = (p: string) =>
      passwordRuleChecks(p)
        .filter((r) => r.cumple)
        .map((r) => r.regla);
    expect(passwordRuleChecks('').map((r) => [r.regla, r.cumple])).toEqual([
      ['longitud', false],
      ['mayuscula', false],
      ['numero', false],
      ['simbolo', false],
    ]);
    expect(met('abcdefgh')).toEqual(['longitud']);
    expect(met('Ñ1')).toEqual(['mayuscula', 'numero']);
    expect(met('a b')).toEqual([]); // a space is not a symbol
    expect(met('Demo#2026')).toEqual(['longitud', 'mayuscula', 'numero', 'simbolo']);
    expect(passwordRuleChecks('x').every((r) => r.texto.length > 0)).toBe(true);
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

  it('a temporary password expires 72 hours after it was set; a permanent one never does here', () => {
    const now = new Date('2026-11-24T12:00:00Z');
    const hoursAgo = (h: number) => new Date(now.getTime() - h * 3_600_000);
    expect(TEMPORARY_PASSWORD_TTL_HOURS).toBe(72);
    const temp = (h: number) => ({ passwordTemporary: true, passwordChangedAt: hoursAgo(h) });
    expect(temporaryPasswordExpired(temp(71.9), now)).toBe(false);
    expect(temporaryPasswordExpired(temp(72), now)).toBe(true);
    expect(temporaryPasswordExpired({ passwordTemporary: true, passwordChangedAt: null }, now)).toBe(true);
    expect(
      temporaryPasswordExpired({ passwordTemporary: false, passwordChangedAt: hoursAgo(500) }, now),
    ).toBe(false);
  });
});
