/**
 * Single sign-on's rules that need no schema library (decision 0120): e-mail domains, and the words of each
 * reason an SSO sign-in came back to the sign-in page. The sign-in page imports them without loading zod.
 */
import { MSG } from '../messages.ts';

/** A domain as typed in the client's list: trimmed, lower case, without a leading @. */
export function normalizeDomain(value: string): string {
  return value.trim().toLowerCase().replace(/^@/, '');
}

/** The domain of an e-mail address, lower case ('' when it is not one). */
export function emailDomain(correo: string): string {
  const at = correo.lastIndexOf('@');
  return at > 0
    ? correo
        .slice(at + 1)
        .trim()
        .toLowerCase()
    : '';
}

/**
 * Why an SSO sign-in came back to /login (`/login?sso=<code>`): the sign-in page shows the matching text.
 * Codes, not texts, travel in the address.
 */
export const SSO_ERROR_MESSAGES = {
  no_disponible: MSG.ssoNoDisponible,
  proveedor: MSG.ssoProveedorCaido,
  rechazado: MSG.ssoRechazado,
  vencido: MSG.ssoVencido,
  no_verificado: MSG.ssoCorreoNoVerificado,
  sin_cuenta: MSG.ssoSinCuenta,
  otro_dominio: MSG.ssoOtroDominio,
  varias_cuentas: MSG.ssoVariasCuentas,
  demasiados: MSG.ssoDemasiadosIntentos,
  // The account rules of every sign-in (apps/server/src/plugins/auth-guard.ts, accessRefusal).
  usuario_inactivo: MSG.usuarioInactivo,
  cliente_inactivo: MSG.clienteInactivo,
  fuera_de_semana: MSG.fueraDeSemana,
  password_temporal: MSG.passwordTemporalVencida,
} as const;
export type SsoErrorCode = keyof typeof SSO_ERROR_MESSAGES;

/** The text of an address's `?sso=` code (an unknown code: the general refusal), or null without one. */
export function ssoRefusalText(search: string): string | null {
  const code = new URLSearchParams(search).get('sso');
  if (code === null) return null;
  return Object.hasOwn(SSO_ERROR_MESSAGES, code)
    ? SSO_ERROR_MESSAGES[code as SsoErrorCode]
    : MSG.ssoRechazado;
}
