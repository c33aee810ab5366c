/** Administration (rol 4): inventory (products, categories, icons). Amounts are pesos; the server stores centavos. */
import { z } from 'zod';
import { ICONOS } from '../domain/icons.ts';
import { hasAtMostTwoDecimals } from '../domain/money.ts';
import { isIsoDate } from '../domain/time.ts';
import {
  INVENTORY_BATCH_MAX,
  INVENTORY_MAX_PER_PAGE,
  INVENTORY_PER_PAGE,
  MAX_ID,
  MAX_PAGE,
  SEARCH_MAX_LENGTH,
} from '../limits.ts';
import { MSG } from '../messages.ts';
import {
  blankTextToUndefined,
  idRequired,
  optionalBoolean,
  optionalText,
  requiredBoolean,
  requiredText,
} from './form-fields.ts';
import { PendingPriceDto } from './pending-price.ts';
import { listSort, type SortValue } from './sort.ts';
import { diasEntregaField, existenciaField } from './stock.ts';

const textRequired = (max: number, required: string) => requiredText(required, max, MSG.invTextoLargo(max));
const textOptional = (max: number) => optionalText(max, { tooLong: MSG.invTextoLargo(max), nullKeeps: true });

/** Pesos, >= 0, at most 2 decimals. */
const Price = z.preprocess(
  blankTextToUndefined,
  z.coerce
    .number({ error: MSG.invPrecioInvalido })
    .min(0, MSG.invPrecioInvalido)
    .max(100_000_000, MSG.invPrecioInvalido)
    .refine(hasAtMostTwoDecimals, MSG.invPrecioInvalido),
);

// ---------------------------------------------------------------------------------------------------------
// Inventory

/** The inventory's sortable columns: name (the default, A→Z), clave interna, price, category, active. */
export const INVENTORY_SORT = listSort(['nombre', 'clave', 'precio', 'categoria', 'activo'], 'nombre_asc');
export type InventorySortField = 'nombre' | 'clave' | 'precio' | 'categoria' | 'activo';
export type InventorySort = SortValue<InventorySortField>;

