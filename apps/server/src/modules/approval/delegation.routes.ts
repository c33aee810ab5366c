import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import { DelegationBody, DelegationState } from '@portal/shared/schemas/delegation';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { delegationState, endDelegation, findPerson, setDelegation, today } from './delegation.service.ts';

const errors = errorResponses(400, 401, 403, 404, 419);

/** The signed-in authorizer, as the person whose delegation the /api/delegacion routes read and change. */
function self(auth: AuthContext) {
  return { id: auth.user.id, idCliente: auth.user.idCliente, rol: auth.user.rol, nombre: auth.user.nombre };
}

/**
 * Out-of-office delegation (decision 0053): an authorizer's own (/api/delegacion) and, for an
 * administrator, anyone's (/api/usuarios/{id}/delegacion). Every answer is the person's DelegationState.
 */
export async function delegationRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const authorizer = app.guard({ roles: [ROLES.autorizador, ROLES.superAutorizador] });
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['delegacion'];

  r.get(
    '/api/delegacion',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Mi delegación (fuera de oficina), por quién apruebo hoy y en quién puedo delegar',
        response: { 200: DelegationState, ...errors },
      },
    },
    async (request) => delegationState(app.db, self(request.auth!), today(app.deps)),
  );

  r.put(
    '/api/delegacion',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Delega mis aprobaciones en otro autorizador de mi cliente (fechas hábiles, máximo 90 días)',
        body: DelegationBody,
        response: { 200: DelegationState, ...errors },
      },
    },
    async (request) =>
      setDelegation(app.deps, request, request.auth!.user.id, self(request.auth!), request.body),
  );

  r.delete(
    '/api/delegacion',
    {
      preValidation: authorizer,
      schema: {
        tags,
        summary: 'Termina mi delegación',
        response: { 200: DelegationState, ...errors },
      },
    },
    async (request) => endDelegation(app.deps, request, request.auth!.user.id, self(request.auth!)),
  );

  r.get(
    '/api/usuarios/:id/delegacion',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'La delegación de un usuario (administrador)',
        params: IdParam,
        response: { 200: DelegationState, ...errors },
      },
    },
    async (request) => delegationState(app.db, await findPerson(app.db, request.params.id), today(app.deps)),
  );

  r.put(
    '/api/usuarios/:id/delegacion',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Guarda la delegación de un autorizador (administrador)',
        params: IdParam,
        body: DelegationBody,
        response: { 200: DelegationState, ...errors },
      },
    },
    async (request) =>
      setDelegation(
        app.deps,
        request,
        request.auth!.user.id,
        await findPerson(app.db, request.params.id),
        request.body,
      ),
  );

  r.delete(
    '/api/usuarios/:id/delegacion',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Termina la delegación de un usuario (administrador)',
        params: IdParam,
        response: { 200: DelegationState, ...errors },
      },
    },
    async (request) =>
      endDelegation(app.deps, request, request.auth!.user.id, await findPerson(app.db, request.params.id)),
  );
}
