import { type LoginEnvelope, openLogin } from '@portal/shared/domain/login-envelope';
import { newPasswordProblem } from '@portal/shared/domain/password';
import { MSG } from '@portal/shared/messages';
import type { SessionResponse } from '@portal/shared/schemas/auth';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { audit, requestMeta } from '../../lib/audit.ts';
import { passwordChangedEmail, recoveryEmail } from '../../lib/emails.ts';
import { AppError, badRequest, notFound, tooMany, unauthorized } from '../../lib/errors.ts';
import { addressOf, enqueueEmail } from '../../lib/mailer.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import { hashToken, newToken } from '../../lib/tokens.ts';
import { type AuthContext, accessRefusal, mustChangePassword } from '../../plugins/auth-guard.ts';
import { type SessionStore, setSessionCookies } from '../../plugins/session.ts';
import * as repo from './auth.repository.ts';

export const LOGIN_WINDOW_MS = 15 * 60_000;
/** Failures per username and address in the window. */
export const LOGIN_MAX_PER_USER_IP = 5;
/** Failures per address alone (a whole office shares one). */
export const LOGIN_MAX_PER_IP = 100;
export const RECOVERY_MAX_PER_USER_IP = 3;
export const RECOVERY_MAX_PER_IP = 20;
const RECOVERY_TTL_MS = 60 * 60_000;

function fileUrl(id: string | null): string | null {
  return id ? `/api/img/${id}` : null;
}

export function sessionPayload(
  app: FastifyInstance,
  ctx: Pick<AuthContext, 'user' | 'client' | 'mustChangePassword'>,
): SessionResponse {
  const { user, client } = ctx;
  return {
    status: 'ok',
    user: {
      id: user.id,
      usuario: user.usuario,
      nombre: user.nombre,
      email: user.userId,
      rol: user.rol,
      debe_cambiar_password: ctx.mustChangePassword,
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
          }
        : null,
    },
    soporte: app.config.supportPhones,
    zona_horaria: app.config.BUSINESS_TZ,
  };
}

export async function signIn(
  app: FastifyInstance,
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  envelope: LoginEnvelope,
): Promise<SessionResponse> {
  const session = request.session;
  if (!session) throw new AppError(419, 'CSRF', MSG.csrfInvalido);
  const credentials = openLogin(envelope, session.xsrfToken);
  if (!credentials) throw badRequest('ENVELOPE', MSG.envelopeInvalido);
  const usuario = credentials.usuario.trim();
  if (!usuario || !credentials.password) throw badRequest('VALIDATION', MSG.llenarTodosLosDatos);
  const subject = usuario.toLowerCase().slice(0, 200);
  const ip = request.ip;
  const since = new Date(Date.now() - LOGIN_WINDOW_MS);
  const [perUser, perIp] = await Promise.all([
    repo.countAttempts(app.db, 'login', since, ip, subject),
    repo.countAttempts(app.db, 'login', since, ip),
  ]);
  if (perUser >= LOGIN_MAX_PER_USER_IP || perIp >= LOGIN_MAX_PER_IP) {
    await audit(app.db, {
      userId: null,
      eventType: 'login_bloqueado',
      description: `Inicio de sesión bloqueado por demasiados intentos: ${subject}`,
      metadata: { usuario: subject, ...requestMeta(request) },
    });
    throw tooMany(MSG.demasiadosIntentos, 'LOGIN_THROTTLED');
  }
  const user = await repo.findUserByUsuario(app.db, usuario);
  const ok = await verifyPassword(credentials.password, user?.passwordHash);
  if (!user || !ok) {
    await repo.recordAttempt(app.db, 'login', subject, ip);
    await audit(app.db, {
      userId: user?.id ?? null,
      eventType: 'login_fallido',
      description: `Intento de inicio de sesión fallido: ${subject}`,
      metadata: { usuario: subject, ...requestMeta(request) },
    });
    throw unauthorized(MSG.credencialesIncorrectas, 'BAD_CREDENTIALS');
  }
  const found = await repo.findUserWithClient(app.db, user.id);
  const client = found?.client ?? null;
  const refusal = await accessRefusal(app, user, client);
  if (refusal) {
    await audit(app.db, {
      userId: user.id,
      eventType: 'login_rechazado',
      description: `Inicio de sesión rechazado (${refusal.code}): ${user.usuario}`,
      metadata: { motivo: refusal.code, ...requestMeta(request) },
    });
    throw new AppError(403, refusal.code, refusal.msg);
  }
  await repo.clearAttempts(app.db, 'login', subject, ip);
  // A new session id and XSRF token at sign-in (no fixation); the form's session is gone.
  await store.destroy(session.id);
  const created = await store.create(user.id, { ip, userAgent: String(request.headers['user-agent'] ?? '') });
  setSessionCookies(request, reply, created);
  await audit(app.db, {
    userId: user.id,
    eventType: 'login',
    description: `Inicio de sesión: ${user.usuario}`,
    metadata: requestMeta(request),
  });
  return sessionPayload(app, {
    user: user as AuthContext['user'],
    client,
    mustChangePassword: mustChangePassword(user),
  });
}

