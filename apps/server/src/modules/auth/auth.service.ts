import { type LoginEnvelope, openLogin } from '@portal/shared/domain/login-envelope';
import { centavosToPesosOrNull } from '@portal/shared/domain/money';
import { newPasswordProblem } from '@portal/shared/domain/password';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate } from '@portal/shared/domain/time';
import { RECOVERY_LINK_TTL_MS } from '@portal/shared/limits';
import type { LoginResponse, SessionResponse } from '@portal/shared/schemas/auth';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/client.ts';
import { nextActiveWeekStart } from '../../db/principal.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { passwordChangedEmail, recoveryEmail } from '../../lib/emails.ts';
import { AppError, badRequest, notFound, tooMany, unauthorized } from '../../lib/errors.ts';
import { addressOf, enqueueEmail } from '../../lib/mailer.ts';
import { hashPassword, needsRehash, verifyPassword } from '../../lib/passwords.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { twoFactorActive, twoFactorEnrolmentDue } from '../../lib/two-factor-policy.ts';
import { MSG } from '../../messages.ts';
import {
  type AuthContext,
  accessRefusal,
  mustChangePassword,
  passwordChangeReason,
} from '../../plugins/auth-guard.ts';
import { type SessionStore, setSessionCookies } from '../../plugins/session.ts';
import { moveSessionDevices } from '../push/push.service.ts';
import * as repo from './auth.repository.ts';
import { startSecondStep } from './second-step.ts';

export const LOGIN_WINDOW_MS = 15 * 60_000;

/** A throttle's window ending now: attempts are recorded at `now` and counted since LOGIN_WINDOW_MS before it. */
export function throttleWindow(now: Date): { now: Date; since: Date } {
  return { now, since: new Date(now.getTime() - LOGIN_WINDOW_MS) };
}
/** Failures per username and address in the window. */
export const LOGIN_MAX_PER_USER_IP = 5;
/** Failures per address alone (a whole office shares one). */
export const LOGIN_MAX_PER_IP = 100;
export const RECOVERY_MAX_PER_USER_IP = 3;
export const RECOVERY_MAX_PER_IP = 20;
/** Failed calls to set a password with a link, per address and window (a call that sets one is not counted). */
export const RESET_MAX_PER_IP = 10;

function fileUrl(id: string | null): string | null {
  return id ? `/api/img/${id}` : null;
}

export function sessionPayload(
  deps: Pick<Deps, 'clock' | 'config'>,
  ctx: Pick<AuthContext, 'user' | 'client' | 'mustChangePassword'>,
): SessionResponse {
  const { user, client } = ctx;
  return {
    status: 'ok',
    user: {
      id: user.id,
      usuario: user.usuario,
      nombre: user.nombre,
      email: user.email,
      rol: user.rol,
      debe_cambiar_password: ctx.mustChangePassword,
      motivo_cambio_password: ctx.mustChangePassword
        ? passwordChangeReason(user, deps.clock.now(), deps.config.BUSINESS_TZ)
        : null,
      dos_pasos: twoFactorActive(user),
      debe_activar_2fa: twoFactorEnrolmentDue(deps.config, user, client),
      receptor: user.receptor,
      cliente: client
        ? {
            id: client.id,
            nombre: client.nombre,
            imagen: fileUrl(client.imagen),
            color: client.color,
            color2: client.color2,
            calendario: client.calendario ? `/api/resource/${client.id}/calendario` : null,
            manual: client.manual ? `/api/resource/${client.id}/manual` : null,
            modo_presupuesto: client.modoPresupuesto === 'categoria' ? 'categoria' : 'regular',
            mostrar_presupuesto_a_usuarios: client.mostrarPresupuestoAUsuarios,
            cantidad_autorizadores: client.cantidadAutorizadores,
            aprobacion_automatica_hasta: centavosToPesosOrNull(client.aprobacionAutomaticaHasta),
            ventana_reglas_horas: client.ventanaReglasHoras,
          }
        : null,
    },
    soporte: deps.config.supportPhones,
    zona_horaria: deps.config.BUSINESS_TZ,
  };
}

/** A typed username as the throttle and the log know it (an HMAC under the server's key). */
export function typedSubject(deps: Pick<Deps, 'keys'>, usuario: string): string {
  return repo.attemptSubject(deps.keys.typedNames, usuario);
}

/**
 * How a typed username appears in the system log: as typed only when it names an existing user; otherwise
 * a short fingerprint, because what was typed may be a password entered in the wrong field.
 */
