import { z } from 'zod';
import {
  CLAIM_MSG,
  CLAIM_NOTE_MAX,
  CLAIM_PHOTOS_MAX,
  CLAIM_REASONS,
  CLAIM_RESOLUTIONS,
  CLAIM_STATES,
  RECEIPT_REASONS,
} from '../domain/claims.ts';
import { GUIA_MAX, PAQUETERIA_MAX, SHIPMENT_LINES_MAX } from '../domain/fulfilment.ts';
import { MAX_ID } from '../limits.ts';
import { MSG } from '../messages.ts';
import { note } from './fulfilment.ts';

/**
 * Receipts per shipment and claims (issue 41 items 4–5, decision 0127): the buyer's bodies, the operator's
 * decision, and the DTOs the order's detail, the operator's list and the API v1 carry.
 */

const LineId = z
  .number({ error: MSG.envioLinea })
  .int(MSG.envioLinea)
  .positive(MSG.envioLinea)
  .max(MAX_ID, MSG.envioLinea);
const uniqueLines = (ls: readonly { id: number }[]) => new Set(ls.map((l) => l.id)).size === ls.length;
/** Ids of photos uploaded first (POST /api/historial/{id}/fotos), each once. */
const PhotoIds = z
  .array(z.number().int().positive().max(MAX_ID), { error: CLAIM_MSG.reclamoFotos })
  .max(CLAIM_PHOTOS_MAX, CLAIM_MSG.reclamoFotos)
  .refine((ids) => new Set(ids).size === ids.length, CLAIM_MSG.reclamoFotos)
  .optional();

export const ClaimReason = z.enum(CLAIM_REASONS, { error: CLAIM_MSG.reclamoMotivo });
export const ReceiptReason = z.enum(RECEIPT_REASONS, { error: CLAIM_MSG.reclamoMotivo });
export const ClaimResolution = z.enum(CLAIM_RESOLUTIONS, { error: CLAIM_MSG.reclamoResolucion });
export const ClaimState = z.enum(CLAIM_STATES);

/**
 * POST /api/historial/{id}/envios/{numero}/recepcion: the buyer receives one shipment. A line not listed is
 * received in full; `recibido` counts the units received in good condition, and fewer than shipped needs a
 * `motivo`; any difference opens a claim asking for `resolucion` (required then).
 */
export const ShipmentReceiptBody = z.object({
  lineas: z
    .array(
      z.object({
        id: LineId,
        recibido: z
          .number({ error: CLAIM_MSG.recepcionCantidad })
          .int(CLAIM_MSG.recepcionCantidad)
          .min(0, CLAIM_MSG.recepcionCantidad)
          .max(1_000_000, CLAIM_MSG.recepcionCantidad),
        motivo: ReceiptReason.optional(),
      }),
      { error: MSG.envioLinea },
    )
    .max(SHIPMENT_LINES_MAX, MSG.envioLinea)
    .refine(uniqueLines, MSG.envioLinea)
    .default([]),
  nota: note(CLAIM_NOTE_MAX, CLAIM_MSG.reclamoNotaLarga),
  fotos: PhotoIds,
  resolucion: ClaimResolution.optional(),
});
export type ShipmentReceiptBody = z.infer<typeof ShipmentReceiptBody>;

export const ShipmentParams = z.object({
  id: z.coerce.number().int().positive().max(MAX_ID),
  numero: z.coerce.number().int().positive().max(MAX_ID),
});

/** An order's id and one of its photos' ids (GET …/{id}/fotos/{foto}). */
export const PhotoParams = z.object({
  id: z.coerce.number().int().positive().max(MAX_ID),
  foto: z.coerce.number().int().positive().max(MAX_ID),
});

export const ShipmentReceiptResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  recepcion: z.object({ id: z.number().int() }),
  /** The claim the receipt's differences opened, else null. */
  reclamo: z.object({ id: z.number().int(), numero: z.number().int() }).nullable(),
  pedido: z.object({ id: z.number().int(), surtido: z.string().nullable() }),
});
export type ShipmentReceiptResponse = z.infer<typeof ShipmentReceiptResponse>;

/** POST /api/historial/{id}/reclamos: the buyer claims shipped units by hand. */
export const ClaimBody = z.object({
  lineas: z
    .array(
      z.object({
        id: LineId,
        cantidad: z
          .number({ error: CLAIM_MSG.reclamoCantidad })
          .int(CLAIM_MSG.reclamoCantidad)
          .min(1, CLAIM_MSG.reclamoCantidad)
          .max(1_000_000, CLAIM_MSG.reclamoCantidad),
        motivo: ClaimReason,
      }),
      { error: MSG.envioLinea },
    )
    .min(1, MSG.envioLinea)
    .max(SHIPMENT_LINES_MAX, MSG.envioLinea)
    .refine(uniqueLines, MSG.envioLinea),
  resolucion: ClaimResolution,
  nota: note(CLAIM_NOTE_MAX, CLAIM_MSG.reclamoNotaLarga),
  fotos: PhotoIds,
});
export type ClaimBody = z.infer<typeof ClaimBody>;

export const ClaimCreatedResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  reclamo: z.object({ id: z.number().int(), numero: z.number().int() }),
});
export type ClaimCreatedResponse = z.infer<typeof ClaimCreatedResponse>;

