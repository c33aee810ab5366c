/** Integration (decisions 0059 and 0060): tokens and webhook endpoints (rol 4), and the v1 API. */
import { z } from 'zod';
import {
  API_SCOPES,
  TOKEN_MAX_DAYS,
  V1_PAGE_DEFAULT,
  V1_PAGE_MAX,
  WEBHOOK_EVENTS,
} from '../domain/integration.ts';
import { isIsoDate } from '../domain/time.ts';
import { MAX_ID, MAX_PAGE } from '../limits.ts';
import { MSG } from '../messages.ts';
import { ClaimDto, ClaimState, ShipmentReceiptDto } from './claims.ts';
import { SurtidoState } from './fulfilment.ts';
import { InvoiceDto } from './invoices.ts';
import { OrderStatus } from './orders.ts';

export const ApiScope = z.enum(API_SCOPES);
export const WebhookEventType = z.enum(WEBHOOK_EVENTS);

const Page = z.coerce.number().int().min(1).max(MAX_PAGE).default(1);
/** A client, or null for every client. */
const ClientScope = z.number().int().positive().max(MAX_ID).nullable();

// ---------------------------------------------------------------------------------------------------------
// Tokens (rol 4)

export const TokensQuery = z.object({ page: Page });

export const TokenCreateBody = z.object({
  nombre: z.string().trim().min(1, MSG.tokenNombre).max(100, MSG.tokenNombre),
  id_cliente: ClientScope,
  permisos: z
    .array(ApiScope)
    .min(1, MSG.tokenPermisos)
    .max(API_SCOPES.length)
    .transform((p) => [...new Set(p)]),
  vigencia_dias: z
    .number()
    .int(MSG.tokenVigencia)
    .min(1, MSG.tokenVigencia)
    .max(TOKEN_MAX_DAYS, MSG.tokenVigencia),
});
export type TokenCreateBody = z.infer<typeof TokenCreateBody>;

export const TokenDto = z.object({
  id: z.number().int(),
  nombre: z.string(),
  /** The first characters of the value, to recognise it (the value itself is never shown again). */
  prefijo: z.string(),
  id_cliente: z.number().int().nullable(),
  /** The client's name; null = every client. */
  cliente: z.string().nullable(),
  permisos: z.array(ApiScope),
  estado: z.enum(['activo', 'revocado', 'vencido']),
  expira_en: z.string(),
  revocado_en: z.string().nullable(),
  ultimo_uso: z.string().nullable(),
  creado_en: z.string(),
  creado_por: z.string().nullable(),
});
export type TokenDto = z.infer<typeof TokenDto>;

export const TokensResponse = z.object({
  tokens: z.array(TokenDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type TokensResponse = z.infer<typeof TokensResponse>;

export const TokenCreateResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  token: TokenDto,
  /** The token's value: in this answer only. */
  valor: z.string(),
});
export type TokenCreateResponse = z.infer<typeof TokenCreateResponse>;

export const TokenRevokeResponse = z.object({ status: z.literal('ok'), msg: z.string(), token: TokenDto });

// ---------------------------------------------------------------------------------------------------------
// Webhook endpoints (rol 4)

export const WebhookCreateBody = z.object({
  url: z
    .string()
    .trim()
    .max(500, MSG.webhookUrlInvalida)
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), MSG.webhookUrlInvalida),
  eventos: z
    .array(WebhookEventType)
    .min(1, MSG.webhookEventos)
    .max(WEBHOOK_EVENTS.length)
    .transform((e) => [...new Set(e)]),
  id_cliente: ClientScope,
});
export type WebhookCreateBody = z.infer<typeof WebhookCreateBody>;

export const WebhooksQuery = z.object({ page: Page });

export const WebhookDto = z.object({
  id: z.number().int(),
  url: z.string(),
  eventos: z.array(WebhookEventType),
  id_cliente: z.number().int().nullable(),
  cliente: z.string().nullable(),
  activo: z.boolean(),
  creado_en: z.string(),
  /** Deliveries still being tried, and those that failed for good. */
  pendientes: z.number().int(),
  fallidas: z.number().int(),
});
export type WebhookDto = z.infer<typeof WebhookDto>;

