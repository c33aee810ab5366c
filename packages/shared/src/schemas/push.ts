import { z } from 'zod';
import { isP256dh, isPushAuth, PUSH_ENDPOINT_MAX } from '../domain/push.ts';
import { MSG } from '../messages.ts';

/** GET /api/push/clave: the portal's VAPID public key (base64url, 65 bytes), the browser's `applicationServerKey`. */
export const PushKey = z.object({ clave: z.string() });
export type PushKey = z.infer<typeof PushKey>;

const Endpoint = z
  .string({ error: MSG.pushEndpointInvalido })
  .min(1, MSG.pushEndpointInvalido)
  .max(PUSH_ENDPOINT_MAX, MSG.pushEndpointInvalido)
  .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), MSG.pushEndpointInvalido);

/**
 * POST /api/push/suscripciones: the browser's `PushSubscription.toJSON()` as it is. The address must be https
 * on a public host (checked by the server), p256dh an uncompressed P-256 point (65 bytes) and auth 16 bytes,
 * both base64url. `expirationTime` is accepted and not kept (the push service says when a subscription ends,
 * with 404 or 410).
 */
export const PushSubscriptionBody = z.object({
  endpoint: Endpoint,
  expirationTime: z.number().nullable().optional(),
  keys: z.object(
    {
      p256dh: z.string({ error: MSG.pushClaveInvalida }).refine(isP256dh, MSG.pushClaveInvalida),
      auth: z.string({ error: MSG.pushAuthInvalido }).refine(isPushAuth, MSG.pushAuthInvalido),
    },
    { error: MSG.pushClaveInvalida },
  ),
});
export type PushSubscriptionBody = z.infer<typeof PushSubscriptionBody>;

/** DELETE /api/push/suscripciones: this device's endpoint (the person's own; another's answers 404). */
export const PushUnsubscribeBody = z.object({ endpoint: Endpoint });
export type PushUnsubscribeBody = z.infer<typeof PushUnsubscribeBody>;

/**
 * What a push carries (encrypted, RFC 8291), and all it carries: the service worker shows `titulo` and `texto`
 * and opens `ruta` (a path of the portal) when tapped; `id` is the bell's item (mark it read, or replace an
 * earlier notification with the same tag). No amounts unless the person chose them (`importes_en_telefono`).
 */
export const PushPayload = z.object({
  titulo: z.string(),
  texto: z.string(),
  ruta: z.string(),
  id: z.number().int(),
});
export type PushPayload = z.infer<typeof PushPayload>;
