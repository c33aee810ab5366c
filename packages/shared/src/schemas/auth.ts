import { z } from 'zod';
import { MSG } from '../messages.ts';
import { ShopperSession } from './shopping.ts';
import { SecondStepRequired } from './two-factor.ts';

export const LoginBody = z.object({
  data: z.string({ error: MSG.llenarTodosLosDatos }).min(1, MSG.llenarTodosLosDatos).max(4096),
  hmac: z.string({ error: MSG.llenarTodosLosDatos }).min(1, MSG.llenarTodosLosDatos).max(128),
});
export type LoginBody = z.infer<typeof LoginBody>;

export const SessionCliente = z.object({
  id: z.number(),
  nombre: z.string(),
  /** Logo URL (/api/img/...) or null. */
  imagen: z.string().nullable(),
  color: z.string(),
  color2: z.string(),
  /** Download URLs when the client has the document. */
  calendario: z.string().nullable(),
  manual: z.string().nullable(),
  modo_presupuesto: z.enum(['regular', 'categoria']),
  mostrar_presupuesto_a_usuarios: z.boolean(),
  cantidad_autorizadores: z.number(),
  /** Orders up to this total (pesos, with IVA) are approved at purchase; null = no such rule (decision 0098). */
  aprobacion_automatica_hasta: z.number().nullable(),
  /** Hours whose orders of the same buyer add up for that rule; 0 = each order alone (decision 0100). */
  ventana_reglas_horas: z.number().int(),
});
export type SessionCliente = z.infer<typeof SessionCliente>;

/** Why a password change comes before anything else (docs/domain.md "Passwords", "Expiry"). */
export const PasswordChangeReason = z.enum(['temporal', 'caducada']);
export type PasswordChangeReason = z.infer<typeof PasswordChangeReason>;

export const SessionUser = z.object({
  id: z.number(),
  usuario: z.string(),
  nombre: z.string(),
  email: z.string(),
  rol: z.number(),
  cliente: SessionCliente.nullable(),
  /** The password is temporary or older than 6 months: the change form comes before anything else. */
  debe_cambiar_password: z.boolean(),
  /** Why the change is due: a temporary password or one set 6 months ago or more; null when none is due. */
  motivo_cambio_password: PasswordChangeReason.nullable(),
  /** Two-factor sign-in is active for this user. */
  dos_pasos: z.boolean(),
  /** Two-factor sign-in is required and not active: enrolling comes before anything else (after the password change). */
  debe_activar_2fa: z.boolean(),
  /** «Receptor de mercancía» (decision 0130): the «Recepción» screen is in the user's menu. */
  receptor: z.boolean(),
});
export type SessionUser = z.infer<typeof SessionUser>;

export const SessionResponse = z.object({
  status: z.literal('ok'),
  user: SessionUser,
  /** Support phone numbers for the footer. */
  soporte: z.array(z.string()),
  /** The business time zone (dates are shown in it). */
  zona_horaria: z.string(),
  /** Rol 1 only: categories, budget state and cart (restored at sign-in). */
  comprador: ShopperSession.optional(),
});
export type SessionResponse = z.infer<typeof SessionResponse>;

/** POST /api/login: the session, or `{status: '2fa_requerido'}` when the second step is due (POST /api/login/2fa). */
export const LoginResponse = z.union([SessionResponse, SecondStepRequired]);
export type LoginResponse = z.infer<typeof LoginResponse>;

export const RepasswordBody = z.object({
  password: z.string({ error: MSG.todosLosCampos }).max(200),
  newPass: z.string({ error: MSG.todosLosCampos }).max(200),
  confirmPass: z.string({ error: MSG.todosLosCampos }).max(200),
});
export type RepasswordBody = z.infer<typeof RepasswordBody>;

export const RecoverBody = z.object({
  usuario: z.string({ error: MSG.llenarTodosLosDatos }).trim().min(1, MSG.llenarTodosLosDatos).max(200),
});
export type RecoverBody = z.infer<typeof RecoverBody>;

export const ResetBody = z.object({
  token: z.string({ error: MSG.enlaceInvalido }).min(10, MSG.enlaceInvalido).max(200),
  newPass: z.string({ error: MSG.todosLosCampos }).max(200),
  confirmPass: z.string({ error: MSG.todosLosCampos }).max(200),
});
export type ResetBody = z.infer<typeof ResetBody>;

export const TokenCheckBody = z.object({ token: z.string().min(10).max(200) });
export const TokenCheckResponse = z.object({
  status: z.literal('ok'),
  usuario: z.string(),
  proposito: z.string(),
});
