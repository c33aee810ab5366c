import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  WeekCreateBody,
  WeekCreateResponse,
  WeekGenerateBody,
  WeekGenerateResponse,
  WeekPreviewResponse,
  WeeksMonthQuery,
  WeeksMonthResponse,
  WeeksMutationResponse,
  WeeksPageQuery,
  WeeksQuery,
  WeeksResponse,
  WeekToggleBody,
} from '@portal/shared/schemas/weeks';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { scopedClient, withScopedClient } from '../../lib/client-scope.ts';
import { MSG } from '../../messages.ts';
import {
  clientWeeks,
  createWeek,
  deleteWeek,
  generateClientWeeks,
  monthWeeks,
  previewWeeks,
  toggleWeek,
} from './weeks.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419);

/**
 * Rol 4: access weeks (semanas de acceso) of each client; they never overlap (docs/domain.md). Rol 5, a
 * client's administrator: its own client's, read always and changed when its client allows `semanas`
 * (decision 0122).
 */
export async function weekRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admins = [ROLES.administrador, ROLES.administradorCliente] as const;
  const reader = app.guard({ roles: admins });
  const admin = app.guard({ roles: admins, clientPermission: 'semanas' });
  const tags = ['administracion'];

  r.get(
    '/api/calendario_semanas',
    {
      preValidation: reader,
      schema: {
        tags,
        summary: 'Semanas de acceso de un cliente, la más reciente primero, 5 por página',
        querystring: WeeksQuery,
        response: { 200: WeeksResponse, ...errors },
      },
    },
    async (request) =>
      clientWeeks(app.deps, scopedClient(request.auth!, request.query.id_cliente)!, request.query.page),
  );

  r.get(
    '/api/calendario_semanas/mes',
    {
      preValidation: reader,
      schema: {
        tags,
        summary: 'Semanas de acceso de un cliente que tocan un mes (AAAA-MM), la más antigua primero',
        description: 'Para la vista de calendario: cada semana con su estado activo.',
        querystring: WeeksMonthQuery,
        response: { 200: WeeksMonthResponse, ...errors },
      },
    },
    async (request) =>
      monthWeeks(app.deps, scopedClient(request.auth!, request.query.id_cliente)!, request.query.mes),
  );

  const generatorDescription =
    'Reglas: "mensual" (la semana 1, 2, 3, 4 o la última de cada mes, contando lunes), "semanal" (todas las ' +
    'semanas) o "cada_n" (cada 2 a 12 semanas desde el primer lunes del periodo). Cada semana empieza en ' +
    'lunes y dura `dias` días (5 si no se indica); solo se generan las que caben completas entre `desde` y ' +
    '`hasta`. El periodo abarca 2 años como máximo y la regla no puede producir más de 200 semanas (400). ' +
    'Las semanas que ya existen con las mismas fechas o que se empalman con otra se omiten.';

  r.post(
    '/api/calendario_semanas/generar/vista_previa',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Vista previa del generador de semanas: las que crearía y las que omitiría (no guarda nada)',
        description: generatorDescription,
        body: WeekGenerateBody,
        response: { 200: WeekPreviewResponse, ...errors },
      },
    },
    async (request) => previewWeeks(app.deps, withScopedClient(request.auth!, request.body)),
  );

  r.post(
    '/api/calendario_semanas/generar',
    {
      preValidation: admin,
      schema: {
        tags,
        summary:
          'Genera las semanas de acceso de una regla en una sola transacción; informa creadas y omitidas',
        description: `${generatorDescription} Repetir la misma solicitud no duplica semanas: la segunda las omite.`,
        body: WeekGenerateBody,
        response: { 200: WeekGenerateResponse, ...errors },
      },
    },
    async (request) =>
      generateClientWeeks(app.deps, request, request.auth!, withScopedClient(request.auth!, request.body)),
  );

  r.post(
    '/api/calendario_semanas',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Agrega una semana de acceso (sin repetir ni empalmar otra del mismo cliente)',
        body: WeekCreateBody,
        response: { 201: WeekCreateResponse, ...errors },
      },
    },
    async (request, reply) => {
      const semana = await createWeek(
        app.deps,
        request,
        request.auth!,
        withScopedClient(request.auth!, request.body),
      );
      return reply.status(201).send({ status: 'ok', msg: MSG.creadoCorrectamente, semana });
    },
  );

  r.put(
    '/api/calendario_semanas/:id',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Activa o desactiva una semana de acceso',
        params: IdParam,
        querystring: WeeksPageQuery,
        body: WeekToggleBody,
        response: { 200: WeeksMutationResponse, ...errors },
      },
    },
    async (request) =>
      toggleWeek(
        app.deps,
        request,
        request.auth!,
        request.params.id,
        request.body.activo,
        request.query.page,
      ),
  );

  r.post(
    '/api/calendario_semanas/destroy/:id',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Elimina una semana de acceso',
        params: IdParam,
        querystring: WeeksPageQuery,
        response: { 200: WeeksMutationResponse, ...errors },
      },
    },
    async (request) => deleteWeek(app.deps, request, request.auth!, request.params.id, request.query.page),
  );
}