function typedName(deps: Deps, usuario: string, user: { usuario: string } | undefined): string {
  return user ? user.usuario : `(usuario desconocido, huella ${typedSubject(deps, usuario).slice(0, 12)})`;
}

function typedNameMeta(
  deps: Deps,
  usuario: string,
  user: { usuario: string } | undefined,
): Record<string, string> {
  return user ? { usuario: user.usuario } : { huella_usuario: typedSubject(deps, usuario).slice(0, 12) };
}

export async function signIn(
  deps: Deps,
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  envelope: LoginEnvelope,
): Promise<LoginResponse> {
  const session = request.session;
  if (!session) throw new AppError(419, 'CSRF', MSG.csrfInvalido);
  const now = deps.clock.now();
  const credentials = openLogin(envelope, session.xsrfToken, now.getTime());
  if (!credentials) throw badRequest('ENVELOPE', MSG.envelopeInvalido);
  const usuario = credentials.usuario.trim();
  if (!usuario || !credentials.password) throw badRequest('VALIDATION', MSG.llenarTodosLosDatos);
  const ip = request.ip;
  // The attempt is counted and recorded before the password is checked (atomically, see reserveAttempt).
  const reservation = await repo.reserveAttempt(deps.db, 'login', typedSubject(deps, usuario), ip, {
    ...throttleWindow(now),
    perSubjectAndIp: LOGIN_MAX_PER_USER_IP,
    perIp: LOGIN_MAX_PER_IP,
  });
  if (!reservation.ok) {
    if (reservation.firstRefusal) {
      const known = await repo.findUserByUsuario(deps.db, usuario);
      await audit(deps.db, {
        userId: known?.id ?? null,
        eventType: 'login_bloqueado',
        description: `Inicio de sesión bloqueado por demasiados intentos: ${typedName(deps, usuario, known)}`,
        metadata: { ...typedNameMeta(deps, usuario, known), ...requestMeta(request) },
      });
    }
    throw tooMany(MSG.demasiadosIntentos, 'LOGIN_THROTTLED');
  }
  const user = await repo.findUserByUsuario(deps.db, usuario);
  const ok = await verifyPassword(credentials.password, user?.passwordHash);
  if (!user || !ok) {
    // The reservation stays: it is this failure.
    await audit(deps.db, {
      userId: user?.id ?? null,
      eventType: 'login_fallido',
      description: `Intento de inicio de sesión fallido: ${typedName(deps, usuario, user)}`,
      metadata: { ...typedNameMeta(deps, usuario, user), ...requestMeta(request) },
    });
    throw unauthorized(MSG.credencialesIncorrectas, 'BAD_CREDENTIALS');
  }
  // The right password is not a failure, whatever follows.
  await repo.releaseAttempt(deps.db, reservation.id);
  await rehashIfWeak(deps.db, user, credentials.password);
  const found = await repo.findUserWithClient(deps.db, user.id);
  const client = found?.client ?? null;
  const refusal = await accessRefusal(deps, user, client, now);
  if (refusal) {
    await audit(deps.db, {
      userId: user.id,
      eventType: 'login_rechazado',
      description: `Inicio de sesión rechazado (${refusal.code}): ${user.usuario}`,
      metadata: { motivo: refusal.code, ...requestMeta(request) },
    });
    // A buyer outside the weeks learns when the next one starts (decision 0097).
    const msg =
      refusal.code === 'OUTSIDE_WEEK' && client
        ? MSG.fueraDeSemanaProxima(
            await nextActiveWeekStart(deps.db, client.id, businessDate(now, deps.config.BUSINESS_TZ)),
          )
        : refusal.msg;
    throw new AppError(403, refusal.code, msg);
  }
  // A client that signs in only through its own provider (decision 0120): the right password of its
  // roles 1–3 opens nothing. The distributor's administrators (no client) are never held by it, nor the
  // client's administrators (rol 5), who never sign in through the provider and may be the ones who set it.
  if (user.rol <= ROLES.superAutorizador && client && (await repo.ssoRequired(deps.db, client.id))) {
    await audit(deps.db, {
      userId: user.id,
      eventType: 'login_rechazado',
      description: `Inicio de sesión con contraseña rechazado: su empresa entra con su propia cuenta (${user.usuario})`,
      metadata: { motivo: 'SSO_REQUIRED', ...requestMeta(request) },
    });
    throw new AppError(403, 'SSO_REQUIRED', MSG.ssoObligatorio);
  }
  // Two-factor sign-in: the password opens only a 5-minute session for POST /api/login/2fa, and the
  // throttle's failures stay counted until the second factor is right too.
  if (twoFactorActive(user)) return startSecondStep(deps, store, request, reply, user, session.id);
  await openSignedInSession(
    deps,
    store,
    request,
    reply,
    { sessionId: session.id, subject: typedSubject(deps, usuario) },
    user,
    { description: `Inicio de sesión: ${user.usuario}`, metadata: {} },
  );
  return sessionPayload(deps, {
    user: user as AuthContext['user'],
    client,
    mustChangePassword: mustChangePassword(user, now, deps.config.BUSINESS_TZ),
  });
}

