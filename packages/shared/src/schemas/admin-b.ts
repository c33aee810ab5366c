import { z } from 'zod';
import { ICONOS } from '../domain/icons.ts';
import { hasAtMostTwoDecimals } from '../domain/money.ts';
import { isIsoDate } from '../domain/time.ts';
import { MSG } from '../messages.ts';

/**
 * Administration (rol 4), part B: inventory (products, categories, icons), CSV imports, system logs and
 * the overview. Amounts are pesos; the server stores centavos.
 */

const MAX_ID = 2147483647;
/** Form fields arrive as strings (multipart): an empty one is a missing one. */
const blankToUndefined = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

const idRequired = (msg: string) =>
  z.preprocess(blankToUndefined, z.coerce.number({ error: msg }).int(msg).positive(msg).max(MAX_ID, msg));

const textRequired = (max: number, required: string) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : String(v)),
    z.string().trim().min(1, required).max(max, MSG.invTextoLargo(max)),
  );

const textOptional = (max: number) =>
  z.preprocess(
    (v) => (v === undefined || v === null ? undefined : typeof v === 'string' ? v : String(v)),
    z.string().trim().max(max, MSG.invTextoLargo(max)).optional(),
  );

/** 1/0 (also true/false, sí/no) as a boolean. */
export const Flag = (msg: string = MSG.invValorSiNo) =>
  z.preprocess((v) => {
    if (v === undefined || v === null) return undefined;
    const s = String(v).trim().toLowerCase();
    if (s === '') return undefined;
    if (['1', 'true', 'si', 'sí', 'yes'].includes(s)) return true;
    if (['0', 'false', 'no'].includes(s)) return false;
    return s;
  }, z.boolean({ error: msg }).optional());

/** Pesos, >= 0, at most 2 decimals. */
const Price = z.preprocess(
  blankToUndefined,
  z.coerce
    .number({ error: MSG.invPrecioInvalido })
    .min(0, MSG.invPrecioInvalido)
    .max(100_000_000, MSG.invPrecioInvalido)
    .refine(hasAtMostTwoDecimals, MSG.invPrecioInvalido),
);

// ---------------------------------------------------------------------------------------------------------
// Inventory

export const InventoryQuery = z.object({
  id_cliente: z.coerce
    .number({ error: MSG.invClienteRequerido })
    .int(MSG.invClienteRequerido)
    .positive(MSG.invClienteRequerido)
    .max(MAX_ID, MSG.invClienteRequerido),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(24),
  q: z.string().trim().max(100).optional(),
  categoria: z.coerce.number().int().positive().max(MAX_ID).optional(),
  activo: z
    .enum(['1', '0', 'true', 'false'])
    .transform((v) => v === '1' || v === 'true')
    .optional(),
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
  id: z.preprocess(blankToUndefined, z.coerce.number().int().min(0).max(MAX_ID).optional()),
  id_cliente: idRequired(MSG.invClienteYCategoria),
  id_categoria: idRequired(MSG.invClienteYCategoria),
  clave_interna: textRequired(50, MSG.invClaveInternaRequerida),
  clave_cliente: textOptional(50),
  nombre: textRequired(200, MSG.nombreObligatorio),
  descripcion: textOptional(2000),
  unidad_de_medida: textOptional(50),
  precio: Price,
  activo: Flag(),
  impuesto: Flag(),
  /** 1 removes the current image (update only). */
  eliminar_imagen: Flag(),
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

export const ClientQuery = z.object({
  id_cliente: z.coerce
    .number({ error: MSG.invClienteRequerido })
    .int(MSG.invClienteRequerido)
    .positive(MSG.invClienteRequerido)
    .max(MAX_ID, MSG.invClienteRequerido),
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
  id_cliente: z.preprocess(blankToUndefined, z.coerce.number().int().positive().max(MAX_ID).optional()),
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
// Imports (CSV)

export const ImportKind = z.enum(['productos', 'usuarios']);
export type ImportKind = z.infer<typeof ImportKind>;
export const ImportStatus = z.enum(['pendiente', 'procesando', 'terminado', 'fallido']);
export type ImportStatus = z.infer<typeof ImportStatus>;

export const TemplateBody = z.object({ id_cliente: idRequired(MSG.invClienteRequerido) });

export const ImportAccepted = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  detalle: z.string(),
  id_importacion: z.number().int(),
});
export type ImportAccepted = z.infer<typeof ImportAccepted>;

/** One refused row of an import: row number in the file (the header is row 1), column and reason. */
export const ImportRowError = z.object({
  fila: z.number().int(),
  campo: z.string(),
  motivo: z.string(),
  valor: z.string().optional(),
});
export type ImportRowError = z.infer<typeof ImportRowError>;

export const ImportJobDto = z.object({
  id: z.number().int(),
  id_cliente: z.number().int(),
  cliente: z.string(),
  tipo: ImportKind,
  status: ImportStatus,
  archivo: z.string(),
  total_rows: z.number().int(),
  ok_rows: z.number().int(),
  error_rows: z.number().int(),
  /** Who uploaded it (username), when known. */
  usuario: z.string().nullable(),
  created_at: z.string(),
  finished_at: z.string().nullable(),
});
export type ImportJobDto = z.infer<typeof ImportJobDto>;

export const ImportListQuery = z.object({
  id_cliente: z.coerce.number().int().positive().max(MAX_ID).optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});

export const ImportListResponse = z.object({
  importaciones: z.array(ImportJobDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type ImportListResponse = z.infer<typeof ImportListResponse>;

export const ImportDetail = ImportJobDto.extend({ errores: z.array(ImportRowError) });
export type ImportDetail = z.infer<typeof ImportDetail>;

// ---------------------------------------------------------------------------------------------------------
// System log

const IsoDate = z.string().refine(isIsoDate, MSG.logsFechaInvalida);

export const LogsQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(1_000_000).default(1),
    event_type: z.string().trim().max(100).optional(),
    user_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
    desde: IsoDate.optional(),
    hasta: IsoDate.optional(),
  })
  .refine((q) => !q.desde || !q.hasta || q.desde <= q.hasta, {
    message: MSG.logsRangoInvalido,
    path: ['hasta'],
  });
export type LogsQuery = z.infer<typeof LogsQuery>;

export const LogDto = z.object({
  id: z.number().int(),
  /** Null for events without a signed-in user (the UI shows N/A). */
  user_id: z.number().int().nullable(),
  usuario: z.string().nullable(),
  event_type: z.string(),
  description: z.string(),
  metadata: z.unknown(),
  created_at: z.string(),
});
export type LogDto = z.infer<typeof LogDto>;

export const LogsResponse = z.object({
  logs: z.array(LogDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type LogsResponse = z.infer<typeof LogsResponse>;

export const LogTypesResponse = z.object({ tipos: z.array(z.string()) });

// ---------------------------------------------------------------------------------------------------------
// Overview

export const AdminOverview = z.object({
  clientes_activos: z.number().int(),
  /** Active accounts of roles 1-3. */
  usuarios_activos: z.number().int(),
  /** Business month (YYYY-MM) the order counts cover. */
  mes: z.string(),
  pedidos_mes: z.object({
    pendiente: z.number().int(),
    espera: z.number().int(),
    aprobado: z.number().int(),
    cancelado: z.number().int(),
    total: z.number().int(),
  }),
  importaciones: z.object({
    /** Waiting or running now. */
    en_proceso: z.number().int(),
    /** Failed in the last 7 days. */
    fallidas_7_dias: z.number().int(),
  }),
});
export type AdminOverview = z.infer<typeof AdminOverview>;
