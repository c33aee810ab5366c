import { z } from 'zod';
import { isMonthKey } from '../domain/months.ts';
import { MSG } from '../messages.ts';
import { AreaBudgetDto } from './area-budget.ts';
import { OrderDetailDto, OrderNumberText, OrderStatus, OrderSummaryDto } from './orders.ts';
import { PendingPriceDto } from './pending-price.ts';
import { listSort, type SortValue } from './sort.ts';

/** Amounts in the API are pesos (numbers with at most 2 decimals); the server works in centavos. */
const Pesos = z.number();

export const BudgetStateSchema = z.object({
  tipo_presupuesto: z.enum(['regular', 'categoria']),
  presupuesto_total: Pesos,
  presupuesto_utilizado: Pesos,
  /** Budget minus used minus the cart (with IVA). */
  presupuesto_restante: Pesos,
  /** Value of the cart with IVA. */
  presupuesto_carrito: Pesos,
  /** Units in the cart. */
  productos_totales: z.number().int(),
  limite_de_compras: z.number().int(),
  cantidad_de_compras: z.number().int(),
  /** The client shows the budget cards to its users. */
  mostrar: z.boolean(),
  /** The business month of these figures, YYYY-MM. */
  mes: z.string(),
  /** The client's budget alert thresholds, whole percentages ascending (decision 0054). */
  alertas_presupuesto: z.array(z.number().int()),
  /** This month's approved top-ups of the buyer's own budget, already in `presupuesto_total` (decision 0123). */
  ampliaciones: Pesos,
  /** The buyer's área this month (its remaining after the cart), or null: "Presupuesto del área …". */
  area: AreaBudgetDto.nullable(),
});
export type BudgetStateDto = z.infer<typeof BudgetStateSchema>;

export const CategoryDto = z.object({
  id: z.number().int(),
  nombre: z.string(),
  icono: z.string(),
  /** Number of products of this category assigned to the user. */
  productos: z.number().int(),
  /** Category mode: this category's monthly budget, used and remaining (null in regular mode). */
  presupuesto: Pesos.nullable(),
  utilizado: Pesos.nullable(),
  restante: Pesos.nullable(),
});
export type CategoryDto = z.infer<typeof CategoryDto>;

export const Disponibilidad = z.discriminatedUnion('estado', [
  z.object({ estado: z.literal('en_existencia') }),
  z.object({ estado: z.literal('pocas'), quedan: z.number().int() }),
  z.object({ estado: z.literal('sobre_pedido'), entrega_estimada: z.string().nullable() }),
]);

export const ProductDto = z.object({
  id: z.number().int(),
  nombre: z.string(),
  descripcion: z.string(),
  clave_interna: z.string(),
  clave_cliente: z.string(),
  unidad_de_medida: z.string(),
  precio: Pesos,
  impuesto: z.boolean(),
  id_categoria: z.number().int(),
  categoria: z.string(),
  /** Full image and catalogue thumbnail URLs. */
  imagen: z.string().nullable(),
  miniatura: z.string().nullable(),
  cantidad_limite: z.number().int(),
  /**
   * What the catalogue says of its stock (decision 0124): en_existencia, pocas (with how many are left) or
   * sobre_pedido (with the estimated delivery date, YYYY-MM-DD, or null without a lead time); null: unknown.
   */
  disponibilidad: Disponibilidad.nullable(),
  /** The product's pending price change (decision 0132), shown beside the price. */
  precio_programado: PendingPriceDto.nullable().optional(),
});
export type ProductDto = z.infer<typeof ProductDto>;

/** The catalogue's orders: by name (the default), by clave interna, or by price (lowest first). */
export const CATALOG_ORDERS = ['nombre', 'clave', 'precio'] as const;
export type CatalogOrder = (typeof CATALOG_ORDERS)[number];

export const CatalogQuery = z.object({
  q: z.string().trim().max(100).optional(),
  categoria: z.coerce.number().int().positive().max(2147483647).optional(),
  page: z.coerce.number().int().min(1).max(100000).default(1),
  /** Up to 100 (the web offers 12, 24, 48 and 96). */
  per_page: z.coerce.number().int().min(1).max(100).default(24),
  orden: z.enum(CATALOG_ORDERS).default('nombre'),
});

