import { ROLES } from '@portal/shared/domain/roles';
import { MSG } from '@portal/shared/messages';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  WeekCreateBody,
  WeekCreateResponse,
  WeeksMutationResponse,
  WeeksPageQuery,
  WeeksQuery,
  WeeksResponse,
  WeekToggleBody,
} from '@portal/shared/schemas/weeks';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { clientWeeks, createWeek, deleteWeek, toggleWeek } from './weeks.service.ts';

const errors = errorResponses(400, 401, 403, 404, 409, 419);

/** Rol 4: access weeks (semanas de acceso) of each client; they never overlap (docs/domain.md). */
export async function weekRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = app.guard({ roles: [ROLES.administrador] });
  const tags = ['administracion'];

  r.get(
    '/api/calendario_semanas',
    {
      preValidation: admin,
      schema: {
        tags,
        summary: 'Semanas de acceso de un cliente, la más reciente primero, 5 por página',
        querystring: WeeksQuery,
        response: { 200: WeeksResponse, ...errors },
      },
    },
    async (request) => clientWeeks(app, request.query.id_cliente, request.query.page),
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
      const semana = await createWeek(app, request, request.auth!, request.body);
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
      toggleWeek(app, request, request.auth!, request.params.id, request.body.activo, request.query.page),
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
    async (request) => deleteWeek(app, request, request.auth!, request.params.id, request.query.page),
  );
}
