/**
 * The templates' Spanish column names and their legend row (issue 37, item 7; docs/domain.md "Imports").
 * A template's header names each column in Spanish ('Correo', 'Semana de referencia'); an import accepts
 * those names and the specification's own (`user_id`, `active_week`), in any case and with or without
 * accents. The users' template carries, under the header, a legend row saying what each `rol` number means;
 * its first cell starts with 'Leyenda:' and an import skips such a row wherever it is left.
 */
import type { CsvTable } from '../../lib/csv-read.ts';

/** The Spanish header of each column the templates write, by the specification's column name. */
export const COLUMN_LABELS: Readonly<Record<string, string>> = {
  clave_interna: 'Clave interna',
  clave_cliente: 'Clave cliente',
  nombre: 'Nombre',
  descripcion: 'Descripción',
  unidad_de_medida: 'Unidad de medida',
  precio: 'Precio',
  impuesto: 'Impuesto',
  activo: 'Activo',
  categoria: 'Categoría',
  usuario: 'Usuario',
  user_id: 'Correo',
  rol: 'Rol',
  direccion_entrega: 'Dirección de entrega',
  calle: 'Calle',
  colonia: 'Colonia',
  ciudad: 'Ciudad',
  cp: 'Código postal',
  estado: 'Estado',
  area: 'Área',
  localidad: 'Localidad',
  region: 'Región',
  coordinacion: 'Coordinación',
  active_week: 'Semana de referencia',
  entrega_week: 'Semana de entrega',
  limite_de_compras: 'Límite de compras',
  presupuesto_default: 'Presupuesto',
  asignado: 'Asignado',
  cantidad_limite: 'Cantidad límite',
  vigente_desde: 'Vigente desde',
};

/** The first cell of a template's legend row. */
export const LEGEND_MARK = 'Leyenda:';

const fold = (text: string) =>
  text
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');

/** Spanish header (folded) → the specification's column name. */
const BY_LABEL = new Map(Object.entries(COLUMN_LABELS).map(([column, label]) => [fold(label), column]));

/** A template's header in Spanish. Columns without a label (a category's budget) keep their name. */
export function spanishHeader(columns: readonly string[]): string[] {
  return columns.map((c) => COLUMN_LABELS[c] ?? c);
}

/** The legend row of a template: 'Leyenda:' first, the given notes under their columns, the rest empty. */
export function legendRow(columns: readonly string[], notes: Readonly<Record<string, string>>): string[] {
  return columns.map((c, i) => [i === 0 ? LEGEND_MARK : '', notes[c] ?? ''].filter(Boolean).join(' '));
}

/** A template's legend row (its first cell starts with 'Leyenda:'): no data. */
export function isLegendRow(cells: readonly string[]): boolean {
  return fold(cells[0] ?? '').startsWith(fold(LEGEND_MARK));
}

/** A header as the importer reads it: Spanish column names become the specification's. */
export function specHeader(header: readonly string[]): string[] {
  return header.map((name) => BY_LABEL.get(fold(name)) ?? name);
}

/**
 * A file as the importer reads it: Spanish column names become the specification's (which stay accepted
 * as they are) and legend rows are left out. The header's cells are replaced in place.
 */
export function withSpecColumns(table: CsvTable): CsvTable {
  return {
    ...table,
    header: specHeader(table.header),
    records: table.records.filter((r) => !isLegendRow(r.cells)),
  };
}
