/**
 * Administration (rol 4): clients. Request bodies accept what an HTML form sends (see form-fields.ts);
 * amounts are pesos with at most 2 decimals.
 */
import { z } from 'zod';
import { normalizeThresholds } from '../domain/budget-alerts.ts';
import { CLIENT_PERMISSIONS, type ClientPermission, isClientPermission } from '../domain/client-admin.ts';
import { CREDIT_POLICIES, DIAS_CREDITO_MAX } from '../domain/credit.ts';
import { UMBRAL_EXISTENCIA_MAX } from '../domain/stock.ts';
import {
  ALERTAS_PRESUPUESTO_MAX,
  CLIENTS_MAX_PER_PAGE,
  CLIENTS_PER_PAGE,
  ESCALAR_HORAS_MAX,
  RECORDATORIO_HORAS_MAX,
  SEARCH_MAX_LENGTH,
  VENTANA_REGLAS_HORAS_MAX,
} from '../limits.ts';
import { MSG } from '../messages.ts';
import { FISCAL_FIELDS, FiscalDataDto } from './fiscal.ts';
import {
  blankToUndefined,
  formNumber,
  integer,
  nullablePesos,
  optionalBoolean,
  optionalInteger,
  PageQuery,
  pesos,
  requiredText,
} from './form-fields.ts';
import { listSort } from './sort.ts';

const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;

/** A list of thresholds as a form sends it ('80, 100', '80%,100'), or an array, becomes numbers. */
function thresholdList(value: unknown): unknown {
  const v = blankToUndefined(value);
  const toNumber = (x: unknown) => formNumber(typeof x === 'string' ? x.replace('%', '') : x);
  if (typeof v === 'string')
    return v
      .split(/[,;\s]+/)
      .filter(Boolean)
      .map(toNumber);
  if (Array.isArray(v)) return v.map(toNumber);
  if (typeof v === 'number') return [v];
  return v;
}

/**
 * Budget alert thresholds (decision 0054): 1 to 3 whole percentages from 1 to 100; repeats are dropped and
 * the list is kept ascending. Absent or blank: [80, 100] (create), kept (update).
 */
const alertThresholds = z.preprocess(
  thresholdList,
  z
    .custom<number[]>((v) => Array.isArray(v) && v.every((n) => Number.isInteger(n) && n >= 1 && n <= 100), {
      error: MSG.alertasPresupuestoInvalido,
    })
    .transform(normalizeThresholds)
    .refine((a) => a.length >= 1 && a.length <= ALERTAS_PRESUPUESTO_MAX, MSG.alertasPresupuestoCantidad)
    .optional(),
);

/**
 * What the client's administrators (rol 5) may change (decision 0122): a comma-separated list as a form
 * sends it ('usuarios,presupuestos'), or an array; blank allows nothing; absent keeps it (update) or takes
 * the default (create). Repeats are dropped and the list keeps the catalogue's order.
 */
