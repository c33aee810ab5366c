/**
 * CFDI 4.0 invoices on the wire (issue 42 item 2, decision 0131, docs/domain.md "Invoices"): the v1 API's
 * body and answers, and the operator's list. Amounts are integer centavos; `saldo_centavos` is what an
 * invoice (tipo I) still owes, null for credit notes (E) and payment complements (P).
 */
import { z } from 'zod';
import { INVOICE_MATCH_STATES, MATCH_DIFFERENCE_KINDS, MATCH_REASON_MAX } from '../domain/invoice-match.ts';
import {
  CFDI_UUID,
  INVOICE_STATES,
  INVOICE_TYPES,
  INVOICES_PAGE_DEFAULT,
  INVOICES_PAGE_MAX,
} from '../domain/invoices.ts';
import { MAX_ID } from '../limits.ts';

export const InvoiceType = z.enum(INVOICE_TYPES);
export const InvoiceState = z.enum(INVOICE_STATES);

const MSG_PEDIDO = 'Indica el pedido (pedido: su id).';
const MSG_XML = 'Envía el XML del CFDI como texto (xml).';

/** POST /api/v1/facturas: the stamped XML (text) and optionally its PDF (base64), for an order. */
export const InvoiceBody = z.object({
  pedido: z.number({ error: MSG_PEDIDO }).int(MSG_PEDIDO).positive(MSG_PEDIDO).max(MAX_ID, MSG_PEDIDO),
  /** Optionally one of the order's shipments (its id, as in the v1 order's `envios`). */
  envio: z.number().int().positive().max(MAX_ID).nullish(),
  xml: z.string({ error: MSG_XML }).min(1, MSG_XML),
  /** At most about 5 MB of PDF (its base64 is 4/3 as long); checked again as a PDF by the server. */
  pdf_base64: z
    .string()
    .max(7 * 1024 * 1024)
    .nullish(),
});
export type InvoiceBody = z.infer<typeof InvoiceBody>;

/** A CFDI's folio fiscal in a path, any case (stored upper case). */
export const InvoiceUuidParam = z.object({
  uuid: z
    .string()
    .transform((u) => u.toUpperCase())
    .refine((u) => CFDI_UUID.test(u), 'El UUID no es válido.'),
});
export const OrderInvoiceParams = z.object({
  id: z.coerce.number().int().positive().max(MAX_ID),
  uuid: InvoiceUuidParam.shape.uuid,
});

export const InvoiceConcept = z.object({
  clave_prod_serv: z.string(),
  no_identificacion: z.string().nullable(),
  cantidad: z.string(),
  clave_unidad: z.string(),
  unidad: z.string().nullable(),
  descripcion: z.string(),
  valor_unitario: z.string(),
  importe_centavos: z.number().int(),
  descuento_centavos: z.number().int(),
});

/** A credit note or payment applied to an invoice, or an invoice a credit note or payment applied to. */
export const InvoiceApplication = z.object({
  uuid: z.string(),
  tipo: InvoiceType,
  importe_centavos: z.number().int(),
  fecha: z.string(),
});

/** One difference of an invoice's three-way match (decision 0133). */
export const InvoiceMatchDifference = z.object({
  tipo: z.enum(MATCH_DIFFERENCE_KINDS),
  conceptos: z.array(z.number().int()),
  clave: z.string().nullable(),
  producto: z.string(),
  texto: z.string(),
});

export const InvoiceDto = z.object({
  id: z.number().int(),
  uuid: z.string(),
  tipo: InvoiceType,
  serie: z.string().nullable(),
  folio: z.string().nullable(),
  /** Comprobante@Fecha and FechaTimbrado as the CFDI writes them (the issuer's local time, no zone). */
  fecha: z.string(),
  fecha_timbrado: z.string(),
  id_pedido: z.number().int(),
  numero_pedido: z.string(),
  /** The shipment's number within the order, or null. */
  envio: z.number().int().nullable(),
  emisor: z.object({ rfc: z.string(), nombre: z.string() }),
  receptor: z.object({ rfc: z.string(), nombre: z.string(), uso_cfdi: z.string() }),
  subtotal_centavos: z.number().int(),
  descuento_centavos: z.number().int(),
  traslados_centavos: z.number().int(),
  retenciones_centavos: z.number().int(),
  total_centavos: z.number().int(),
  moneda: z.literal('MXN'),
  metodo_pago: z.string().nullable(),
  forma_pago: z.string().nullable(),
  saldo_centavos: z.number().int().nullable(),
  estado: InvoiceState,
  pdf: z.boolean(),
  registrada: z.string(),
  conceptos: z.array(InvoiceConcept),
  aplicaciones: z.array(InvoiceApplication),
  /**
   * The three-way match (decision 0133): conciliada, con_diferencias or diferencia_aceptada; null for credit
   * notes, payment complements and invoices registered before the match existed.
   */
  cotejo: z.enum(INVOICE_MATCH_STATES).nullable(),
  diferencias: z.array(InvoiceMatchDifference),
  /** What the invoice bills beyond what may be billed (centavos, IVA included), or null. */
  exceso_centavos: z.number().int().nullable(),
  /** The operator's reason when accepting the differences. */
  cotejo_motivo: z.string().nullable(),
  /** The credit note (its UUID) that resolved the differences. */
  cotejo_nota_credito: z.string().nullable(),
  /** The SAT's verification link (null on CFDIs registered before it was kept). */
  verificacion_sat: z.string().nullable(),
});
export type InvoiceDto = z.infer<typeof InvoiceDto>;

export const InvoiceRegistered = z.object({ status: z.literal('ok'), msg: z.string(), factura: InvoiceDto });
export type InvoiceRegistered = z.infer<typeof InvoiceRegistered>;

/** GET /api/v1/facturas: a client's CFDIs, oldest registration first, by cursor. */
export const InvoicesQuery = z.object({
  pedido: z.coerce.number().int().positive().max(MAX_ID).optional(),
  tipo: InvoiceType.optional(),
  cursor: z.string().max(200).optional(),
  limite: z.coerce.number().int().min(1).max(INVOICES_PAGE_MAX).default(INVOICES_PAGE_DEFAULT),
});
export type InvoicesQuery = z.infer<typeof InvoicesQuery>;

export const InvoicesPage = z.object({
  facturas: z.array(InvoiceDto),
  /** Pass as `cursor` for the next page; null on the last one. */
  siguiente: z.string().nullable(),
});
export type InvoicesPage = z.infer<typeof InvoicesPage>;

/** The operator's list of one order's CFDIs (a few per order: not paginated). */
export const OrderInvoices = z.object({ facturas: z.array(InvoiceDto) });
export type OrderInvoices = z.infer<typeof OrderInvoices>;

const MSG_MOTIVO = 'Escribe el motivo por el que aceptas la diferencia.';

/** POST /api/surtido/{id}/facturas/{uuid}/aceptar-diferencia: the operator's reason (required). */
export const AcceptDifferenceBody = z.object({
  motivo: z
    .string({ error: MSG_MOTIVO })
    .trim()
    .min(1, MSG_MOTIVO)
    .max(MATCH_REASON_MAX, `El motivo admite hasta ${MATCH_REASON_MAX} caracteres.`),
});
export type AcceptDifferenceBody = z.infer<typeof AcceptDifferenceBody>;

export const InvoiceAccepted = z.object({ status: z.literal('ok'), msg: z.string(), factura: InvoiceDto });
export type InvoiceAccepted = z.infer<typeof InvoiceAccepted>;
