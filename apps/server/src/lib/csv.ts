/** CSV for spreadsheets: UTF-8 with BOM, comma separated, CRLF, formula-safe. */
export const BOM = '\uFEFF';

/**
 * One cell. Text that a spreadsheet would run as a formula (starting with = + - @, or a tab or carriage
 * return) is neutralised with a leading apostrophe; cells with separators, quotes or line breaks are quoted.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = typeof value === 'boolean' ? (value ? 'Sí' : 'No') : value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  if (/[",;\r\n]/.test(text) || text !== text.trim()) return `"${text.replace(/"/g, '""')}"`;
  return text;
}

export function csvRow(values: readonly (string | number | boolean | null | undefined)[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}

/** Centavos as a plain decimal number for a spreadsheet ("1234.50"). */
export function csvMoney(centavos: number): string {
  const sign = centavos < 0 ? '-' : '';
  const abs = Math.abs(centavos);
  return `${sign}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}
