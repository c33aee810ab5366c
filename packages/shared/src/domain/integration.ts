/**
 * The integration API and its webhooks (decisions 0059 and 0060): the permissions a token may carry, the
 * event types an endpoint may subscribe to, and the limits both sides show and enforce.
 */

/**
 * What an integration token may do. `surtido:escribir` moves an approved order's fulfilment state;
 * `inventario:escribir` sets the products' stock and lead time (decision 0124); `facturas:escribir` registers
 * CFDI invoices, credit notes and payment complements, `facturas:leer` reads them (decision 0131).
 */
export const API_SCOPES = [
  'pedidos:leer',
  'surtido:escribir',
  'inventario:escribir',
  'facturas:escribir',
  'facturas:leer',
] as const;
export type ApiScope = (typeof API_SCOPES)[number];

/**
 * The events a webhook endpoint may receive. `reclamo.*` (decision 0127): a claim opened (by a receipt's
 * difference or by hand) and the operator's decisions; the body adds the claim as `reclamo`.
 * `factura.registrada` and `pago.aplicado` (decision 0131): a CFDI registered for the order (the body adds it
 * as `factura`), and a payment complement applied to the order's invoices (the payment as `factura`).
 * `factura.con_diferencias` (decision 0133): an invoice whose three-way match found differences (the body's
 * `factura` carries `cotejo` and `diferencias`). `pedido.retenido_credito` and `pedido.liberado_credito`
 * (decision 0136): an approved order held for its client's credit, and the operator's release of it (the
 * order's `credito` says why and since when).
 */
export const WEBHOOK_EVENTS = [
  'pedido.creado',
  'pedido.aprobado',
  'pedido.cancelado',
  'pedido.surtido',
  'pedido.envio',
  'pedido.linea_cancelada',
  'pedido.retenido_credito',
  'pedido.liberado_credito',
  'reclamo.abierto',
  'reclamo.aceptado',
  'reclamo.rechazado',
  'reclamo.devolucion',
  'factura.registrada',
  'factura.con_diferencias',
  'pago.aplicado',
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENTS)[number];

/** A token lives at most a year. */
export const TOKEN_MAX_DAYS = 365;
/** What every token value starts with (so a leaked one is recognisable in a scanner). */
export const TOKEN_PREFIX = 'pdc_';
/** How much of a token is kept and shown to recognise it (the prefix and the first characters). */
export const TOKEN_SHOWN_CHARS = 12;
/** What every webhook signing secret starts with. */
export const WEBHOOK_SECRET_PREFIX = 'whsec_';

/** The v1 list's page size: default and largest. */
export const V1_PAGE_DEFAULT = 50;
export const V1_PAGE_MAX = 100;

/** Live tokens (neither revoked nor expired) one scope may have: one client, or all clients (issue 38). */
export const TOKENS_PER_SCOPE = 50;
/** Active webhooks one scope may have. */
export const WEBHOOKS_PER_SCOPE = 10;

export const TOKENS_PER_PAGE = 20;
export const WEBHOOKS_PER_PAGE = 20;
export const DELIVERIES_PER_PAGE = 20;

/** Webhook deliveries are retried for this long after the event (then they fail for good). */
export const WEBHOOK_RETRY_HOURS = 24;
/** A receiver has this long to answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** A receiver should refuse a signature older (or newer) than this: the replay tolerance of docs/integration.md. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/** The value of `X-Portal-Firma` for a body sent at unix time `t`, given the hex HMAC of `${t}.${body}`. */
export function signatureHeader(t: number, hmacHex: string): string {
  return `t=${t},v1=${hmacHex}`;
}

/** Reads `t=<unix>,v1=<hex>` (unknown parts ignored; several v1 values allowed while a secret rotates). */
export function parseSignatureHeader(value: string): { t: number; v1: string[] } | null {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of value.split(',')) {
    const [k, v] = part.trim().split('=', 2);
    if (k === 't' && v && /^\d{1,12}$/.test(v)) t = Number(v);
    else if (k === 'v1' && v && /^[0-9a-f]{64}$/.test(v)) v1.push(v);
  }
  return t === null || v1.length === 0 ? null : { t, v1 };
}
