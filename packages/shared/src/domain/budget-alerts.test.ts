import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { ClientForm } from '../schemas/clients.ts';
import { budgetAlertLevel, crossedThresholds, normalizeThresholds, usedPercent } from './budget-alerts.ts';
import { monthName } from './months.ts';

describe('budget alerts', () => {
  it('a threshold is crossed at exactly its share, not a centavo before', () => {
    expect(crossedThresholds(79_999, 100_000, [80, 100])).toEqual([]);
    expect(crossedThresholds(80_000, 100_000, [80, 100])).toEqual([80]);
    expect(crossedThresholds(99_999, 100_000, [80, 100])).toEqual([80]);
    expect(crossedThresholds(100_000, 100_000, [80, 100])).toEqual([80, 100]);
    expect(crossedThresholds(150_000, 100_000, [100, 50, 80])).toEqual([50, 80, 100]);
  });

  it('uneven budgets: integer arithmetic, no floating-point edge', () => {
    // 80% of $333.33 is $266.664: $266.66 is below, $266.67 is at or above.
    expect(crossedThresholds(26_666, 33_333, [80])).toEqual([]);
    expect(crossedThresholds(26_667, 33_333, [80])).toEqual([80]);
    expect(usedPercent(26_666, 33_333)).toBe(79);
    expect(usedPercent(26_667, 33_333)).toBe(80);
  });

  it('a budget of 0 (no budget) never alerts', () => {
    expect(crossedThresholds(0, 0, [1, 100])).toEqual([]);
    expect(crossedThresholds(5_000, 0, [1, 100])).toEqual([]);
    expect(usedPercent(5_000, 0)).toBe(0);
    expect(budgetAlertLevel(5_000, 0, [1])).toBe('normal');
  });

  it('the used percentage is rounded down', () => {
    expect(usedPercent(82_990, 100_000)).toBe(82);
    expect(usedPercent(123_000, 100_000)).toBe(123);
    expect(usedPercent(0, 100_000)).toBe(0);
  });

  it('thresholds without repeats, ascending', () => {
    expect(normalizeThresholds([100, 80, 80])).toEqual([80, 100]);
    expect(normalizeThresholds([50])).toEqual([50]);
  });

  it('the card: amber from the first threshold, red from 100%', () => {
    expect(budgetAlertLevel(79_000, 100_000, [80, 100])).toBe('normal');
    expect(budgetAlertLevel(80_000, 100_000, [80, 100])).toBe('aviso');
    expect(budgetAlertLevel(100_000, 100_000, [80, 100])).toBe('agotado');
    expect(budgetAlertLevel(60_000, 100_000, [90, 50])).toBe('aviso');
    // Only 100% configured: nothing amber, red at 100%.
    expect(budgetAlertLevel(99_000, 100_000, [100])).toBe('normal');
    expect(budgetAlertLevel(100_000, 100_000, [100])).toBe('agotado');
  });

  it('Spanish month names and the sentence', () => {
    expect(monthName('2026-11')).toBe('noviembre');
    expect(monthName('2027-01')).toBe('enero');
    expect(MSG.presupuestoUsado(82, 'noviembre')).toBe('Has usado el 82% de tu presupuesto de noviembre');
    expect(MSG.presupuestoUsado(82, 'noviembre', 'Papelería')).toBe(
      'Has usado el 82% de tu presupuesto de Papelería de noviembre',
    );
  });
});

describe('the client setting', () => {
  const base = { nombre: 'X', presupuesto_default: 100, limite_de_compras: -1 };
  const parse = (alertas_presupuesto: unknown) => ClientForm.safeParse({ ...base, alertas_presupuesto });

  it('reads a form text or an array, drops repeats, sorts', () => {
    expect(parse('100, 80').data?.alertas_presupuesto).toEqual([80, 100]);
    expect(parse('80%,80,90').data?.alertas_presupuesto).toEqual([80, 90]);
    expect(parse([50, '75']).data?.alertas_presupuesto).toEqual([50, 75]);
    expect(parse('').data?.alertas_presupuesto).toBeUndefined();
    expect(parse(undefined).data?.alertas_presupuesto).toBeUndefined();
  });

  it('refuses 0, 101, fractions, words and more than three', () => {
    for (const bad of ['0', '101', '80.5', 'ochenta', [80, null]])
      expect(parse(bad).error?.issues[0]?.message).toBe(MSG.alertasPresupuestoInvalido);
    expect(parse('10,20,30,40').error?.issues[0]?.message).toBe(MSG.alertasPresupuestoCantidad);
    expect(parse([]).error?.issues[0]?.message).toBe(MSG.alertasPresupuestoCantidad);
    expect(parse('10,20,30,30').data?.alertas_presupuesto).toEqual([10, 20, 30]);
  });
});
