/** Administration (rol 4): users of the clients. Bodies accept what an HTML form sends. */
import { z } from 'zod';
import { isEmailAddress } from '../domain/email.ts';
import { MAX_ID, SEARCH_MAX_LENGTH } from '../limits.ts';
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
import { listSort } from './sort.ts';

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
  /** 1–3, or 5 (Administrador de cliente, given only by the distributor's administrator); never 4. */
  rol: integer({ required: MSG.camposObligatoriosUsuario, invalid: MSG.rolInvalido, min: 1, max: 5 }).refine(
    (r) => r !== 4,
    MSG.rolInvalido,
  ),
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
  /** The área (cost centre) of the user's client (decision 0123); null or '' = none; absent keeps it. */
  id_area: z.preprocess((v) => (v === '' ? null : v), idNumber(MSG.areaInvalida).nullable().optional()),
});
export type UserBody = z.infer<typeof UserBody>;

/** The users list's sorts (decision 0067): username (the default), name, last sign-in. */
export const UsersSort = listSort(['usuario', 'nombre', 'ultimo_acceso'], 'usuario_asc');
export type UsersSort = (typeof UsersSort.values)[number];

/** The users list's status filter. */
export const UserStatusFilter = z.enum(['activo', 'inactivo'], { error: MSG.estatusUsuarioInvalido });
export type UserStatusFilter = z.infer<typeof UserStatusFilter>;

export const UsersQuery = z.object({
  id_cliente: optionalIdNumber(MSG.debesSeleccionarCliente),
  page: PageQuery,
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  /** Only the users of this role (1, 2, 3 or 5). */
  rol: z.coerce
    .number({ error: MSG.rolFiltroInvalido })
    .int(MSG.rolFiltroInvalido)
    .min(1, MSG.rolFiltroInvalido)
    .max(5, MSG.rolFiltroInvalido)
    .refine((r) => r !== 4, MSG.rolFiltroInvalido)
    .optional(),
  /** Only the active, or only the inactive, users. */
  estatus: UserStatusFilter.optional(),
  orden: UsersSort.schema,
});
export type UsersQuery = z.infer<typeof UsersQuery>;

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
  /** The user's área (decision 0123), or null. */
  id_area: z.number().int().nullable(),
  /** JSON text of [{id, presupuesto}] (pesos). */
  categorias: z.string(),
  id_cliente: z.number().int(),
  cliente: z.object({ id: z.number().int(), nombre: z.string() }),
  /** Two-factor sign-in is active (the administrator may reset it: POST /api/recuperar/2fa/{id}). */
  dos_pasos: z.boolean(),
  /** The last successful sign-in (ISO); null = never signed in. */
  ultimo_acceso: z.string().nullable(),
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

/**
 * `presupuesto_pendiente`: a client administrator's budget above its client's cap (pesos), waiting for the
 * distributor (decision 0122); the user keeps its budget until then. null or absent: nothing waits.
 */
const PendingBudget = z.number().nullable().optional();

export const UserCreateResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  usuario: UserDto,
  presupuesto_pendiente: PendingBudget,
});
export type UserCreateResponse = z.infer<typeof UserCreateResponse>;

/** The changed user plus the first page of its client's users. */
export const UserUpdateResponse = UsersResponse.extend({
  status: z.literal('ok'),
  msg: z.string(),
  usuario: UserDto,
  presupuesto_pendiente: PendingBudget,
});
export type UserUpdateResponse = z.infer<typeof UserUpdateResponse>;

/** Most users one POST /api/usuarios/desactivar_lote may name. */
export const BULK_DEACTIVATE_MAX_USERS = 500;

/**
 * POST /api/usuarios/desactivar_lote: deactivates users of one client (never administrators) at once and
 * ends their sessions, in one transaction. With `vista_previa` nothing changes: the answer says what would
 * (the confirmation's "Se desactivarán 3 usuarios y se cerrarán 5 sesiones abiertas").
 */
export const BulkDeactivateBody = z.object({
  ids: z
    .array(
      z
        .number({ error: MSG.datosInvalidos })
        .int(MSG.datosInvalidos)
        .positive(MSG.datosInvalidos)
        .max(MAX_ID, MSG.datosInvalidos),
      { error: MSG.loteUsuarios },
    )
    .min(1, MSG.loteUsuarios)
    .max(BULK_DEACTIVATE_MAX_USERS, MSG.loteUsuarios),
  vista_previa: z.boolean({ error: MSG.datosInvalidos }).optional(),
});
export type BulkDeactivateBody = z.infer<typeof BulkDeactivateBody>;

export const BulkDeactivateResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  vista_previa: z.boolean(),
  /** Users that are (or would be) deactivated: the active ones among `ids`. */
  desactivados: z.number().int(),
  /** Users among `ids` that were already inactive (left as they are). */
  ya_inactivos: z.number().int(),
  /** Open sessions of those users that end (or would end). */
  sesiones_cerradas: z.number().int(),
});
export type BulkDeactivateResponse = z.infer<typeof BulkDeactivateResponse>;

/** Why "Reenviar acceso" sent no link to a user (decision 0097). */
export const RESEND_ACCESS_SKIPS = ['sin_correo', 'inactivo', 'con_contrasena'] as const;
export type ResendAccessSkip = (typeof RESEND_ACCESS_SKIPS)[number];
export const RESEND_ACCESS_SKIP_LABELS: Record<ResendAccessSkip, string> = {
  sin_correo: 'no tiene correo electrónico',
  inactivo: 'está desactivado',
  con_contrasena: 'ya estableció su contraseña',
};

/**
 * POST /api/usuarios/reenviar-acceso: a fresh welcome link (72 h) for each of 1–500 users of one client, the
 * old links retired; users without an address, deactivated or with a password already are skipped.
 */
export const ResendAccessBody = BulkDeactivateBody.pick({ ids: true });
export type ResendAccessBody = z.infer<typeof ResendAccessBody>;

export const ResendAccessResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  enviados: z.number().int(),
  omitidos: z.number().int(),
  /** Each skipped user with its reason. */
  detalle_omitidos: z.array(
    z.object({ id: z.number().int(), usuario: z.string(), motivo: z.enum(RESEND_ACCESS_SKIPS) }),
  ),
});
export type ResendAccessResponse = z.infer<typeof ResendAccessResponse>;

/** GET /api/usuarios/accesos-sin-enviar: the administrator's banner (decision 0097). */
export const UnsentAccessResponse = z.object({
  /** Users whose latest welcome e-mail is still unsent 10 minutes after it was written (any age without SMTP). */
  pendientes: z.number().int(),
  /** No mail server is configured: access e-mails are only recorded, never sent. */
  sin_smtp: z.boolean(),
  /** The clients of those users, most first (at most 5). */
  clientes: z.array(z.object({ id: z.number().int(), nombre: z.string(), pendientes: z.number().int() })),
});
export type UnsentAccessResponse = z.infer<typeof UnsentAccessResponse>;
