/**
 * The devices that receive a person's pushes (issue 43 item 7, decision 0117): subscribe (the browser's
 * PushSubscription, upserted by its endpoint), unsubscribe, and what signing out does to them. Each person
 * handles only their own: another person's endpoint answers like a missing one.
 */
import { ECDH } from 'node:crypto';
import net from 'node:net';
import { PUSH_DEVICES_PER_USER } from '@portal/shared/domain/push';
import type { PushSubscriptionBody, PushUnsubscribeBody } from '@portal/shared/schemas/push';
import { and, eq, sql } from 'drizzle-orm';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { pushSubscriptions } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { isPrivateAddress, resolveTarget, type TargetPolicy } from '../integration/webhook-target.ts';

/**
 * Where pushes may go: https to public addresses; with PUSH_ALLOW_PRIVATE (the tests' local push service)
 * private addresses too, and plain http to them.
 */
export function pushTargetPolicy(config: Pick<Config, 'PUSH_ALLOW_PRIVATE'>): TargetPolicy {
  return { allowHttp: config.PUSH_ALLOW_PRIVATE, allowPrivate: config.PUSH_ALLOW_PRIVATE };
}

const refusal = (code: string, msg: string) => badRequest(code, msg, { endpoint: msg });

/**
 * The webhooks' guard on the device's address (modules/integration/webhook-target.ts): https only (plain http
 * only to a local address, when PUSH_ALLOW_PRIVATE allows it), no user or password in it, and every address
 * its name resolves to public. The sender checks again at each push, on the address it connects to.
 */
export async function checkEndpoint(endpoint: string, config: Pick<Config, 'PUSH_ALLOW_PRIVATE'>) {
  const url = new URL(endpoint);
  const policy = pushTargetPolicy(config);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const local = net.isIP(host) ? isPrivateAddress(host) : host === 'localhost';
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowPrivate && local))
    throw refusal('PUSH_HTTPS', MSG.pushEndpointHttps);
  const target = await resolveTarget(url, policy);
  if (target.ok) return;
  switch (target.refusal.code) {
    case 'WEBHOOK_PRIVATE':
      throw refusal('PUSH_PRIVATE', MSG.pushEndpointPrivado);
    case 'WEBHOOK_CREDENTIALS':
      throw refusal('PUSH_CREDENTIALS', MSG.pushEndpointCredenciales);
    case 'WEBHOOK_DNS':
      throw refusal('PUSH_DNS', MSG.webhookUrlNoResuelve);
    default:
      throw refusal('PUSH_HTTPS', MSG.pushEndpointHttps);
  }
}

/** The browser's key must be a point of P-256, not only 65 bytes that start with 0x04. */
function checkPoint(p256dh: string): void {
  try {
    ECDH.convertKey(Buffer.from(p256dh, 'base64url'), 'prime256v1');
  } catch {
    throw badRequest('VALIDATION', MSG.pushClaveInvalida, { 'keys.p256dh': MSG.pushClaveInvalida });
  }
}

/**
 * Subscribes this device for the signed-in person, or refreshes it (the web posts its subscription at each
 * start): by endpoint, so an endpoint another person had moves to this one (the device changed hands), and
 * its session becomes this one (signing it out removes the device). Beyond PUSH_DEVICES_PER_USER devices,
 * the ones used longest ago go.
 */
export async function subscribe(
  deps: Pick<Deps, 'db' | 'config' | 'clock'>,
  auth: AuthContext,
  body: PushSubscriptionBody,
): Promise<void> {
  await checkEndpoint(body.endpoint, deps.config);
  checkPoint(body.keys.p256dh);
  const now = deps.clock.now();
  const userId = auth.user.id;
  await deps.db.transaction(async (tx) => {
    await tx
      .insert(pushSubscriptions)
      .values({
        userId,
        endpoint: body.endpoint,
        p256dh: body.keys.p256dh,
        auth: body.keys.auth,
        sessionId: auth.sessionId,
        createdAt: now,
        lastUsedAt: now,
      })
      .onConflictDoUpdate({
        target: pushSubscriptions.endpoint,
        set: {
          // A device that changed hands counts as new for its new person.
          createdAt: sql`case when ${pushSubscriptions.userId} = ${userId} then ${pushSubscriptions.createdAt}
            else ${now}::timestamptz end`,
          userId,
          p256dh: body.keys.p256dh,
          auth: body.keys.auth,
          sessionId: auth.sessionId,
          lastUsedAt: now,
        },
      });
    await tx.execute(sql`
      delete from ${pushSubscriptions}
      where user_id = ${userId} and id not in (
        select id from ${pushSubscriptions} where user_id = ${userId}
        order by last_used_at desc, id desc
        limit ${PUSH_DEVICES_PER_USER})`);
  });
}

/** Removes the person's device with this endpoint; none of theirs (another person's included) answers 404. */
export async function unsubscribe(
  deps: Pick<Deps, 'db'>,
  auth: AuthContext,
  body: PushUnsubscribeBody,
): Promise<void> {
  const gone = await deps.db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, body.endpoint), eq(pushSubscriptions.userId, auth.user.id)))
    .returning({ id: pushSubscriptions.id });
  if (gone.length === 0) throw notFound(MSG.pushSuscripcionNoEncontrada, 'PUSH_SUBSCRIPTION_NOT_FOUND');
}

/** Signing out: the devices this session subscribed stop receiving the person's pushes. */
export async function removeSessionDevices(db: Db, sessionId: string): Promise<void> {
  await db.delete(pushSubscriptions).where(eq(pushSubscriptions.sessionId, sessionId));
}

/**
 * A session replaced by a new one for the same browser (a password change): its devices follow it, so signing
 * out of the new session still removes them.
 */
export async function moveSessionDevices(db: Db, from: string, to: string): Promise<void> {
  await db.update(pushSubscriptions).set({ sessionId: to }).where(eq(pushSubscriptions.sessionId, from));
}