/**
 * A sign-in that passed every check opens its session: a new id and XSRF token (no fixation; the session it
 * came from is gone), its cookies, and the sign-in recorded (the throttle's failures of `subject` forgiven,
 * the last access, the `login` log entry). The password, the second step and the company's account (single
 * sign-on) all end here.
 */
export async function openSignedInSession(
  deps: Pick<Deps, 'db'>,
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  from: { sessionId: string; subject: string },
  user: { id: number },
  entry: { description: string; metadata: Record<string, unknown> },
): Promise<void> {
  await store.destroy(from.sessionId);
  const created = await store.create(user.id, {
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
  });
  setSessionCookies(request, reply, created);
  await repo.recordSignIn(deps.db, {
    userId: user.id,
    subject: from.subject,
    ip: request.ip,
    entry: {
      userId: user.id,
      eventType: 'login',
      description: entry.description,
      metadata: { ...entry.metadata, ...requestMeta(request) },
    },
  });
}

export async function changeOwnPassword(
  deps: Deps,
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: AuthContext,
  body: { password: string; newPass: string; confirmPass: string },
): Promise<void> {
  const problem = newPasswordProblem(body, body.password);
  if (problem) throw badRequest('VALIDATION', problem);
  const ok = await verifyPassword(body.password, ctx.user.passwordHash);
  if (!ok)
    throw badRequest('WRONG_PASSWORD', MSG.passwordActualIncorrecta, {
      password: MSG.passwordActualIncorrecta,
    });
  if (body.newPass === body.password)
    throw badRequest('SAME_PASSWORD', MSG.passwordIgualAnterior, { newPass: MSG.passwordIgualAnterior });
  const hash = await hashPassword(body.newPass);
  const to = addressOf(ctx.user);
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    await repo.setPassword(tx, ctx.user.id, hash, false, now);
    await repo.retireAllLinks(tx, ctx.user.id, now);
    if (to) await enqueueEmail(tx, passwordChangedEmail(to, ctx.user.nombre));
    await audit(tx, {
      userId: ctx.user.id,
      eventType: 'password_cambiada',
      description: `Cambio de contraseña propio: ${ctx.user.usuario}`,
      metadata: requestMeta(request),
    });
  });
  // Every session of the old password ends, this one included; this browser continues in a new session
  // (new id and XSRF token), so nothing captured before the change opens anything after it.
  await store.destroyAllOfUser(ctx.user.id);
  const created = await store.create(ctx.user.id, {
    ip: request.ip,
    userAgent: String(request.headers['user-agent'] ?? ''),
  });
  // This browser's push devices follow it into the new session (signing that one out removes them).
  await moveSessionDevices(deps.db, ctx.sessionId, hashToken(created.token));
  setSessionCookies(request, reply, created);
  void deps.mailer.flush();
}

