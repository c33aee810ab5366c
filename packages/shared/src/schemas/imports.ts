/** Administration (rol 4): CSV imports of products, users and product assignments. */
import { z } from 'zod';
import { MAX_ID, MAX_PAGE } from '../limits.ts';
import { MSG } from '../messages.ts';
import { idRequired } from './form-fields.ts';
import { PricePreviewResponse } from './inventory.ts';

export const ImportKind = z.enum(['productos', 'usuarios', 'asignaciones']);
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
  page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
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

/**
 * POST /api/importaciones/productos/vista_previa (multipart: file, id_cliente): a product file read like its
 * import, nothing written (decision 0132). The preview of the rows that change an existing product's price,
 * plus what the file holds: rows read, rows the import would refuse (its report lists them), prices that
 * change now and from a later date, and rows that create a product.
 */
export const ImportPricePreview = PricePreviewResponse.extend({
  filas: z.number().int(),
  filas_con_error: z.number().int(),
  precios_ahora: z.number().int(),
  precios_programados: z.number().int(),
  productos_nuevos: z.number().int(),
});
export type ImportPricePreview = z.infer<typeof ImportPricePreview>;