/** A photo of a receipt or a claim (JPEG, PNG or HEIC). */
export const OrderPhotoDto = z.object({
  id: z.number().int(),
  nombre: z.string(),
  tipo: z.string(),
});
export type OrderPhotoDto = z.infer<typeof OrderPhotoDto>;
/** POST /api/historial/{id}/fotos (multipart, one file `archivo`): the stored photo, to name in a body. */
export const OrderPhotoResponse = OrderPhotoDto;

/** POST /api/surtido/reclamos/{id}: the operator's decision. */
export const ClaimDecisionBody = z.discriminatedUnion(
  'accion',
  [
    z.object({
      accion: z.literal('aceptar'),
      resolucion: ClaimResolution,
      nota: note(CLAIM_NOTE_MAX, CLAIM_MSG.reclamoNotaLarga),
    }),
    z.object({
      accion: z.literal('rechazar'),
      motivo: z
        .string({ error: CLAIM_MSG.reclamoMotivoRechazo })
        .trim()
        .min(1, CLAIM_MSG.reclamoMotivoRechazo)
        .max(CLAIM_NOTE_MAX, CLAIM_MSG.reclamoMotivoRechazo),
    }),
    z.object({
      accion: z.literal('devolucion'),
      guia: z
        .string({ error: CLAIM_MSG.reclamoGuia })
        .trim()
        .min(1, CLAIM_MSG.reclamoGuia)
        .max(GUIA_MAX, CLAIM_MSG.reclamoGuia),
      paqueteria: note(PAQUETERIA_MAX, MSG.guiasPaqueteriaLarga),
      nota: note(CLAIM_NOTE_MAX, CLAIM_MSG.reclamoNotaLarga),
    }),
  ],
  { error: CLAIM_MSG.reclamoAccion },
);
export type ClaimDecisionBody = z.infer<typeof ClaimDecisionBody>;

export const ClaimDecisionResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  reclamo: z.object({ id: z.number().int(), estado: ClaimState }),
  /** The replacement shipment an accepted reposición created, else null. */
  envio: z.object({ id: z.number().int(), numero: z.number().int() }).nullable(),
  /** Pesos given back by an accepted crédito, else 0. */
  credito: z.number(),
});
export type ClaimDecisionResponse = z.infer<typeof ClaimDecisionResponse>;

/** A claim as the order's detail, the operator's list and the API v1 show it. */
export const ClaimDto = z.object({
  id: z.number().int(),
  /** Numbered within the order (1, 2, …). */
  numero: z.number().int(),
  estado: ClaimState,
  resolucion_solicitada: ClaimResolution,
  /** What the operator granted (aceptado), else null. */
  resolucion: ClaimResolution.nullable(),
  nota: z.string().nullable(),
  /** The operator's answer: the refusal's reason, or the note of an acceptance or a return. */
  respuesta: z.string().nullable(),
  guia_devolucion: z.string().nullable(),
  paqueteria_devolucion: z.string().nullable(),
  /** Pesos credited (aceptado with crédito), else 0. */
  credito: z.number(),
  /** The number of the shipment whose receipt opened it, else null (opened by hand). */
  envio: z.number().int().nullable(),
  /** The number of the replacement shipment (aceptado with reposición), else null. */
  envio_reposicion: z.number().int().nullable(),
  autor: z.string(),
  creado: z.string(),
  actualizado: z.string(),
  lineas: z.array(
    z.object({
      id_linea: z.number().int(),
      nombre: z.string(),
      clave_interna: z.string(),
      cantidad: z.number().int(),
      motivo: ClaimReason,
    }),
  ),
  fotos: z.array(OrderPhotoDto),
});
export type ClaimDto = z.infer<typeof ClaimDto>;

/** A shipment's receipt: when, by whom, the note, the units received per line and the photos. */
export const ShipmentReceiptDto = z.object({
  id: z.number().int(),
  fecha: z.string(),
  por: z.string(),
  nota: z.string().nullable(),
  lineas: z.array(
    z.object({
      id_linea: z.number().int(),
      recibido: z.number().int(),
      motivo: ReceiptReason.nullable(),
    }),
  ),
  fotos: z.array(OrderPhotoDto),
});
export type ShipmentReceiptDto = z.infer<typeof ShipmentReceiptDto>;

/** GET /api/surtido/reclamos: every client's claims, 50 a page, newest first. */
export const ClaimQueueQuery = z.object({
  /** `pendientes` = abierto or devolucion (the default). */
  estado: z
    .enum(['pendientes', 'todos', ...CLAIM_STATES], { error: CLAIM_MSG.reclamoEstado })
    .default('pendientes'),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});
export type ClaimQueueQuery = z.infer<typeof ClaimQueueQuery>;

export const ClaimQueueRow = ClaimDto.extend({
  id_pedido: z.number().int(),
  cliente: z.string(),
  comprador: z.string(),
});
export type ClaimQueueRow = z.infer<typeof ClaimQueueRow>;

export const ClaimQueueResponse = z.object({
  items: z.array(ClaimQueueRow),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type ClaimQueueResponse = z.infer<typeof ClaimQueueResponse>;
