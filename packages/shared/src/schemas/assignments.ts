/** Administration (rol 4): which products each user may order (habilitado) and how many. */
import { z } from 'zod';
import { MAX_ID, SEARCH_MAX_LENGTH, USER_PRODUCTS_MAX_PER_PAGE, USER_PRODUCTS_PER_PAGE } from '../limits.ts';
import { MSG } from '../messages.ts';
import { idNumber, optionalIdNumber, optionalInteger, PageQuery, requiredBoolean } from './form-fields.ts';

export const UserProductsQuery = z.object({
  page: PageQuery,
  per_page: z.coerce.number().int().min(1).max(USER_PRODUCTS_MAX_PER_PAGE).default(USER_PRODUCTS_PER_PAGE),
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  /** Only the products of this category (of the user's client). */
  categoria: z.coerce.number().int().positive().max(MAX_ID).optional(),
});

export const UserProductDto = z.object({
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
  imagen: z.string().nullable(),
  miniatura: z.string().nullable(),
  /** Enabled (habilitado) for this user. */
  asignado: z.boolean(),
  cantidad_limite: z.number().int(),
});
export type UserProductDto = z.infer<typeof UserProductDto>;

const UserBrief = z.object({
  id: z.number().int(),
  usuario: z.string(),
  nombre: z.string(),
  /** Products enabled for the user. */
  asignados: z.number().int(),
});

export const UserProductsResponse = z.object({
  productos: z.array(UserProductDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
  usuario: UserBrief,
  /** The client, with the limit a new assignment made without one takes (limite_por_defecto). */
  cliente: z.object({ id: z.number().int(), nombre: z.string(), limite_por_defecto: z.number().int() }),
});
export type UserProductsResponse = z.infer<typeof UserProductsResponse>;

const CantidadLimite = optionalInteger({ invalid: MSG.cantidadLimiteInvalida, min: 1, max: 1_000_000 });
const AssignStatus = requiredBoolean(MSG.estadoAsignacionInvalido);

/** POST /api/productos/asignar; status true/1 = habilitado. */
export const AssignBody = z.object({
  id_producto: idNumber(MSG.asignacionDatos),
  id_user: idNumber(MSG.asignacionDatos),
  /** Absent: the stored value is kept (1 for a new assignment). */
  cantidad_limite: CantidadLimite,
  status: AssignStatus,
});
export type AssignBody = z.infer<typeof AssignBody>;

/** POST /api/productos/asignar_todos: every product of the user's client, or only `ids`. */
export const AssignAllBody = z.object({
  id_user: idNumber(MSG.asignacionDatos),
  status: AssignStatus,
  cantidad_limite: CantidadLimite,
  ids: z
    .array(z.number({ error: MSG.datosInvalidos }).int().positive().max(MAX_ID), {
      error: MSG.datosInvalidos,
    })
    .min(1, MSG.asignacionDatos)
    .max(10_000)
    .optional(),
});

export const AssignResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  usuario: UserBrief,
  producto: z.object({ id: z.number().int(), asignado: z.boolean(), cantidad_limite: z.number().int() }),
});
export type AssignResponse = z.infer<typeof AssignResponse>;

export const AssignAllResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  usuario: UserBrief,
  /** Products whose assignment was written. */
  actualizados: z.number().int(),
});
export type AssignAllResponse = z.infer<typeof AssignAllResponse>;

/** Most users one POST /api/productos/asignar_lote may name. */
export const BATCH_ASSIGN_MAX_USERS = 500;

export const CopyMode = z.enum(['reemplazar', 'agregar'], { error: MSG.copiaModoInvalido });
export type CopyMode = z.infer<typeof CopyMode>;

/**
 * POST /api/usuarios/{id}/productos/copiar: the products of `desde_usuario_id` for user {id}.
 * reemplazar: {id}'s assignments become equal to the source's; agregar: the source's enabled products
 * that {id} has not enabled are enabled with the source's limit, nothing else changes.
 */
export const CopyAssignmentsBody = z.object({
  desde_usuario_id: idNumber(MSG.copiaDatos),
  modo: CopyMode,
});

export const CopyAssignmentsResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  usuario: UserBrief,
  /** Assignments of the target that were written (changed). */
  actualizados: z.number().int(),
});
export type CopyAssignmentsResponse = z.infer<typeof CopyAssignmentsResponse>;

const idList = (max: number, tooMany: string) =>
  z
    .array(z.number({ error: MSG.datosInvalidos }).int().positive().max(MAX_ID), { error: tooMany })
    .min(1, tooMany)
    .max(max, tooMany);

/** Most categories one asignar_lote names (a client's "all of them" fits). */
export const BATCH_ASSIGN_MAX_CATEGORIES = 500;

/**
 * POST /api/productos/asignar_lote: one assignment for every (user, product) pair, in one transaction.
 * The users are rol-1 users of one client; the products are `productos`, every product of `categoria_id`,
 * or every product of the `categorias` (several, or all of the client's: issue 37), of that client —
 * exactly one of the three. cantidad_limite as in /api/productos/asignar: absent keeps each stored limit
 * (the client's limite_por_defecto for a new assignment).
 */
export const BatchAssignBody = z
  .object({
    usuarios: idList(BATCH_ASSIGN_MAX_USERS, MSG.loteUsuarios),
    productos: idList(10_000, MSG.loteProductos).optional(),
    categoria_id: optionalIdNumber(MSG.loteProductos),
    categorias: idList(BATCH_ASSIGN_MAX_CATEGORIES, MSG.loteCategorias).optional(),
    asignado: AssignStatus,
    cantidad_limite: CantidadLimite,
  })
  .refine((b) => [b.productos, b.categoria_id, b.categorias].filter((v) => v !== undefined).length === 1, {
    message: MSG.loteProductos,
    path: ['productos'],
  });
export type BatchAssignBody = z.infer<typeof BatchAssignBody>;

export const BatchAssignResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  usuarios: z.number().int(),
  productos: z.number().int(),
  /** (user, product) assignments written (changed). */
  actualizados: z.number().int(),
});
export type BatchAssignResponse = z.infer<typeof BatchAssignResponse>;
