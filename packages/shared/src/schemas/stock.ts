/**
 * Stock and lead time (decision 0124): the product form's and the CSV's fields, and the v1 API's bodies
 * (PUT /api/v1/productos/{clave}/existencia, POST /api/v1/existencias).
 */
import { z } from 'zod';
import { formatCount } from '../domain/money.ts';
import { DIAS_ENTREGA_MAX, EXISTENCIA_MAX, EXISTENCIAS_MAX } from '../domain/stock.ts';
import { MAX_ID } from '../limits.ts';
import { MSG } from '../messages.ts';

/**
 * The v1 stock routes' own texts (only the server reads these schemas: kept out of the shared catalogue,
 * which the sign-in screen downloads).
 */
export const STOCK_MSG = {
  existenciaCliente: 'Indica el cliente (id_cliente): esta integración tiene acceso a todos los clientes.',
  existenciaClave: 'Cada línea necesita la clave interna del producto (hasta 50 caracteres).',
  existenciaClaveRepetida: 'Cada clave puede aparecer una sola vez en la lista.',
  existenciasLote: (max: number) => `Envía entre 1 y ${formatCount(max)} líneas de existencia.`,
};

const wholeNumber = (max: number, message: string) =>
  z.number({ error: message }).int(message).min(0, message).max(max, message);

/** A stock in units: a whole number from 0, or null (unknown). */
export const Existencia = wholeNumber(EXISTENCIA_MAX, MSG.existenciaInvalida).nullable();
/** A lead time in days: 0 to 3650, or null (none). */
export const DiasEntrega = wholeNumber(DIAS_ENTREGA_MAX, MSG.diasEntregaInvalidos).nullable();

/**
 * A form field (multipart text or JSON) of a whole number: absent keeps the current value (undefined),
 * blank clears it (null), anything else must be a whole number from 0 to `max`.
 */
export function formWholeNumberOrBlank(max: number, message: string) {
  return z.preprocess((v) => {
    if (v === undefined) return undefined;
    if (v === null) return null;
    if (typeof v === 'string') {
      const s = v.trim();
      if (s === '') return null;
      return /^\d+$/.test(s) ? Number(s) : Number.NaN;
    }
    return v;
  }, wholeNumber(max, message).nullable().optional());
}

export const existenciaField = () => formWholeNumberOrBlank(EXISTENCIA_MAX, MSG.existenciaInvalida);
export const diasEntregaField = () => formWholeNumberOrBlank(DIAS_ENTREGA_MAX, MSG.diasEntregaInvalidos);

/** Which client an all-clients token writes to (a client's token writes to its own and may omit it). */
const IdCliente = z.coerce
  .number({ error: STOCK_MSG.existenciaCliente })
  .int()
  .positive()
  .max(MAX_ID, STOCK_MSG.existenciaCliente);

export const V1StockParams = z.object({ clave: z.string().trim().min(1).max(50) });
export const V1StockQuery = z.object({ id_cliente: IdCliente.optional() });

/** PUT /api/v1/productos/{clave}/existencia: the stock (null = unknown) and, when given, the lead time. */
export const V1StockBody = z.object({
  existencia: Existencia,
  dias_entrega: DiasEntrega.optional(),
});
export type V1StockBody = z.infer<typeof V1StockBody>;

/** A product's stock as the v1 API answers it. */
export const V1Stock = z.object({
  clave: z.string(),
  existencia: z.number().int().nullable(),
  /** Units approved orders hold until they ship. */
  reservado: z.number().int(),
  /** existencia - reservado, never below 0; null when the stock is unknown. */
  disponible: z.number().int().nullable(),
  dias_entrega: z.number().int().nullable(),
});
export type V1Stock = z.infer<typeof V1Stock>;

/** POST /api/v1/existencias: up to 5,000 products of one client, each by its clave interna, once. */
export const V1StockBulkBody = z.object({
  id_cliente: IdCliente.optional(),
  existencias: z
    .array(
      z.object({
        clave: z
          .string({ error: STOCK_MSG.existenciaClave })
          .trim()
          .min(1, STOCK_MSG.existenciaClave)
          .max(50, STOCK_MSG.existenciaClave),
        existencia: Existencia,
        dias_entrega: DiasEntrega.optional(),
      }),
      { error: STOCK_MSG.existenciasLote(EXISTENCIAS_MAX) },
    )
    .min(1, STOCK_MSG.existenciasLote(EXISTENCIAS_MAX))
    .max(EXISTENCIAS_MAX, STOCK_MSG.existenciasLote(EXISTENCIAS_MAX))
    .refine(
      (rows) => new Set(rows.map((r) => r.clave)).size === rows.length,
      STOCK_MSG.existenciaClaveRepetida,
    ),
});
export type V1StockBulkBody = z.infer<typeof V1StockBulkBody>;

export const V1StockBulkResponse = z.object({
  /** Products whose stock or lead time changed. */
  actualizados: z.number().int(),
  /** Products found with the same values. */
  sin_cambios: z.number().int(),
  /** Claves not among the client's products (another client's answer like a missing one). */
  no_encontradas: z.array(z.string()),
});
export type V1StockBulkResponse = z.infer<typeof V1StockBulkResponse>;
