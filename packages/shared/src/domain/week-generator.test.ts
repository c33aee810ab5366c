import { describe, expect, it } from 'vitest';
import {
  generateWeeks,
  generatorRangeEnd,
  mondayOnOrAfter,
  WEEK_GENERATOR_MAX_WEEKS,
} from './week-generator.ts';

describe('access-week generator', () => {
  it('finds Mondays and the two-year end', () => {
    expect(mondayOnOrAfter('2027-01-01')).toBe('2027-01-04');
    expect(mondayOnOrAfter('2027-01-04')).toBe('2027-01-04');
    expect(mondayOnOrAfter('2027-01-10')).toBe('2027-01-11');
    expect(generatorRangeEnd('2027-01-01')).toBe('2028-12-31');
    expect(generatorRangeEnd('2028-02-29')).toBe('2030-02-27');
  });

  it('takes the N-th or the last Monday of each month', () => {
    const rule = { desde: '2027-01-01', hasta: '2027-04-30', modo: 'mensual' as const, dias: 5 };
    expect(generateWeeks({ ...rule, semana_del_mes: '2' }).map((w) => w.inicio)).toEqual([
      '2027-01-11',
      '2027-02-08',
      '2027-03-08',
      '2027-04-12',
    ]);
    expect(generateWeeks({ ...rule, semana_del_mes: 'ultima' }).map((w) => w.inicio)).toEqual([
      '2027-01-25',
      '2027-02-22',
      '2027-03-29',
      // The week of 26 April ends on the 30th, inside the range.
      '2027-04-26',
    ]);
  });

  it('stops one past the limit, so a caller can refuse a rule that makes too many', () => {
    const rule = { desde: '2027-01-01', hasta: '2028-12-31', modo: 'semanal' as const, dias: 5 };
    expect(generateWeeks(rule)).toHaveLength(104);
    expect(generateWeeks(rule, 10)).toHaveLength(11);
    expect(WEEK_GENERATOR_MAX_WEEKS).toBe(200);
  });
});
