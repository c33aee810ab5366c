/**
 * CSV files made in the browser (a chart's "Descargar CSV"), written by the same rules as the server's
 * reports (packages/shared/src/domain/csv.ts: UTF-8 with BOM, commas, CRLF, formula-safe).
 */
import { BOM, csvRow } from '@portal/shared/domain/csv';
import { saveBlob } from './download';

export type CsvValue = string | number | null;

/** The whole file's text: the header row, then one row per entry. */
export function csvText(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return BOM + csvRow(header) + rows.map((row) => csvRow(row)).join('');
}

/** Pesos as a plain decimal with two places ("1234.50"), as the reports write money. */
export function csvPesos(pesos: number): string {
  return pesos.toFixed(2);
}

/** Saves the rows as `filename` (a .csv). */
export function downloadCsv(
  filename: string,
  header: readonly string[],
  rows: readonly (readonly CsvValue[])[],
): void {
  saveBlob(new Blob([csvText(header, rows)], { type: 'text/csv;charset=utf-8' }), filename);
}
