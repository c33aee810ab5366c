/**
 * Route guards. The session is re-checked on every route change: the query key carries the pathname, so
 * each new location asks GET /api/sesion again (the previous answer stays on screen meanwhile). Any
 * failure goes to /login, carrying the page asked for as `?volver=` (docs/domain.md "Sign-in"); a wrong
 * role goes to the role's own home; a required password change comes before anything else, then a due
 * two-factor enrolment (both carry `volver` on).
 */
import { Center } from '@mantine/core';
import { loginPathFor, RETURN_PARAM } from '@portal/shared/domain/return-path';
import { type Area, areaAllows, homeFor } from '@portal/shared/domain/role-areas';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { Spinner } from '../../components/ui/spinner';
import type { AuthLocationState } from '../../features/auth/components/auth-notice';
import { isApiError } from '../../lib/api';
import {
  CHANGE_PASSWORD_PATH,
  landingFor,
  returnParam,
  sessionCheckQuery,
  TWO_FACTOR_ENROLMENT_PATH,
} from '../../lib/auth';
import { setBusinessTimeZone } from '../../lib/business-zone';
import { SessionContext, useSession } from '../../lib/session';

export function FullPageLoader({ label = 'Cargando' }: { label?: string }) {
  return (
    <Center mih="100dvh">
      <Spinner label={label} />
    </Center>
  );
}

function useSessionCheck() {
  const { pathname } = useLocation();
  return useQuery({ ...sessionCheckQuery(pathname), placeholderData: keepPreviousData });
}

/**
 * The sign-in screen for the current location: `/login?volver=<path + search>` for a page of a role area,
 * the `volver` a forced screen was carrying, or the bare `/login`.
 */
function useLoginPath(): string {
  const { pathname, search } = useLocation();
  const carried = returnParam(search);
  // Not a page of a role area (a forced screen): the page it was carrying.
  if (carried && loginPathFor(pathname) === '/login')
    return `/login?${RETURN_PARAM}=${encodeURIComponent(carried)}`;
  return loginPathFor(pathname + search);
}

/** Leaves for /login, with the server's reason when the account or its access week refused the session. */
function SessionLost({ error }: { error: unknown }) {
  const to = useLoginPath();
  // The failed check stays cached (removing it here would refetch it while the redirect is under way);
  // signing in replaces every session entry.
  const state: AuthLocationState =
    isApiError(error) && error.status === 403 && error.msg
      ? { notice: { kind: 'warning', text: error.msg } }
      : {};
  return <Navigate to={to} replace state={state} />;
}

interface RequireSessionProps {
  /**
   * 'app': the role areas; 'password-change': only the forced change-password screen;
   * 'two-factor-enrolment': only the forced enrolment screen.
   */
  mode: 'app' | 'password-change' | 'two-factor-enrolment';
  children?: ReactNode;
}

/** The forced screen each mode serves ('app': none, the role's areas). */
const FORCED_SCREEN = {
  app: null,
  'password-change': CHANGE_PASSWORD_PATH,
  'two-factor-enrolment': TWO_FACTOR_ENROLMENT_PATH,
} as const;

export function RequireSession({ mode, children }: RequireSessionProps) {
  const check = useSessionCheck();
  const { pathname, search } = useLocation();
  if (check.isPending) return <FullPageLoader label="Verificando sesión" />;
  if (check.isError) return <SessionLost error={check.error} />;
  const session = check.data;
  setBusinessTimeZone(session.zona_horaria);
  // Anywhere else than where the session belongs (a forced screen, or the role's areas): go there.
  const landing = landingFor(session.user);
  if (landing !== (FORCED_SCREEN[mode] ?? homeFor(session.user.rol))) {
    // A page of the areas waits behind a forced screen; a forced screen passes its own `volver` on.
    const volver = mode === 'app' ? pathname + search : returnParam(search);
    return <Navigate to={landingFor(session.user, volver)} replace />;
  }
  return <SessionContext value={session}>{children ?? <Outlet />}</SessionContext>;
}

/** A role area: anyone else is sent to their own home. */
export function RequireArea({ area }: { area: Area }) {
  const { user } = useSession();
  if (!areaAllows(area, user.rol)) return <Navigate to={homeFor(user.rol)} replace />;
  return <Outlet />;
}

/** "/": the role's home when signed in, otherwise the sign-in screen. */
export function RootRedirect() {
  const check = useSessionCheck();
  if (check.isPending) return <FullPageLoader />;
  if (check.isError) return <SessionLost error={check.error} />;
  return <Navigate to={landingFor(check.data.user)} replace />;
}
