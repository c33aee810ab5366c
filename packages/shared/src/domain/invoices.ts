/**
 * CFDI 4.0 invoices received from the distributor's ERP (issue 42 item 2, decision 0131, docs/domain.md
 * "Invoices"): the kinds the portal stores, their states, the limits of an upload and the CFDI's rounding of
 * amounts to centavos. The portal never stamps: it receives, checks, stores and shows.
 */
import type { Centavos } from './money.ts';

/** c_TipoDeComprobante: I ingreso (an invoice), E egreso (a credit note), P pago (a payment complement). */
export const INVOICE_TYPES = ['I', 'E', 'P'] as const;
export type InvoiceType = (typeof INVOICE_TYPES)[number];
export const INVOICE_TYPE_LABELS: Record<InvoiceType, string> = {
  I: 'Ingreso',
  E: 'Nota de crédito',
  P: 'Complemento de pago',
};

/**
 * An invoice (type I) is `pendiente` while it owes something (saldo > 0) and `pagada` once credit notes and
 * payments took its saldo to 0; a credit note or a payment is `aplicada` (applied when registered).
 */
export const INVOICE_STATES = ['pendiente', 'pagada', 'aplicada'] as const;
export type InvoiceState = (typeof INVOICE_STATES)[number];
export const INVOICE_STATE_LABELS: Record<InvoiceState, string> = {
  pendiente: 'Por pagar',
  pagada: 'Pagada',
  aplicada: 'Aplicada',
};

/** The largest XML accepted (2 MB): a CFDI with a few hundred concepts is far smaller. */
export const INVOICE_XML_MAX_BYTES = 2 * 1024 * 1024;
/** The largest PDF representation accepted. */
export const INVOICE_PDF_MAX_BYTES = 5 * 1024 * 1024;
/** The deepest element nesting accepted: a CFDI 4.0 with its complements is about 6 levels deep. */
export const INVOICE_XML_MAX_DEPTH = 32;
/** The only currency the portal takes (a payment complement's comprobante says XXX, its payments MXN). */
export const INVOICE_CURRENCY = 'MXN';
/** The CFDI's 36-character folio fiscal, as the SAT writes it (upper case). */
export const CFDI_UUID = /^[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}$/;

/** The v1 list's page size: default and largest (as the orders'). */
export const INVOICES_PAGE_DEFAULT = 50;
export const INVOICES_PAGE_MAX = 100;

/** A CFDI decimal (t_Importe and the like): digits, an optional point and decimals, never an exponent. */
const DECIMAL = /^(-?)(\d{1,18})(?:\.(\d{1,6}))?$/;

/**
 * A CFDI decimal string in centavos, the CFDI way: read as a decimal string (never through a float) and
 * rounded to 2 decimals half away from zero ("10.005" → 1001, "-10.005" → -1001). Null when the text is not
 * a decimal.
 */
export function cfdiCentavos(text: string): Centavos | null {
  const m = DECIMAL.exec(text.trim());
  if (!m) return null;
  const [, sign, whole, frac = ''] = m;
  const digits = `${frac}000000`;
  let centavos = BigInt(whole!) * 100n + BigInt(digits.slice(0, 2));
  // Half away from zero: the third decimal decides (the sign is applied after).
  if (Number(digits[2]) >= 5) centavos += 1n;
  const value = Number(centavos);
  if (!Number.isSafeInteger(value)) return null;
  return sign === '-' && value !== 0 ? -value : value;
}

/** An invoice's state from its type and saldo. */
export function invoiceState(tipo: InvoiceType, saldo: Centavos | null): InvoiceState {
  if (tipo !== 'I') return 'aplicada';
  return (saldo ?? 0) > 0 ? 'pendiente' : 'pagada';
}