export async function changeOwnPassword(
  app: FastifyInstance,
  store: SessionStore,
  request: FastifyRequest,
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
  await app.db.transaction(async (tx) => {
    await repo.setPassword(tx, ctx.user.id, hash, false);
    if (to) await enqueueEmail(tx, passwordChangedEmail(to, ctx.user.nombre));
    await audit(tx, {
      userId: ctx.user.id,
      eventType: 'password_cambiada',
      description: `Cambio de contraseña propio: ${ctx.user.usuario}`,
      metadata: requestMeta(request),
    });
  });
  // Other browsers signed in with the old password are signed out.
  await store.destroyAllOfUser(ctx.user.id, ctx.sessionId);
  void app.mailer.flush();
}

export async function requestRecovery(
  app: FastifyInstance,
  request: FastifyRequest,
  usuarioRaw: string,
): Promise<void> {
  const usuario = usuarioRaw.trim();
  const subject = usuario.toLowerCase().slice(0, 200);
  const ip = request.ip;
  const since = new Date(Date.now() - LOGIN_WINDOW_MS);
  const [perUser, perIp] = await Promise.all([
    repo.countAttempts(app.db, 'recuperacion', since, ip, subject),
    repo.countAttempts(app.db, 'recuperacion', since, ip),
  ]);
  if (perUser >= RECOVERY_MAX_PER_USER_IP || perIp >= RECOVERY_MAX_PER_IP) {
    throw tooMany(MSG.demasiadasSolicitudes, 'RECOVERY_THROTTLED');
  }
  await repo.recordAttempt(app.db, 'recuperacion', subject, ip);
  const user = await repo.findUserByUsuario(app.db, usuario);
  if (!user) throw notFound(MSG.usuarioNoEncontradoSistema, 'USER_NOT_FOUND');
  const found = await repo.findUserWithClient(app.db, user.id);
  if (!user.activo) throw new AppError(403, 'USER_INACTIVE', MSG.usuarioInactivo);
  if (user.rol !== 4 && !found?.client?.activo)
    throw new AppError(403, 'CLIENT_INACTIVE', MSG.clienteInactivo);
  const to = addressOf(user);
  if (!to)
    throw new AppError(
      422,
      'NO_EMAIL',
      'Tu usuario no tiene un correo registrado. Comunícate con el administrador.',
    );
  const token = newToken();
  await app.db.transaction(async (tx) => {
    await repo.retireTokens(tx, user.id, 'recuperacion');
    await repo.insertPasswordToken(tx, {
      userId: user.id,
      tokenHash: hashToken(token),
      purpose: 'recuperacion',
      expiresAt: new Date(Date.now() + RECOVERY_TTL_MS),
    });
    await enqueueEmail(tx, recoveryEmail(to, user.nombre, `${app.config.PUBLIC_URL}/restablecer/${token}`));
    await audit(tx, {
      userId: user.id,
      eventType: 'password_recuperacion',
      description: `Solicitud de recuperación de contraseña: ${user.usuario}`,
      metadata: requestMeta(request),
    });
  });
  void app.mailer.flush();
}

export async function checkResetToken(app: FastifyInstance, token: string) {
  const row = await repo.findLiveToken(app.db, hashToken(token));
  if (!row) throw badRequest('BAD_TOKEN', MSG.enlaceInvalido);
  return { status: 'ok' as const, usuario: row.usuario, proposito: row.purpose };
}

export async function resetWithToken(
  app: FastifyInstance,
  store: SessionStore,
  request: FastifyRequest,
  body: { token: string; newPass: string; confirmPass: string },
): Promise<void> {
  const problem = newPasswordProblem(body);
  if (problem) throw badRequest('VALIDATION', problem);
  const hash = await hashPassword(body.newPass);
  const userId = await app.db.transaction(async (tx) => {
    const used = await repo.consumeToken(tx, hashToken(body.token));
    if (!used) throw badRequest('BAD_TOKEN', MSG.enlaceInvalido);
    await repo.setPassword(tx, used.userId, hash, false);
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
  await store.destroyAllOfUser(userId);
  void app.mailer.flush();
}