export const CatalogResponse = z.object({
  productos: z.array(ProductDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type CatalogResponse = z.infer<typeof CatalogResponse>;

export const CartItemDto = z.object({
  /** Product id. */
  id: z.number().int(),
  cantidad: z.number().int(),
  /** Current unit price. */
  costo: Pesos,
  /** Date added (business zone, YYYY-MM-DD). */
  fecha: z.string(),
  nombre: z.string(),
  clave_interna: z.string(),
  unidad_de_medida: z.string(),
  id_categoria: z.number().int(),
  categoria: z.string(),
  impuesto: z.boolean(),
  miniatura: z.string().nullable(),
  cantidad_limite: z.number().int(),
  /** costo x cantidad */
  importe: Pesos,
  /**
   * Units beyond the product's available stock, which ship later, with the estimated delivery date
   * (YYYY-MM-DD, null without a lead time); null when the line is in stock or the stock is unknown (0124).
   */
  envio_posterior: z
    .object({ cantidad: z.number().int(), entrega_estimada: z.string().nullable() })
    .nullable(),
  /** The product's pending price change (decision 0132): the cart holds today's price until its date. */
  precio_programado: PendingPriceDto.nullable().optional(),
});
export type CartItemDto = z.infer<typeof CartItemDto>;

export const CartTotals = z.object({ subtotal: Pesos, iva: Pesos, total: Pesos });

/** What every cart call returns: the cart, its totals and the budget state after the change. */
export const CartResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  carrito: z.array(CartItemDto),
  totales: CartTotals,
  presupuesto: BudgetStateSchema,
  categorias: z.array(CategoryDto),
});
export type CartResponse = z.infer<typeof CartResponse>;

/**
 * POST /api/historial/{id}/repetir and POST /api/listas/{id}/al-carrito: each line through the cart's
 * checks, in order; what was added (units added to the cart), what was skipped and why, and the cart's
 * figures after it, as every cart call returns them (decision 0043).
 */
export const ReorderResponse = CartResponse.extend({
  agregados: z.array(z.object({ id: z.number().int(), cantidad: z.number().int() })),
  omitidos: z.array(
    z.object({
      id: z.number().int(),
      nombre: z.string(),
      /** The cart's refusal, in Spanish, as POST /api/carrito/nuevo_item gives it. */
      motivo: z.string(),
      /** Its stable code: NOT_ASSIGNED, INACTIVE_PRODUCT, OVER_QUANTITY_LIMIT, PURCHASE_LIMIT, BUDGET… */
      codigo: z.string(),
    }),
  ),
  /**
   * Lines added with fewer units than asked because of the product's `cantidad_limite` (what the cart
   * already held counts): asked `pedido`, added `agregado` (also in `agregados`), and why, in Spanish.
   */
  ajustados: z.array(
    z.object({
      id: z.number().int(),
      pedido: z.number().int(),
      agregado: z.number().int(),
      motivo: z.string(),
    }),
  ),
});
export type ReorderResponse = z.infer<typeof ReorderResponse>;

export const CartAddBody = z.object({
  item: z.object({
    id: z.number().int().positive().max(2147483647),
    /** Whole number; 0 or less removes the item. */
    cantidad: z.number().min(-1_000_000).max(1_000_000),
  }),
});
export const CartRemoveBody = z.object({ item_id: z.number().int().positive().max(2147483647) });

/** Longest note a buyer may send with an order (decision 0043). */
export const NOTA_MAX = 500;
/** Control characters other than tab and line breaks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * The buyer's note for the approvers: plain text (never read as HTML), trimmed, line breaks as \n, at most
 * 500 characters; empty means none.
 */
export const OrderNote = z
  .string({ error: MSG.notaInvalida })
  .trim()
  .max(NOTA_MAX, MSG.notaLarga)
  .refine((t) => !CONTROL_CHARS.test(t), MSG.notaInvalida)
  .transform((t) => t.replace(/\r\n?/g, '\n'));

export const PurchaseBody = z.object({
  orden: z
    .array(
      z.object({
        id: z.number().int().positive().max(2147483647),
        cantidad: z.number().int().min(1).max(1_000_000),
      }),
    )
    .max(1000),
  fecha: z.string().max(10).optional(),
  nota: OrderNote.optional(),
  /**
   * The address book entry the order goes to (decision 0126): the buyer's default or one it is allowed;
   * absent: its default (or, without one, its profile's address).
   */
  id_direccion: z.number().int().positive().max(2147483647).optional(),
});

/** An empty query value is no filter (what a cleared form field sends). */
const emptyIsNone = (v: unknown) => (v === '' ? undefined : v);

/** The buyer's history sorts by date (newest first, the default) or by total. */
export const HISTORY_SORT = listSort(['fecha', 'total'], 'fecha_desc');
export type HistorySortField = 'fecha' | 'total';
export type HistorySort = SortValue<HistorySortField>;

/** The buyer's history: 10 a page, filtered by status, business month and order number, sorted. */
export const HistoryQuery = z.object({
  page: z.coerce.number().int().min(1).max(100000).default(1),
  status: z.preprocess(emptyIsNone, z.enum([...OrderStatus.options, 'todos']).optional()),
  /** A business month, YYYY-MM. */
  mes: z.preprocess(emptyIsNone, z.string().refine(isMonthKey, MSG.mesInvalido).optional()),
  /** An order number: "#00042", "00042" or "42". */
  q: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    OrderNumberText.optional(),
  ),
  orden: HISTORY_SORT.schema,
});
export type HistoryQuery = z.infer<typeof HistoryQuery>;

