import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses, OkMessage } from '@portal/shared/schemas/common';
import { PushKey, PushSubscriptionBody, PushUnsubscribeBody } from '@portal/shared/schemas/push';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { MSG } from '../../messages.ts';
import { subscribe, unsubscribe } from './push.service.ts';
import { PushSender } from './push-sender.ts';
import { loadVapidKeys } from './vapid.ts';

const errors = errorResponses(400, 401, 403, 404, 419);

/**
 * Web Push for the signed-in person (any role; decision 0117): the portal's public key, and subscribing or
 * unsubscribing this device. The VAPID key pair is made here at the first start, and the push sender runs
 * from the app's start to its close.
 */
export async function pushRoutes(app: FastifyInstance) {
  const vapid = await loadVapidKeys(app.deps);
  const sender = new PushSender(app.deps, vapid);
  app.addHook('onReady', async () => sender.start());
  app.addHook('onClose', async () => sender.stop());

  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = app.guard({
    roles: [ROLES.usuario, ROLES.autorizador, ROLES.superAutorizador, ROLES.administrador],
  });
  const tags = ['notificaciones'];

  r.get(
    '/api/push/clave',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'La clave pública VAPID del portal (base64url), para suscribir este dispositivo',
        response: { 200: PushKey, ...errors },
      },
    },
    async () => ({ clave: vapid.publicKey }),
  );

  r.post(
    '/api/push/suscripciones',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary:
          'Suscribe este dispositivo a mis avisos «En el teléfono» (el PushSubscription del navegador); repetirlo lo renueva',
        body: PushSubscriptionBody,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await subscribe(app.deps, request.auth!, request.body);
      return { status: 'ok' as const, msg: MSG.pushSuscrito };
    },
  );

  r.delete(
    '/api/push/suscripciones',
    {
      preValidation: signedIn,
      schema: {
        tags,
        summary: 'Deja de enviar avisos a este dispositivo (su endpoint)',
        body: PushUnsubscribeBody,
        response: { 200: OkMessage, ...errors },
      },
    },
    async (request) => {
      await unsubscribe(app.deps, request.auth!, request.body);
      return { status: 'ok' as const, msg: MSG.pushBaja };
    },
  );
}
