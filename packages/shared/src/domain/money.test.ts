import { describe, expect, it } from 'vitest';
import {
  formatCentavos,
  formatCount,
  formatMXN,
  hasAtMostTwoDecimals,
  ivaOf,
  pesosToCentavos,
  totalsOf,
  truncatePesos,
} from './money.ts';

describe('money in centavos', () => {
  it('converts pesos at the boundary without float drift', () => {
    expect(pesosToCentavos(1.15)).toBe(115);
    expect(pesosToCentavos(0.1 + 0.2)).toBe(30);
    expect(pesosToCentavos(5000)).toBe(500000);
    expect(() => pesosToCentavos(Number.NaN)).toThrow();
    expect(hasAtMostTwoDecimals(1.15)).toBe(true);
    expect(hasAtMostTwoDecimals(1.155)).toBe(false);
  });

  it('IVA is 16% rounded half-up to the centavo', () => {
    expect(ivaOf(100)).toBe(16);
    expect(ivaOf(3)).toBe(0); // 0.48 -> 0
    expect(ivaOf(4)).toBe(1); // 0.64 -> 1
    expect(ivaOf(25)).toBe(4); // 4.00
    expect(ivaOf(3125)).toBe(500); // 500.0
    expect(ivaOf(3128)).toBe(500); // 500.48
    expect(ivaOf(3129)).toBe(501); // 500.64
    expect(ivaOf(9375)).toBe(1500); // exactly 1500
    expect(ivaOf(15625)).toBe(2500);
    expect(ivaOf(10_03)).toBe(160); // 160.48
    expect(ivaOf(10_04)).toBe(161); // 160.64
  });

  it('rounds IVA once per order, only on taxable lines', () => {
    // Three lines of 0.03 each: per line IVA would be 0 + 0 + 0; once per order 0.09 * 16% = 1.44 -> 1.
    const lines = [
      { precio: 3, cantidad: 1, impuesto: true },
      { precio: 3, cantidad: 1, impuesto: true },
      { precio: 3, cantidad: 1, impuesto: true },
    ];
    expect(totalsOf(lines)).toEqual({ subtotal: 9, iva: 1, total: 10 });
    const mixed = [
      { precio: 18990, cantidad: 2, impuesto: true },
      { precio: 4550, cantidad: 3, impuesto: false },
    ];
    expect(totalsOf(mixed)).toEqual({ subtotal: 37980 + 13650, iva: 6077, total: 37980 + 13650 + 6077 });
    expect(totalsOf([])).toEqual({ subtotal: 0, iva: 0, total: 0 });
  });

  it('shows money truncated to 2 decimals, never rounded', () => {
    expect(formatMXN(2.999)).toBe('$2.99 MXN');
    expect(formatMXN(1.15)).toBe('$1.15 MXN');
    expect(formatMXN(1234567.891)).toBe('$1,234,567.89 MXN');
    expect(formatMXN(0)).toBe('$0.00 MXN');
    expect(formatMXN(-10.5)).toBe('-$10.50 MXN');
    expect(formatMXN(19.99, false)).toBe('$19.99');
    expect(formatCentavos(500000)).toBe('$5,000.00 MXN');
    expect(truncatePesos(0.1 + 0.2)).toEqual({ negative: false, entero: '0', centavos: '30' });
  });
});

describe('formatCount', () => {
  it('groups whole numbers exactly as Intl does for es-MX, without loading its data', () => {
    const cases = [
      0,
      1,
      12,
      999,
      1000,
      1234,
      -1234,
      100_000,
      1_234_567,
      -987_654_321,
      Number.MAX_SAFE_INTEGER,
    ];
    for (let i = 0; i < 500; i++) cases.push(Math.floor((Math.random() - 0.3) * 10 ** (1 + (i % 15))));
    for (const n of cases) expect(formatCount(n), String(n)).toBe(n.toLocaleString('es-MX'));
  });

  it('leaves anything but a safe whole number to Intl', () => {
    expect(formatCount(1234.5)).toBe('1,234.5');
    expect(formatCount(Number.NaN)).toBe('NaN');
    expect(formatCount(2 ** 60)).toBe((2 ** 60).toLocaleString('es-MX'));
  });
});
