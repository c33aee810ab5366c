import type { SessionResponse } from '@portal/shared/schemas/auth';
import type {
  BackupCodesResponse,
  SecondStepBody,
  TwoFactorActivateBody,
  TwoFactorDisableBody,
  TwoFactorStartBody,
  TwoFactorStartResponse,
  TwoFactorStatus,
} from '@portal/shared/schemas/two-factor';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.ts';
import { type AuditEntry, audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { type TwoFactorEvent, twoFactorEmail } from '../../lib/emails.ts';
import { AppError, conflict, notFound, tooMany, unauthorized } from '../../lib/errors.ts';
import { encryptionRing } from '../../lib/keys.ts';
import { addressOf, enqueueEmail } from '../../lib/mailer.ts';
import { verifyPassword } from '../../lib/passwords.ts';
import { SecretBoxError } from '../../lib/secret-box.ts';
import {
  CODE_FORMAT,
  checkAgainstDummy,
  matchingStep,
  newTotpSecret,
  openTotpSecret,
  otpauthUrl,
  sealTotpSecret,
} from '../../lib/totp.ts';
import { SECOND_FACTOR_STAGE, twoFactorActive, twoFactorMandatory } from '../../lib/two-factor-policy.ts';
import { MSG } from '../../messages.ts';
import { type AuthContext, accessRefusal, mustChangePassword } from '../../plugins/auth-guard.ts';
import { clearSessionCookies, type SessionStore } from '../../plugins/session.ts';
import * as authRepo from '../auth/auth.repository.ts';
import {
  LOGIN_MAX_PER_IP,
  LOGIN_MAX_PER_USER_IP,
  openSignedInSession,
  sessionPayload,
  throttleWindow,
  typedSubject,
} from '../auth/auth.service.ts';
import { hashBackupCode, newBackupCodes, normalizeBackupCode } from './backup-codes.ts';
import * as repo from './two-factor.repository.ts';

/** Wrong codes that end a sign-in waiting for its second factor. */
export const MAX_WRONG_CODES = 5;
/** Wrong codes (or passwords) of a signed-in user's two-factor calls, per address, in LOGIN_WINDOW_MS. */
export const CODE_CHECKS_PER_USER_IP = 5;

const badCode = () => unauthorized(MSG.codigoIncorrecto, 'BAD_CODE');

/**
 * A user's secret (active or pending), opened with the current key or a previous one. Sealed under no key
 * this server knows (SECRET_KEY changed without SECRET_KEY_PREVIOUS, decision 0102), it is a 403 that says
 * the second factor must be reset (or, when pending, enrolment started again), and a warning in the log.
 */
function openUserSecret(
  deps: Pick<Deps, 'keys' | 'log'>,
  user: { id: number; usuario: string },
  sealed: string,
  which: 'activo' | 'pendiente' = 'activo',
): string {
  try {
    return openTotpSecret(encryptionRing(deps.keys), user.id, sealed);
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    deps.log.warn(
      { usuario: user.usuario, userId: user.id, secreto: which },
      'El secreto de verificación en dos pasos no se abre con ninguna clave configurada (SECRET_KEY cambió); hay que restablecerlo',
    );
    throw which === 'activo'
      ? new AppError(403, 'TWO_FACTOR_UNREADABLE', MSG.dosPasosIlegible)
      : conflict('TWO_FACTOR_NOT_STARTED', MSG.dosPasosPendienteIlegible);
  }
}

type Verified = 'totp' | 'respaldo';

/**
 * Checks a code against the user's active second factor and uses it up: an app code only for a step
 * after the last one used, a backup code only once (both are conditional updates, so two requests with
 * the same code cannot both pass).
 */
async function verifyAndUse(
  deps: Deps,
  user: { id: number; usuario: string; totpSecret: string | null; totpLastStep: number | null },
  input: { codigo?: string; codigo_respaldo?: string },
  now: number,
): Promise<Verified | null> {
  if (!user.totpSecret) return null;
  const typed = input.codigo?.trim();
  if (typed !== undefined && CODE_FORMAT.test(typed)) {
    const step = matchingStep(openUserSecret(deps, user, user.totpSecret), typed, now, user.totpLastStep);
    return step !== null && (await repo.useStep(deps.db, user.id, step)) ? 'totp' : null;
  }
  const backup = normalizeBackupCode(input.codigo_respaldo ?? typed ?? '');
  if (!backup) return null;
  return (await repo.useBackupCode(deps.db, user.id, hashBackupCode(backup), deps.clock.now()))
    ? 'respaldo'
    : null;
}

/**
 * A signed-in user's code or password check counts in a throttle (kind '2fa'), reserved before the check
 * and released when it succeeds, so a stolen session cannot try codes without end.
 */
async function reserveCheck(deps: Deps, auth: AuthContext, request: FastifyRequest) {
  const reservation = await authRepo.reserveAttempt(
    deps.db,
    '2fa',
    typedSubject(deps, auth.user.usuario),
    request.ip,
    {
      ...throttleWindow(deps.clock.now()),
      perSubjectAndIp: CODE_CHECKS_PER_USER_IP,
      perIp: LOGIN_MAX_PER_IP,
    },
  );
  if (!reservation.ok) throw tooMany(MSG.demasiadosIntentos, 'TWO_FACTOR_THROTTLED');
  return reservation.id;
}

async function checkFailed(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  accion: string,
  motivo: 'codigo' | 'password',
) {
  await audit(deps.db, {
    userId: auth.user.id,
    eventType: '2fa_verificacion_fallida',
    description: `Verificación en dos pasos: ${motivo === 'codigo' ? 'código incorrecto' : 'contraseña incorrecta'} al ${accion}: ${auth.user.usuario}`,
    metadata: { accion, motivo, ...requestMeta(request) },
  });
}

/** In the change's transaction: the notice to the user (when they have an address) and the log entry. */
async function noticeAndLog(
  deps: Pick<Deps, 'config'>,
  tx: Tx,
  user: { email: string; usuario: string; nombre: string },
  event: TwoFactorEvent,
  entry: AuditEntry,
) {
  const to = addressOf(user);
  if (to) await enqueueEmail(tx, twoFactorEmail(to, user.nombre, event, `${deps.config.PUBLIC_URL}/login`));
  await audit(tx, entry);
}

function requireActive(user: { totpSecret: string | null }) {
  if (!twoFactorActive(user)) throw conflict('TWO_FACTOR_INACTIVE', MSG.dosPasosNoActiva);
}

/** GET /api/2fa */
export async function twoFactorStatus(
  deps: Pick<Deps, 'config' | 'db'>,
  auth: AuthContext,
): Promise<TwoFactorStatus> {
  const activo = twoFactorActive(auth.user);
  return {
    activo,
    obligatorio: twoFactorMandatory(deps.config, auth.user, auth.client),
    codigos_restantes: activo ? await repo.unusedBackupCodes(deps.db, auth.user.id) : 0,
  };
}

/**
 * The current password, checked for a change of the second factor itself (a session alone does not
 * suffice: issue 38, finding 4). Counts in the user's code-check throttle; a wrong one is logged.
 */
async function checkCurrentPassword(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  password: string,
  accion: string,
): Promise<void> {
  const reservation = await reserveCheck(deps, auth, request);
  if (!(await verifyPassword(password, auth.user.passwordHash))) {
    await checkFailed(deps, request, auth, accion, 'password');
    throw new AppError(400, 'WRONG_PASSWORD', MSG.passwordActualIncorrecta, {
      password: MSG.passwordActualIncorrecta,
    });
  }
  await authRepo.releaseAttempt(deps.db, reservation);
}

/** POST /api/2fa/iniciar: with the current password, a new secret kept encrypted as pending until a code confirms it. */
export async function startEnrolment(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: TwoFactorStartBody,
): Promise<TwoFactorStartResponse> {
  const alreadyActive = () => conflict('TWO_FACTOR_ACTIVE', MSG.dosPasosYaActiva);
  if (twoFactorActive(auth.user)) throw alreadyActive();
  await checkCurrentPassword(deps, request, auth, body.password, 'iniciar');
  const secret = newTotpSecret();
  const sealed = sealTotpSecret(deps.keys.encryption, auth.user.id, secret);
  if (!(await repo.setPendingSecret(deps.db, auth.user.id, sealed))) throw alreadyActive();
  await audit(deps.db, {
    userId: auth.user.id,
    eventType: '2fa_iniciada',
    description: `Activación de la verificación en dos pasos iniciada: ${auth.user.usuario}`,
    metadata: requestMeta(request),
  });
  return { otpauth_url: otpauthUrl(secret, auth.user.usuario) };
}

/** New backup codes for the user, replacing the old ones, in the caller's transaction. */
async function issueBackupCodes(tx: Tx, userId: number) {
  const codes = newBackupCodes();
  await repo.replaceBackupCodes(tx, userId, codes.map(hashBackupCode));
  return codes;
}

/** POST /api/2fa/activar: the password and the first code confirm the pending secret; 10 backup codes, shown once. */
export async function activate(
  deps: Deps,
  store: SessionStore,
  request: FastifyRequest,
  auth: AuthContext,
  { codigo, password }: TwoFactorActivateBody,
): Promise<BackupCodesResponse> {
  const state = await repo.twoFactorState(deps.db, auth.user.id);
  if (state?.totpSecret) throw conflict('TWO_FACTOR_ACTIVE', MSG.dosPasosYaActiva);
  const pending = state?.totpPendingSecret;
  if (!pending) throw conflict('TWO_FACTOR_NOT_STARTED', MSG.dosPasosSinIniciar);
  await checkCurrentPassword(deps, request, auth, password, 'activar');
  const reservation = await reserveCheck(deps, auth, request);
  const step = matchingStep(
    openUserSecret(deps, auth.user, pending, 'pendiente'),
    codigo,
    deps.clock.ms(),
    null,
  );
  if (step === null) {
    await checkFailed(deps, request, auth, 'activar', 'codigo');
    throw badCode();
  }
  await authRepo.releaseAttempt(deps.db, reservation);
  const codes = await deps.db.transaction(async (tx) => {
    if (!(await repo.activatePending(tx, auth.user.id, pending, step, deps.clock.now())))
      throw conflict('TWO_FACTOR_NOT_STARTED', MSG.dosPasosSinIniciar);
    const issued = await issueBackupCodes(tx, auth.user.id);
    await noticeAndLog(deps, tx, auth.user, 'activada', {
      userId: auth.user.id,
      eventType: '2fa_activada',
      description: `Verificación en dos pasos activada: ${auth.user.usuario}`,
      metadata: requestMeta(request),
    });
    return issued;
  });
  // Sessions opened elsewhere with the password alone end; this one continues.
  await store.destroyAllOfUser(auth.user.id, auth.sessionId);
  void deps.mailer.flush();
  return { codigos_respaldo: codes };
}

/** POST /api/2fa/codigos-respaldo: a current app code gets 10 new backup codes; the old ones stop working. */
export async function regenerateBackupCodes(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  codigo: string,
): Promise<BackupCodesResponse> {
  requireActive(auth.user);
  const reservation = await reserveCheck(deps, auth, request);
  if ((await verifyAndUse(deps, auth.user, { codigo }, deps.clock.ms())) !== 'totp') {
    await checkFailed(deps, request, auth, 'regenerar los códigos de respaldo', 'codigo');
    throw badCode();
  }
  await authRepo.releaseAttempt(deps.db, reservation);
  const codes = await deps.db.transaction(async (tx) => {
    const issued = await issueBackupCodes(tx, auth.user.id);
    await noticeAndLog(deps, tx, auth.user, 'codigos_regenerados', {
      userId: auth.user.id,
      eventType: '2fa_codigos_regenerados',
      description: `Códigos de respaldo regenerados: ${auth.user.usuario}`,
      metadata: requestMeta(request),
    });
    return issued;
  });
  void deps.mailer.flush();
  return { codigos_respaldo: codes };
}

/** POST /api/2fa/desactivar: the password and a current code (app or backup); not when it is mandatory. */
export async function deactivate(
  deps: Deps,
  store: SessionStore,
  request: FastifyRequest,
  auth: AuthContext,
  body: TwoFactorDisableBody,
): Promise<void> {
  requireActive(auth.user);
  if (twoFactorMandatory(deps.config, auth.user, auth.client))
    throw new AppError(403, 'TWO_FACTOR_REQUIRED', MSG.dosPasosObligatoria);
  const reservation = await reserveCheck(deps, auth, request);
  if (!(await verifyPassword(body.password, auth.user.passwordHash))) {
    await checkFailed(deps, request, auth, 'desactivar', 'password');
    throw new AppError(400, 'WRONG_PASSWORD', MSG.passwordActualIncorrecta, {
      password: MSG.passwordActualIncorrecta,
    });
  }
  const used = await verifyAndUse(deps, auth.user, { codigo: body.codigo }, deps.clock.ms());
  if (!used) {
    await checkFailed(deps, request, auth, 'desactivar', 'codigo');
    throw badCode();
  }
  await authRepo.releaseAttempt(deps.db, reservation);
  await deps.db.transaction(async (tx) => {
    await repo.disableTwoFactor(tx, auth.user.id);
    await noticeAndLog(deps, tx, auth.user, 'desactivada', {
      userId: auth.user.id,
      eventType: '2fa_desactivada',
      description: `Verificación en dos pasos desactivada: ${auth.user.usuario}`,
      metadata: { con: used, ...requestMeta(request) },
    });
  });
  await store.destroyAllOfUser(auth.user.id, auth.sessionId);
  void deps.mailer.flush();
}

/**
 * POST /api/recuperar/2fa/{id} (rol 4): turns off another user's second factor (a lost phone and lost
 * backup codes), ends that user's sessions, logs it and tells the user by e-mail.
 */
export async function adminResetTwoFactor(
  deps: Deps,
  store: SessionStore,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<void> {
  if (id === auth.user.id) throw new AppError(422, 'OWN_TWO_FACTOR', MSG.dosPasosPropia);
  const found = await authRepo.findUserWithClient(deps.db, id);
  if (!found) throw notFound(MSG.usuarioNoEncontrado, 'USER_NOT_FOUND');
  const target = found.user;
  if (!twoFactorActive(target)) throw conflict('TWO_FACTOR_INACTIVE', MSG.dosPasosUsuarioSinActivar);
  await deps.db.transaction(async (tx) => {
    if (!(await repo.disableTwoFactor(tx, id)))
      throw conflict('TWO_FACTOR_INACTIVE', MSG.dosPasosUsuarioSinActivar);
    await noticeAndLog(deps, tx, target, 'restablecida', {
      userId: auth.user.id,
      eventType: '2fa_restablecida',
      description: `Verificación en dos pasos restablecida por el administrador: ${target.usuario}`,
      metadata: {
        id_usuario: id,
        id_cliente: target.idCliente,
        correo_enviado: addressOf(target) !== null,
        ...requestMeta(request),
      },
    });
  });
  await store.destroyAllOfUser(id);
  void deps.mailer.flush();
}

/**
 * POST /api/login/2fa: the second step of a sign-in. A right code (app or backup) ends the waiting
 * session and opens a full one (new id and XSRF token). A wrong one counts in the session (5 end it) and
 * in the sign-in throttle (per username and address; 429 like the password). Without a waiting session
 * the same checks run against a dummy secret and the answer is the same.
 */
export async function completeSecondStep(
  deps: Deps,
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  body: SecondStepBody,
): Promise<SessionResponse> {
  const now = deps.clock.ms();
  const session = request.session;
  const principal = session?.stage === SECOND_FACTOR_STAGE ? session.principal : null;
  const limits = {
    ...throttleWindow(new Date(now)),
    perSubjectAndIp: LOGIN_MAX_PER_USER_IP,
    perIp: LOGIN_MAX_PER_IP,
  };
  if (!session || !principal) {
    const reservation = await authRepo.reserveAttempt(
      deps.db,
      'login',
      typedSubject(deps, ''),
      request.ip,
      limits,
    );
    if (!reservation.ok) throw tooMany(MSG.demasiadosIntentos, 'LOGIN_THROTTLED');
    // The work of a wrong code: the check, and the counter's update (of no row here).
    checkAgainstDummy(body.codigo ?? '', now);
    hashBackupCode(normalizeBackupCode(body.codigo_respaldo ?? '') ?? '');
    await repo.countWrongCode(deps.db, '');
    await audit(deps.db, {
      userId: null,
      eventType: 'login_2fa_fallido',
      description: 'Código de verificación sin un inicio de sesión pendiente',
      metadata: requestMeta(request),
    });
    throw badCode();
  }
  const { user, client } = principal;
  const reservation = await authRepo.reserveAttempt(
    deps.db,
    'login',
    typedSubject(deps, user.usuario),
    request.ip,
    limits,
  );
  if (!reservation.ok) {
    if (reservation.firstRefusal)
      await audit(deps.db, {
        userId: user.id,
        eventType: 'login_bloqueado',
        description: `Inicio de sesión bloqueado por demasiados intentos: ${user.usuario}`,
        metadata: { usuario: user.usuario, paso: 'segundo_factor', ...requestMeta(request) },
      });
    throw tooMany(MSG.demasiadosIntentos, 'LOGIN_THROTTLED');
  }
  // The account may have been deactivated in the meantime.
  const refusal = await accessRefusal(deps, user, client, principal.at, principal.weeks);
  if (refusal) {
    await authRepo.releaseAttempt(deps.db, reservation.id);
    await store.destroy(session.id);
    clearSessionCookies(reply);
    throw new AppError(403, refusal.code, refusal.msg);
  }
  const used = await verifyAndUse(deps, user, body, now);
  if (!used) {
    // The reservation stays: it is this failure.
    const wrong = await repo.countWrongCode(deps.db, session.id);
    const ended = wrong >= MAX_WRONG_CODES;
    if (ended) {
      await store.destroy(session.id);
      clearSessionCookies(reply);
    }
    await audit(deps.db, {
      userId: user.id,
      eventType: 'login_2fa_fallido',
      description: `Código de verificación incorrecto al iniciar sesión: ${user.usuario}${ended ? ' (inicio de sesión cancelado)' : ''}`,
      metadata: { intentos: Math.min(wrong, MAX_WRONG_CODES), cancelado: ended, ...requestMeta(request) },
    });
    throw badCode();
  }
  await authRepo.releaseAttempt(deps.db, reservation.id);
  await openSignedInSession(
    deps,
    store,
    request,
    reply,
    { sessionId: session.id, subject: typedSubject(deps, user.usuario) },
    user,
    { description: `Inicio de sesión: ${user.usuario}`, metadata: { segundo_factor: used } },
  );
  return sessionPayload(deps, {
    user: user as AuthContext['user'],
    client,
    mustChangePassword: mustChangePassword(user, new Date(now), deps.config.BUSINESS_TZ),
  });
}
