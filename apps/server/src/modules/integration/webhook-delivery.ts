import { createHmac } from 'node:crypto';
import { signatureHeader, WEBHOOK_RETRY_HOURS, WEBHOOK_TIMEOUT_MS } from '@portal/shared/domain/integration';
import { and, eq, sql } from 'drizzle-orm';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import type { JobContext } from '../../lib/jobs.ts';
import { encryptionRing } from '../../lib/keys.ts';
import { webhookAttemptsTotal } from '../../lib/metrics.ts';
import { openWithRing, SecretBoxError, secretContext } from '../../lib/secret-box.ts';
import { MSG } from '../../messages.ts';
import { WEBHOOK_QUEUE, type WebhookDeliveryJob } from './webhook-outbox.ts';
import { postTo, type TargetPolicy } from './webhook-target.ts';

/** How long a claimed attempt is held: the receiver's timeout and a margin (a claim past it was lost). */
const CLAIM_SECONDS = WEBHOOK_TIMEOUT_MS / 1000 + 20;

/** `X-Portal-Firma` for `body` sent at unix time `t`: HMAC-SHA256 of "t.body" with the endpoint's secret. */
export function sign(secret: string, t: number, body: string): string {
  return signatureHeader(t, createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
}

export function targetPolicy(deps: Pick<Deps, 'config'>): TargetPolicy {
  return {
    allowHttp: deps.config.NODE_ENV !== 'production',
    allowPrivate: deps.config.WEBHOOK_ALLOW_PRIVATE,
  };
}

class RetryLater extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RetryLater';
  }
}

/**
 * One attempt of one delivery (the pg-boss job). The attempt is claimed with a conditional update first:
 * a delivery already delivered or failed is left alone, and one held by a live claim elsewhere is not
 * sent twice (the job retries later and finds it settled, or its claim expired with its process). A
 * failure within 24 hours throws, so pg-boss retries with exponential backoff; after them, or on the
 * job's last retry, the delivery fails for good ("Reenviar" starts again).
 */
