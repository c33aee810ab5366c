import { z } from 'zod';
import {
  BULK_FULFILMENT_MAX,
  EXPORT_ORDERS_MAX,
  FULFILMENT_NOTE_MAX,
  FULFILMENT_STATES,
  GUIA_MAX,
  LINE_CANCEL_REASON_MAX,
  PAQUETERIA_MAX,
  PICK_LIST_FORMATS,
  PICK_LIST_MAX,
  SHIPMENT_LINES_MAX,
} from '../domain/fulfilment.ts';
import { isIsoDate } from '../domain/time.ts';
import { MAX_ID } from '../limits.ts';
import { MSG } from '../messages.ts';
import { ImportRowError } from './imports.ts';
import { listSort, type SortValue } from './sort.ts';

/** The fulfilment state of an approved order (decision 0058); wire name `surtido`. */
export const SurtidoState = z.enum(FULFILMENT_STATES, { error: MSG.surtidoEstadoInvalido });
export type SurtidoState = z.infer<typeof SurtidoState>;

/** Optional plain text: trimmed, an empty one is none. */
export const note = (max: number, message: string) =>
  z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().trim().max(max, message).optional(),
  );

/** POST /api/surtido/{id}/estado: a forward move; `guia` and `comentario` only mean something with enviado. */
export const FulfilmentMoveBody = z.object({
  estado: SurtidoState,
  /** Carrier and tracking reference ("Estafeta 1234567890"). */
  guia: note(GUIA_MAX, MSG.surtidoGuiaLarga),
  comentario: note(FULFILMENT_NOTE_MAX, MSG.surtidoNotaLarga),
});
export type FulfilmentMoveBody = z.infer<typeof FulfilmentMoveBody>;

/** POST /api/historial/{id}/recibido: the buyer confirms receipt, with an optional note for the operator. */
export const ReceiptBody = z
  .object({ nota: note(FULFILMENT_NOTE_MAX, MSG.surtidoNotaLarga) })
  .optional()
  .default({});
export type ReceiptBody = z.infer<typeof ReceiptBody>;

const emptyIsNone = (v: unknown) => (v === '' ? undefined : v);
const BusinessDate = z.string().refine(isIsoDate, MSG.fechaInvalida);

/** The fulfilment queue sorts by the order's date (newest first, the default). */
export const FULFILMENT_SORT = listSort(['fecha'], 'fecha_desc');
export type FulfilmentSort = SortValue<'fecha'>;

/** GET /api/surtido: approved orders of every client, 50 a page, sorted by date (newest first). */
export const FulfilmentQueueQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    cliente: z.preprocess(emptyIsNone, z.coerce.number().int().positive().max(MAX_ID).optional()),
    surtido: z.preprocess(emptyIsNone, z.enum([...FULFILMENT_STATES, 'todos']).default('todos')),
    /** Exported already (`si`), not yet (`no`), or either. */
    exportado: z.preprocess(emptyIsNone, z.enum(['si', 'no', 'todos']).default('todos')),
    /** Only orders with a late line (promised before today, units left to ship): `si` (decision 0125). */
    atrasado: z.preprocess(emptyIsNone, z.enum(['si', 'todos']).default('todos')),
    /** Only orders held for credit (`si`, decision 0134), only those not held (`no`), or either. */
    retenido: z.preprocess(emptyIsNone, z.enum(['si', 'no', 'todos']).default('todos')),
    /** Business dates of the order (YYYY-MM-DD), both inclusive. */
    desde: z.preprocess(emptyIsNone, BusinessDate.optional()),
    hasta: z.preprocess(emptyIsNone, BusinessDate.optional()),
    orden: FULFILMENT_SORT.schema,
  })
  .refine((q) => !q.desde || !q.hasta || q.desde <= q.hasta, {
    message: MSG.rangoFechasInvalido,
    path: ['hasta'],
  });
export type FulfilmentQueueQuery = z.infer<typeof FulfilmentQueueQuery>;