export const InventoryQuery = z.object({
  id_cliente: z.coerce
    .number({ error: MSG.invClienteRequerido })
    .int(MSG.invClienteRequerido)
    .positive(MSG.invClienteRequerido)
    .max(MAX_ID, MSG.invClienteRequerido),
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
  per_page: z.coerce.number().int().min(1).max(INVENTORY_MAX_PER_PAGE).default(INVENTORY_PER_PAGE),
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  categoria: z.coerce.number().int().positive().max(MAX_ID).optional(),
  activo: z
    .enum(['1', '0', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
  orden: INVENTORY_SORT.schema,
});
export type InventoryQuery = z.infer<typeof InventoryQuery>;

export const AdminProductDto = z.object({
  id: z.number().int(),
  id_cliente: z.number().int(),
  id_categoria: z.number().int(),
  categoria: z.string(),
  clave_interna: z.string(),
  clave_cliente: z.string(),
  nombre: z.string(),
  descripcion: z.string(),
  unidad_de_medida: z.string(),
  precio: z.number(),
  activo: z.boolean(),
  impuesto: z.boolean(),
  /** `/api/img/<id>` of the image and of its thumbnail, or null. */
  imagen: z.string().nullable(),
  miniatura: z.string().nullable(),
  /** Units on hand, or null (unknown); reserved by approved orders; lead time in days (decision 0124). */
  existencia: z.number().int().nullable(),
  reservado: z.number().int(),
  dias_entrega: z.number().int().nullable(),
  /** The pending price change, if any (decision 0132). */
  precio_programado: PendingPriceDto.nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminProductDto = z.infer<typeof AdminProductDto>;

export const InventoryResponse = z.object({
  productos: z.array(AdminProductDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type InventoryResponse = z.infer<typeof InventoryResponse>;

/**
 * The product form (multipart fields, or JSON). Create needs id_cliente, id_categoria, clave_interna,
 * nombre and precio; on update a missing optional field keeps its value (the activo toggle sends only
 * id, id_cliente, id_categoria, clave_interna, nombre, precio, activo).
 */
export const ProductForm = z.object({
  id: z.preprocess(blankTextToUndefined, z.coerce.number().int().min(0).max(MAX_ID).optional()),
  id_cliente: idRequired(MSG.invClienteYCategoria),
  id_categoria: idRequired(MSG.invClienteYCategoria),
  clave_interna: textRequired(50, MSG.invClaveInternaRequerida),
  clave_cliente: textOptional(50),
  nombre: textRequired(200, MSG.nombreObligatorio),
  descripcion: textOptional(2000),
  unidad_de_medida: textOptional(50),
  precio: Price,
  activo: optionalBoolean(),
  impuesto: optionalBoolean(),
  /** 1 removes the current image (update only). */
  eliminar_imagen: optionalBoolean(),
  /** Units on hand and lead time (decision 0124): absent keeps, blank clears (unknown / none). */
  existencia: existenciaField(),
  dias_entrega: diasEntregaField(),
});
export type ProductForm = z.infer<typeof ProductForm>;

export const ProductCreatedResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  articulo: AdminProductDto,
});
export type ProductCreatedResponse = z.infer<typeof ProductCreatedResponse>;

export const ProductUpdatedResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  articulo: AdminProductDto,
  /** The client's first page of products (24, by name). */
  inventarios: InventoryResponse,
});
export type ProductUpdatedResponse = z.infer<typeof ProductUpdatedResponse>;

/**
 * POST /api/productos/activar_lote: 1 to 500 products of one client made active or inactive in one
 * transaction; any id of another client (or missing) refuses the whole call.
 */
export const ActivateBatchBody = z.object({
  ids: z
    .array(
      z
        .number({ error: MSG.invLoteProductos(INVENTORY_BATCH_MAX) })
        .int()
        .positive()
        .max(MAX_ID),
      {
        error: MSG.invLoteProductos(INVENTORY_BATCH_MAX),
      },
    )
    .min(1, MSG.invLoteProductos(INVENTORY_BATCH_MAX))
    .max(INVENTORY_BATCH_MAX, MSG.invLoteProductos(INVENTORY_BATCH_MAX)),
  activo: requiredBoolean(MSG.invLoteActivo),
});
export type ActivateBatchBody = z.infer<typeof ActivateBatchBody>;

export const ActivateBatchResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  /** Products named (distinct ids). */
  productos: z.number().int(),
  /** Of those, the ones whose state changed. */
  cambiados: z.number().int(),
});
export type ActivateBatchResponse = z.infer<typeof ActivateBatchResponse>;

/**
 * GET /api/categorias: the client. Optional here because a client administrator's request that names none
 * is its own client's (decision 0122); the distributor's administrator must name one (400, the route).
 */
export const ClientQuery = z.object({
  id_cliente: z.coerce
    .number({ error: MSG.invClienteRequerido })
    .int(MSG.invClienteRequerido)
    .positive(MSG.invClienteRequerido)
    .max(MAX_ID, MSG.invClienteRequerido)
    .optional(),
});

export const AdminCategoryDto = z.object({
  id: z.number().int(),
  id_cliente: z.number().int(),
  nombre: z.string(),
  icono: z.string(),
  /** Products of the category (active or not). */
  productos: z.number().int(),
  /** Sum of the monthly budgets users of the client hold in this category (category mode). */
  presupuesto_total_asignado: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AdminCategoryDto = z.infer<typeof AdminCategoryDto>;

export const CategoriesResponse = z.object({ categorias: z.array(AdminCategoryDto) });
export type CategoriesResponse = z.infer<typeof CategoriesResponse>;

const Icon = z.preprocess(
  (v) => (v === undefined || v === null || v === '' ? undefined : v),
  z.enum(ICONOS, { error: MSG.invIconoInvalido }).optional(),
);

export const CategoryBody = z.object({
  nombre: textRequired(100, MSG.nombreObligatorio),
  icono: Icon,
  id_cliente: idRequired(MSG.invClienteRequerido),
});
export type CategoryBody = z.infer<typeof CategoryBody>;

export const CategoryUpdateBody = z.object({
  nombre: textRequired(100, MSG.nombreObligatorio),
  icono: Icon,
  /** When sent, it must be the category's client. */
  id_cliente: z.preprocess(blankTextToUndefined, z.coerce.number().int().positive().max(MAX_ID).optional()),
});
export type CategoryUpdateBody = z.infer<typeof CategoryUpdateBody>;

export const CategoryCreatedResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  categoria: AdminCategoryDto,
});
export const CategoryUpdatedResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  categoria: AdminCategoryDto,
  categorias: z.array(AdminCategoryDto),
});

