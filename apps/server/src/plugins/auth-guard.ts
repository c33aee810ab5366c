import type { ClientPermission } from '@portal/shared/domain/client-admin';
import { temporaryPasswordExpired } from '@portal/shared/domain/password';
import { isRol, ROLES, type Rol } from '@portal/shared/domain/roles';
import { businessDate, passwordExpired } from '@portal/shared/domain/time';
import type { PasswordChangeReason } from '@portal/shared/schemas/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { accessWeekState, type ClientRow, findUserWithClient, type UserRow } from '../db/principal.ts';
import { requireClientPermission } from '../lib/client-scope.ts';
import type { Deps } from '../lib/deps.ts';
import { AppError, forbidden, unauthorized } from '../lib/errors.ts';
import { twoFactorEnrolmentDue } from '../lib/two-factor-policy.ts';
import { MSG } from '../messages.ts';
import { clearSessionCookies, type SessionStore, type WeekState } from './session.ts';

export interface AuthContext {
  user: UserRow & { rol: Rol };
  client: ClientRow | null;
  sessionId: string;
  mustChangePassword: boolean;
  /** Two-factor sign-in is mandatory for the user and not active yet: enrolling comes first. */
  mustEnrolTwoFactor: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

export interface AccessRefusal {
  code: 'USER_INACTIVE' | 'CLIENT_INACTIVE' | 'TEMPORARY_PASSWORD_EXPIRED' | 'OUTSIDE_WEEK';
  msg: string;
}

/**
 * Why an account may not use the portal right now (deactivated, client deactivated, a temporary password
 * older than 72 hours, outside its weeks).
 */
export async function accessRefusal(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  user: UserRow,
  client: ClientRow | null,
  now = deps.clock.now(),
  /** The client's week state for `now`'s business date, when the caller already read it. */
  known?: WeekState,
): Promise<AccessRefusal | null> {
  if (!user.activo) return { code: 'USER_INACTIVE', msg: MSG.usuarioInactivo };
  if (user.rol !== ROLES.administrador && !client?.activo)
    return { code: 'CLIENT_INACTIVE', msg: MSG.clienteInactivo };
  if (temporaryPasswordExpired(user, now))
    return { code: 'TEMPORARY_PASSWORD_EXPIRED', msg: MSG.passwordTemporalVencida };
  if (user.rol === ROLES.usuario && client) {
    const weeks =
      known ?? (await accessWeekState(deps.db, client.id, businessDate(now, deps.config.BUSINESS_TZ)));
    if (weeks.hasAny && !weeks.inside) return { code: 'OUTSIDE_WEEK', msg: MSG.fueraDeSemana };
  }
  return null;
}

export function mustChangePassword(user: UserRow, now: Date, tz: string): boolean {
  return passwordChangeReason(user, now, tz) !== null;
}

/**
 * Why the password must be changed before anything else: 'temporal' (an administrator's temporary password,
 * or a published demo one in production) wins over 'caducada' (set 6 calendar months ago or more); null when
 * no change is due, and always for an account without a password (it has none to change: it signs in with
 * its company's account, decision 0120).
 */
export function passwordChangeReason(
  user: Pick<UserRow, 'passwordHash' | 'passwordTemporary' | 'passwordChangedAt'>,
  now: Date,
  tz: string,
): PasswordChangeReason | null {
  if (user.passwordHash === null) return null;
  if (user.passwordTemporary) return 'temporal';
  if (passwordExpired(user.passwordChangedAt, now, tz)) return 'caducada';
  return null;
}

/** What the guard decides of a signed-in principal before any route's own options. */
export interface Standing {
  /** Why the account may not use the portal now (its sessions end), or null. */
  refusal: AccessRefusal | null;
  /** A password change comes before anything else. */
  mustChangePassword: boolean;
  /** Two-factor sign-in is mandatory for the user and not active yet: enrolling comes first. */
  mustEnrolTwoFactor: boolean;
}

/**
 * The guard's decision for a principal (authenticate below), shared with whatever must know beforehand what
 * the guard will say, such as which page a signed-in request for a screen gets (first-paint.ts).
 */
export async function standing(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  user: UserRow,
  client: ClientRow | null,
  now: Date,
  known?: WeekState,
): Promise<Standing> {
  const refusal = await accessRefusal(deps, user, client, now, known);
  if (refusal) return { refusal, mustChangePassword: false, mustEnrolTwoFactor: false };
  return {
    refusal: null,
    mustChangePassword: mustChangePassword(user, now, deps.config.BUSINESS_TZ),
    mustEnrolTwoFactor: twoFactorEnrolmentDue(deps.config, user, client),
  };
}

/** Nothing refused and nothing to do first: the screens of the user's role open. */
export function opensScreens(decided: Standing): boolean {
  return !decided.refusal && !decided.mustChangePassword && !decided.mustEnrolTwoFactor;
}

export interface GuardOptions {
  roles?: readonly Rol[];
  /**
   * A client administrator (rol 5) passes only when its client allows this change (`permisos_cliente`,
   * read at the call: the distributor's change applies at once); other roles are not concerned.
   */
  clientPermission?: ClientPermission;
  /** Routes a user with a pending password change may still call (session, change, sign-out). */
  allowPendingPasswordChange?: boolean;
  /** Routes a user who must enrol in two-factor sign-in may still call (session, status, enrolment). */
  allowPendingTwoFactorEnrolment?: boolean;
}

/**
 * Loads the signed-in user on every call and enforces the account rules: a deactivated user or client,
 * or a rol-1 user outside the access weeks, is refused and its session ends; a pending password change
 * blocks everything else, then a due two-factor enrolment; a role not allowed gets 403.
 */
export async function authenticate(
  app: FastifyInstance,
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  options: GuardOptions = {},
): Promise<AuthContext> {
  const session = request.session;
  // A sign-in waiting for its second factor is signed in for nothing (only POST /api/login/2fa reads it).
  if (!session?.userId || session.stage) throw unauthorized();
  // The session's user, client and week state were read with the session itself (one query per request).
  const principal = session.principal;
  const found = principal ?? (await findUserWithClient(app.db, session.userId));
  if (!found || !isRol(found.user.rol)) {
    await store.destroy(session.id);
    clearSessionCookies(reply);
    throw unauthorized();
  }
  const now = principal?.at ?? app.clock.now();
  const decided = await standing(app, found.user, found.client, now, principal?.weeks);
  if (decided.refusal) {
    await store.destroyAllOfUser(found.user.id);
    clearSessionCookies(reply);
    throw new AppError(403, decided.refusal.code, decided.refusal.msg);
  }
  const context: AuthContext = {
    user: found.user as UserRow & { rol: Rol },
    client: found.client,
    sessionId: session.id,
    mustChangePassword: decided.mustChangePassword,
    mustEnrolTwoFactor: decided.mustEnrolTwoFactor,
  };
  if (context.mustChangePassword && !options.allowPendingPasswordChange) {
    throw new AppError(403, 'PASSWORD_CHANGE_REQUIRED', MSG.cambioPasswordRequerido);
  }
  // The password change comes first: the routes it needs (the change itself) are not held by the enrolment.
  const enrolmentBlocks = context.mustEnrolTwoFactor && !context.mustChangePassword;
  if (enrolmentBlocks && !options.allowPendingTwoFactorEnrolment) {
    throw new AppError(403, 'TWO_FACTOR_ENROLMENT_REQUIRED', MSG.dosPasosRequerida);
  }
  if (options.roles && !options.roles.includes(context.user.rol)) throw forbidden();
  if (options.clientPermission) await requireClientPermission(app.db, context, options.clientPermission);
  request.auth = context;
  return context;
}

export type Guard = (options?: GuardOptions) => preHandlerAsyncHookHandler;

export function registerAuthGuard(app: FastifyInstance, store: SessionStore): Guard {
  app.decorateRequest('auth', null);
  return (options = {}) =>
    async function guard(request, reply) {
      await authenticate(app, store, request, reply, options);
    };
}
