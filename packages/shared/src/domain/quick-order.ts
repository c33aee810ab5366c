/**
 * Quick order (docs/domain.md "Cart", decision 0045): the buyer pastes or types lines of `clave cantidad`
 * (what Excel copies: tab separated; or commas, semicolons or spaces). This reads the text; which product a
 * clave names is the server's business.
 */
import { MSG } from '../messages.ts';

/** Longest text the quick order takes, and most lines with content. */
export const QUICK_ORDER_TEXT_MAX = 20_000;
export const QUICK_ORDER_LINES_MAX = 200;
/** Largest quantity a line may ask for (the cart caps it at the product's cantidad_limite). */
export const QUICK_ORDER_QUANTITY_MAX = 100_000;
/** How much of a refused line the answer quotes. */
const QUOTE_MAX = 120;

/** A line that reads as a clave and a whole quantity ≥ 1; `linea` counts from 1, blank lines included. */
export interface QuickOrderLine {
  linea: number;
  clave: string;
  cantidad: number;
}

/** A line that does not read as `clave cantidad`, with the reason in Spanish. */
export interface QuickOrderBadLine {
  linea: number;
  texto: string;
  motivo: string;
}

export interface ParsedQuickOrder {
  lineas: QuickOrderLine[];
  invalidas: QuickOrderBadLine[];
  /** Lines with content (blank lines are ignored). */
  conContenido: number;
}

const QUANTITY = /^\d+$/;
/** A decimal quantity at the end of a line ("ABC 1.5", "ABC 1,5"). */
const DECIMAL_AT_END = /[\s;,]\d+[.,]\d+$/;

/**
 * The fields of one line: split on tabs, commas, semicolons and spaces; when that gives more than two, a
 * tab-separated line (an Excel copy) keeps the spaces inside its cells (a clave with a space).
 */
function fieldsOf(line: string): string[] {
  const fields = line.split(/[\t,;\s]+/).filter((f) => f !== '');
  if (fields.length <= 2 || !line.includes('\t')) return fields;
  return line
    .split('\t')
    .map((f) => f.trim())
    .filter((f) => f !== '');
}

function readLine(line: string): { clave: string; cantidad: number } | { motivo: string } {
  const fields = fieldsOf(line);
  if (fields.length === 1) return { motivo: MSG.pedidoRapidoFaltaCantidad };
  if (fields.length !== 2)
    return { motivo: DECIMAL_AT_END.test(line) ? MSG.pedidoRapidoCantidad : MSG.pedidoRapidoFormato };
  const [clave, text] = fields as [string, string];
  const cantidad = QUANTITY.test(text) ? Number(text) : Number.NaN;
  if (!(cantidad >= 1 && cantidad <= QUICK_ORDER_QUANTITY_MAX)) return { motivo: MSG.pedidoRapidoCantidad };
  return { clave, cantidad };
}

/** Reads the pasted text line by line, in order; blank lines are skipped but counted in line numbers. */
export function parseQuickOrder(texto: string): ParsedQuickOrder {
  const lineas: QuickOrderLine[] = [];
  const invalidas: QuickOrderBadLine[] = [];
  let conContenido = 0;
  texto.split(/\r\n|\r|\n/).forEach((raw, index) => {
    const line = raw.trim();
    if (line === '') return;
    conContenido += 1;
    const linea = index + 1;
    const read = readLine(line);
    if ('motivo' in read) invalidas.push({ linea, texto: line.slice(0, QUOTE_MAX), motivo: read.motivo });
    else lineas.push({ linea, ...read });
  });
  return { lineas, invalidas, conContenido };
}
