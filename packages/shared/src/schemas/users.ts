/** Administration (rol 4): users of the clients. Bodies accept what an HTML form sends. */
import { z } from 'zod';
import { isEmailAddress } from '../domain/email.ts';
import { SEARCH_MAX_LENGTH } from '../limits.ts';
import { MSG } from '../messages.ts';
import {
  blankToUndefined,
  idNumber,
  integer,
  optionalBoolean,
  optionalIdNumber,
  optionalInteger,
  optionalPesos,
  optionalText,
  PageQuery,
  requiredText,
} from './form-fields.ts';

export const CategoryBudgetInput = z.object({
  id: idNumber(MSG.categoriasInvalidas),
  presupuesto: optionalPesos({ invalid: MSG.presupuestoCategoriaInvalido, min: 0 }).transform((v) => v ?? 0),
});

/** `categorias`: JSON text (or an array) of {id, presupuesto}. */
const CategoriasField = z.preprocess((v) => {
  const b = blankToUndefined(v);
  if (typeof b !== 'string') return b;
  try {
    return JSON.parse(b);
  } catch {
    return b;
  }
}, z
  .array(CategoryBudgetInput, { error: MSG.categoriasInvalidas })
  .max(1000, MSG.categoriasInvalidas)
  .optional());

const weekNumber = integer({
  required: MSG.camposObligatoriosUsuario,
  invalid: MSG.semanasUsuarioInvalidas,
  min: 1,
  max: 4,
});

/** POST /api/usuarios and PUT /api/usuarios/{id}. Required fields come first. */
export const UserBody = z.object({
  usuario: requiredText(MSG.camposObligatoriosUsuario, 100).refine(
    (v) => !/\s/.test(v),
    MSG.usuarioConEspacios,
  ),
  user_id: requiredText(MSG.camposObligatoriosUsuario, 200).refine(isEmailAddress, MSG.correoInvalido),
  nombre: requiredText(MSG.camposObligatoriosUsuario, 200),
  direccion_entrega: requiredText(MSG.camposObligatoriosUsuario, 500),
  rol: integer({ required: MSG.camposObligatoriosUsuario, invalid: MSG.rolInvalido, min: 1, max: 3 }),
  /** "Semana de referencia" (1–4): a label of the user; it opens or closes nothing (decision 0064). */
  active_week: weekNumber,
  entrega_week: weekNumber,
  /** Required to create; on update it must be the user's own client (or absent). */
  id_cliente: optionalIdNumber(MSG.debesSeleccionarCliente),
  /** Sent by the form on update; the path's id is the one used. */
  id: z.unknown().optional(),
  colonia: optionalText(200),
  ciudad: optionalText(200),
  cp: optionalText(20),
  estado: optionalText(200),
  area: optionalText(200),
  localidad: optionalText(200),
  region: optionalText(200),
  coordinacion: optionalText(200),
  calle: optionalText(300),
  activo: optionalBoolean(MSG.valorSiNoInvalido),
  /** Defaults to the client's at creation. */
  limite_de_compras: optionalInteger({ invalid: MSG.limiteComprasInvalido, min: -1, max: 1_000_000 }),
  /** Regular mode: at least 1 (defaults to the client's). Ignored in category mode (the sum is used). */
  presupuesto_default: optionalPesos({ invalid: MSG.presupuestoUsuarioMinimo, min: 0 }),
  /** Category mode: [{id, presupuesto}]; entries above 0 are kept. */
  categorias: CategoriasField,
});
export type UserBody = z.infer<typeof UserBody>;

export const UsersQuery = z.object({
  id_cliente: optionalIdNumber(MSG.debesSeleccionarCliente),
  page: PageQuery,
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
});

const OrderBrief = z.object({
  id: z.number().int(),
  total: z.number(),
  status: z.string(),
  transaction_date: z.string(),
});

export const UserDto = z.object({
  id: z.number().int(),
  usuario: z.string(),
  /** The e-mail address. */
  user_id: z.string(),
  nombre: z.string(),
  rol: z.number().int(),
  direccion_entrega: z.string(),
  area: z.string(),
  localidad: z.string(),
  region: z.string(),
  coordinacion: z.string(),
  calle: z.string(),
  colonia: z.string(),
  ciudad: z.string(),
  cp: z.string(),
  estado: z.string(),
  active_week: z.number().int(),
  entrega_week: z.number().int(),
  activo: z.boolean(),
  limite_de_compras: z.number().int(),
  presupuesto_default: z.number(),
  /** JSON text of [{id, presupuesto}] (pesos). */
  categorias: z.string(),
  id_cliente: z.number().int(),
  cliente: z.object({ id: z.number().int(), nombre: z.string() }),
  /** Two-factor sign-in is active (the administrator may reset it: POST /api/recuperar/2fa/{id}). */
  dos_pasos: z.boolean(),
  /** GET /api/usuarios/{id} only: enabled products (count and ids) and the 10 latest orders. */
  asignados: z.number().int().optional(),
  productos: z.array(z.number().int()).optional(),
  historial: z.array(OrderBrief).optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type UserDto = z.infer<typeof UserDto>;

export const UsersResponse = z.object({
  usuarios: z.array(UserDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type UsersResponse = z.infer<typeof UsersResponse>;

export const UserResponse = z.object({ usuario: UserDto });

export const UserCreateResponse = z.object({ status: z.literal('ok'), msg: z.string(), usuario: UserDto });
export type UserCreateResponse = z.infer<typeof UserCreateResponse>;

/** The changed user plus the first page of its client's users. */
export const UserUpdateResponse = UsersResponse.extend({
  status: z.literal('ok'),
  msg: z.string(),
  usuario: UserDto,
});
export type UserUpdateResponse = z.infer<typeof UserUpdateResponse>;