export async function attemptDelivery(deps: Deps, id: number, ctx: JobContext): Promise<void> {
  const [claimed] = await deps.db
    .update(webhookDeliveries)
    .set({
      estado: 'enviando',
      intentos: sql`${webhookDeliveries.intentos} + 1`,
      reclamadoHasta: sql`now() + make_interval(secs => ${CLAIM_SECONDS})`,
      ultimoIntentoEn: sql`now()`,
    })
    .where(
      and(
        eq(webhookDeliveries.id, id),
        sql`(${webhookDeliveries.estado} = 'pendiente' or (${webhookDeliveries.estado} = 'enviando' and ${webhookDeliveries.reclamadoHasta} < now()))`,
      ),
    )
    .returning({
      intentos: webhookDeliveries.intentos,
      eventId: webhookDeliveries.eventId,
      endpointId: webhookDeliveries.endpointId,
      desde: webhookDeliveries.reintentosDesde,
    });
  if (!claimed) {
    const [row] = await deps.db
      .select({ estado: webhookDeliveries.estado })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, id));
    // Held by another attempt: try again once its claim has ended (or it settled).
    if (row?.estado === 'enviando') throw new RetryLater('entrega en curso en otra instancia');
    return;
  }
  const [target] = await deps.db
    .select({
      url: webhookEndpoints.url,
      activo: webhookEndpoints.activo,
      secreto: webhookEndpoints.secretoCifrado,
      cuerpo: webhookEvents.cuerpo,
    })
    .from(webhookEndpoints)
    .innerJoin(webhookEvents, eq(webhookEvents.id, claimed.eventId))
    .where(eq(webhookEndpoints.id, claimed.endpointId));
  const settle = async (values: Partial<typeof webhookDeliveries.$inferInsert>) => {
    await deps.db
      .update(webhookDeliveries)
      .set({ reclamadoHasta: null, ...values })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          eq(webhookDeliveries.estado, 'enviando'),
          eq(webhookDeliveries.intentos, claimed.intentos),
        ),
      );
  };
  if (!target?.activo) {
    await settle({ estado: 'fallido', ultimoError: MSG.entregaWebhookInactivo, ultimoCodigo: null });
    webhookAttemptsTotal.inc({ result: 'fallido' });
    return;
  }
  let secret: string;
  try {
    secret = openWithRing(
      encryptionRing(deps.keys),
      target.secreto,
      secretContext(claimed.endpointId),
    ).plaintext;
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    // Sealed under no key this server knows (decision 0102): no retry would open it either.
    deps.log.warn(
      { webhook: claimed.endpointId, entrega: id },
      'Entrega de webhook fallida: el secreto de firma no se abre con ninguna clave configurada (SECRET_KEY cambió)',
    );
    await settle({ estado: 'fallido', ultimoError: MSG.entregaSecretoIlegible, ultimoCodigo: null });
    return;
  }
  const t = Math.floor(deps.clock.ms() / 1000);
  const started = performance.now();
  const outcome = await postTo(
    new URL(target.url),
    target.cuerpo,
    {
      'content-type': 'application/json; charset=utf-8',
      'user-agent': 'PortalDeCompras-Webhooks/1',
      'x-portal-firma': sign(secret, t, target.cuerpo),
      'x-portal-evento': claimed.eventId,
      'x-portal-intento': String(claimed.intentos),
    },
    targetPolicy(deps),
    ctx.signal,
  );
  const latency = Math.round(performance.now() - started);
  const common = { ultimoCodigo: outcome.status, ultimaLatenciaMs: latency, ultimoError: outcome.error };
  if (outcome.ok) {
    await settle({ ...common, estado: 'entregado', entregadoEn: deps.clock.now() });
    webhookAttemptsTotal.inc({ result: 'entregado' });
    return;
  }
  const expired = deps.clock.ms() - claimed.desde.getTime() >= WEBHOOK_RETRY_HOURS * 3_600_000;
  if (expired || ctx.lastAttempt) {
    await settle({ ...common, estado: 'fallido' });
    webhookAttemptsTotal.inc({ result: 'fallido' });
    return;
  }
  await settle({ ...common, estado: 'pendiente' });
  webhookAttemptsTotal.inc({ result: 'reintento' });
  throw new RetryLater(outcome.error ?? 'entrega fallida');
}

/** Retries a delivery may take: enough doublings from the base, capped at an hour, to cover 24 hours. */
export function retrySchedule(baseSeconds: number): { retryLimit: number; retryDelayMax: number } {
  const retryDelayMax = Math.min(3600, baseSeconds * 128);
  let total = 0;
  let retries = 0;
  // pg-boss waits between base·2^n and base·2^(n+1) before retry n (capped): count with the shortest.
  while (total < WEBHOOK_RETRY_HOURS * 3600 && retries < 500) {
    total += Math.min(retryDelayMax, baseSeconds * 2 ** retries);
    retries++;
  }
  return { retryLimit: retries, retryDelayMax };
}

/** Declares the delivery queue (while the app is built). */
export function defineWebhookJobs(deps: Deps): void {
  const base = deps.config.WEBHOOK_RETRY_BASE_SECONDS;
  const schedule = retrySchedule(base);
  deps.jobs.define<WebhookDeliveryJob>({
    name: WEBHOOK_QUEUE,
    retryLimit: schedule.retryLimit,
    retryDelay: base,
    retryBackoff: true,
    retryDelayMax: schedule.retryDelayMax,
    expireInSeconds: CLAIM_SECONDS,
    pollingIntervalSeconds: Math.max(0.5, Math.min(5, base / 2)),
    // One slow receiver (up to 10 s) does not hold back the others.
    localConcurrency: 4,
    handler: (data, ctx) => attemptDelivery(deps, data.id, ctx),
  });
}
