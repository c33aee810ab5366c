/**
 * Session, sign-out and the own-password change: the calls every area needs.
 * Types come from the shared schemas (type-only imports: no zod in the bundle).
 */
import { allowedReturnPath, RETURN_PARAM } from '@portal/shared/domain/return-path';
import { homeFor } from '@portal/shared/domain/role-areas';
import type { RepasswordBody, SessionResponse, SessionUser } from '@portal/shared/schemas/auth';
import type { OkMessage } from '@portal/shared/schemas/common';
import { queryOptions } from '@tanstack/react-query';
import { api, markCsrfStale } from './api';
import { freshFromBoot } from './boot-data';

export type { SessionCliente, SessionResponse, SessionUser } from '@portal/shared/schemas/auth';

export const sessionKeys = {
  all: ['sesion'] as const,
  /** The session re-checked for one location (a new key per route change means a new check). */
  at: (pathname: string) => ['sesion', pathname] as const,
};

/** The forced screens, which come before anything else (in this order). */
export const CHANGE_PASSWORD_PATH = '/cambiar-password';
export const TWO_FACTOR_ENROLMENT_PATH = '/activar-verificacion';

/**
 * Where a signed-in user belongs now: the forced password change, then a due two-factor enrolment, then
 * `volver` when the role may open it (docs/domain.md "Sign-in"), else the role's home. A forced screen
 * carries an allowed `volver` on, so the page asked for opens once it is done.
 */
export function landingFor(
  user: Pick<SessionUser, 'rol' | 'debe_cambiar_password' | 'debe_activar_2fa'>,
  volver?: string | null,
): string {
  const allowed = allowedReturnPath(volver, user.rol);
  const forced = user.debe_cambiar_password
    ? CHANGE_PASSWORD_PATH
    : user.debe_activar_2fa
      ? TWO_FACTOR_ENROLMENT_PATH
      : null;
  if (forced) return allowed ? `${forced}?${RETURN_PARAM}=${encodeURIComponent(allowed)}` : forced;
  return allowed ?? homeFor(user.rol);
}

/** The `volver` of a location's search (`?volver=…`), unchecked: landingFor checks it. */
export function returnParam(search: string): string | null {
  return new URLSearchParams(search).get(RETURN_PARAM);
}

/** The path part of a landing (the session check is keyed by pathname). */
export function pathnameOf(target: string): string {
  return target.split(/[?#]/, 1)[0] ?? target;
}

export function fetchSession(signal?: AbortSignal): Promise<SessionResponse> {
  // The guard handles a failed check itself (it goes to /login, with the server's reason when useful).
  return api.get<SessionResponse>('/api/sesion', { signal, skipUnauthorizedHandler: true });
}

/**
 * The session's check for one location, as the guards ask it on every route change and the boot asks it for
 * the address opened (decision 0141: the boot's answer counts as that entry's check).
 */
export function sessionCheckQuery(pathname: string) {
  return queryOptions({
    queryKey: sessionKeys.at(pathname),
    queryFn: ({ signal }) => fetchSession(signal),
    staleTime: freshFromBoot,
    gcTime: 60_000,
    retry: false,
  });
}

export async function logout(): Promise<OkMessage> {
  try {
    return await api.get<OkMessage>('/api/logout', { skipUnauthorizedHandler: true });
  } finally {
    markCsrfStale();
  }
}

/** Changes the signed-in user's own password (current, new, confirmation). */
export function changeOwnPassword(body: RepasswordBody): Promise<OkMessage> {
  return api.post<OkMessage>('/api/repassword', body);
}
