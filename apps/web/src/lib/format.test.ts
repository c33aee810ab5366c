import { afterEach, describe, expect, it, vi } from 'vitest';
import { setBusinessTimeZone } from './business-zone';
import {
  currentYear,
  formatDate,
  formatDateTime,
  formatOrderNumber,
  getBusinessTimeZone,
  titleCase,
} from './format';

afterEach(() => {
  setBusinessTimeZone(null);
  vi.useRealTimers();
});

// 05:30 UTC on 1 March is still 28 February, 23:30, in Mexico City (UTC-6).
const lateEvening = '2026-03-01T05:30:00.000Z';

describe('dates in the business zone', () => {
  it('uses Mexico City until the session names a zone', () => {
    expect(getBusinessTimeZone()).toBe('America/Mexico_City');
    expect(formatDate(lateEvening)).toBe('28/02/2026');
    expect(formatDateTime(lateEvening)).toBe('28/02/2026 23:30');
  });

  it('shows every date in the zone the session announces', () => {
    setBusinessTimeZone('Europe/Madrid');
    expect(getBusinessTimeZone()).toBe('Europe/Madrid');
    expect(formatDate(lateEvening)).toBe('01/03/2026');
    expect(formatDateTime(new Date(lateEvening))).toBe('01/03/2026 06:30');
    expect(formatDateTime(Date.parse(lateEvening))).toBe('01/03/2026 06:30');
  });

  it.each([
    [null],
    [undefined],
    [''],
  ])('goes back to the default zone when the session has none (%j)', (zone) => {
    setBusinessTimeZone('UTC');
    setBusinessTimeZone(zone);
    expect(getBusinessTimeZone()).toBe('America/Mexico_City');
    expect(formatDate(lateEvening)).toBe('28/02/2026');
  });

  it('takes the footer’s year from the business zone on New Year’s Eve', () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-01-01T05:59:00.000Z'));
    expect(currentYear()).toBe(2025);
    setBusinessTimeZone('UTC');
    expect(currentYear()).toBe(2026);
    setBusinessTimeZone(null);
    vi.setSystemTime(new Date('2026-01-01T06:00:00.000Z'));
    expect(currentYear()).toBe(2026);
  });

  it.each([
    'America/Mexico_City',
    'America/Tijuana',
    'Pacific/Kiritimati',
    'Etc/GMT+12',
    'Asia/Kathmandu',
    'UTC',
  ])('gives the zone’s own year at every hour around New Year, and mid-year (%s)', (zone) => {
    vi.useFakeTimers({ toFake: ['Date'] });
    setBusinessTimeZone(zone);
    const newYear = Date.parse('2027-01-01T00:00:00.000Z');
    const instants = [Date.parse('2026-07-15T12:00:00.000Z'), Date.parse('2027-06-30T23:59:59.999Z')];
    for (let minutes = -20 * 60; minutes <= 20 * 60; minutes += 15) instants.push(newYear + minutes * 60_000);
    for (const instant of instants) {
      vi.setSystemTime(instant);
      const inZone = Number(
        new Intl.DateTimeFormat('en-US', { timeZone: zone, year: 'numeric' }).format(instant),
      );
      expect(currentYear(), new Date(instant).toISOString()).toBe(inZone);
    }
  });
});

describe('order numbers and labels', () => {
  it.each([
    [7, '#00007'],
    [12_345, '#12345'],
    [123_456, '#123456'],
  ])('order %i is shown as %s', (id, shown) => {
    expect(formatOrderNumber(id)).toBe(shown);
  });

  it.each([
    ['pendiente', 'Pendiente'],
    ['EN ESPERA', 'En Espera'],
    ['ñandú azul', 'Ñandú Azul'],
    ['pedido_editado', 'Pedido_Editado'],
  ])('title-cases %j as %j, accented letters included', (text, shown) => {
    expect(titleCase(text)).toBe(shown);
  });
});