export const IconsResponse = z.object({
  iconos: z.array(z.object({ nombre: z.enum(ICONOS), etiqueta: z.string() })),
});
export type IconsResponse = z.infer<typeof IconsResponse>;

// ---------------------------------------------------------------------------------------------------------
// Scheduled price changes (decision 0132)

/** A business date on the wire (YYYY-MM-DD). */
const BusinessDate = z.string({ error: MSG.fechaInvalida }).refine(isIsoDate, MSG.fechaInvalida);

/** POST /api/productos/:id/precio_programado: the new price from a business date after today. */
export const SchedulePriceBody = z.object({
  id_cliente: idRequired(MSG.invClienteRequerido),
  precio: Price,
  vigente_desde: BusinessDate,
});
export type SchedulePriceBody = z.infer<typeof SchedulePriceBody>;

/** DELETE /api/productos/:id/precio_programado?id_cliente= */
export const CancelPriceQuery = z.object({ id_cliente: idRequired(MSG.invClienteRequerido) });

export const ScheduledPriceResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  articulo: AdminProductDto,
});
export type ScheduledPriceResponse = z.infer<typeof ScheduledPriceResponse>;

/** The most products one preview weighs (an import's file of thousands of rows). */
export const PRICE_PREVIEW_MAX = 20_000;

/** POST /api/productos/precios/vista_previa: what changing these products' prices would touch. */
export const PricePreviewBody = z.object({
  id_cliente: idRequired(MSG.invClienteRequerido),
  cambios: z
    .array(
      z.object({
        id: z.number().int().positive().max(MAX_ID),
        precio: Price,
      }),
      { error: MSG.invLoteProductos(PRICE_PREVIEW_MAX) },
    )
    .min(1, MSG.invLoteProductos(PRICE_PREVIEW_MAX))
    .max(PRICE_PREVIEW_MAX, MSG.invLoteProductos(PRICE_PREVIEW_MAX)),
});
export type PricePreviewBody = z.infer<typeof PricePreviewBody>;

/** One buyer's cart, valued at the prices of today and after the change (pesos, with IVA). */
export const PricePreviewBuyer = z.object({
  id: z.number().int(),
  nombre: z.string(),
  usuario: z.string(),
  total_actual: z.number(),
  total_nuevo: z.number(),
});
export type PricePreviewBuyer = z.infer<typeof PricePreviewBuyer>;

/** The most buyers a preview lists (largest effect first); `compradores_total` counts them all. */
export const PRICE_PREVIEW_BUYERS = 100;

export const PricePreviewResponse = z.object({
  /** Products of the client the preview weighed whose price would change. */
  productos: z.number().int(),
  /** Carts, saved lists and orders waiting for approval that hold at least one of them. */
  carritos: z.number().int(),
  listas: z.number().int(),
  pedidos_pendientes: z.number().int(),
  /** Buyers whose cart total changes, largest change first (at most PRICE_PREVIEW_BUYERS). */
  compradores: z.array(PricePreviewBuyer),
  compradores_total: z.number().int(),
});
export type PricePreviewResponse = z.infer<typeof PricePreviewResponse>;