export const WebhooksResponse = z.object({
  webhooks: z.array(WebhookDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type WebhooksResponse = z.infer<typeof WebhooksResponse>;

export const WebhookCreateResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  webhook: WebhookDto,
  /** The signing secret: in this answer only. */
  secreto: z.string(),
});
export type WebhookCreateResponse = z.infer<typeof WebhookCreateResponse>;

export const WebhookDeactivateResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  webhook: WebhookDto,
});

export const DeliveryStatus = z.enum(['pendiente', 'enviando', 'entregado', 'fallido']);

export const DeliveryDto = z.object({
  id: z.number().int(),
  id_evento: z.string(),
  tipo: WebhookEventType,
  id_pedido: z.number().int(),
  estado: DeliveryStatus,
  intentos: z.number().int(),
  /** The receiver's HTTP status on the last attempt; null when it did not answer. */
  ultimo_codigo: z.number().int().nullable(),
  ultima_latencia_ms: z.number().int().nullable(),
  ultimo_error: z.string().nullable(),
  ultimo_intento_en: z.string().nullable(),
  creado_en: z.string(),
  entregado_en: z.string().nullable(),
});
export type DeliveryDto = z.infer<typeof DeliveryDto>;

export const DeliveriesQuery = z.object({ page: Page });