export const FulfilmentRow = z.object({
  id: z.number().int(),
  transaction_date: z.string(),
  total: z.number(),
  productos: z.number().int(),
  cliente: z.object({ id: z.number().int(), nombre: z.string() }),
  comprador: z.string(),
  surtido: SurtidoState,
  guia: z.string().nullable(),
  /** The carrier named apart from the guía (the guías file), else null. */
  paqueteria: z.string().nullable(),
  /** The buyer's note on receipt (missing or damaged items). */
  nota_recepcion: z.string().nullable(),
  exportado_at: z.string().nullable(),
  lote: z.number().int().nullable(),
  /** A line is late: promised before today and units left to ship (decision 0125). */
  atrasado: z.boolean(),
  /** Why the order is held for credit (decision 0134), null when it is not. Optional in the type only. */
  retenido_credito: z.string().nullable().optional(),
});
export type FulfilmentRow = z.infer<typeof FulfilmentRow>;

export const FulfilmentQueueResponse = z.object({
  pedidos: z.array(FulfilmentRow),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type FulfilmentQueueResponse = z.infer<typeof FulfilmentQueueResponse>;

/** 1 to `max` distinct order ids chosen in the queue. */
const selectedOrders = (max: number, tooMany: string) =>
  z
    .array(
      z
        .number({ error: MSG.loteIdInvalido })
        .int(MSG.loteIdInvalido)
        .positive(MSG.loteIdInvalido)
        .max(MAX_ID, MSG.loteIdInvalido),
      {
        error: MSG.loteVacio,
      },
    )
    .min(1, MSG.loteVacio)
    .max(max, tooMany)
    .refine((ids) => new Set(ids).size === ids.length, MSG.loteRepetido);

/** POST /api/surtido/exportar: the selected orders; already-exported ones only with `reexportar`. */
export const ExportBody = z.object({
  ids: selectedOrders(EXPORT_ORDERS_MAX, MSG.exportarLoteLargo(EXPORT_ORDERS_MAX)),
  reexportar: z.boolean().optional(),
});
export type ExportBody = z.infer<typeof ExportBody>;

/** The export as JSON (Accept: application/json): the CSV's columns and rows, one row per order line. */
export const ExportJsonResponse = z.object({
  lote: z.number().int(),
  exportado_at: z.string(),
  columnas: z.array(z.string()),
  filas: z.array(z.array(z.union([z.string(), z.number()]))),
});
export type ExportJsonResponse = z.infer<typeof ExportJsonResponse>;

/** A move's answer: the order's fulfilment as it now stands. */
export const FulfilmentMoveResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  pedido: z.object({
    id: z.number().int(),
    surtido: SurtidoState,
    guia: z.string().nullable(),
    nota_recepcion: z.string().nullable(),
  }),
});
export type FulfilmentMoveResponse = z.infer<typeof FulfilmentMoveResponse>;

/** POST /api/surtido/estado-lote: 1 to 200 distinct orders moved to one state, each on its own. */
export const BulkFulfilmentBody = z.object({
  ids: selectedOrders(BULK_FULFILMENT_MAX, MSG.loteLargo(BULK_FULFILMENT_MAX)),
  estado: SurtidoState,
  /** One carrier and tracking reference for every order (only with enviado). */
  guia: note(GUIA_MAX, MSG.surtidoGuiaLarga),
});
export type BulkFulfilmentBody = z.infer<typeof BulkFulfilmentBody>;

/**
 * POST /api/surtido/lista: the pick list of 1 to 200 distinct approved orders not yet shipped, as a PDF to
 * print or a CSV (docs/domain.md "Fulfilment", decision 0109).
 */
export const PickListBody = z.object({
  ids: selectedOrders(PICK_LIST_MAX, MSG.listaSurtidoLarga(PICK_LIST_MAX)),
  formato: z.enum(PICK_LIST_FORMATS, { error: MSG.listaSurtidoFormato }),
});
export type PickListBody = z.infer<typeof PickListBody>;

