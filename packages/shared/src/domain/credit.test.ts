import { describe, expect, it } from 'vitest';
import { agingBucket, creditProblem, creditSummary, daysOverdue, dueDate } from './credit.ts';

describe('credit (decision 0134)', () => {
  it('due date: the invoice’s date plus calendar days, across months and a leap day', () => {
    expect(dueDate('2028-02-15T23:59:59', 15)).toBe('2028-03-01');
    expect(dueDate('2027-12-20T08:00:00', 30)).toBe('2028-01-19');
    expect(dueDate('2027-03-01T00:00:00', 0)).toBe('2027-03-01');
    expect(dueDate('2027-02-14T10:00:00', 15)).toBe('2027-03-01'); // no leap day in 2027
    expect(dueDate('2027-12-31T23:59:59', 1)).toBe('2028-01-01');
    expect(dueDate('2028-01-31T12:00:00', 29)).toBe('2028-02-29');
    expect(dueDate('2028-12-02T12:00:00', 365)).toBe('2029-12-02');
  });

  it('days overdue: 0 on the due date and before it; buckets at their edges', () => {
    expect(daysOverdue('2027-03-10', '2027-03-09')).toBe(0);
    expect(daysOverdue('2027-03-10', '2027-03-10')).toBe(0);
    expect(daysOverdue('2027-03-10', '2027-03-11')).toBe(1);
    expect([0, 30, 31, 60, 61, 90, 91].map(agingBucket)).toEqual([
      '0-30',
      '0-30',
      '31-60',
      '31-60',
      '61-90',
      '61-90',
      '90+',
    ]);
  });

  it('summary: balance of open invoices, overdue part, buckets adding up to the balance, available credit', () => {
    const s = creditSummary(
      [
        { fecha: '2027-03-01T10:00:00', saldo: 1_000 }, // due 03-31: current
        { fecha: '2027-01-01T10:00:00', saldo: 2_000 }, // due 01-31: 43 days
        { fecha: '2026-10-01T10:00:00', saldo: 3_000 }, // due 10-31: 135 days
        { fecha: '2026-10-01T10:00:00', saldo: 0 }, // paid: left out
      ],
      { diasCredito: 30, limite: 5_000, today: '2027-03-15' },
    );
    expect(s).toEqual({
      saldo: 6_000,
      facturas: 3,
      vencido: 5_000,
      facturasVencidas: 2,
      antiguedad: { '0-30': 1_000, '31-60': 2_000, '61-90': 0, '90+': 3_000 },
      disponible: -1_000,
    });
    expect(creditProblem(s, 5_000, 0)).toEqual({ excedido: true, vencido: true });
    expect(creditProblem(s, null, 1)).toEqual({ excedido: false, vencido: true });
    const clean = creditSummary([{ fecha: '2027-03-01', saldo: 1_000 }], {
      diasCredito: 30,
      limite: 2_000,
      today: '2027-03-15',
    });
    // Exactly at the limit is within it.
    expect(creditProblem(clean, 2_000, 1_000)).toBeNull();
    expect(creditProblem(clean, 2_000, 1_001)).toEqual({ excedido: true, vencido: false });
  });

  it('one entry a day stands for its invoices: the same summary as the invoices one by one', () => {
    const terms = { diasCredito: 30, limite: 10_000, today: '2027-03-15' };
    const each = creditSummary(
      [
        { fecha: '2027-01-01T09:00:00', saldo: 700 },
        { fecha: '2027-01-01T18:30:00', saldo: 300 },
        { fecha: '2027-01-01T23:59:59', saldo: 1_000 },
        { fecha: '2027-03-01T10:00:00', saldo: 500 },
      ],
      terms,
    );
    const byDay = creditSummary(
      [
        { fecha: '2027-01-01', saldo: 2_000, facturas: 3 },
        { fecha: '2027-03-01', saldo: 500, facturas: 1 },
      ],
      terms,
    );
    expect(byDay).toEqual(each);
    expect(byDay.facturasVencidas).toBe(3);
    expect(byDay.facturas).toBe(4);
  });
  it('the summary ages each entry as daysOverdue(dueDate(…)) does, across months, years and leap days', () => {
    // A fixed pseudo-random walk over 2027–2029 (a leap year between), credit days 0–120, dates with times.
    let seed = 7;
    const next = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648;
      return seed % n;
    };
    const day = (offset: number) => new Date(Date.UTC(2027, 0, 1 + offset)).toISOString().slice(0, 10);
    for (let run = 0; run < 200; run++) {
      const today = day(next(1_000));
      const diasCredito = next(121);
      const invoices = Array.from({ length: 20 }, () => ({
        fecha: `${day(next(1_000))}T${String(next(24)).padStart(2, '0')}:30:00`,
        saldo: 1 + next(100_000),
      }));
      const expected = { '0-30': 0, '31-60': 0, '61-90': 0, '90+': 0 };
      let vencido = 0;
      for (const inv of invoices) {
        const dias = daysOverdue(dueDate(inv.fecha, diasCredito), today);
        expected[agingBucket(dias)] += inv.saldo;
        if (dias > 0) vencido += inv.saldo;
      }
      const summary = creditSummary(invoices, { diasCredito, limite: null, today });
      expect(summary.antiguedad, `${today}, ${diasCredito} días`).toEqual(expected);
      expect(summary.vencido).toBe(vencido);
    }
  });
});
