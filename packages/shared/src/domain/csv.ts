/** CSV for spreadsheets: UTF-8 with BOM, comma separated, CRLF, formula-safe. */
export const BOM = '\uFEFF';

/**
 * Where a spreadsheet may start a new cell, whatever the quotes say: `,` `;` `|` and every control character
 * (tab, vertical tab, form feed, line breaks, NUL…).
 */
const SEPARATOR = String.raw`[,;|\p{Cc}]`;
/** Whitespace and control characters a spreadsheet may skip before what it reads as a formula. */
const SKIPPED = String.raw`[\s\p{Cc}]*`;
/** A separator, then whatever may be skipped, then what would start a formula: = + - @. */
const FORMULA_AFTER_SEPARATOR = new RegExp(`(${SEPARATOR}${SKIPPED})(?=[=+\\-@])`, 'gu');
/** A cell that starts like a formula, after anything skipped; or that starts with a tab or a carriage return. */
const FORMULA_AT_START = new RegExp(`^${SKIPPED}[=+\\-@]|^[\\t\\r]`, 'u');

/**
 * What any of csvCell's rules can act on: a quote, a separator or a control character anywhere (quoting,
 * and a formula after a separator), whitespace or a formula's first character at the start, a space at the
 * end. A cell without any of them is written as it is.
 */
const NEEDS_CARE = /[",;|\p{Cc}]|^[\s=+\-@]|\s$/u;

/**
 * One cell. Text that a spreadsheet would run as a formula is neutralised with an apostrophe (decision
 * 0036, amended by issue 38's finding 5): before a cell that starts with = + - @ after any whitespace or
 * control characters (or with a tab or carriage return), and before the same characters when they follow a
 * separator a spreadsheet may split on — `,` `;` `|` or any control character such as a tab or a vertical
 * tab — with whitespace or control characters between allowed: `x;=F()` is written `"x;'=F()"`, `x\t =F()`
 * `x\t '=F()`, and `\t=F()` `'\t'=F()` (inert as one cell and as two). Cells with separators, quotes or line breaks are quoted. Numbers (typeof number) are never
 * touched, so negative amounts stay numeric.
 */
export function csvCell(value: string | number | boolean | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = typeof value === 'boolean' ? (value ? 'Sí' : 'No') : value;
  // Most cells (names, keys, dates, amounts) need none of the work below: one test says so (a quarter of
  // the detailed report's Node time went to the three tests and the replace on every cell).
  if (!NEEDS_CARE.test(text)) return text;
  // A leading tab is both: the cell's start (apostrophe first) and a separator (apostrophe after it).
  const atStart = FORMULA_AT_START.test(text);
  text = text.replace(FORMULA_AFTER_SEPARATOR, "$1'");
  if (atStart) text = `'${text}`;
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
