/** CSV for spreadsheets: UTF-8 with BOM, comma separated, CRLF, formula-safe. */
export const BOM = '\uFEFF';

/** A separator (with any spaces after it) followed by what would start a formula: = + - @ tab or CR. */
const FORMULA_AFTER_SEPARATOR = /([,;] *)(?=[=+\-@\t\r])/g;

/**
 * What any of csvCell's rules can act on: a quote, a separator or a line break anywhere (quoting, and a
 * formula after a separator), a formula's first character or a space at the start, a space at the end. A
 * cell without any of them is written as it is.
 */
const NEEDS_CARE = /[",;\r\n]|^[\s=+\-@]|\s$/;

/**
 * One cell. Text that a spreadsheet would run as a formula is neutralised with an apostrophe (decision
 * 0036): before a leading = + - @ (or tab or carriage return), and before the same characters when they
 * follow a `,` or `;` inside the text (spaces between allowed), since a spreadsheet that splits on that
 * separator, whatever the quotes say, starts a new cell there: `x;=F()` is written `"x;'=F()"`. Cells with
 * separators, quotes or line breaks are quoted. Numbers (typeof number) are never touched, so negative
 * amounts stay numeric.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = typeof value === 'boolean' ? (value ? 'Sí' : 'No') : value;
  // Most cells (names, keys, dates, amounts) need none of the work below: one test says so (a quarter of
  // the detailed report's Node time went to the three tests and the replace on every cell).
  if (!NEEDS_CARE.test(text)) return text;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
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
