import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, IdParam } from '@portal/shared/schemas/common';
import {
  NotificationPreferences,
  NotificationPreferencesBody,
  NotificationsMarked,
  NotificationsPage,
  NotificationsQuery,
} from '@portal/shared/schemas/notifications';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { defineDigestJobs } from './digest.service.ts';
import {
  listNotifications,
  markAllRead,
  markRead,
  preferences,
  setPreferences,
} from './notifications.service.ts';

const errors = errorResponses(400, 401, 403, 404, 419);

/**
 * The bell and the notification preferences of the signed-in person (any role; decision 0114). Each person
 * reads and changes only their own: another person's item answers 404.
 */
export async function notificationRoutes(app: FastifyInstance) {
  defineDigestJobs(app.deps);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = app.guard({
    roles: [ROLES.usuario, ROLES.autorizador, ROLES.superAutorizador, ROLES.administrador],
  });
  const tags = ['notificaciones'];
  const now = () => app.deps.clock.now();

  r.get(
    '/api/notificaciones',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Mis avisos (la campana): cuántos no he leído y los más recientes, 20 por página',
        querystring: NotificationsQuery,
        response: { 200: NotificationsPage, ...errors },
      },
    },
    async (request) => listNotifications(app.db, request.auth!.user.id, request.query.antes),
  );

  r.post(
    '/api/notificaciones/leidas',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Marca como leídos todos mis avisos',
        response: { 200: NotificationsMarked, ...errors },
      },
    },
    async (request) => markAllRead(app.db, request.auth!.user.id, now()),
  );

  r.post(
    '/api/notificaciones/:id/leida',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Marca como leído uno de mis avisos',
        params: IdParam,
        response: { 200: NotificationsMarked, ...errors },
      },
    },
    async (request) => markRead(app.db, request.auth!.user.id, request.params.id, now()),
  );

  r.get(
    '/api/notificaciones/preferencias',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Cómo quiero enterarme de cada tipo de aviso, y la hora de mi resumen diario',
        response: { 200: NotificationPreferences, ...errors },
      },
    },
    async (request) => preferences(app.db, request.auth!.user),
  );

  r.put(
    '/api/notificaciones/preferencias',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary:
          'Elige por tipo de aviso: correo al momento, resumen cada hora o diario, o solo en el portal',
        body: NotificationPreferencesBody,
        response: { 200: NotificationPreferences, ...errors },
      },
    },
    async (request) => setPreferences(app.db, request.auth!.user, request.body, now()),
  );
}
