import { describe, expect, it } from 'vitest';
import { addMonths, isMonthKey, monthKeys, monthsBetween } from './months.ts';

describe('business months', () => {
  it('accepts YYYY-MM only', () => {
    expect(['2026-01', '2026-12', '1999-09'].every(isMonthKey)).toBe(true);
    expect(['2026-13', '2026-00', '2026-1', '26-01', '2026-01-01', 'noviembre'].some(isMonthKey)).toBe(false);
  });

  it('counts and walks months across years', () => {
    expect(monthsBetween('2025-12', '2026-11')).toBe(12);
    expect(monthsBetween('2026-11', '2026-11')).toBe(1);
    expect(monthsBetween('2026-11', '2026-10')).toBe(0);
    expect(addMonths('2026-11', -11)).toBe('2025-12');
    expect(addMonths('2026-01', -1)).toBe('2025-12');
    expect(addMonths('2026-12', 1)).toBe('2027-01');
    expect(monthKeys('2025-11', '2026-02')).toEqual(['2025-11', '2025-12', '2026-01', '2026-02']);
  });
});
