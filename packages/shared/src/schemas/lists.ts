import { z } from 'zod';
import { MAX_ID } from '../limits.ts';
import { MSG } from '../messages.ts';
import { PendingPriceDto } from './pending-price.ts';

/** Saved lists ("Mis listas", decision 0043). Limits of a list, declared here with its schemas. */
export const LIST_NAME_MAX = 60;
export const LIST_ITEMS_MAX = 200;
/** Lists one buyer may keep. */
export const LISTS_PER_USER_MAX = 100;
/** Largest quantity a list item may ask for (the cart caps it at the product's cantidad_limite). */
export const LIST_QUANTITY_MAX = 100_000;

const ListName = z
  .string({ error: MSG.listaNombreRequerido })
  .trim()
  .min(1, MSG.listaNombreRequerido)
  .max(LIST_NAME_MAX, MSG.listaNombreLargo);

const Quantity = z
  .number({ error: MSG.listaCantidadInvalida })
  .int(MSG.listaCantidadInvalida)
  .min(1, MSG.listaCantidadInvalida)
  .max(LIST_QUANTITY_MAX, MSG.listaCantidadInvalida);

/** A list's items in their order: product id and quantity, each product once, at most 200. */
const ListItems = z
  .array(z.object({ id: z.number().int().positive().max(MAX_ID), cantidad: Quantity }), {
    error: MSG.datosInvalidos,
  })
  .max(LIST_ITEMS_MAX, MSG.listaDemasiadosProductos)
  .refine((items) => new Set(items.map((i) => i.id)).size === items.length, MSG.listaProductoRepetido);

export const ListCreateBody = z.object({ nombre: ListName, items: ListItems });
export type ListCreateBody = z.infer<typeof ListCreateBody>;

/** A rename, new items (quantities changed, items removed or added), or both. */
export const ListUpdateBody = z
  .object({ nombre: ListName.optional(), items: ListItems.optional() })
  .refine((b) => b.nombre !== undefined || b.items !== undefined, MSG.listaSinCambios);
export type ListUpdateBody = z.infer<typeof ListUpdateBody>;

export const ListSummaryDto = z.object({
  id: z.number().int(),
  nombre: z.string(),
  /** Items in the list. */
  productos: z.number().int(),
  actualizada: z.string(),
});
export type ListSummaryDto = z.infer<typeof ListSummaryDto>;

export const ListsResponse = z.object({ listas: z.array(ListSummaryDto) });
export type ListsResponse = z.infer<typeof ListsResponse>;

/** An item with its product's current data; one no longer available says why. */
export const ListItemDto = z.object({
  /** Product id. */
  id: z.number().int(),
  cantidad: z.number().int(),
  nombre: z.string(),
  clave_interna: z.string(),
  clave_cliente: z.string(),
  unidad_de_medida: z.string(),
  /** Current unit price (pesos); the list never keeps one. */
  precio: z.number(),
  impuesto: z.boolean(),
  id_categoria: z.number().int(),
  categoria: z.string(),
  miniatura: z.string().nullable(),
  /** The buyer's current limit of the product (null when it is no longer assigned). */
  cantidad_limite: z.number().int().nullable(),
  disponible: z.boolean(),
  /** Why it is not available: the cart's text ('no asignado' or 'inactivo'), else null. */
  motivo: z.string().nullable(),
  codigo: z.enum(['NOT_ASSIGNED', 'INACTIVE_PRODUCT']).nullable(),
  /** The product's pending price change (decision 0132). */
  precio_programado: PendingPriceDto.nullable().optional(),
});
export type ListItemDto = z.infer<typeof ListItemDto>;

export const ListDetailDto = z.object({
  id: z.number().int(),
  nombre: z.string(),
  creada: z.string(),
  actualizada: z.string(),
  items: z.array(ListItemDto),
});
export type ListDetailDto = z.infer<typeof ListDetailDto>;

export const ListResponse = z.object({ lista: ListDetailDto });
export type ListResponse = z.infer<typeof ListResponse>;

export const ListSavedResponse = z.object({ status: z.literal('ok'), msg: z.string(), lista: ListDetailDto });
export type ListSavedResponse = z.infer<typeof ListSavedResponse>;
