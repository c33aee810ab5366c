import { ROLES } from '@portal/shared/domain/roles';
import { errorResponses } from '@portal/shared/schemas/common';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { accessRefusal, mustChangePassword } from '../../plugins/auth-guard.ts';
import { sessionCookieName } from '../../plugins/session.ts';
import { LiveHub } from './live.ts';

/** What the document says the stream answers. */
const STREAM_ANSWER = {
  description:
    'Flujo de eventos (text/event-stream): `pedido` con `{"id": N}` cuando cambia un pedido que puedes ver, `aviso` cuando cambian tus avisos, `presupuesto` cuando cambian las cifras de tu presupuesto o tus solicitudes de ampliación, `recarga` cuando hay que volver a pedir todo, `fin` cuando la sesión ya no vale (no reconectar)',
  content: { 'text/event-stream': { schema: z.string() } },
};

/**
 * `GET /api/eventos`: the signed-in person's live updates (decision 0116) as server-sent events, over the
 * session cookie. The stream does not slide the session's idle expiry (an unattended tab still signs out),
 * ends when its session no longer holds or after EVENTS_MAX_SECONDS (the browser reconnects by itself with
 * `Last-Event-ID`), and is never compressed (a compressor would hold the events back).
 */
export async function liveRoutes(app: FastifyInstance) {
  const hub = new LiveHub({
    heartbeatMs: app.config.EVENTS_HEARTBEAT_SECONDS * 1000,
    maxLifeMs: app.config.EVENTS_MAX_SECONDS * 1000,
    log: app.log,
  });
  // The same listening connection as the session cache's (one per process).
  const unsubscribe = app.sessions.feed?.subscribe(hub);
  // Open streams would hold the server's close: they end first (the browsers reconnect elsewhere).
  app.addHook('preClose', async () => {
    unsubscribe?.();
    hub.close();
  });
  const signedIn = app.guard({
    roles: [ROLES.usuario, ROLES.autorizador, ROLES.superAutorizador, ROLES.administrador],
  });
  const cookieName = sessionCookieName(app.config.PUBLIC_URL);

  app.get(
    '/api/eventos',
    {
      preValidation: signedIn,
      compress: false,
      // A HEAD would open a stream to send nothing.
      exposeHeadRoute: false,
      config: { leavesIdleExpiry: true },
      schema: {
        tags: ['notificaciones'],
        summary:
          'Avisos en vivo: qué pedidos y avisos míos cambiaron, como eventos del servidor (la página vuelve a pedirlos)',
        response: { 200: STREAM_ANSWER, ...errorResponses(401, 403) },
      },
    },
    async (request, reply) => {
      const auth = request.auth!;
      const token = request.cookies[cookieName]!;
      const header = request.headers['last-event-id'];
      const lastEventId = typeof header === 'string' ? header.slice(0, 40) : undefined;
      const clientId = auth.client?.id ?? null;
      /** Whether the stream's session still holds, for the same person, role and client (not a use). */
      const stillSignedIn = async (): Promise<boolean> => {
        const session = await app.sessions.load(token, { touch: false });
        const principal = session?.principal;
        if (!session || !principal || session.id !== auth.sessionId || session.stage) return false;
        const { user, client, weeks, at } = principal;
        if (user.id !== auth.user.id || user.rol !== auth.user.rol || (client?.id ?? null) !== clientId)
          return false;
        if (mustChangePassword(user, at, app.config.BUSINESS_TZ)) return false;
        return (await accessRefusal(app.deps, user, client, at, weeks)) === null;
      };
      const body = hub.open(
        { userId: auth.user.id, rol: auth.user.rol, clientId, sessionId: auth.sessionId },
        lastEventId,
        stillSignedIn,
      );
      return reply
        .header('content-type', 'text/event-stream; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('x-accel-buffering', 'no')
        .send(body);
    },
  );
}