export async function requestRecovery(
  deps: Deps,
  request: FastifyRequest,
  usuarioRaw: string,
): Promise<void> {
  const usuario = usuarioRaw.trim();
  const now = deps.clock.now();
  const reservation = await repo.reserveAttempt(
    deps.db,
    'recuperacion',
    typedSubject(deps, usuario),
    request.ip,
    {
      ...throttleWindow(now),
      perSubjectAndIp: RECOVERY_MAX_PER_USER_IP,
      perIp: RECOVERY_MAX_PER_IP,
    },
  );
  if (!reservation.ok) throw tooMany(MSG.demasiadasSolicitudes, 'RECOVERY_THROTTLED');
  const user = await repo.findUserByUsuario(deps.db, usuario);
  if (!user) throw notFound(MSG.usuarioNoEncontradoSistema, 'USER_NOT_FOUND');
  const found = await repo.findUserWithClient(deps.db, user.id);
  if (!user.activo) throw new AppError(403, 'USER_INACTIVE', MSG.usuarioInactivo);
  if (user.rol !== ROLES.administrador && !found?.client?.activo)
    throw new AppError(403, 'CLIENT_INACTIVE', MSG.clienteInactivo);
  const to = addressOf(user);
  if (!to)
    throw new AppError(
      422,
      'NO_EMAIL',
      'Tu usuario no tiene un correo registrado. Comunícate con el administrador.',
    );
  const token = newToken();
  await deps.db.transaction(async (tx) => {
    await repo.retireTokens(tx, user.id, 'recuperacion', now);
    await repo.insertPasswordToken(tx, {
      userId: user.id,
      tokenHash: hashToken(token),
      purpose: 'recuperacion',
      expiresAt: new Date(now.getTime() + RECOVERY_LINK_TTL_MS),
    });
    await enqueueEmail(tx, recoveryEmail(to, user.nombre, `${deps.config.PUBLIC_URL}/restablecer/${token}`));
    await audit(tx, {
      userId: user.id,
      eventType: 'password_recuperacion',
      description: `Solicitud de recuperación de contraseña: ${user.usuario}`,
      metadata: requestMeta(request),
    });
  });
  void deps.mailer.flush();
}

export async function checkResetToken(deps: Pick<Deps, 'clock' | 'db'>, token: string) {
  const row = await repo.findLiveToken(deps.db, hashToken(token), deps.clock.now());
  if (!row) throw badRequest('BAD_TOKEN', MSG.enlaceInvalido);
  return { status: 'ok' as const, usuario: row.usuario, proposito: row.purpose };
}

export async function resetWithToken(
  deps: Deps,
  store: SessionStore,
  request: FastifyRequest,
  body: { token: string; newPass: string; confirmPass: string },
): Promise<void> {
  const problem = newPasswordProblem(body);
  if (problem) throw badRequest('VALIDATION', problem);
  // Anonymous callers: a ceiling per address, and the link is checked before any password is hashed, so
  // made-up links cost one indexed read each. The link is consumed (conditionally) after the hash.
  const now = deps.clock.now();
  const reservation = await repo.reserveAttempt(deps.db, 'restablecer', typedSubject(deps, ''), request.ip, {
    ...throttleWindow(now),
    perSubjectAndIp: RESET_MAX_PER_IP,
    perIp: RESET_MAX_PER_IP,
  });
  if (!reservation.ok) throw tooMany(MSG.demasiadasSolicitudes, 'RESET_THROTTLED');
  if (!(await repo.findLiveToken(deps.db, hashToken(body.token), now)))
    throw badRequest('BAD_TOKEN', MSG.enlaceInvalido);
  const hash = await hashPassword(body.newPass);
  const userId = await deps.db.transaction(async (tx) => {
    const used = await repo.consumeToken(tx, hashToken(body.token), now);
    if (!used) throw badRequest('BAD_TOKEN', MSG.enlaceInvalido);
    await repo.setPassword(tx, used.userId, hash, false, now);
    // The other links of the account (a welcome link, an older recovery one) die with this one.
    await repo.retireAllLinks(tx, used.userId, now);
    const found = await repo.findUserWithClient(tx, used.userId);
    const to = found ? addressOf(found.user) : null;
    if (found && to) await enqueueEmail(tx, passwordChangedEmail(to, found.user.nombre));
    await audit(tx, {
      userId: used.userId,
      eventType: used.purpose === 'bienvenida' ? 'password_establecida' : 'password_restablecida',
      description: `Contraseña establecida con enlace (${used.purpose})`,
      metadata: requestMeta(request),
    });
    return used.userId;
  });
  // Only failed link checks count against the address: an office behind one address may onboard any
  // number of people (issue 38, finding 9).
  await repo.releaseAttempt(deps.db, reservation.id);
  await store.destroyAllOfUser(userId);
  void deps.mailer.flush();
}

/**
 * After a successful sign-in: a hash made with lower parameters than the current ones is replaced by a
 * current one of the same password (the password itself, and when it was set, do not change).
 */
export async function rehashIfWeak(
  db: Db,
  user: { id: number; passwordHash: string | null },
  password: string,
): Promise<void> {
  if (!user.passwordHash || !needsRehash(user.passwordHash)) return;
  await repo.replacePasswordHash(db, user.id, user.passwordHash, await hashPassword(password));
}
