import dayjs from 'dayjs';
import timezone from 'dayjs/plugin/timezone.js';
import utc from 'dayjs/plugin/utc.js';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  businessDate,
  businessDateRange,
  businessMonth,
  formatDate,
  formatDateTime,
  isIsoDate,
  lastBusinessHour,
  passwordExpired,
} from './time.ts';

dayjs.extend(utc);
dayjs.extend(timezone);

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

  it('formats dd/MM/yyyy and dd/MM/yyyy HH:mm in the business zone', () => {
    const instant = new Date('2026-02-01T05:30:00Z');
    expect(formatDate(instant)).toBe('31/01/2026');
    expect(formatDateTime(instant)).toBe('31/01/2026 23:30');
    expect(formatDateTime(new Date('2026-07-04T15:05:00Z'), 'UTC')).toBe('04/07/2026 15:05');
  });

  it('agrees with Intl for every zone kind, across daylight-saving changes and odd offsets', () => {
    // An independent oracle: Swedish dates read "2026-03-08 02:05".
    const formatters = new Map<string, Intl.DateTimeFormat>();
    const reference = (ms: number, tz: string) => {
      let formatter = formatters.get(tz);
      if (!formatter) {
        formatter = new Intl.DateTimeFormat('sv-SE', {
          timeZone: tz,
          dateStyle: 'short',
          timeStyle: 'short',
        });
        formatters.set(tz, formatter);
      }
      const [, y, m, d, hm] = /^(\d{4})-(\d\d)-(\d\d) (\d\d:\d\d)$/.exec(formatter.format(ms)) ?? [];
      return `${d}/${m}/${y} ${hm} ${y}-${m}-${d}`;
    };
    const zones = [
      'America/Mexico_City', // DST until 2022
      'America/Tijuana', // DST today
      'America/St_Johns', // -3:30 / -2:30
      'Asia/Kolkata', // +5:30
      'Asia/Kathmandu', // +5:45
      'Australia/Lord_Howe', // a 30-minute DST change
      'UTC',
    ];
    // Every 7 minutes through the days around changes, then instants spread over two centuries.
    const instants: number[] = [];
    for (const day of ['2022-10-30', '2026-03-08', '2026-11-01', '2026-04-05', '2026-10-04']) {
      const from = Date.parse(`${day}T00:00:00Z`) - 86_400_000;
      for (let ms = from; ms < from + 3 * 86_400_000; ms += 7 * 60_000 + 13_000) instants.push(ms);
    }
    let seed = 7;
    const random = () => {
      seed = (seed * 48_271) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    for (let i = 0; i < 3000; i++) instants.push(Date.UTC(1950, 0, 1) + random() * 150 * 365.25 * 86_400_000);
    const wrong: string[] = [];
    for (const tz of zones) {
      for (const ms of instants) {
        // Twice: the first call fills the hour's cache, the second reads it.
        for (let round = 0; round < 2; round++) {
          const got = `${formatDateTime(ms, tz)} ${businessDate(new Date(ms), tz)}`;
          const want = reference(ms, tz);
          if (got !== want) wrong.push(`${tz} ${new Date(ms).toISOString()}: ${got} ≠ ${want}`);
        }
      }
    }
    expect(instants.length).toBeGreaterThan(5000);
    expect(wrong.slice(0, 10)).toEqual([]);
  }, 60_000);

  it('validates calendar dates and adds days', () => {
    expect(isIsoDate('2026-02-28')).toBe(true);
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-2-3')).toBe(false);
    expect(addDays('2026-12-30', 4)).toBe('2027-01-03');
  });

  it('adds days by date arithmetic: month and year ends, leap years both ways, negative days, as dayjs did', () => {
    expect(addDays('2026-01-31', 1)).toBe('2026-02-01');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2028-02-29', 1)).toBe('2028-03-01');
    expect(addDays('2028-03-01', -1)).toBe('2028-02-29');
    expect(addDays('2100-02-28', 1)).toBe('2100-03-01'); // a century, not a leap year
    expect(addDays('2000-02-28', 1)).toBe('2000-02-29'); // every 400 years, a leap year
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2027-01-01', -1)).toBe('2026-12-31');
    expect(addDays('2027-03-01', 0)).toBe('2027-03-01');
    expect(addDays('2027-12-20', 365)).toBe('2028-12-19');
    expect(addDays('2026-06-15', -400)).toBe('2025-05-11');
    // Every day of 2026–2029 plus 0–400 days against dayjs's calendar, the former implementation.
    const wrong: string[] = [];
    for (let day = dayjs.utc('2026-01-01'); day.year() < 2030; day = day.add(1, 'day')) {
      const iso = day.format('YYYY-MM-DD');
      for (const n of [-400, -366, -31, -1, 1, 15, 29, 30, 31, 60, 90, 365, 366, 400]) {
        const want = day.add(n, 'day').format('YYYY-MM-DD');
        if (addDays(iso, n) !== want) wrong.push(`${iso} + ${n}: ${addDays(iso, n)} ≠ ${want}`);
      }
    }
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('a password expires six months after it was set, on the business calendar whatever the machine’s zone', () => {
    const set = new Date('2026-01-15T12:00:00Z'); // 06:00 in Mexico City
    expect(passwordExpired(set, new Date('2026-07-15T11:59:59Z'))).toBe(false);
    expect(passwordExpired(set, new Date('2026-07-15T12:00:00Z'))).toBe(true);
    expect(passwordExpired(null, new Date())).toBe(true);
    // A zone with summer time keeps the wall-clock hour: 13:00 CET in January → 13:00 CEST in July.
    const madrid = new Date('2026-01-15T12:00:00Z');
    expect(passwordExpired(madrid, new Date('2026-07-15T10:59:59Z'), 'Europe/Madrid')).toBe(false);
    expect(passwordExpired(madrid, new Date('2026-07-15T11:00:00Z'), 'Europe/Madrid')).toBe(true);
  });

  it('a password’s six months end as dayjs counts them in the business zone, month ends included', () => {
    // dayjs's month arithmetic was the rule before; every day of three years, at an odd hour, both sides of
    // the moment it expires, in the default zone and in one with summer time.
    for (const tz of ['America/Mexico_City', 'Europe/Madrid']) {
      for (let t = Date.UTC(2027, 0, 1, 13, 7, 11); t < Date.UTC(2030, 0, 1); t += 86_400_000) {
        const set = new Date(t);
        // The wall clock in the zone, six months on (dayjs's own add in a zone keeps the offset), read back.
        const wall = dayjs(set).tz(tz).format('YYYY-MM-DD HH:mm:ss');
        const due = dayjs.tz(dayjs.utc(wall).add(6, 'month').format('YYYY-MM-DD HH:mm:ss'), tz).valueOf();
        for (const now of [due - 1, due, due + 1])
          expect(
            passwordExpired(set, new Date(now), tz),
            `${tz} ${set.toISOString()} a ${new Date(now).toISOString()}`,
          ).toBe(now >= due);
      }
    }
    const aug31 = new Date('2027-08-31T09:00:00-06:00');
    expect(passwordExpired(aug31, new Date('2028-02-29T08:59:00-06:00'))).toBe(false);
    expect(passwordExpired(aug31, new Date('2028-02-29T09:00:00-06:00'))).toBe(true);
  }, 60_000);
});

describe('lastBusinessHour (the daily digest)', () => {
  it("today's hour once it has come, yesterday's before; across a DST change in Madrid", () => {
    const at = (iso: string) => new Date(iso);
    // 08:00 in Mexico City is 14:00 UTC.
    expect(lastBusinessHour(at('2026-12-03T14:30:00Z'), 8).toISOString()).toBe('2026-12-03T14:00:00.000Z');
    expect(lastBusinessHour(at('2026-12-03T14:00:00Z'), 8).toISOString()).toBe('2026-12-03T14:00:00.000Z');
    expect(lastBusinessHour(at('2026-12-03T13:59:00Z'), 8).toISOString()).toBe('2026-12-02T14:00:00.000Z');
    // 00:30 on the 1st of January in Mexico City, hour 23: the last day of the year before.
    expect(lastBusinessHour(at('2027-01-01T06:30:00Z'), 23).toISOString()).toBe('2027-01-01T05:00:00.000Z');
    // Madrid moves from UTC+1 to UTC+2 on 28 March 2027: 09:00 is 08:00 UTC the day before, 07:00 UTC then.
    expect(lastBusinessHour(at('2027-03-28T07:30:00Z'), 9, 'Europe/Madrid').toISOString()).toBe(
      '2027-03-28T07:00:00.000Z',
    );
    expect(lastBusinessHour(at('2027-03-28T06:30:00Z'), 9, 'Europe/Madrid').toISOString()).toBe(
      '2027-03-27T08:00:00.000Z',
    );
  });
});
