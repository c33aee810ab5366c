/**
 * Administration (rol 4), part A: clients, users, product assignments and access weeks.
 * Request bodies accept what an HTML form sends (numbers or numeric strings, 1/0 or true/false), and
 * every refusal is a Spanish message. Amounts are pesos with at most 2 decimals.
 */
import { z } from 'zod';
import { isEmailAddress } from '../domain/email.ts';
import { hasAtMostTwoDecimals } from '../domain/money.ts';
import { isIsoDate } from '../domain/time.ts';
import { MSG } from '../messages.ts';

const MAX_ID = 2147483647;
/** Largest amount accepted (pesos): far above any budget, far below the safe-integer limit in centavos. */
export const MAX_PESOS = 1_000_000_000;
export const CLIENTS_PER_PAGE = 10;
export const USERS_PER_PAGE = 10;
export const USER_PRODUCTS_PER_PAGE = 20;
export const WEEKS_PER_PAGE = 5;

// ---------------------------------------------------------------------------------------------
// Form-value normalisers
// ---------------------------------------------------------------------------------------------

/** '' (or only spaces) and null mean "not sent". */
export function blankToUndefined(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value === 'string' && value.trim() === '') return undefined;
  return value;
}

/** A numeric string becomes a number; anything else is left for the schema to refuse. */
export function formNumber(value: unknown): unknown {
  const v = blankToUndefined(value);
  if (typeof v === 'string') {
    const n = Number(v.trim());
    return Number.isFinite(n) ? n : v;
  }
  return v;
}

/** 1/0, '1'/'0', true/false, 'true'/'false'. */
export function formBoolean(value: unknown): unknown {
  const v = blankToUndefined(value);
  if (v === true || v === 1 || v === '1' || v === 'true') return true;
  if (v === false || v === 0 || v === '0' || v === 'false') return false;
  return v;
}

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** A peso amount (at most 2 decimals) with a minimum. */
function pesos(opts: { required: string; invalid: string; min: number; minMessage?: string }) {
  return z.preprocess(
    formNumber,
    z
      .number({ error: (iss) => (iss.input === undefined ? opts.required : opts.invalid) })
      .min(opts.min, opts.minMessage ?? opts.invalid)
      .max(MAX_PESOS, MSG.importeMaximo)
      .refine(hasAtMostTwoDecimals, MSG.importeDecimales),
  );
}

function optionalPesos(opts: { invalid: string; min: number; minMessage?: string }) {
  return z.preprocess(
    formNumber,
    z
      .number({ error: opts.invalid })
      .min(opts.min, opts.minMessage ?? opts.invalid)
      .max(MAX_PESOS, MSG.importeMaximo)
      .refine(hasAtMostTwoDecimals, MSG.importeDecimales)
      .optional(),
  );
}

function integer(opts: { required: string; invalid: string; min: number; max: number }) {
  return z.preprocess(
    formNumber,
    z
      .number({ error: (iss) => (iss.input === undefined ? opts.required : opts.invalid) })
      .int(opts.invalid)
      .min(opts.min, opts.invalid)
      .max(opts.max, opts.invalid),
  );
}

function optionalInteger(opts: { invalid: string; min: number; max: number }) {
  return z.preprocess(
    formNumber,
    z
      .number({ error: opts.invalid })
      .int(opts.invalid)
      .min(opts.min, opts.invalid)
      .max(opts.max, opts.invalid)
      .optional(),
  );
}

function optionalBoolean(message: string) {
  return z.preprocess(formBoolean, z.boolean({ error: message }).optional());
}

function requiredText(required: string, max: number, tooLong: string = MSG.textoDemasiadoLargo) {
  return z.preprocess(blankToUndefined, z.string({ error: required }).trim().max(max, tooLong));
}

/** An optional free-text field: absent keeps the stored value (update) or is '' (create). */
function optionalText(max: number) {
  return z.preprocess(
    (v) => (v === null ? '' : typeof v === 'number' ? String(v) : v),
    z.string({ error: MSG.datosInvalidos }).trim().max(max, MSG.textoDemasiadoLargo).optional(),
  );
}

const idSchema = (message: string) =>
  z.number({ error: message }).int(message).positive(message).max(MAX_ID, message);
