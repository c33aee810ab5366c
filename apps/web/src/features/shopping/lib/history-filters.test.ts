import { MSG } from '@portal/shared/messages';
import { describe, expect, it } from 'vitest';
import {
  filterChanges,
  filtersFromParams,
  hasFilters,
  historyPath,
  orderNumberProblem,
  recentMonths,
} from './history-filters';

const TZ = 'America/Mexico_City';

describe('recentMonths', () => {
  it('lists this business month and the 11 before it, newest first, in Spanish', () => {
    const months = recentMonths(new Date('2026-03-10T18:00:00Z'), TZ);
    expect(months).toHaveLength(12);
    expect(months[0]).toEqual({ value: '2026-03', label: 'Marzo 2026' });
    expect(months[2]).toEqual({ value: '2026-01', label: 'Enero 2026' });
    expect(months[3]).toEqual({ value: '2025-12', label: 'Diciembre 2025' });
    expect(months[11]).toEqual({ value: '2025-04', label: 'Abril 2025' });
  });

  it('uses the business zone: 23:30 on 31 January in Mexico City is still January', () => {
    expect(recentMonths(new Date('2026-02-01T05:30:00Z'), TZ, 1)).toEqual([
      { value: '2026-01', label: 'Enero 2026' },
    ]);
  });
});

describe('filtersFromParams', () => {
  it('reads status, month, number, page and sort from the URL', () => {
    expect(
      filtersFromParams(new URLSearchParams('status=espera&mes=2026-03&q=%2300042&page=3&orden=total_asc')),
    ).toEqual({
      status: 'espera',
      mes: '2026-03',
      q: '#00042',
      page: 3,
      orden: 'total_asc',
    });
  });

  it('treats unknown or malformed values as no filter', () => {
    expect(
      filtersFromParams(new URLSearchParams('status=otro&mes=2026-13&page=-1&orden=nombre_asc')),
    ).toEqual({
      status: 'todos',
      mes: '',
      q: '',
      page: 1,
      orden: 'fecha_desc',
    });
  });
});

describe('filterChanges', () => {
  it('drops default and empty values and always goes back to page 1', () => {
    expect(filterChanges({ status: 'aprobado' })).toEqual({ page: null, status: 'aprobado' });
    expect(filterChanges({ status: 'todos', mes: '', q: '' })).toEqual({
      page: null,
      status: null,
      mes: null,
      q: null,
    });
  });
});

describe('hasFilters', () => {
  it('is true when status, month or a non-blank number is set', () => {
    const none = { status: 'todos' as const, mes: '', q: '  ', page: 2 };
    expect(hasFilters(none)).toBe(false);
    expect(hasFilters({ ...none, status: 'cancelado' })).toBe(true);
    expect(hasFilters({ ...none, mes: '2026-01' })).toBe(true);
    expect(hasFilters({ ...none, q: '42' })).toBe(true);
  });
});

describe('orderNumberProblem and historyPath', () => {
  it('accepts #00042, 00042 and 42 and refuses anything else with the server’s message', () => {
    for (const q of ['#00042', '00042', '42', ' 42 ', '']) expect(orderNumberProblem(q), q).toBeNull();
    expect(orderNumberProblem('abc')).toBe(MSG.numeroPedidoInvalido);
    expect(orderNumberProblem('#12a')).toBe(MSG.numeroPedidoInvalido);
  });

  it('sends only the filters that are set, and never a number the server would refuse', () => {
    expect(historyPath({ status: 'todos', mes: '', q: '', page: 1 })).toBe('/api/historial?page=1');
    expect(historyPath({ status: 'pendiente', mes: '2026-03', q: ' #00042 ', page: 2 })).toBe(
      '/api/historial?page=2&status=pendiente&mes=2026-03&q=%2300042',
    );
    expect(historyPath({ status: 'todos', mes: '', q: 'abc', page: 1 })).toBe('/api/historial?page=1');
  });
});
