import { z } from 'zod';
import { isIsoDate } from '../domain/time.ts';
import { BULK_ORDERS_MAX, MAX_ID, SEARCH_MAX_LENGTH } from '../limits.ts';
import { MSG } from '../messages.ts';
import { AreaBudgetDto } from './area-budget.ts';
import { ClaimDto, ShipmentReceiptDto } from './claims.ts';
import { CommentText, OrderCommentDto } from './comments.ts';
import { SurtidoState } from './fulfilment.ts';
import { PendingPriceDto } from './pending-price.ts';

/** Amounts in pesos (the API's money; centavos inside the server). */
const Pesos = z.number();

/** An order and its parts as every screen and the API read them: the buyer's, the approver's, the admin's. */
export const OrderStatus = z.enum(['pendiente', 'espera', 'aprobado', 'cancelado']);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const OrderSummaryDto = z.object({
  id: z.number().int(),
  /** Products (lines) in the order. */
  productos: z.number().int(),
  total: Pesos,
  status: OrderStatus,
  transaction_date: z.string(),
  /** Comments on the order (decision 0047); optional in the type only, like `nota`. */
  comentarios: z.number().int().optional(),
  /** The fulfilment state of an approved order, else null (decision 0058); optional in the type only. */
  surtido: SurtidoState.nullable().optional(),
});
export type OrderSummaryDto = z.infer<typeof OrderSummaryDto>;