const idNumber = (message: string) => z.preprocess(formNumber, idSchema(message));
const optionalIdNumber = (message: string) => z.preprocess(formNumber, idSchema(message).optional());

export const PageQuery = z.coerce.number().int().min(1).max(1_000_000).default(1);

// ---------------------------------------------------------------------------------------------
// Clients
// ---------------------------------------------------------------------------------------------

export const ModoPresupuesto = z.enum(['regular', 'categoria']);
export type ModoPresupuesto = z.infer<typeof ModoPresupuesto>;

/**
 * The text fields of POST /api/clientes and POST /api/clientes/update/{id} (multipart/form-data).
 * Files: `imagen` (JPG/PNG ≤ 5 MB), `calendario` and `manual` (PDF ≤ 20 MB), each optional.
 * On update, an absent optional field keeps the stored value; `eliminar_*=1` removes a file.
 */
export const ClientForm = z.object({
  nombre: requiredText(MSG.clienteCamposRequeridos, 150, MSG.clienteNombreLargo),
  presupuesto_default: pesos({
    required: MSG.clienteCamposRequeridos,
    invalid: MSG.presupuestoClienteInvalido,
    min: 0,
  }),
  limite_de_compras: integer({
    required: MSG.clienteCamposRequeridos,
    invalid: MSG.limiteComprasInvalido,
    min: -1,
    max: 1_000_000,
  }),
  color: z.preprocess(blankToUndefined, z.string().regex(HEX_COLOR, MSG.colorInvalido).optional()),
  color2: z.preprocess(blankToUndefined, z.string().regex(HEX_COLOR, MSG.colorInvalido).optional()),
  modo_presupuesto: z.preprocess(
    blankToUndefined,
    z.enum(['regular', 'categoria'], { error: MSG.modoPresupuestoInvalido }).optional(),
  ),
  cantidad_autorizadores: optionalInteger({ invalid: MSG.autorizadoresInvalido, min: 0, max: 2 }),
  mostrar_presupuesto_a_usuarios: optionalBoolean(MSG.valorSiNoInvalido),
  activo: optionalBoolean(MSG.valorSiNoInvalido),
  /** Two-factor sign-in mandatory for the client's roles 2 and 3 (1/0); absent: off (create), kept (update). */
  requiere_2fa: optionalBoolean(MSG.valorSiNoInvalido),
  eliminar_imagen: optionalBoolean(MSG.valorSiNoInvalido),
  eliminar_calendario: optionalBoolean(MSG.valorSiNoInvalido),
  eliminar_manual: optionalBoolean(MSG.valorSiNoInvalido),
});
export type ClientForm = z.infer<typeof ClientForm>;

