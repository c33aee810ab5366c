/**
 * The three-way match of an invoice (issue 42 item 3, decision 0133, docs/domain.md "Invoices"): each concept
 * of an invoice (CFDI tipo I) against the order line it bills and what arrived of it. A pure function, so the
 * rules are tested without a database; the server gathers its inputs and stores its answer.
 *
 * - A concept is tied to an order line by `NoIdentificacion` = the line's clave interna (the distributor's own
 *   product key, the one its ERP writes), compared without case or surrounding spaces.
 * - What may be billed of a line is what was received (the receipts of the shipments), or shipped for a
 *   shipment without receipt, of the whole order or of the invoice's shipment, less what earlier invoices of
 *   the order (of that shipment) already billed. Billing more is a difference; billing less is not (another
 *   invoice may bill the rest).
 * - The concept's amount (Importe − Descuento) against its quantity × the order line's price, within one
 *   centavo per line.
 * - A concept that names no line of the order, and a line billed by two concepts, are differences too.
 */
import { cfdiCentavos } from './invoices.ts';
import { type Centavos, formatCentavos, totalsOf } from './money.ts';

/** An invoice's match state (`null` on an invoice registered before the match existed, and on E and P). */
export const INVOICE_MATCH_STATES = ['conciliada', 'con_diferencias', 'diferencia_aceptada'] as const;
export type InvoiceMatchState = (typeof INVOICE_MATCH_STATES)[number];
export const INVOICE_MATCH_LABELS: Record<InvoiceMatchState, string> = {
  conciliada: 'Conciliada',
  con_diferencias: 'Con diferencias',
  diferencia_aceptada: 'Diferencia aceptada',
};

/** The kinds of difference. */
export const MATCH_DIFFERENCE_KINDS = ['cantidad', 'precio', 'sin_producto', 'duplicado'] as const;
export type MatchDifferenceKind = (typeof MATCH_DIFFERENCE_KINDS)[number];

/** The longest reason an operator gives when accepting a difference. */
export const MATCH_REASON_MAX = 500;

/** One order line as the match reads it. */
export interface MatchLine {
  id: number;
  claveInterna: string;
  nombre: string;
  unidad: string;
  /** Unit price in centavos, before IVA. */
  precio: Centavos;
  impuesto: boolean;
  /** Units that arrived (or were shipped, for the shipments without receipt) within the invoice's scope. */
  llegado: number;
  /** How `llegado` was counted: every shipment received, none, or some of each. */
  base: 'recibidas' | 'enviadas' | 'recibidas o enviadas';
  /** Units of this line earlier invoices of the order (of the same shipment) already billed. */
  yaFacturado: number;
}

/** One concept of the invoice as stored. */
export interface MatchConcept {
  numero: number;
  noIdentificacion: string | null;
  descripcion: string;
  /** As written (up to 6 decimals). */
  cantidad: string;
  valorUnitario: string;
  importe: Centavos;
  descuento: Centavos;
}

export interface MatchDifference {
  tipo: MatchDifferenceKind;
  /** The concepts it is about (their numbers in the XML). */
  conceptos: number[];
  /** The order line's clave interna, or the concept's NoIdentificacion when it matches none. */
  clave: string | null;
  producto: string;
  /** In Spanish, for people: "Factura 3 piezas, recibidas 2". */
  texto: string;
}

export interface MatchResult {
  estado: 'conciliada' | 'con_diferencias';
  diferencias: MatchDifference[];
  /**
   * What the invoice bills beyond what may be billed (centavos, IVA included; ≤ 0 when it bills less): the
   * invoice's total less the order's prices for the units that may be billed. A credit note for at least
   * this amount resolves the differences (decision 0133).
   */
  exceso: Centavos;
  /** Units billed per order line (the next invoice's `yaFacturado`). */
  facturado: Record<number, number>;
}

const key = (text: string | null) => (text ?? '').trim().toUpperCase();

