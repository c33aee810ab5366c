import { describe, expect, it } from 'vitest';
import {
  buyersTable,
  categoriesTable,
  monthDates,
  monthLabel,
  monthsTable,
  niceTicks,
  productsTable,
  shareItems,
  spendTable,
} from './dashboard-data';

const buyer = (id: number, utilizado: number, presupuesto: number) => ({
  id,
  nombre: `Comprador ${id}`,
  usuario: `c${id}`,
  presupuesto,
  utilizado,
});

describe('shareItems', () => {
  it('marks 80% and 100% (inclusive) and sorts by share, highest first', () => {
    const items = shareItems([
      buyer(1, 500, 1000),
      buyer(2, 800, 1000),
      buyer(3, 1000, 1000),
      buyer(4, 799.99, 1000),
      buyer(5, 10, 0),
      buyer(6, 0, 0),
    ]);
    expect(items.map((i) => [i.id, i.level, i.percent])).toEqual([
      [5, 'excedido', 'Sin presupuesto'],
      [3, 'excedido', '100%'],
      [2, 'cerca', '80%'],
      [4, 'normal', '79%'],
      [1, 'normal', '50%'],
      [6, 'normal', '0%'],
    ]);
  });
});

describe('tables', () => {
  it('months: one row per month with the total; the screen shows money, the CSV plain decimals', () => {
    const table = monthsTable([
      { mes: '2026-10', aprobado: 1160, pendiente: 232.5, espera: 0, cancelado: 116 },
    ]);
    expect(table.header).toEqual(['Mes', 'Aprobado', 'Pendiente', 'Espera', 'Cancelado', 'Total']);
    expect(table.rows[0]?.cells).toEqual([
      'Octubre 2026',
      '$1,160.00',
      '$232.50',
      '$0.00',
      '$116.00',
      '$1,508.50',
    ]);
    expect(table.rows[0]?.csv).toEqual(['2026-10', '1160.00', '232.50', '0.00', '116.00', '1508.50']);
  });

  it('buyers: the mark in words, the percentage with two decimals in the CSV', () => {
    const table = buyersTable(shareItems([buyer(1, 850, 1000), buyer(2, 1200, 1000), buyer(3, 5, 0)]));
    expect(table.rows.map((r) => r.cells[5])).toEqual(['Agotado', 'Agotado', 'Cerca del límite']);
    expect(table.rows[1]?.csv).toEqual(['Comprador 2', 'c2', '1200.00', '1000.00', 120, 'Agotado']);
    expect(table.rows[0]?.csv[4]).toBe('');
  });

  it('categories: a budget column only when the client budgets by category', () => {
    expect(categoriesTable([{ id: 1, nombre: 'Obra', presupuesto: null, utilizado: 10 }]).header).toEqual([
      'Categoría',
      'Utilizado',
    ]);
    const withBudget = categoriesTable([
      { id: 1, nombre: 'Obra', presupuesto: 500, utilizado: 10 },
      { id: 2, nombre: 'Oficina', presupuesto: null, utilizado: 3 },
    ]);
    expect(withBudget.rows.map((r) => r.csv)).toEqual([
      ['Obra', '10.00', '500.00'],
      ['Oficina', '3.00', ''],
    ]);
  });

  it('products: ranked, with quantity and amount', () => {
    const table = productsTable([
      { id: 9, clave: 'OBR-01', nombre: 'Casco', cantidad: 1200, importe: 24000 },
    ]);
    expect(table.rows[0]?.cells).toEqual(['1', 'OBR-01', 'Casco', '1,200', '$24,000.00']);
    expect(table.rows[0]?.csv).toEqual([1, 'OBR-01', 'Casco', 1200, '24000.00']);
  });

  it('spend: each month against the budget', () => {
    expect(spendTable([{ mes: '2026-11', utilizado: 300 }], 1000).rows[0]?.csv).toEqual([
      '2026-11',
      '300.00',
      '1000.00',
    ]);
  });
});

describe('months', () => {
  it('labels and first/last dates', () => {
    expect(monthLabel('2026-11')).toBe('Noviembre 2026');
    expect(monthLabel('2026-09', true)).toMatch(/^Sept? 2026$/);
    expect(monthDates('2026-02')).toEqual(['2026-02-01', '2026-02-28']);
    expect(monthDates('2028-02')).toEqual(['2028-02-01', '2028-02-29']);
  });
});

describe('niceTicks', () => {
  it('four round steps that hold the maximum', () => {
    expect(niceTicks(500)).toEqual([0, 150, 300, 450, 600]);
    expect(niceTicks(1500)).toEqual([0, 400, 800, 1200, 1600]);
    expect(niceTicks(2200)).toEqual([0, 600, 1200, 1800, 2400]);
    expect(niceTicks(4300)).toEqual([0, 1500, 3000, 4500, 6000]);
    expect(niceTicks(928)).toEqual([0, 250, 500, 750, 1000]);
    expect(niceTicks(0)).toEqual([0, 1, 2, 3, 4]);
  });
});
