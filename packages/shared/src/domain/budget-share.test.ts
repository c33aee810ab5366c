import { describe, expect, it } from 'vitest';
import { budgetShare, shareLevel, sharePercent } from './budget-share.ts';

describe('budget share', () => {
  it('is used ÷ budget, infinite without a budget when something was used', () => {
    expect(budgetShare(800, 1000)).toBe(0.8);
    expect(budgetShare(0, 0)).toBe(0);
    expect(budgetShare(5, 0)).toBe(Number.POSITIVE_INFINITY);
  });

  it('marks 80% and 100% inclusive', () => {
    expect(shareLevel(budgetShare(799.99, 1000))).toBe('normal');
    expect(shareLevel(budgetShare(800, 1000))).toBe('cerca');
    expect(shareLevel(budgetShare(999.99, 1000))).toBe('cerca');
    expect(shareLevel(budgetShare(1000, 1000))).toBe('excedido');
    expect(shareLevel(budgetShare(1, 0))).toBe('excedido');
  });

  it('says the percentage floored, never 100% before it is reached', () => {
    expect(sharePercent(0.996)).toBe('99%');
    expect(sharePercent(1.234)).toBe('123%');
    expect(sharePercent(Number.POSITIVE_INFINITY)).toBe('Sin presupuesto');
  });
});