const clientPermissions = z.preprocess(
  (value) => {
    if (value === undefined) return undefined;
    if (value === null) return [];
    if (typeof value === 'string')
      return value
        .split(/[,;\s]+/)
        .map((p) => p.trim().toLowerCase())
        .filter(Boolean);
    return value;
  },
  z
    .array(z.string(), { error: MSG.permisosClienteInvalidos })
    .refine((a) => a.every(isClientPermission), MSG.permisosClienteInvalidos)
    .transform((a) => CLIENT_PERMISSIONS.filter((p) => a.includes(p)) as ClientPermission[])
    .optional(),
);

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
  /** The `cantidad_limite` a new assignment takes when none is given (≥ 1); absent: 1 (create), kept (update). */
  limite_por_defecto: optionalInteger({ invalid: MSG.limitePorDefectoInvalido, min: 1, max: 1_000_000 }),
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
  /** Approval rules by amount, pesos (decision 0049): blank turns a rule off, absent keeps it (update). */
  aprobacion_automatica_hasta: nullablePesos({ invalid: MSG.reglaImporteInvalido, min: 0 }),
  segundo_nivel_desde: nullablePesos({ invalid: MSG.reglaImporteInvalido, min: 0 }),
  /** Hours before the daily reminder names a waiting order (decision 0051); 0 = off; absent: 24 (create), kept (update). */
  recordatorio_horas: optionalInteger({
    invalid: MSG.recordatorioHorasInvalido,
    min: 0,
    max: RECORDATORIO_HORAS_MAX,
  }),
  /**
   * Hours before an order whose orders of the same buyer add to its total for the rules by amount (decision
   * 0100); 0 = each order alone; absent: 24 (create), kept (update).
   */
  ventana_reglas_horas: optionalInteger({
    invalid: MSG.ventanaReglasHorasInvalida,
    min: 0,
    max: VENTANA_REGLAS_HORAS_MAX,
  }),
  /** Hours an order may wait on its level before it escalates (decision 0113); 0 = off; absent: 0 (create), kept (update). */
  escalar_horas: optionalInteger({ invalid: MSG.escalarHorasInvalido, min: 0, max: ESCALAR_HORAS_MAX }),
  /** Budget alert thresholds, percentages ('80, 100'); absent: [80, 100] (create), kept (update). */
  alertas_presupuesto: alertThresholds,
  /** The client's active rol-2 approvers get the budget alerts too; absent: off (create), kept (update). */
  avisar_autorizadores: optionalBoolean(MSG.valorSiNoInvalido),
  /** What the client's administrators may change (decision 0122); absent: ['usuarios'] (create), kept (update). */
  permisos_cliente: clientPermissions,
  /**
   * A client administrator's budget for a user above this (pesos) waits for the distributor's approval;
   * blank: no cap; absent keeps it (update).
   */
  tope_presupuesto: nullablePesos({ invalid: MSG.topePresupuestoInvalido, min: 0 }),
  /** Approvals may take a product's available stock below 0 (decision 0124); absent: yes (create), kept (update). */
  permitir_sobre_pedido: optionalBoolean(MSG.valorSiNoInvalido),
  /** "Quedan N" while a product's available stock is at most this; absent: 5 (create), kept (update). */
  umbral_existencia: optionalInteger({
    invalid: MSG.umbralExistenciaInvalido,
    min: 0,
    max: UMBRAL_EXISTENCIA_MAX,
  }),
  /** Credit (decision 0134): the limit in pesos (blank: no limit), absent keeps it (update). */
  limite_credito: nullablePesos({ invalid: MSG.limiteCreditoInvalido, min: 0 }),
  /** Calendar days from an invoice's date to its due date; absent: 30 (create), kept (update). */
  dias_credito: optionalInteger({ invalid: MSG.diasCreditoInvalido, min: 0, max: DIAS_CREDITO_MAX }),
  /** Over the limit or with an overdue invoice: warn the approvers or hold approved orders; absent: avisar. */
  politica_credito: z.preprocess(
    blankToUndefined,
    z.enum(CREDIT_POLICIES, { error: MSG.politicaCreditoInvalida }).optional(),
  ),
  /** Fiscal data (decision 0128): absent keeps, blank clears; the checks between them are the server's. */
  ...FISCAL_FIELDS,
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
  /** The `cantidad_limite` of a new assignment made without one (bulk, category, import). */
  limite_por_defecto: z.number().int(),
  modo_presupuesto: ModoPresupuesto,
  mostrar_presupuesto_a_usuarios: z.boolean(),
  activo: z.boolean(),
  /** Two-factor sign-in is mandatory for the client's roles 2 and 3. */
  requiere_2fa: z.boolean(),
  /** Orders up to this total (pesos) are approved at purchase; null: off. */
  aprobacion_automatica_hasta: z.number().nullable(),
  /** With two levels, a level-1 approval below this total (pesos) completes the order; null: off. */
  segundo_nivel_desde: z.number().nullable(),
  /** Hours an order waits on an approver before the daily reminder names it; 0: no reminders. */
  recordatorio_horas: z.number().int(),
  /** Hours before an order whose orders of the same buyer count with it for the rules by amount; 0: none. */
  ventana_reglas_horas: z.number().int(),
  /** Hours an order may wait on its level before it escalates; 0: never. */
  escalar_horas: z.number().int(),
  /** Budget alert thresholds, whole percentages ascending (1 to 3 of them). */
  alertas_presupuesto: z.array(z.number().int()),
  /** The client's rol-2 approvers get the budget alerts too. */
  avisar_autorizadores: z.boolean(),
  /** What the client's administrators (rol 5) may change. */
  permisos_cliente: z.array(z.enum(CLIENT_PERMISSIONS)),
  /** A client administrator's budget above this (pesos) waits for the distributor; null: no cap. */
  tope_presupuesto: z.number().nullable(),
  /** Approvals may take a product's available stock below 0: the line is "sobre pedido" (decision 0124). */
  permitir_sobre_pedido: z.boolean(),
  /** The catalogue says "Quedan N" while a product's available stock is at most this. */
  umbral_existencia: z.number().int(),
  /** Credit (decision 0134): the limit (pesos, null: none), the credit days and the policy. */
  limite_credito: z.number().nullable(),
  dias_credito: z.number().int(),
  politica_credito: z.enum(CREDIT_POLICIES),
  /** Fiscal data (decision 0128): RFC, razón social, régimen, uso de CFDI, C.P. and billing e-mails. */
  ...FiscalDataDto.shape,
  created_at: z.string(),
  updated_at: z.string(),
});
export type ClientDto = z.infer<typeof ClientDto>;

