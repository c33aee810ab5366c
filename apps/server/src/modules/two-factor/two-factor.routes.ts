import { ROLES } from '@portal/shared/domain/roles';
import { SessionResponse } from '@portal/shared/schemas/auth';
import { errorResponses, IdParam, OkMessage } from '@portal/shared/schemas/common';
import {
  BackupCodesResponse,
  SecondStepBody,
  TwoFactorActivateBody,
  TwoFactorCodeBody,
  TwoFactorDisableBody,
  TwoFactorStartBody,
  TwoFactorStartResponse,
  TwoFactorStatus,
} from '@portal/shared/schemas/two-factor';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { TWO_FACTOR_ROLES } from '../../lib/two-factor-policy.ts';
import { MSG } from '../../messages.ts';
import * as service from './two-factor.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419, 422, 429);

/** Two-factor sign-in ("Verificación en dos pasos"): the user's own settings, the administrator's reset, the sign-in's second step. */
export async function twoFactorRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const store = app.sessions;
  const tags = ['seguridad'];
  const own = app.guard({ roles: TWO_FACTOR_ROLES });
  // What a user who must enrol may still do: see the state and enrol.
  const enrolment = app.guard({ roles: TWO_FACTOR_ROLES, allowPendingTwoFactorEnrolment: true });

  r.get(
    '/api/2fa',
    {
      preValidation: enrolment,
      schema: {
        tags,
        summary: 'Estado de la verificación en dos pasos del usuario',
        response: { 200: TwoFactorStatus, ...errors },
      },
    },
    async (request) => service.twoFactorStatus(app.deps, request.auth!),
  );

  r.post(
    '/api/2fa/iniciar',
    {
      preValidation: enrolment,
      schema: {
        tags,
        summary:
          'Inicia (o reinicia) la activación con la contraseña actual: un secreto nuevo en un URL otpauth:// para la aplicación',
        body: TwoFactorStartBody,
        response: { 200: TwoFactorStartResponse, ...errors },
      },
    },
    async (request) => service.startEnrolment(app.deps, request, request.auth!, request.body),
  );

  r.post(
    '/api/2fa/activar',
    {
      preValidation: enrolment,
      schema: {
        tags,
        summary:
          'Confirma la activación con la contraseña actual y un código de la aplicación; devuelve 10 códigos de respaldo (una vez)',
        body: TwoFactorActivateBody,
        response: { 200: BackupCodesResponse, ...errors },
      },
    },
    async (request) => service.activate(app.deps, store, request, request.auth!, request.body),
  );

  r.post(
    '/api/2fa/codigos-respaldo',
    {
      preValidation: own,
      schema: {
        tags,
        summary:
          'Genera 10 códigos de respaldo nuevos con un código de la aplicación (los anteriores dejan de servir)',
        body: TwoFactorCodeBody,
        response: { 200: BackupCodesResponse, ...errors },
      },
    },
    async (request) => service.regenerateBackupCodes(app.deps, request, request.auth!, request.body.codigo),
  );

  r.post(
    '/api/2fa/desactivar',
    {
      preValidation: own,
      schema: {
        tags,
        summary:
          'Desactiva la verificación en dos pasos (contraseña y código de la aplicación o de respaldo)',
        body: TwoFactorDisableBody,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await service.deactivate(app.deps, store, request, request.auth!, request.body);
      return { status: 'ok' as const, msg: MSG.dosPasosDesactivada };
    },
  );

  r.post(
    '/api/recuperar/2fa/:id',
    {
      preValidation: app.guard({ roles: [ROLES.administrador] }),
      schema: {
        tags: ['administracion'],
        summary:
          'Desactiva la verificación en dos pasos de otro usuario, cierra sus sesiones y le avisa por correo',
        params: IdParam,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await service.adminResetTwoFactor(app.deps, store, request, request.auth!, request.params.id);
      return { status: 'ok' as const, msg: MSG.dosPasosRestablecida };
    },
  );

  r.post(
    '/api/login/2fa',
    {
      // An expired waiting session answers 401 BAD_CODE like a wrong code, not 419.
      config: { xsrfOnlyWithSession: true },
      schema: {
        tags: ['auth'],
        summary: 'Segundo paso del inicio de sesión: un código de la aplicación o un código de respaldo',
        body: SecondStepBody,
        response: { 200: SessionResponse, ...errors },
      },
    },
    async (request, reply) => service.completeSecondStep(app.deps, store, request, reply, request.body),
  );
}