export const HistoryResponse = z.object({
  pedidos: z.array(OrderSummaryDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type HistoryResponse = z.infer<typeof HistoryResponse>;

export const PurchaseResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  pedido: OrderSummaryDto,
  /** The first page of the history, newest first. */
  transacciones: HistoryResponse,
  presupuesto: BudgetStateSchema,
  set_categorias: z.boolean(),
  categorias: z.array(CategoryDto),
});
export type PurchaseResponse = z.infer<typeof PurchaseResponse>;

/** GET /api/historial/{id}: the buyer's order, who it waits for and since when, and what they may do. */
export const BuyerOrderResponse = z.object({
  pedido: OrderDetailDto,
  /**
   * Whom a pendiente (level 1, rol 2 Autorizador) or espera (level 2, rol 3 Super Autorizador) order waits
   * for, since it reached that status; null for a final status.
   */
  en_espera: z.object({ nivel: z.union([z.literal(1), z.literal(2)]), desde: z.string() }).nullable(),
  /** The buyer may withdraw it (only while pendiente). */
  acciones: z.object({
    retirar: z.boolean(),
    /** The buyer may confirm receipt ("Recibido"): only while the order is enviado (decision 0058). */
    recibir: z.boolean().optional(),
  }),
});
export type BuyerOrderResponse = z.infer<typeof BuyerOrderResponse>;

/** POST /api/historial/{id}/retirar: the withdrawn order and the buyer's figures without it. */
export const WithdrawResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  pedido: OrderDetailDto,
  presupuesto: BudgetStateSchema,
  categorias: z.array(CategoryDto),
});
export type WithdrawResponse = z.infer<typeof WithdrawResponse>;

/** The buyer's delivery address as the administrator registered it; a part not given is ''. */
export const DeliveryAddress = z.object({
  direccion_entrega: z.string(),
  calle: z.string(),
  colonia: z.string(),
  ciudad: z.string(),
  cp: z.string(),
});
export type DeliveryAddress = z.infer<typeof DeliveryAddress>;

/** What rol 1 gets in GET /api/sesion besides the user (the cart screen reads it, address included). */
export const ShopperSession = z.object({
  categorias: z.array(CategoryDto),
  presupuesto: BudgetStateSchema,
  carrito: z.array(CartItemDto),
  totales: CartTotals,
  direccion: DeliveryAddress,
});
export type ShopperSession = z.infer<typeof ShopperSession>;