/** The clients list's sorts (decision 0067): name (the default) or creation date. */
export const ClientsSort = listSort(['nombre', 'creado'], 'nombre_asc');
export type ClientsSort = (typeof ClientsSort.values)[number];

export const ClientsQuery = z.object({
  page: PageQuery,
  /** 10 by default; dropdowns may ask for up to 1000 at once. */
  per_page: z.coerce.number().int().min(1).max(CLIENTS_MAX_PER_PAGE).default(CLIENTS_PER_PAGE),
  q: z.string().trim().max(SEARCH_MAX_LENGTH).optional(),
  orden: ClientsSort.schema,
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

/**
 * GET /api/clientes/{id}/resumen: what deactivating the client touches, for its confirmation. Active users
 * may not sign in while it is inactive; those with an open session are signed out at once.
 */
export const ClientSummaryResponse = z.object({
  status: z.literal('ok'),
  usuarios_activos: z.number().int(),
  usuarios_con_sesion: z.number().int(),
});
export type ClientSummaryResponse = z.infer<typeof ClientSummaryResponse>;

/**
 * GET /api/cliente: a client administrator's own client (rol 5, decision 0122) with what its home shows —
 * its accounts by role and status, and its budgets waiting for the distributor.
 */
export const ClientAdminHomeResponse = z.object({
  cliente: ClientDto,
  usuarios_por_rol: z.array(
    z.object({ rol: z.number().int(), activos: z.number().int(), inactivos: z.number().int() }),
  ),
  solicitudes_pendientes: z.number().int(),
});
export type ClientAdminHomeResponse = z.infer<typeof ClientAdminHomeResponse>;

/**
 * PUT /api/cliente/reglas (rol 5, when its client allows `reglas`): the approval levels and rules of the
 * client form, as JSON; absent keeps a value, null turns a rule by amount off. Any other field of the client
 * (its permissions, its cap) is refused with the catalogue's message, not ignored.
 */
export const ClientRulesBody = z.strictObject(
  ClientForm.pick({
    cantidad_autorizadores: true,
    aprobacion_automatica_hasta: true,
    segundo_nivel_desde: true,
    recordatorio_horas: true,
    ventana_reglas_horas: true,
    escalar_horas: true,
  }).shape,
  { error: MSG.datosInvalidos },
);
export type ClientRulesBody = z.infer<typeof ClientRulesBody>;

export const ClientRulesResponse = z.object({ status: z.literal('ok'), msg: z.string(), cliente: ClientDto });
export type ClientRulesResponse = z.infer<typeof ClientRulesResponse>;

/** PUT /api/clientes/{id}/datos-fiscales (decision 0128): the changed client, as the rules' answer. */
export const ClientFiscalResponse = ClientRulesResponse;
export type ClientFiscalResponse = ClientRulesResponse;
