import { describe, expect, it } from 'vitest';
import { approvalTarget, rulesProblem, rulesSentence, statusAtPurchase } from './approval-rules.ts';

const OFF = { autoHasta: null, segundoNivelDesde: null };

describe('approval rules by amount', () => {
  it('at purchase: no levels approves; the automatic rule approves up to its amount, inclusive', () => {
    expect(statusAtPurchase(0, 999_999, OFF)).toEqual({ status: 'aprobado', rule: null });
    expect(statusAtPurchase(1, 100, OFF)).toEqual({ status: 'pendiente', rule: null });
    const rules = { autoHasta: 50_000, segundoNivelDesde: null };
    expect(statusAtPurchase(2, 50_000, rules)).toEqual({
      status: 'aprobado',
      rule: { regla: 'aprobacion_automatica', hasta: 50_000 },
    });
    expect(statusAtPurchase(2, 50_001, rules)).toEqual({ status: 'pendiente', rule: null });
    expect(statusAtPurchase(1, 0, { autoHasta: 0, segundoNivelDesde: null }).status).toBe('aprobado');
  });

  it('a level-1 approval below the second-level amount completes the order; at it, espera', () => {
    const rules = { autoHasta: null, segundoNivelDesde: 500_000 };
    expect(approvalTarget('espera', 'pendiente', 499_999, rules)).toEqual({
      to: 'aprobado',
      rule: { regla: 'segundo_nivel', desde: 500_000 },
    });
    expect(approvalTarget('espera', 'pendiente', 500_000, rules)).toEqual({ to: 'espera', rule: null });
    // One level, or the final approval: the rule does not apply.
    expect(approvalTarget('aprobado', 'pendiente', 1, rules)).toEqual({ to: 'aprobado', rule: null });
    expect(approvalTarget('aprobado', 'espera', 1, rules)).toEqual({ to: 'aprobado', rule: null });
    expect(approvalTarget('espera', 'pendiente', 1, OFF)).toEqual({ to: 'espera', rule: null });
  });

  it("adds the buyer's orders of the window before the order (a split cart meets the rules as one)", () => {
    const auto = { autoHasta: 50_000, segundoNivelDesde: null };
    expect(statusAtPurchase(2, 20_000, auto, 30_000)).toEqual({
      status: 'aprobado',
      rule: { regla: 'aprobacion_automatica', hasta: 50_000, previos: 30_000 },
    });
    expect(statusAtPurchase(2, 20_001, auto, 30_000)).toEqual({ status: 'pendiente', rule: null });
    // Without levels nothing is asked, whatever came before.
    expect(statusAtPurchase(0, 20_001, auto, 30_000)).toEqual({ status: 'aprobado', rule: null });
    const second = { autoHasta: null, segundoNivelDesde: 500_000 };
    expect(approvalTarget('espera', 'pendiente', 200_000, second, 299_999)).toEqual({
      to: 'aprobado',
      rule: { regla: 'segundo_nivel', desde: 500_000, previos: 299_999 },
    });
    expect(approvalTarget('espera', 'pendiente', 200_000, second, 300_000)).toEqual({
      to: 'espera',
      rule: null,
    });
  });

  it('refuses a second-level amount without two levels and an automatic amount not below it', () => {
    expect(rulesProblem(1, { autoHasta: null, segundoNivelDesde: 1 })).toBe('SECOND_NEEDS_TWO_LEVELS');
    expect(rulesProblem(0, { autoHasta: null, segundoNivelDesde: 1 })).toBe('SECOND_NEEDS_TWO_LEVELS');
    expect(rulesProblem(2, { autoHasta: 100, segundoNivelDesde: 100 })).toBe('AUTO_NOT_BELOW_SECOND');
    expect(rulesProblem(2, { autoHasta: 99, segundoNivelDesde: 100 })).toBeNull();
    expect(rulesProblem(1, { autoHasta: 5_000, segundoNivelDesde: null })).toBeNull();
  });

  it('says the rules in one plain sentence', () => {
    expect(rulesSentence(OFF)).toBeNull();
    expect(rulesSentence({ autoHasta: 50_000, segundoNivelDesde: 500_000 })).toBe(
      'Pedidos hasta $500.00 MXN se aprueban solos; desde $5,000.00 MXN requieren Super Autorizador.',
    );
    expect(rulesSentence({ autoHasta: null, segundoNivelDesde: 500_000 })).toBe(
      'Pedidos desde $5,000.00 MXN requieren Super Autorizador; los menores los aprueba el Autorizador.',
    );
    expect(rulesSentence({ autoHasta: 0, segundoNivelDesde: null })).toBe(
      'Pedidos hasta $0.00 MXN se aprueban solos.',
    );
    expect(rulesSentence({ autoHasta: 50_000, segundoNivelDesde: null }, 24)).toBe(
      'Pedidos hasta $500.00 MXN se aprueban solos. Se suman los pedidos del mismo comprador de las últimas 24 horas.',
    );
    expect(rulesSentence({ autoHasta: null, segundoNivelDesde: 500_000 }, 1)).toBe(
      'Pedidos desde $5,000.00 MXN requieren Super Autorizador; los menores los aprueba el Autorizador. Se suman los pedidos del mismo comprador de la última hora.',
    );
  });
});