/** "3 piezas", "1 pieza", "2 unidades" of the line's unit of measure. */
export function unitsText(cantidad: number, unidad: string): string {
  const pieza = key(unidad) === 'PIEZA' || key(unidad) === 'PZA';
  const word = pieza ? 'pieza' : 'unidad';
  const plural = cantidad === 1 ? word : pieza ? 'piezas' : 'unidades';
  return `${formatQuantity(cantidad)} ${plural}`;
}

const formatQuantity = (n: number) => (Number.isInteger(n) ? String(n) : String(Number(n.toFixed(6))));

/** The concept's quantity as a number (NaN when not a decimal: the parser already refused those). */
const quantityOf = (text: string) => Number(text.trim());

/** The match of an invoice's concepts against the order's lines (see the file's head). */
export function matchInvoice(
  lines: readonly MatchLine[],
  concepts: readonly MatchConcept[],
  invoiceTotal: Centavos,
): MatchResult {
  const byClave = new Map(lines.map((l) => [key(l.claveInterna), l]));
  const diferencias: MatchDifference[] = [];
  const billed = new Map<number, { line: MatchLine; conceptos: MatchConcept[] }>();
  for (const c of concepts) {
    const line = c.noIdentificacion ? byClave.get(key(c.noIdentificacion)) : undefined;
    if (!line) {
      diferencias.push({
        tipo: 'sin_producto',
        conceptos: [c.numero],
        clave: c.noIdentificacion,
        producto: c.descripcion,
        texto: c.noIdentificacion
          ? `Concepto ${c.numero}: la clave ${c.noIdentificacion} no es de ningún producto del pedido`
          : `Concepto ${c.numero}: sin NoIdentificacion, no corresponde a ningún producto del pedido`,
      });
      continue;
    }
    const entry = billed.get(line.id) ?? { line, conceptos: [] };
    entry.conceptos.push(c);
    billed.set(line.id, entry);
  }
  const allowed: { precio: Centavos; cantidad: number; impuesto: boolean }[] = [];
  const facturado: Record<number, number> = {};
  for (const { line, conceptos } of billed.values()) {
    const numeros = conceptos.map((c) => c.numero);
    const about = { conceptos: numeros, clave: line.claveInterna, producto: line.nombre };
    if (conceptos.length > 1)
      diferencias.push({
        ...about,
        tipo: 'duplicado',
        texto: `Producto facturado en ${conceptos.length} conceptos (${numeros.join(', ')})`,
      });
    const cantidad = conceptos.reduce((sum, c) => sum + quantityOf(c.cantidad), 0);
    facturado[line.id] = cantidad;
    const disponible = Math.max(0, line.llegado - line.yaFacturado);
    if (cantidad > disponible) {
      const ya = line.yaFacturado > 0 ? `, ya facturadas ${formatQuantity(line.yaFacturado)}` : '';
      diferencias.push({
        ...about,
        tipo: 'cantidad',
        texto: `Factura ${unitsText(cantidad, line.unidad)}, ${line.base} ${formatQuantity(line.llegado)}${ya}`,
      });
    }
    for (const c of conceptos) {
      const importe = c.importe - c.descuento;
      const expected = Math.round(quantityOf(c.cantidad) * line.precio);
      if (Math.abs(importe - expected) > 1)
        diferencias.push({
          ...about,
          conceptos: [c.numero],
          tipo: 'precio',
          texto: `Precio facturado ${formatCentavos(unitPrice(c), false)}, pedido ${formatCentavos(line.precio, false)}`,
        });
    }
    allowed.push({
      precio: line.precio,
      cantidad: Math.floor(Math.min(cantidad, disponible)),
      impuesto: line.impuesto,
    });
  }
  const exceso = invoiceTotal - totalsOf(allowed).total;
  return {
    estado: diferencias.length === 0 ? 'conciliada' : 'con_diferencias',
    diferencias,
    exceso,
    facturado,
  };
}

/** The concept's unit price in centavos: its ValorUnitario, or its net amount over its quantity. */
function unitPrice(c: MatchConcept): Centavos {
  const written = cfdiCentavos(c.valorUnitario);
  if (written !== null && c.descuento === 0) return written;
  const q = quantityOf(c.cantidad);
  return q > 0 ? Math.round((c.importe - c.descuento) / q) : (written ?? 0);
}