/** One row per id, in the order asked: its new state, or the Spanish reason the single move gives. */
export const BulkFulfilmentResponse = z.object({
  resultados: z.array(
    z.object({
      id: z.number().int(),
      ok: z.boolean(),
      estado: SurtidoState.optional(),
      error: z.string().optional(),
    }),
  ),
});
export type BulkFulfilmentResponse = z.infer<typeof BulkFulfilmentResponse>;

/** POST /api/surtido/guias: how many orders the file shipped, and its refused rows as the imports report them. */
export const GuiasImportResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  total: z.number().int(),
  enviados: z.number().int(),
  errores: z.array(ImportRowError),
});
export type GuiasImportResponse = z.infer<typeof GuiasImportResponse>;

/** A line's units: a positive whole number. */
const Units = z
  .number({ error: MSG.pedidoRapidoCantidad })
  .int(MSG.pedidoRapidoCantidad)
  .min(1, MSG.pedidoRapidoCantidad)
  .max(1_000_000, MSG.pedidoRapidoCantidad);
const LineId = z
  .number({ error: MSG.envioLinea })
  .int(MSG.envioLinea)
  .positive(MSG.envioLinea)
  .max(MAX_ID, MSG.envioLinea);

/**
 * POST /api/surtido/{id}/envios and POST /api/v1/pedidos/{id}/envios (decision 0125): a shipment of some
 * units of some lines of an approved order, with its guía, carrier and date (today when not given).
 */
export const ShipmentBody = z.object({
  lineas: z
    .array(z.object({ id: LineId, cantidad: Units }), { error: MSG.envioLinea })
    .min(1, MSG.envioLinea)
    .max(SHIPMENT_LINES_MAX, MSG.envioLinea)
    .refine((ls) => new Set(ls.map((l) => l.id)).size === ls.length, MSG.envioLinea),
  guia: note(GUIA_MAX, MSG.surtidoGuiaLarga),
  paqueteria: note(PAQUETERIA_MAX, MSG.guiasPaqueteriaLarga),
  fecha: z.preprocess(emptyIsNone, BusinessDate.optional()),
});
export type ShipmentBody = z.infer<typeof ShipmentBody>;

export const ShipmentResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  envio: z.object({ id: z.number().int(), numero: z.number().int() }),
  pedido: z.object({ id: z.number().int(), surtido: SurtidoState }),
});
export type ShipmentResponse = z.infer<typeof ShipmentResponse>;

/** POST /api/surtido/{id}/lineas/{linea}/cancelar: units of a line cancelled as unavailable (all left by default). */
export const LineCancelBody = z.object({
  cantidad: Units.optional(),
  motivo: z
    .string({ error: MSG.lineaMotivoRequerido })
    .trim()
    .min(1, MSG.lineaMotivoRequerido)
    .max(LINE_CANCEL_REASON_MAX, MSG.lineaMotivoRequerido),
});
export type LineCancelBody = z.infer<typeof LineCancelBody>;

export const LineParams = z.object({
  id: z.coerce.number().int().positive().max(MAX_ID),
  linea: z.coerce.number().int().positive().max(MAX_ID),
});

/** POST /api/surtido/{id}/promesa: the promised date of the given lines (every line still to ship by default). */
export const PromiseBody = z.object({
  fecha: BusinessDate,
  lineas: z.array(LineId).min(1, MSG.envioLinea).max(SHIPMENT_LINES_MAX).optional(),
});
export type PromiseBody = z.infer<typeof PromiseBody>;

/** The answer of a line's cancellation or a promised date: the order's fulfilment and total now. */
export const OrderLinesChangeResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  pedido: z.object({ id: z.number().int(), surtido: SurtidoState.nullable(), total: z.number() }),
});
export type OrderLinesChangeResponse = z.infer<typeof OrderLinesChangeResponse>;