export const DeliveriesResponse = z.object({
  entregas: z.array(DeliveryDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type DeliveriesResponse = z.infer<typeof DeliveriesResponse>;

export const DeliveryResendResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  entrega: DeliveryDto,
});

// ---------------------------------------------------------------------------------------------------------
// The v1 API (Authorization: Bearer)

const IsoDate = z.string().refine(isIsoDate, MSG.fechaInvalida);

export const V1OrdersQuery = z
  .object({
    estatus: OrderStatus.optional(),
    /** The fulfilment state of approved orders (por_surtir, en_surtido, enviado, entregado). */
    surtido: SurtidoState.optional(),
    /** `retenido`: held for the client's credit now (decision 0136); `libre`: not held. */
    credito: z.enum(['retenido', 'libre']).optional(),
    desde: IsoDate.optional(),
    hasta: IsoDate.optional(),
    cursor: z.string().max(200).optional(),
    limite: z.coerce.number().int().min(1).max(V1_PAGE_MAX).default(V1_PAGE_DEFAULT),
  })
  .refine((q) => !q.desde || !q.hasta || q.desde <= q.hasta, {
    message: MSG.rangoFechasInvalido,
    path: ['hasta'],
  });
export type V1OrdersQuery = z.infer<typeof V1OrdersQuery>;

export const V1OrderLine = z.object({
  id: z.number().int(),
  id_producto: z.number().int(),
  clave_interna: z.string(),
  clave_cliente: z.string(),
  nombre: z.string(),
  unidad_de_medida: z.string(),
  categoria: z.string(),
  cantidad: z.number().int(),
  /** Unit price before IVA, in centavos, as frozen at purchase. */
  precio_unitario_centavos: z.number().int(),
  /** Whether the line pays IVA. */
  impuesto: z.boolean(),
  importe_centavos: z.number().int(),
  /** Units shipped so far and units cancelled as unavailable (`cantidad` no longer counts them). */
  enviado: z.number().int(),
  cancelado: z.number().int(),
  motivo_cancelacion: z.string().nullable(),
  /** The date the line is promised for (YYYY-MM-DD), from its approval; null before. */
  fecha_promesa: z.string().nullable(),
  /**
   * Claims (decision 0127): units credited back (they left `cantidad` and `enviado`: the units shipped are
   * `enviado + acreditado`) and units under a claim that is open, returning or credited.
   */
  acreditado: z.number().int(),
  reclamado: z.number().int(),
});

/** One shipment of an order (decision 0125): its number within the order, guía, date and units per line. */
export const V1Shipment = z.object({
  id: z.number().int(),
  numero: z.number().int(),
  guia: z.string().nullable(),
  paqueteria: z.string().nullable(),
  fecha: z.string(),
  lineas: z.array(z.object({ id_linea: z.number().int(), cantidad: z.number().int() })),
  /** A replacement for an accepted claim (decision 0127): its units are not counted in `enviado` again. */
  reposicion: z.boolean(),
  /** The buyer's receipt of this shipment (units received per line, reasons, note, photos), else null. */
  recepcion: ShipmentReceiptDto.nullable(),
});
export type V1Shipment = z.infer<typeof V1Shipment>;

/**
 * A claim as the v1 API and the webhooks give it (decision 0127): the screens' claim (`ClaimDto`) with its
 * credit in integer centavos, as every v1 amount.
 */
export const V1Claim = ClaimDto.omit({ credito: true }).extend({
  /** Centavos (with IVA) given back by an accepted credit, else 0. */
  credito_centavos: z.number().int(),
});
export type V1Claim = z.infer<typeof V1Claim>;

export const V1OrderEvent = z.object({
  id: z.number().int(),
  tipo: z.string(),
  de: z.string().nullable(),
  a: z.string().nullable(),
  fecha: z.string(),
  /** Who did it (null: the system, e.g. an approval rule). */
  actor: z.string().nullable(),
  motivo: z.string().nullable(),
});

/**
 * The order's credit state (decisions 0134 and 0136): whether it is held now, why (the current hold's reason,
 * or the last one's once released), when the hold began and when the operator released it, and the warning
 * an approval over the client's credit gave under the policy `avisar`.
 */
export const V1OrderCredit = z.object({
  /** Held for credit now: no fulfilment move or shipment until the operator releases it. */
  retenido: z.boolean(),
  /** Why it is (or was last) held, in Spanish; null when it never was. */
  motivo: z.string().nullable(),
  /** When the (last) hold began, ISO time; null when it never was held. */
  retenido_desde: z.string().nullable(),
  /** When the operator released the last hold, ISO time; null while held or when never held. */
  liberado_en: z.string().nullable(),
  /** The warning of an approval over the client's credit with the policy `avisar`; null when none. */
  aviso: z.string().nullable(),
});
export type V1OrderCredit = z.infer<typeof V1OrderCredit>;

/** An order as the OpenAPI document shows it (docs/integration.md). */
const V1_ORDER_EXAMPLE = {
  id: 42,
  numero: '00042',
  estatus: 'aprobado',
  fecha: '2026-11-25T17:02:11.000Z',
  moneda: 'MXN',
  subtotal_centavos: 38034,
  iva_centavos: 5926,
  total_centavos: 43960,
  nota: null,
  motivo_cancelacion: null,
  surtido: 'enviado',
  guia: 'Estafeta 1234567890',
  paqueteria: null,
  nota_recepcion: null,
  entrega: {
    id_direccion: 4,
    direccion_entrega: '',
    nombre: 'Almacén general',
    calle: 'Av. Industria',
    numero_exterior: '100',
    numero_interior: 'B',
    colonia: 'Centro',
    municipio: 'Monterrey',
    ciudad: 'Monterrey',
    estado: 'Nuevo León',
    cp: '64000',
    contacto: 'Luis Garza',
    telefono: '8112345678',
    horario: 'L-V 9:00 a 14:00',
    completa:
      'Almacén general, Av. Industria núm. ext. 100 int. B, Centro, Monterrey, Nuevo León, C.P. 64000',
    contacto_completo: 'Recibe: Luis Garza · Tel. 81 1234 5678 · Horario: L-V 9:00 a 14:00',
  },
  comprador: {
    id: 7,
    usuario: 'usuario',
    nombre: 'Ana Ruiz Téllez',
    email: 'ana@demo-industrial.mx',
    area: 'Mantenimiento',
    direccion_entrega: '',
  },
  cliente: { id: 1, nombre: 'Demo Industrial' },
  centro_de_costo: { id: 3, codigo: 'MANT', nombre: 'Mantenimiento', cuenta_contable: '6100-01' },
  credito: {
    retenido: false,
    motivo:
      'El saldo del cliente ($1,000.00 MXN) más este pedido ($1,160.00 MXN) rebasa su límite de crédito ($1,500.00 MXN).',
    retenido_desde: '2026-11-25T17:02:11.000Z',
    liberado_en: '2026-11-25T19:30:00.000Z',
    aviso: null,
  },
  lineas: [
    {
      id: 101,
      id_producto: 3,
      clave_interna: 'PAP-001',
      clave_cliente: 'DI-77',
      nombre: 'Hojas blancas carta',
      unidad_de_medida: 'Paquete',
      categoria: 'Papelería',
      cantidad: 3,
      precio_unitario_centavos: 12345,
      impuesto: true,
      importe_centavos: 37035,
      enviado: 3,
      cancelado: 0,
      motivo_cancelacion: null,
      fecha_promesa: '2026-11-28',
      acreditado: 0,
      reclamado: 1,
    },
    {
      id: 102,
      id_producto: 9,
      clave_interna: 'LIB-002',
      clave_cliente: '',
      nombre: 'Libro de registro',
      unidad_de_medida: 'Pieza',
      categoria: 'Papelería',
      cantidad: 1,
      precio_unitario_centavos: 999,
      impuesto: false,
      importe_centavos: 999,
      enviado: 0,
      cancelado: 0,
      motivo_cancelacion: null,
      fecha_promesa: '2026-12-02',
      acreditado: 0,
      reclamado: 0,
    },
  ],
  envios: [
    {
      id: 40,
      numero: 1,
      guia: '7701234567',
      paqueteria: 'Estafeta',
      fecha: '2026-11-26',
      lineas: [{ id_linea: 101, cantidad: 3 }],
      reposicion: false,
      recepcion: {
        id: 12,
        fecha: '2026-11-27T18:20:00.000Z',
        por: 'Ana Ruiz Téllez',
        nota: 'Un paquete llegó mojado.',
        lineas: [{ id_linea: 101, recibido: 2, motivo: 'danado' }],
        fotos: [{ id: 31, nombre: 'caja.jpg', tipo: 'image/jpeg' }],
      },
    },
  ],
  reclamos: [
    {
      id: 7,
      numero: 1,
      estado: 'abierto',
      resolucion_solicitada: 'reposicion',
      resolucion: null,
      nota: 'Un paquete llegó mojado.',
      respuesta: null,
      guia_devolucion: null,
      paqueteria_devolucion: null,
      credito_centavos: 0,
      envio: 1,
      envio_reposicion: null,
      autor: 'Ana Ruiz Téllez',
      creado: '2026-11-27T18:20:00.000Z',
      actualizado: '2026-11-27T18:20:00.000Z',
      lineas: [
        {
          id_linea: 101,
          nombre: 'Hojas blancas carta',
          clave_interna: 'PAP-001',
          cantidad: 1,
          motivo: 'danado',
        },
      ],
      fotos: [{ id: 31, nombre: 'caja.jpg', tipo: 'image/jpeg' }],
    },
  ],
  eventos: [
    {
      id: 1,
      tipo: 'creado',
      de: null,
      a: 'pendiente',
      fecha: '2026-11-25T16:40:00.000Z',
      actor: 'Ana Ruiz Téllez',
      motivo: null,
    },
    {
      id: 2,
      tipo: 'aprobado',
      de: 'pendiente',
      a: 'aprobado',
      fecha: '2026-11-25T17:02:11.000Z',
      actor: 'Bruno Pérez Lara',
      motivo: null,
    },
  ],
};

/** One order as the v1 API and the webhooks give it (one serializer: modules/integration/v1-order.ts). */
export const V1Order = z
  .object({
    id: z.number().int(),
    numero: z.string(),
    estatus: OrderStatus,
    fecha: z.string(),
    moneda: z.literal('MXN'),
    subtotal_centavos: z.number().int(),
    iva_centavos: z.number().int(),
    total_centavos: z.number().int(),
    nota: z.string().nullable(),
    motivo_cancelacion: z.string().nullable(),
    /** After approval: the fulfilment state, the carrier's reference and the buyer's note on receipt. */
    surtido: SurtidoState.nullable(),
    guia: z.string().nullable(),
    /** The carrier named apart from the guía (the guías file), else null. */
    paqueteria: z.string().nullable(),
    nota_recepcion: z.string().nullable(),
    /**
     * The delivery address copied onto the order when it was placed (later edits of the profile or of the
     * address book do not change it): each part ('' when not given) and `completa`, the whole address on
     * one line. An order sent to an entry of the client's address book (decision 0126) also has
     * `id_direccion` (the entry), its label `nombre`, `numero_exterior`, `numero_interior`, `municipio`,
     * `contacto`, `telefono`, `horario` and `contacto_completo` (who receives, the phone and the window on
     * one line); an order that copied the buyer's profile has none of these.
     */
    entrega: z.object({
      id_direccion: z.number().int().optional(),
      direccion_entrega: z.string(),
      nombre: z.string().optional(),
      calle: z.string(),
      numero_exterior: z.string().optional(),
      numero_interior: z.string().optional(),
      colonia: z.string(),
      municipio: z.string().optional(),
      ciudad: z.string(),
      estado: z.string(),
      cp: z.string(),
      contacto: z.string().optional(),
      telefono: z.string().optional(),
      horario: z.string().optional(),
      completa: z.string(),
      contacto_completo: z.string().optional(),
    }),
    comprador: z.object({
      id: z.number().int(),
      usuario: z.string(),
      nombre: z.string(),
      email: z.string(),
      area: z.string(),
      /** The order's copy of the buyer's free-text address (`entrega.direccion_entrega`). */
      direccion_entrega: z.string(),
    }),
    cliente: z.object({ id: z.number().int(), nombre: z.string() }),
    /** The área (cost centre) the order was charged to, with its GL account (decision 0123); null = none. */
    centro_de_costo: z
      .object({
        id: z.number().int(),
        codigo: z.string(),
        nombre: z.string(),
        cuenta_contable: z.string().nullable(),
      })
      .nullable(),
    /** The order's credit hold and warning (decisions 0134 and 0136). */
    credito: V1OrderCredit,
    lineas: z.array(V1OrderLine),
    envios: z.array(V1Shipment),
    /** The order's claims in number order (decision 0127). */
    reclamos: z.array(V1Claim),
    eventos: z.array(V1OrderEvent),
  })
  .meta({ example: V1_ORDER_EXAMPLE });
export type V1Order = z.infer<typeof V1Order>;

export const V1OrdersResponse = z
  .object({
    pedidos: z.array(V1Order),
    /** Pass as `cursor` for the next page; null on the last one. */
    siguiente: z.string().nullable(),
  })
  .meta({ example: { pedidos: [V1_ORDER_EXAMPLE], siguiente: 'cDEuNDI' } });
export type V1OrdersResponse = z.infer<typeof V1OrdersResponse>;

/** GET /api/v1/reclamos: claims the token may read, by state and by last change (business date). */
export const V1ClaimsQuery = z.object({
  estado: ClaimState.optional(),
  /** Claims changed (`actualizado`) on or after this business date (AAAA-MM-DD). */
  desde: IsoDate.optional(),
  cursor: z.string().max(200).optional(),
  limite: z.coerce.number().int().min(1).max(V1_PAGE_MAX).default(V1_PAGE_DEFAULT),
});
export type V1ClaimsQuery = z.infer<typeof V1ClaimsQuery>;

/** A claim of the v1 list: the claim with its order and client. */
export const V1ClaimListItem = V1Claim.extend({
  id_pedido: z.number().int(),
  numero_pedido: z.string(),
  cliente: z.object({ id: z.number().int(), nombre: z.string() }),
});
export type V1ClaimListItem = z.infer<typeof V1ClaimListItem>;

export const V1ClaimsResponse = z.object({
  reclamos: z.array(V1ClaimListItem),
  /** Pass as `cursor` for the next page; null on the last one. */
  siguiente: z.string().nullable(),
});
export type V1ClaimsResponse = z.infer<typeof V1ClaimsResponse>;

/** The body of a webhook delivery. */
export const WebhookPayload = z.object({
  id: z.string(),
  tipo: WebhookEventType,
  fecha: z.string(),
  pedido: V1Order,
  /** `pedido.envio`: the shipment the event is about (also in `pedido.envios`). */
  envio: V1Shipment.optional(),
  /** `reclamo.*`: the claim the event is about (also in `pedido.reclamos`). */
  reclamo: V1Claim.optional(),
  /** `factura.registrada`, `factura.con_diferencias`, `pago.aplicado`: the CFDI the event is about (0131, 0133). */
  factura: InvoiceDto.optional(),
});
export type WebhookPayload = z.infer<typeof WebhookPayload>;