export const ClientDto = z.object({
  id: z.number().int(),
  nombre: z.string(),
  /** Logo URL (/api/img/…) or null. */
  imagen: z.string().nullable(),
  color: z.string(),
  color2: z.string(),
  /** Download URLs (/api/resource/{id}/calendario|manual) when the client has the document. */
  calendario: z.string().nullable(),
  manual: z.string().nullable(),
  presupuesto_default: z.number(),
  cantidad_autorizadores: z.number().int(),
  limite_de_compras: z.number().int(),
  modo_presupuesto: ModoPresupuesto,
  mostrar_presupuesto_a_usuarios: z.boolean(),
  activo: z.boolean(),
  /** Two-factor sign-in is mandatory for the client's roles 2 and 3. */
  requiere_2fa: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ClientDto = z.infer<typeof ClientDto>;

export const ClientsQuery = z.object({
  page: PageQuery,
  /** 10 by default; dropdowns may ask for up to 1000 at once. */
  per_page: z.coerce.number().int().min(1).max(1000).default(CLIENTS_PER_PAGE),
  q: z.string().trim().max(100).optional(),
});

export const ClientsResponse = z.object({
  clientes: z.array(ClientDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type ClientsResponse = z.infer<typeof ClientsResponse>;

export const ClientCreateResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  cliente: ClientDto,
});
export type ClientCreateResponse = z.infer<typeof ClientCreateResponse>;

/** The changed client plus the first page of the list. */
export const ClientUpdateResponse = ClientsResponse.extend({
  status: z.literal('ok'),
  msg: z.string(),
  cliente: ClientDto,
});
export type ClientUpdateResponse = z.infer<typeof ClientUpdateResponse>;

// ---------------------------------------------------------------------------------------------
// Users
// ---------------------------------------------------------------------------------------------

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

/** POST /api/usuarios and PUT /api/usuarios/{id} (spec §7). Required fields come first. */
export const UserBody = z.object({
  usuario: requiredText(MSG.camposObligatoriosUsuario, 100).refine(
    (v) => !/\s/.test(v),
    MSG.usuarioConEspacios,
  ),
  user_id: requiredText(MSG.camposObligatoriosUsuario, 200).refine(isEmailAddress, MSG.correoInvalido),
  nombre: requiredText(MSG.camposObligatoriosUsuario, 200),
  direccion_entrega: requiredText(MSG.camposObligatoriosUsuario, 500),
  rol: integer({ required: MSG.camposObligatoriosUsuario, invalid: MSG.rolInvalido, min: 1, max: 3 }),
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
  q: z.string().trim().max(100).optional(),
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

// ---------------------------------------------------------------------------------------------
// Product assignments
// ---------------------------------------------------------------------------------------------

export const UserProductsQuery = z.object({
  page: PageQuery,
  per_page: z.coerce.number().int().min(1).max(200).default(USER_PRODUCTS_PER_PAGE),
  q: z.string().trim().max(100).optional(),
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
  cliente: z.object({ id: z.number().int(), nombre: z.string() }),
});
export type UserProductsResponse = z.infer<typeof UserProductsResponse>;

const CantidadLimite = optionalInteger({ invalid: MSG.cantidadLimiteInvalida, min: 1, max: 1_000_000 });
const AssignStatus = z.preprocess(formBoolean, z.boolean({ error: MSG.estadoAsignacionInvalido }));

/** POST /api/productos/asignar (spec §3 "Assignment payload"); status true/1 = habilitado. */
export const AssignBody = z.object({
  id_producto: idNumber(MSG.asignacionDatos),
  id_user: idNumber(MSG.asignacionDatos),
  /** Absent: the stored value is kept (1 for a new assignment). */
  cantidad_limite: CantidadLimite,
  status: AssignStatus,
});

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

// ---------------------------------------------------------------------------------------------
// Access weeks
// ---------------------------------------------------------------------------------------------

const WeekDate = z.preprocess(
  blankToUndefined,
  z.string({ error: MSG.semanaFechasRequeridas }).refine(isIsoDate, MSG.semanaFechaInvalida),
);

export const WeekCreateBody = z
  .object({
    inicio: WeekDate,
    fin: WeekDate,
    id_cliente: idNumber(MSG.debesSeleccionarCliente),
    activo: optionalBoolean(MSG.semanaActivoRequerido),
  })
  .refine((b) => !isIsoDate(String(b.inicio)) || !isIsoDate(String(b.fin)) || b.fin >= b.inicio, {
    message: MSG.semanaRango,
    path: ['fin'],
  });

export const WeekToggleBody = z.object({
  activo: z.preprocess(formBoolean, z.boolean({ error: MSG.semanaActivoRequerido })),
});

export const WeeksQuery = z.object({
  id_cliente: idNumber(MSG.debesSeleccionarCliente),
  page: PageQuery,
});

/** PUT and destroy: which page of the client's weeks to answer with. */
export const WeeksPageQuery = z.object({ page: PageQuery });

export const WeekDto = z.object({
  id: z.number().int(),
  id_cliente: z.number().int(),
  inicio: z.string(),
  fin: z.string(),
  activo: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WeekDto = z.infer<typeof WeekDto>;

export const WeeksResponse = z.object({
  semanas: z.array(WeekDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type WeeksResponse = z.infer<typeof WeeksResponse>;

export const WeekCreateResponse = z.object({ status: z.literal('ok'), msg: z.string(), semana: WeekDto });
export type WeekCreateResponse = z.infer<typeof WeekCreateResponse>;

export const WeeksMutationResponse = WeeksResponse.extend({ status: z.literal('ok'), msg: z.string() });
export type WeeksMutationResponse = z.infer<typeof WeeksMutationResponse>;
