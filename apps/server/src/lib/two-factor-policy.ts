import { ROLES } from '@portal/shared/domain/roles';
import type { Config } from '../config.ts';

/** Roles that may use two-factor sign-in (rol 1, the buyers, does not). */
export const TWO_FACTOR_ROLES = [
  ROLES.autorizador,
  ROLES.superAutorizador,
  ROLES.administrador,
  ROLES.administradorCliente,
] as const;

/** The session stage of a sign-in whose password was right and whose second factor is due. */
export const SECOND_FACTOR_STAGE = 'segundo_factor';

interface UserFacts {
  rol: number;
  totpSecret: string | null;
}

/** Two-factor sign-in is active for the user. */
export function twoFactorActive(user: Pick<UserFacts, 'totpSecret'>): boolean {
  return user.totpSecret !== null;
}

/**
 * Two-factor sign-in is mandatory for the user: every administrator with ADMIN_2FA_REQUIRED, every client
 * administrator (rol 5, always: decision 0122), roles 2 and 3 of a client with `requiere_2fa`.
 */
export function twoFactorMandatory(
  config: Pick<Config, 'ADMIN_2FA_REQUIRED'>,
  user: UserFacts,
  client: { requiere2fa: boolean } | null,
): boolean {
  if (user.rol === ROLES.administrador) return config.ADMIN_2FA_REQUIRED;
  if (user.rol === ROLES.administradorCliente) return true;
  if (user.rol === ROLES.autorizador || user.rol === ROLES.superAutorizador)
    return Boolean(client?.requiere2fa);
  return false;
}

/**
 * Mandatory and not active: the user must enrol before doing anything else. Not for an account without a
 * password: it signs in only with its company's account (single sign-on, decision 0120), whose provider
 * authenticates it, and enrolling needs the password it does not have.
 */
export function twoFactorEnrolmentDue(
  config: Pick<Config, 'ADMIN_2FA_REQUIRED'>,
  user: UserFacts & { passwordHash: string | null },
  client: { requiere2fa: boolean } | null,
): boolean {
  return user.passwordHash !== null && twoFactorMandatory(config, user, client) && !twoFactorActive(user);
}
