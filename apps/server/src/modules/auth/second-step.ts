import type { SecondStepRequired } from '@portal/shared/schemas/two-factor';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { SECOND_FACTOR_STAGE } from '../../lib/two-factor-policy.ts';
import { type SessionStore, setSessionCookies } from '../../plugins/session.ts';

/**
 * The password was right and the user has two-factor sign-in: instead of a session, a new one (new id,
 * new XSRF token) that lives 5 minutes and serves only POST /api/login/2fa. The form's session ends.
 */
export async function startSecondStep(
  deps: Pick<Deps, 'db'>,
  store: SessionStore,
  request: FastifyRequest,
  reply: FastifyReply,
  user: { id: number; usuario: string },
  formSessionId: string,
): Promise<SecondStepRequired> {
  await store.destroy(formSessionId);
  const created = await store.create(
    user.id,
    { ip: request.ip, userAgent: String(request.headers['user-agent'] ?? '') },
    { stage: SECOND_FACTOR_STAGE },
  );
  setSessionCookies(request, reply, created);
  await audit(deps.db, {
    userId: user.id,
    eventType: 'login_2fa_pendiente',
    description: `Contraseña correcta; falta el segundo paso: ${user.usuario}`,
    metadata: requestMeta(request),
  });
  return { status: '2fa_requerido' };
}
