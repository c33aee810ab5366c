/**
 * Receivers named by the client (issue 41 item 4, decision 0130, docs/domain.md "Receipts and claims"): the
 * flag «Receptor de mercancía» with the addresses it covers, and the receiver's list of shipments to receive.
 * The texts live here, off the sign-in page's bundle (decision 0095), like the addresses' own.
 */
import { z } from 'zod';
import { SEARCH_MAX_LENGTH } from '../limits.ts';
import { ClaimState, OrderPhotoDto, ReceiptReason } from './claims.ts';
import { idNumber, PageQuery } from './form-fields.ts';

export const RECEIVER_MSG = {
  direccionesInvalidas: 'La lista de direcciones del receptor no es válida.',
  demasiadasDirecciones: 'Un receptor puede tener hasta 100 direcciones.',
  receptorInvalido: 'Indica si el usuario es receptor de mercancía (sí o no).',
  soloReceptores: 'Solo los receptores de mercancía registran recepciones aquí.',
  receptorSoloRoles:
    'Solo un comprador, un autorizador o un superautorizador puede ser receptor de mercancía.',
  direccionesSinReceptor: 'Marca al usuario como receptor de mercancía para elegir sus direcciones.',
  direccionInactiva: 'Una de las direcciones elegidas está desactivada.',
  guardado: 'Guardamos el receptor de mercancía.',
} as const;

/** Most addresses a receiver may be limited to (none = every address of its client). */
export const RECEIVER_ADDRESSES_MAX = 100;
/** Shipments per page of the receiver's list. */
export const RECEIVING_PER_PAGE = 20;

/** PUT /api/usuarios/{id}/receptor: the flag and the addresses it covers, replaced whole. */
export const UserReceiverBody = z.object({
  receptor: z.boolean({ error: RECEIVER_MSG.receptorInvalido }),
  /** The client's addresses it receives for; empty = every address. */
  direcciones: z
    .array(idNumber(RECEIVER_MSG.direccionesInvalidas), { error: RECEIVER_MSG.direccionesInvalidas })
    .max(RECEIVER_ADDRESSES_MAX, RECEIVER_MSG.demasiadasDirecciones)
    .refine((ids) => new Set(ids).size === ids.length, RECEIVER_MSG.direccionesInvalidas)
    .default([]),
});
export type UserReceiverBody = z.infer<typeof UserReceiverBody>;

/** GET/PUT /api/usuarios/{id}/receptor: the flag and its addresses (by name). */
export const UserReceiverResponse = z.object({
  receptor: z.boolean(),
  direcciones: z.array(z.object({ id: z.number().int(), nombre: z.string(), activa: z.boolean() })),
});
export type UserReceiverResponse = z.infer<typeof UserReceiverResponse>;

/** GET /api/recepcion: a page, and a search by order number (42, 00042, #00042) or part of a guía. */
export const ReceivingQuery = z.object({
  page: PageQuery,
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
});
export type ReceivingQuery = z.infer<typeof ReceivingQuery>;

/** A shipment waiting for its receipt, as the receiver's list shows it. */
export const ReceivableShipmentDto = z.object({
  id_pedido: z.number().int(),
  numero: z.number().int(),
  guia: z.string().nullable(),
  paqueteria: z.string().nullable(),
  /** The shipping date (business date). */
  fecha: z.string(),
  reposicion: z.boolean(),
  /** The order's buyer. */
  comprador: z.string(),
  /** The address book entry's label, or the address as the order copied it. */
  direccion: z.string(),
  /** Units the shipment carries, all lines together. */
  unidades: z.number().int(),
});
export type ReceivableShipmentDto = z.infer<typeof ReceivableShipmentDto>;

export const ReceivingListResponse = z.object({
  envios: z.array(ReceivableShipmentDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type ReceivingListResponse = z.infer<typeof ReceivingListResponse>;

/** GET /api/recepcion/{id}/envios/{numero}: the shipment with its lines, for the receipt form. */
export const ReceivableShipmentDetail = ReceivableShipmentDto.extend({
  lineas: z.array(
    z.object({
      id: z.number().int(),
      nombre: z.string(),
      unidad_de_medida: z.string(),
      cantidad: z.number().int(),
      /** Received: the units the receipt counted in good condition, and why fewer; null while it waits. */
      recibido: z.number().int().nullable(),
      motivo: ReceiptReason.nullable(),
    }),
  ),
  /**
   * Already received (by anyone): who, when, the receipt's note and photos (served by
   * GET /api/recepcion/{id}/fotos/{foto}) and the claim its differences opened; null while it waits.
   */
  recepcion: z
    .object({
      por: z.string(),
      fecha: z.string(),
      nota: z.string().nullable(),
      fotos: z.array(OrderPhotoDto),
      reclamo: z.object({ numero: z.number().int(), estado: ClaimState }).nullable(),
    })
    .nullable(),
});
export type ReceivableShipmentDetail = z.infer<typeof ReceivableShipmentDetail>;
