import { passwordRuleChecks } from '@portal/shared/domain/password';
import { MSG } from '@portal/shared/messages';
import { describe, expect, it } from 'vitest';
import { checklistItems, checklistSummary } from './password-checklist-items';

describe('password checklist', () => {
  it('lists the four rules, and the match only when the form has a confirmation', () => {
    expect(checklistItems(passwordRuleChecks('x'), 'x').map((i) => i.key)).toEqual([
      'longitud',
      'mayuscula',
      'numero',
      'simbolo',
    ]);
    const withConfirmation = checklistItems(passwordRuleChecks('Demo#2026'), 'Demo#2026', 'Demo#2026');
    expect(withConfirmation.at(-1)).toEqual({
      key: 'coinciden',
      texto: MSG.reglaPasswordCoinciden,
      cumple: true,
    });
  });

  it('two empty entries do not "match"', () => {
    expect(checklistItems(passwordRuleChecks(''), '', '').at(-1)?.cumple).toBe(false);
    expect(checklistItems(passwordRuleChecks('Demo#2026'), 'Demo#2026', 'Demo#202').at(-1)?.cumple).toBe(
      false,
    );
  });

  it('says how many rules are met and names the missing ones', () => {
    const items = checklistItems(passwordRuleChecks('abcdefgh'), 'abcdefgh', '');
    expect(checklistSummary(items)).toBe(
      'Cumple 1 de 5 requisitos. Pendiente: una letra mayúscula, un número, un símbolo (por ejemplo # ! $ %), las dos contraseñas coinciden.',
    );
    expect(checklistSummary(checklistItems(passwordRuleChecks('Demo#2026'), 'Demo#2026', 'Demo#2026'))).toBe(
      MSG.reglasPasswordTodas,
    );
  });
});
