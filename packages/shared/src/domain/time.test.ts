import { describe, expect, it } from 'vitest';
import {
  addDays,
  businessDate,
  businessDateRange,
  businessMonth,
  formatDate,
  formatDateTime,
  isIsoDate,
  passwordExpired,
} from './time.ts';

describe('business time zone', () => {
  it('23:30 on 31 January in Mexico City is January, though UTC says February', () => {
    const instant = new Date('2026-02-01T05:30:00Z'); // 23:30 on 31 Jan in UTC-6
    expect(businessDate(instant)).toBe('2026-01-31');
    const month = businessMonth(instant);
    expect(month.key).toBe('2026-01');
    expect(month.start.toISOString()).toBe('2026-01-01T06:00:00.000Z');
    expect(month.end.toISOString()).toBe('2026-02-01T06:00:00.000Z');
    expect(instant >= month.start && instant < month.end).toBe(true);
    expect(businessMonth(new Date('2026-02-01T06:00:00Z')).key).toBe('2026-02');
  });

  it('month boundaries follow the configured zone', () => {
    const instant = new Date('2026-03-01T02:00:00Z');
    expect(businessMonth(instant, 'America/Mexico_City').key).toBe('2026-02');
    expect(businessMonth(instant, 'UTC').key).toBe('2026-03');
    expect(businessMonth(instant, 'America/Tijuana').key).toBe('2026-02');
  });

  it('a date range is inclusive of both business dates', () => {
    const r = businessDateRange('2026-01-01', '2026-01-31');
    expect(r.start.toISOString()).toBe('2026-01-01T06:00:00.000Z');
    expect(r.end.toISOString()).toBe('2026-02-01T06:00:00.000Z');
  });

  it('formats dd/MM/yyyy and dd-MM-yy HH:mm in the business zone', () => {
    const instant = new Date('2026-02-01T05:30:00Z');
    expect(formatDate(instant)).toBe('31/01/2026');
    expect(formatDateTime(instant)).toBe('31-01-26 23:30');
  });

  it('validates calendar dates and adds days', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-2-3')).toBe(false);
    expect(addDays('2026-12-30', 4)).toBe('2027-01-03');
  });

  it('a password expires six months after it was set', () => {
    const set = new Date('2026-01-15T12:00:00Z');
    expect(passwordExpired(set, new Date('2026-07-15T11:59:59Z'))).toBe(false);
    expect(passwordExpired(set, new Date('2026-07-15T12:00:00Z'))).toBe(true);
    expect(passwordExpired(null)).toBe(true);
  });
});