/** An order number as people type it: "#00042", "00042" or "42". */
export const OrderNumberText = z
  .string()
  .trim()
  .regex(/^#?\d{1,9}$/, MSG.numeroPedidoInvalido);

export const OrderLineDto = z.object({
  id: z.number().int(),
  id_producto: z.number().int(),
  clave_interna: z.string(),
  clave_cliente: z.string(),
  nombre: z.string(),
  unidad_de_medida: z.string(),
  categoria: z.string(),
  costo: Pesos,
  impuesto: z.boolean(),
  cantidad: z.number().int(),
  importe: Pesos,
  /**
   * After approval (decision 0125): units shipped, units cancelled as unavailable (no longer in `cantidad`)
   * and why, units that were beyond the stock at approval, and the promised date (YYYY-MM-DD). Always sent;
   * optional in the type only, like `nota`.
   */
  enviado: z.number().int().optional(),
  cancelado: z.number().int().optional(),
  motivo_cancelacion: z.string().nullable().optional(),
  sobre_pedido: z.number().int().optional(),
  fecha_promesa: z.string().nullable().optional(),
  /**
   * Claims (decision 0127): units credited back (they left `cantidad` and `enviado`) and units under a claim
   * that is not refused. Always sent; optional in the type only, like `nota`.
   */
  acreditado: z.number().int().optional(),
  reclamado: z.number().int().optional(),
  /**
   * The product's pending price change (decision 0132), on an order waiting for approval only: the order
   * keeps its own price, and the approvers see what a new order would cost from that date.
   */
  precio_programado: PendingPriceDto.nullable().optional(),
});
export type OrderLineDto = z.infer<typeof OrderLineDto>;

/** One shipment of an order (decision 0125): number within the order, guía, carrier, date, units per line. */
export const OrderShipmentDto = z.object({
  id: z.number().int(),
  numero: z.number().int(),
  guia: z.string().nullable(),
  paqueteria: z.string().nullable(),
  fecha: z.string(),
  lineas: z.array(z.object({ id_linea: z.number().int(), cantidad: z.number().int() })),
  /**
   * A replacement for an accepted claim (decision 0127): its units are not counted in `enviado` again.
   * Always sent; optional in the type only, like `nota`.
   */
  reposicion: z.boolean().optional(),
  /** The buyer's receipt of this shipment, else null. Always sent; optional in the type only. */
  recepcion: ShipmentReceiptDto.nullable().optional(),
});
export type OrderShipmentDto = z.infer<typeof OrderShipmentDto>;

export const OrderEventDto = z.object({
  id: z.number().int(),
  tipo: z.string(),
  de: z.string().nullable(),
  a: z.string().nullable(),
  actor: z.string().nullable(),
  /** The delegator the actor acted for (an out-of-office delegation, decision 0053), or null. */
  en_nombre_de: z.string().nullable(),
  fecha: z.string(),
  motivo: z.string().nullable(),
  cambios: z.unknown().nullable(),
});
export type OrderEventDto = z.infer<typeof OrderEventDto>;

export const OrderDetailDto = z.object({
  id: z.number().int(),
  status: OrderStatus,
  transaction_date: z.string(),
  subtotal: Pesos,
  iva: Pesos,
  total: Pesos,
  motivo_cancelacion: z.string().nullable(),
  /**
   * The buyer's note for the approvers, null when none. Always sent; optional in the type only so that
   * values written before it existed still type-check.
   */
  nota: z.string().nullable().optional(),
  lineas: z.array(OrderLineDto),
  eventos: z.array(OrderEventDto),
  /**
   * The order's latest comments (at most 50), oldest first (decision 0047; older ones a page at a time:
   * GET …/comentarios?antes=). Always sent; optional in the type only, like `nota`.
   */
  comentarios: z.array(OrderCommentDto).optional(),
  /** How many comments the order has in all. Always sent; optional in the type only. */
  comentarios_total: z.number().int().optional(),
  /**
   * Fulfilment (decision 0058): the state of an approved order (else null), the carrier's tracking
   * reference and the buyer's note on receipt. Always sent; optional in the type only, like `nota`.
   */
  surtido: SurtidoState.nullable().optional(),
  guia: z.string().nullable().optional(),
  /** The carrier named apart from the guía (the guías file), else null (decision 0094). */
  paqueteria: z.string().nullable().optional(),
  nota_recepcion: z.string().nullable().optional(),
  /** Why the order is held for credit (decision 0134), null when it is not. Optional in the type only. */
  retenido_credito: z.string().nullable().optional(),
  /** The order's shipments in number order (decision 0125). Always sent; optional in the type only. */
  envios: z.array(OrderShipmentDto).optional(),
  /** The order's claims in number order (decision 0127). Always sent; optional in the type only. */
  reclamos: z.array(ClaimDto).optional(),
  /**
   * The delivery address copied onto the order when it was placed (decisions 0094, 0126): the whole line
   * and who receives, the phone and the window ('' when the copy has none). Always sent; optional in the
   * type only, like `nota`.
   */
  entrega: z.object({ direccion: z.string(), contacto: z.string() }).optional(),
});
export type OrderDetailDto = z.infer<typeof OrderDetailDto>;

export const OrderFilter = z.enum(['accionables', 'todos', 'pendiente', 'espera', 'aprobado', 'cancelado']);
export type OrderFilter = z.infer<typeof OrderFilter>;

/** The list's sort: by date (newest first, the default) or by total. */
export const OrderSort = z.enum(['fecha_desc', 'fecha_asc', 'total_desc', 'total_asc']);
export type OrderSort = z.infer<typeof OrderSort>;

const BusinessDate = z.string().refine(isIsoDate, MSG.fechaInvalida);

/** The list's filter: a status (or the role's actionable ones, or all) and a search. */
const ListFilter = z.object({
  status: OrderFilter.default('accionables'),
  /** An order number, or part of a username or name. */
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
});

const OrderKey = z.coerce.number().int().min(1).max(MAX_ID);

/** What the list shows and in which order: its filter, its sort and its period. */
const ListView = ListFilter.extend({
  orden: OrderSort.default('fecha_desc'),
  /** Business dates (YYYY-MM-DD), both inclusive. */
  desde: BusinessDate.optional(),
  hasta: BusinessDate.optional(),
});
const periodInOrder = (q: { desde?: string; hasta?: string }) => !q.desde || !q.hasta || q.desde <= q.hasta;

export const AuthorizerOrdersQuery = ListView.extend({
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  /**
   * Keyset paging (decision 0076): `page` is the page right after the order `despues` (the last row of the
   * page before it) or right before the order `antes` (the first row of the page after it), read from where
   * that order stands instead of counting rows from the start. Without them, or with an id that is no row of
   * the list, the page is found by its number.
   */
  despues: OrderKey.optional(),
  antes: OrderKey.optional(),
})
  .refine(periodInOrder, { message: MSG.rangoFechasInvalido, path: ['hasta'] })
  .refine((q) => q.despues === undefined || q.antes === undefined, {
    message: MSG.paginaDespuesOAntes,
    path: ['antes'],
  });
export type AuthorizerOrdersQuery = z.infer<typeof AuthorizerOrdersQuery>;

/**
 * The list's view, for the neighbours of one order (GET /api/pedidos/:id/siguiente): the same filter, sort
 * and period, so "Siguiente" and "Siguiente pendiente" follow the list as the approver left it.
 */
export const OrderNeighboursQuery = ListView.refine(periodInOrder, {
  message: MSG.rangoFechasInvalido,
  path: ['hasta'],
});
export type OrderNeighboursQuery = z.infer<typeof OrderNeighboursQuery>;

/**
 * One order's neighbours in the list under the same filter, sort and period: the previous and next rows,
 * and the next order this user can act on (after it in the list, else the first from the list's top), or
 * null.
 */
export const OrderNeighbours = z.object({
  anterior: z.number().int().nullable(),
  siguiente: z.number().int().nullable(),
  siguiente_accionable: z.number().int().nullable(),
});
export type OrderNeighbours = z.infer<typeof OrderNeighbours>;

export const AuthorizerOrderRow = z.object({
  id: z.number().int(),
  productos: z.number().int(),
  total: z.number(),
  status: OrderStatus,
  transaction_date: z.string(),
  usuario: z.string(),
  nombre: z.string(),
  /** Comments on the order (decision 0047). */
  comentarios: z.number().int(),
  /** Approving this order as it stands would exceed the buyer's budget (the approval's own rule). */
  excede_presupuesto: z.boolean(),
  /** The buyer's remaining budget of the order's month after this order (pesos; negative when over). */
  restante_despues: z.number(),
  /**
   * A pendiente order that a level-1 approval would send on to the Super Autorizador under the client's rule
   * by amount (its total with the buyer's orders of the rule's window): false without such a rule, where
   * every order of a two-level client goes to the second level alike.
   */
  segundo_nivel: z.boolean(),
  /**
   * Whole hours the order has waited on its level, when more than the client's escalation hours (decision
   * 0113); null otherwise or with escalation off.
   */
  esperando_horas: z.number().int().nullable(),
});
export type AuthorizerOrderRow = z.infer<typeof AuthorizerOrderRow>;

export const AuthorizerOrdersResponse = z.object({
  pedidos: z.array(AuthorizerOrderRow),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
  status: OrderFilter,
  /** The status this role acts on (null when it acts on none). */
  accionable: OrderStatus.nullable(),
  /**
   * Every status the user acts on today: their role's, and their delegators' while a delegation holds
   * (decision 0053). `accionable` is the role's own.
   */
  accionables: z.array(OrderStatus),
  orden: OrderSort,
  /** The sum of the totals of every order the filter holds (every page), pesos. */
  suma: z.number(),
});
export type AuthorizerOrdersResponse = z.infer<typeof AuthorizerOrdersResponse>;

export const ApprovalBudget = z.object({
  tipo_presupuesto: z.enum(['regular', 'categoria']),
  /** The buyer's monthly budget. */
  disponible: z.number(),
  /** The buyer's other non-cancelled orders of the order's month. */
  utilizado: z.number(),
  /** disponible - utilizado - this order's total. */
  restante: z.number(),
  productos: z.number().int(),
  categorias: z.array(
    z.object({
      id: z.number().int(),
      nombre: z.string(),
      disponible: z.number(),
      utilizado: z.number(),
      restante: z.number(),
    }),
  ),
  /**
   * The área the order is charged to (decision 0123): its month's budget, what its other orders of the month
   * spend (`utilizado`) and what is left after this order (`restante`); null = none.
   */
  area: AreaBudgetDto.nullable(),
});
export type ApprovalBudget = z.infer<typeof ApprovalBudget>;

export const AuthorizerOrderView = z.object({
  pedido: OrderDetailDto,
  usuario: z.object({ id: z.number().int(), nombre: z.string(), usuario: z.string() }),
  presupuesto: ApprovalBudget,
  /** The buyer's other non-cancelled orders of the same month. */
  pedidos_del_mes: z.array(
    z.object({ id: z.number().int(), total: z.number(), status: OrderStatus, transaction_date: z.string() }),
  ),
  /** cantidad_limite per product id (for the edit inputs). */
  limites: z.record(z.string(), z.number().int()),
  /** The client's approval rules by amount (pesos, null = off): the approve dialog says what will happen. */
  reglas: z.object({
    aprobacion_automatica_hasta: z.number().nullable(),
    segundo_nivel_desde: z.number().nullable(),
    /** Hours before an order whose orders of the same buyer add to its total for the rules (decision 0100). */
    ventana_horas: z.number().int(),
    /** What the buyer placed in that window before this order (pesos), when the second-level rule may apply. */
    previos: z.number(),
  }),
  acciones: z.object({
    aprobar: z.boolean(),
    cancelar: z.boolean(),
    editar: z.boolean(),
    /** Send the order back to level 1 (rol 3 on espera, decision 0111). */
    devolver: z.boolean(),
  }),
  /**
   * The client's credit if this order were approved now (decision 0134): why it is over its limit or has an
   * overdue invoice, and whether the approval would hold it; null when there is no problem (or the order is
   * not waiting). Optional in the type only.
   */
  credito: z.object({ aviso: z.string(), retendra: z.boolean() }).nullable().optional(),
});
export type AuthorizerOrderView = z.infer<typeof AuthorizerOrderView>;

export const UpdateOrderBody = z.object({
  id: z.number().int().positive().max(MAX_ID),
  /** The order's lines after the authorizer's edits: product id and quantity. */
  orden: z
    .array(
      z.object({
        id: z.number().int().positive().max(MAX_ID),
        cantidad: z.number().min(-1_000_000).max(1_000_000),
      }),
    )
    .max(1000),
  fecha: z.string().max(10).optional(),
  /** Ignored: the server recomputes totals. */
  total: z.number().optional(),
  /** A comment saved with the approval, in its transaction (decision 0047). */
  comentario: CommentText.optional(),
});

export const CancelOrderBody = z
  .object({ motivo: z.string().trim().max(255, 'El motivo admite hasta 255 caracteres.').optional() })
  .optional();

/**
 * POST /api/pedidos/{id}/devolver: the Super Autorizador sends an order at level 2 back to level 1 with a
 * required comment (decision 0111), which joins the order's comments.
 */
export const ReturnOrderBody = z.object({ comentario: CommentText });
export type ReturnOrderBody = z.infer<typeof ReturnOrderBody>;

const BulkIds = z
  .array(z.number().int().positive().max(MAX_ID), { error: MSG.loteVacio })
  .min(1, MSG.loteVacio)
  .max(BULK_ORDERS_MAX, MSG.loteLargo(BULK_ORDERS_MAX))
  .refine((ids) => new Set(ids).size === ids.length, MSG.loteRepetido);

/** POST /api/pedidos/aprobar-lote: each order approved as it stands (no edits in bulk). */
export const BulkApproveBody = z.object({ ids: BulkIds });
export type BulkApproveBody = z.infer<typeof BulkApproveBody>;

/** POST /api/pedidos/cancelar-lote: one optional reason for every order. */
export const BulkCancelBody = z.object({
  ids: BulkIds,
  motivo: z.string().trim().max(255, 'El motivo admite hasta 255 caracteres.').optional(),
});
export type BulkCancelBody = z.infer<typeof BulkCancelBody>;

/** One row per id, in the order asked: its new status, or the Spanish reason it was refused. */
export const BulkResponse = z.object({
  resultados: z.array(
    z.object({
      id: z.number().int(),
      ok: z.boolean(),
      estatus: OrderStatus.optional(),
      error: z.string().optional(),
    }),
  ),
});
export type BulkResponse = z.infer<typeof BulkResponse>;

export const WorkflowResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  nuevo_estatus: OrderStatus,
  pedido: OrderDetailDto,
  pedidos: AuthorizerOrdersResponse,
});
export type WorkflowResponse = z.infer<typeof WorkflowResponse>;

export const ReportBody = z
  .object({
    tipo: z.enum(['general', 'detalle'], { error: MSG.tipoReporteRequerido }),
    fecha_inicio: z.string({ error: MSG.fechasRequeridas }).refine(isIsoDate, MSG.fechasRequeridas),
    fecha_fin: z.string({ error: MSG.fechasRequeridas }).refine(isIsoDate, MSG.fechasRequeridas),
  })
  .refine((b) => b.fecha_inicio <= b.fecha_fin, { message: MSG.rangoFechasInvalido, path: ['fecha_fin'] });
export type ReportBody = z.infer<typeof ReportBody>;
