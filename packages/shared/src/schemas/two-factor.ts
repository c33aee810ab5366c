/**
 * Two-factor sign-in ("Verificación en dos pasos", TOTP) for roles 2, 3 and 4: enrolment, backup codes,
 * deactivation, the administrator's reset and the second step of the sign-in.
 */
import { z } from 'zod';
import { MSG } from '../messages.ts';

/** A 6-digit code of the authenticator app (spaces around it are ignored). */
export const TotpCode = z
  .string({ error: MSG.codigoRequerido })
  .trim()
  .regex(/^\d{6}$/, MSG.codigoFormato);

/** A backup code as typed (`xxxx-xxxx`; capitals, spaces and a missing dash are accepted by the server). */
export const BackupCodeInput = z
  .string({ error: MSG.codigoRequerido })
  .trim()
  .min(8, MSG.codigoRespaldoFormato)
  .max(20, MSG.codigoRespaldoFormato);

/** GET /api/2fa */
export const TwoFactorStatus = z.object({
  activo: z.boolean(),
  /** Required for this user (client setting for roles 2-3, ADMIN_2FA_REQUIRED for administrators). */
  obligatorio: z.boolean(),
  /** Unused backup codes. */
  codigos_restantes: z.number().int(),
});
export type TwoFactorStatus = z.infer<typeof TwoFactorStatus>;

/** POST /api/2fa/iniciar */
/**
 * POST /api/2fa/iniciar and /api/2fa/activar: the current password, so that a session alone (a computer
 * left signed in, a stolen cookie) cannot put its own authenticator on the account (issue 38, finding 4).
 */
const CurrentPassword = z
  .string({ error: MSG.passwordActualRequerida })
  .min(1, MSG.passwordActualRequerida)
  .max(200);
export const TwoFactorStartBody = z.object({ password: CurrentPassword });
export type TwoFactorStartBody = z.infer<typeof TwoFactorStartBody>;
export const TwoFactorStartResponse = z.object({
  /** otpauth://totp/Portal%20de%20Compras:<usuario>?secret=<BASE32>&issuer=Portal%20de%20Compras&… */
  otpauth_url: z.string(),
});
export type TwoFactorStartResponse = z.infer<typeof TwoFactorStartResponse>;

/** POST /api/2fa/codigos-respaldo: a current code of the app (the account is enrolled). */
export const TwoFactorCodeBody = z.object({ codigo: TotpCode });
export type TwoFactorCodeBody = z.infer<typeof TwoFactorCodeBody>;

/** POST /api/2fa/activar: the first code of the new secret, and the current password again. */
export const TwoFactorActivateBody = z.object({ codigo: TotpCode, password: CurrentPassword });
export type TwoFactorActivateBody = z.infer<typeof TwoFactorActivateBody>;

export const BackupCodesResponse = z.object({
  /** 10 single-use codes `xxxx-xxxx`, shown once. */
  codigos_respaldo: z.array(z.string()),
});
export type BackupCodesResponse = z.infer<typeof BackupCodesResponse>;

/** POST /api/2fa/desactivar: the password and a current code (of the app, or a backup code). */
export const TwoFactorDisableBody = z.object({
  password: z.string({ error: MSG.todosLosCampos }).min(1, MSG.todosLosCampos).max(200),
  codigo: z.string({ error: MSG.codigoRequerido }).trim().min(1, MSG.codigoRequerido).max(20),
});
export type TwoFactorDisableBody = z.infer<typeof TwoFactorDisableBody>;

/** POST /api/login/2fa: either the app's code or a backup code. */
export const SecondStepBody = z
  .object({
    codigo: TotpCode.optional(),
    codigo_respaldo: BackupCodeInput.optional(),
  })
  .refine((b) => (b.codigo === undefined) !== (b.codigo_respaldo === undefined), {
    message: MSG.codigoRequerido,
    path: ['codigo'],
  });
export type SecondStepBody = z.infer<typeof SecondStepBody>;

/** POST /api/login when the password is right and the second step is due. */
export const SecondStepRequired = z.object({ status: z.literal('2fa_requerido') });
export type SecondStepRequired = z.infer<typeof SecondStepRequired>;
