/**
 * Credit and statements (issue 42 item 4, decision 0134): the client's «Estado de cuenta» (rol 2, 3 and 5 of
 * the client; rol 4 naming it), its download, and the distributor's aging of every client (rol 4). Amounts
 * in pesos, dates as business dates (YYYY-MM-DD).
 */
import { z } from 'zod';
import { AGING_BUCKETS, CREDIT_POLICIES } from '../domain/credit.ts';
import { MAX_ID, SEARCH_MAX_LENGTH } from '../limits.ts';
import { PageQuery } from './form-fields.ts';

const emptyIsNone = (v: unknown) => (v === '' || v === null ? undefined : v);
const ClientId = z.preprocess(emptyIsNone, z.coerce.number().int().positive().max(MAX_ID).optional());

/** The open invoices of a page of the statement (decision 0138); the downloads hold them all. */
export const STATEMENT_PER_PAGE = 50;

/**
 * GET /api/estado-cuenta: rol 4 names the client; the client's own people name none (or their own). A page
 * of its open invoices, oldest first; the summary is always the whole client's.
 */
export const StatementQuery = z.object({ cliente: ClientId, page: PageQuery });
export type StatementQuery = z.infer<typeof StatementQuery>;

export const STATEMENT_FORMATS = ['csv', 'pdf'] as const;
/** GET /api/estado-cuenta/descarga: the whole statement, every open invoice (the document). */
export const StatementDownloadQuery = StatementQuery.pick({ cliente: true }).extend({
  formato: z.enum(STATEMENT_FORMATS).default('pdf'),
});
export type StatementDownloadQuery = z.infer<typeof StatementDownloadQuery>;

const Aging = z.object(
  Object.fromEntries(AGING_BUCKETS.map((b) => [b, z.number()])) as Record<
    (typeof AGING_BUCKETS)[number],
    z.ZodNumber
  >,
);

/** A credit note (E) or a payment (P) applied to an invoice. */
export const StatementApplication = z.object({
  tipo: z.enum(['E', 'P']),
  uuid: z.string(),
  serie: z.string().nullable(),
  folio: z.string().nullable(),
  /** The document's date (YYYY-MM-DD, as written). */
  fecha: z.string(),
  importe: z.number(),
});

export const StatementInvoice = z.object({
  uuid: z.string(),
  serie: z.string().nullable(),
  folio: z.string().nullable(),
  pedido: z.number().int(),
  /** The SAT's verification page of the CFDI (decision 0133), when the invoice has one. */
  verificacion_sat: z.string().nullable(),
  fecha: z.string(),
  vencimiento: z.string(),
  total: z.number(),
  /** Credit notes and payments applied. */
  pagado: z.number(),
  saldo: z.number(),
  /** Days past due (0 while not past due). */
  dias_vencido: z.number().int(),
  antiguedad: z.enum(AGING_BUCKETS),
  aplicaciones: z.array(StatementApplication),
});
export type StatementInvoice = z.infer<typeof StatementInvoice>;

export const StatementDto = z.object({
  cliente: z.object({ id: z.number().int(), nombre: z.string(), rfc: z.string().nullable() }),
  /** The business date it was counted at. */
  fecha: z.string(),
  limite_credito: z.number().nullable(),
  dias_credito: z.number().int(),
  politica_credito: z.enum(CREDIT_POLICIES),
  saldo: z.number(),
  vencido: z.number(),
  /** The limit less the balance (negative: over the limit); null without a limit. */
  disponible: z.number().nullable(),
  antiguedad: Aging,
  /** Orders held for credit now. */
  pedidos_retenidos: z.number().int(),
  /** A page of the open invoices (saldo > 0), oldest first, with what was applied to them. */
  facturas: z.array(StatementInvoice),
  /** How many open invoices the client has (every page's). */
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type StatementDto = z.infer<typeof StatementDto>;

export const AGING_PER_PAGE = 25;

/** GET /api/credito/clientes: every client by name, 25 a page; `q` searches the name. */
export const AgingQuery = z.object({
  page: PageQuery,
  q: z.preprocess(emptyIsNone, z.string().trim().max(SEARCH_MAX_LENGTH).optional()),
  /** Only clients with a balance (`si`). */
  con_saldo: z.preprocess(emptyIsNone, z.enum(['si', 'todos']).default('todos')),
});
export type AgingQuery = z.infer<typeof AgingQuery>;

export const AgingRow = z.object({
  id: z.number().int(),
  nombre: z.string(),
  saldo: z.number(),
  vencido: z.number(),
  antiguedad: Aging,
  limite_credito: z.number().nullable(),
  disponible: z.number().nullable(),
  dias_credito: z.number().int(),
  politica_credito: z.enum(CREDIT_POLICIES),
  pedidos_retenidos: z.number().int(),
});
export type AgingRow = z.infer<typeof AgingRow>;

export const AgingResponse = z.object({
  clientes: z.array(AgingRow),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type AgingResponse = z.infer<typeof AgingResponse>;
