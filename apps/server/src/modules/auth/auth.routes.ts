import { ROLES } from '@portal/shared/domain/roles';
import {
  LoginBody,
  LoginResponse,
  RecoverBody,
  RepasswordBody,
  ResetBody,
  SessionResponse,
  TokenCheckBody,
  TokenCheckResponse,
} from '@portal/shared/schemas/auth';
import { ErrorBody, errorResponses, OkMessage } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { audit, requestMeta } from '../../lib/audit.ts';
import { compiledResponse } from '../../lib/response-serializer.ts';
import { MSG } from '../../messages.ts';
import type { Guard } from '../../plugins/auth-guard.ts';
import { clearSessionCookies, type SessionStore } from '../../plugins/session.ts';
import { removeSessionDevices } from '../push/push.service.ts';
import { shopperSession } from '../shopping/cart.service.ts';
import * as service from './auth.service.ts';

const errors = errorResponses(400, 401, 403, 404, 419, 429);

export async function authRoutes(app: FastifyInstance, opts: { store: SessionStore; guard: Guard }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { store, guard } = opts;

  r.post(
    '/api/login',
    {
      schema: {
        tags: ['auth'],
        summary: 'Inicia sesión con las credenciales cifradas con la clave de la sesión',
        body: LoginBody,
        response: { 200: LoginResponse, ...errors },
      },
    },
    async (request, reply) => service.signIn(app.deps, store, request, reply, request.body),
  );

  r.get(
    '/api/sesion',
    {
      preValidation: guard({ allowPendingPasswordChange: true, allowPendingTwoFactorEnrolment: true }),
      schema: {
        tags: ['auth'],
        summary: 'La sesión actual',
        response: { 200: compiledResponse(SessionResponse), 401: ErrorBody, 403: ErrorBody },
      },
    },
    async (request) => {
      const auth = request.auth!;
      const payload = service.sessionPayload(app.deps, auth);
      if (auth.user.rol === ROLES.usuario && !auth.mustChangePassword)
        payload.comprador = await shopperSession(app.deps, auth);
      return payload;
    },
  );

  r.get(
    '/api/logout',
    { schema: { tags: ['auth'], summary: 'Cierra la sesión', response: { 200: OkMessage } } },
    async (request, reply) => {
      const session = request.session;
      if (session) {
        // The devices this session subscribed to push stop receiving this person's avisos (decision 0117).
        if (session.userId) await removeSessionDevices(app.db, session.id);
        await store.destroy(session.id);
        if (session.userId) {
          await audit(app.db, {
            userId: session.userId,
            eventType: 'logout',
            description: 'Cierre de sesión',
            metadata: requestMeta(request),
          });
        }
      }
      clearSessionCookies(reply);
      return { status: 'ok' as const, msg: MSG.sesionCerrada };
    },
  );

  r.post(
    '/api/repassword',
    {
      preValidation: guard({ allowPendingPasswordChange: true }),
      schema: {
        tags: ['auth'],
        summary: 'Cambia la contraseña propia (requiere la actual)',
        body: RepasswordBody,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request, reply) => {
      await service.changeOwnPassword(app.deps, store, request, reply, request.auth!, request.body);
      return { status: 'ok' as const, msg: MSG.passwordActualizada };
    },
  );

  r.post(
    '/api/recuperar-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Envía por correo un enlace de un solo uso (60 min) para restablecer la contraseña',
        body: RecoverBody,
        response: { 200: OkMessage, 422: ErrorBody, ...errors },
      },
    },
    async (request) => {
      await service.requestRecovery(app.deps, request, request.body.usuario);
      return { status: 'ok' as const, msg: MSG.correoEnviado };
    },
  );

  r.post(
    '/api/restablecer/verificar',
    {
      schema: {
        tags: ['auth'],
        summary: 'Comprueba un enlace de restablecimiento',
        body: TokenCheckBody,
        response: { 200: TokenCheckResponse, ...errors },
      },
    },
    async (request) => service.checkResetToken(app.deps, request.body.token),
  );

  r.post(
    '/api/restablecer-password',
    {
      schema: {
        tags: ['auth'],
        summary: 'Establece una contraseña nueva con un enlace de un solo uso',
        body: ResetBody,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await service.resetWithToken(app.deps, store, request, request.body);
      return { status: 'ok' as const, msg: MSG.passwordEstablecida };
    },
  );
}
