/**
 * The dashboards' figures as tables: what "Ver como tabla" shows and "Descargar CSV" writes, from the same
 * rows as the charts (GET /api/tablero, GET /api/historial/gasto). Amounts are pesos; the screen shows them
 * with the app's money format, the CSV as plain decimals.
 */
import { budgetShare, type ShareLevel, shareLevel, sharePercent } from '@portal/shared/domain/budget-share';
import { formatMXN } from '@portal/shared/domain/money';
import type { OrderStatus } from '@portal/shared/domain/order-workflow';
import type { BuyerSpendResponse, DashboardResponse } from '@portal/shared/schemas/dashboard';
import { type CsvValue, csvPesos } from '../../../lib/csv';
import { formatCount } from '../../../lib/format';

export interface TableRow {
  key: string | number;
  /** What the screen's table shows, one text per column. */
  cells: string[];
  /** What the CSV writes, one value per column. */
  csv: CsvValue[];
}

export interface ChartTable {
  header: string[];
  /** Columns aligned right (figures). */
  numeric: boolean[];
  rows: TableRow[];
}

const money = (pesos: number) => formatMXN(pesos, false);

/** 'YYYY-MM' → 'nov 2026' (short, for an axis) or 'Noviembre 2026'. */
export function monthLabel(mes: string, short = false): string {
  const text = new Intl.DateTimeFormat('es-MX', {
    month: short ? 'short' : 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(new Date(`${mes}-01T12:00:00Z`));
  const clean = text.replace(/\./g, '').replace(' de ', ' ');
  return clean.charAt(0).toUpperCase() + clean.slice(1);
}

/** 'YYYY-MM-DD' → '24/11'. */
export function dayLabel(fecha: string): string {
  return `${fecha.slice(8, 10)}/${fecha.slice(5, 7)}`;
}

/** The order statuses in the order the stacked bars show them, bottom first. */
export const STATUS_ORDER: readonly OrderStatus[] = ['aprobado', 'pendiente', 'espera', 'cancelado'];
const STATUS_LABELS: Record<OrderStatus, string> = {
  aprobado: 'Aprobado',
  pendiente: 'Pendiente',
  espera: 'Espera',
  cancelado: 'Cancelado',
};
export const statusLabel = (status: OrderStatus) => STATUS_LABELS[status];

export function monthsTable(meses: DashboardResponse['meses']): ChartTable {
  return {
    header: ['Mes', ...STATUS_ORDER.map(statusLabel), 'Total'],
    numeric: [false, true, true, true, true, true],
    rows: meses.map((m) => {
      const amounts = STATUS_ORDER.map((s) => m[s]);
      const total = amounts.reduce((a, b) => a + b, 0);
      return {
        key: m.mes,
        cells: [monthLabel(m.mes), ...amounts.map(money), money(total)],
        csv: [m.mes, ...amounts.map(csvPesos), csvPesos(total)],
      };
    }),
  };
}

/** A row of a "used against budget" list: a buyer, or a client in the administrator's view. */
export interface ShareItem {
  id: number;
  nombre: string;
  /** Under the name (the buyer's user name). */
  detalle?: string;
  presupuesto: number;
  utilizado: number;
  share: number;
  level: ShareLevel;
  /** "82%", or "Sin presupuesto". */
  percent: string;
}

/** Items with their share and mark (≥ 80 % 'cerca', ≥ 100 % 'excedido'), highest share first. */
export function shareItems(
  rows: readonly { id: number; nombre: string; usuario?: string; presupuesto: number; utilizado: number }[],
): ShareItem[] {
  return rows
    .map((r) => {
      const share = budgetShare(r.utilizado, r.presupuesto);
      return {
        id: r.id,
        nombre: r.nombre,
        detalle: r.usuario,
        presupuesto: r.presupuesto,
        utilizado: r.utilizado,
        share,
        level: shareLevel(share),
        percent: sharePercent(share),
      };
    })
    .sort((a, b) => b.share - a.share || b.utilizado - a.utilizado || a.id - b.id);
}

/** The words of a mark, so it is never told by colour alone. */
export const LEVEL_TEXT: Record<ShareLevel, string> = {
  normal: '',
  cerca: 'Cerca del límite',
  excedido: 'Agotado',
};

export function buyersTable(items: readonly ShareItem[]): ChartTable {
  return {
    header: ['Comprador', 'Usuario', 'Utilizado', 'Presupuesto', 'Porcentaje', 'Marca'],
    numeric: [false, false, true, true, true, false],
    rows: items.map((b) => ({
      key: b.id,
      cells: [
        b.nombre,
        b.detalle ?? '',
        money(b.utilizado),
        money(b.presupuesto),
        b.percent,
        LEVEL_TEXT[b.level],
      ],
      csv: [
        b.nombre,
        b.detalle ?? '',
        csvPesos(b.utilizado),
        csvPesos(b.presupuesto),
        Number.isFinite(b.share) ? Number((b.share * 100).toFixed(2)) : '',
        LEVEL_TEXT[b.level],
      ],
    })),
  };
}

export function clientsTable(items: readonly ShareItem[]): ChartTable {
  const table = buyersTable(items);
  return {
    header: ['Cliente', 'Utilizado', 'Presupuesto', 'Porcentaje', 'Marca'],
    numeric: [false, true, true, true, false],
    rows: table.rows.map((r) => ({
      key: r.key,
      cells: [r.cells[0] ?? '', ...r.cells.slice(2)],
      csv: [r.csv[0] ?? '', ...r.csv.slice(2)],
    })),
  };
}

export function categoriesTable(rows: DashboardResponse['por_categoria']): ChartTable {
  const withBudget = rows.some((c) => c.presupuesto !== null);
  return {
    header: withBudget ? ['Categoría', 'Utilizado', 'Presupuesto'] : ['Categoría', 'Utilizado'],
    numeric: withBudget ? [false, true, true] : [false, true],
    rows: rows.map((c) => ({
      key: c.id,
      cells: [
        c.nombre,
        money(c.utilizado),
        ...(withBudget ? [c.presupuesto === null ? '—' : money(c.presupuesto)] : []),
      ],
      csv: [
        c.nombre,
        csvPesos(c.utilizado),
        ...(withBudget ? [c.presupuesto === null ? '' : csvPesos(c.presupuesto)] : []),
      ],
    })),
  };
}

/** The client's áreas this month (decision 0123): used against the month's budget (top-ups included). */
export function areasTable(rows: DashboardResponse['por_area']): ChartTable {
  return {
    header: ['Área', 'Clave', 'Utilizado', 'Presupuesto'],
    numeric: [false, false, true, true],
    rows: rows.map((a) => ({
      key: a.id,
      cells: [a.nombre, a.codigo, money(a.utilizado), money(a.presupuesto)],
      csv: [a.nombre, a.codigo, csvPesos(a.utilizado), csvPesos(a.presupuesto)],
    })),
  };
}

export function productsTable(rows: DashboardResponse['top_productos']): ChartTable {
  return {
    header: ['#', 'Clave', 'Producto', 'Cantidad', 'Importe (sin IVA)'],
    numeric: [true, false, false, true, true],
    rows: rows.map((p, i) => ({
      key: p.id,
      cells: [String(i + 1), p.clave, p.nombre, formatCount(p.cantidad), money(p.importe)],
      csv: [i + 1, p.clave, p.nombre, p.cantidad, csvPesos(p.importe)],
    })),
  };
}

export function daysTable(rows: NonNullable<DashboardResponse['por_dia']>): ChartTable {
  return {
    header: ['Fecha', 'Pedidos', 'Total'],
    numeric: [false, true, true],
    rows: rows.map((d) => ({
      key: d.fecha,
      cells: [`${dayLabel(d.fecha)}/${d.fecha.slice(0, 4)}`, formatCount(d.pedidos), money(d.total)],
      csv: [d.fecha, d.pedidos, csvPesos(d.total)],
    })),
  };
}

/** The buyer's months against the budget (one series: the whole budget, or a category's). */
export function spendTable(meses: BuyerSpendResponse['meses'], presupuesto: number): ChartTable {
  return {
    header: ['Mes', 'Utilizado', 'Presupuesto'],
    numeric: [false, true, true],
    rows: meses.map((m) => ({
      key: m.mes,
      cells: [monthLabel(m.mes), money(m.utilizado), money(presupuesto)],
      csv: [m.mes, csvPesos(m.utilizado), csvPesos(presupuesto)],
    })),
  };
}

/** The first and last business dates of a month ('2026-11' → ['2026-11-01', '2026-11-30']). */
export function monthDates(mes: string): [string, string] {
  const [y, m] = mes.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).getUTCDate();
  return [`${mes}-01`, `${mes}-${String(last).padStart(2, '0')}`];
}

/**
 * A value axis from 0 with four even steps of a round size (1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 × a power of ten) that hold
 * `max` with a little room above it, so ticks and a reference line never crowd each other.
 */
export function niceTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1, 2, 3, 4];
  const rough = (max * 1.05) / 4;
  const power = 10 ** Math.floor(Math.log10(rough));
  const step =
    [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10].map((f) => f * power).find((s) => s >= rough) ?? 10 * power;
  return [0, step, 2 * step, 3 * step, 4 * step];
}
