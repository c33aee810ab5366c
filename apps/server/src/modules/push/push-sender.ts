/**
 * The push sender (issue 43 item 7, decision 0117): sends the bell items of kinds a person wants 'telefono'
 * (`notifications.push`, written by the outbox's statement, lib/mailer.ts `outboxCtes`) to each of their
 * devices, through Web Push (`web-push` encrypts per RFC 8291 and signs the VAPID JWT; the request goes out
 * through the webhooks' guarded POST, connecting only to a public address checked at that moment).
 *
 * At most once: an item is taken (`push_at`) and a delivery row per device written `enviando` in one
 * statement, committed before any request; rows other senders hold are skipped (`for update skip locked`).
 * A sender killed after that statement leaves its rows `enviando`, and nobody sends them again. A push the
 * push service refused with 5xx, 429 or 408, or that could not connect, is retried (PUSH_MAX_ATTEMPTS in all,
 * waits doubling from PUSH_RETRY_BASE_SECONDS); a request that got no answer is not (the service may have
 * taken it). 404 and 410 remove the device. Nothing goes to a person deactivated meanwhile, nor to a device
 * that changed hands.
 */
import { sql } from 'drizzle-orm';
import webpush from 'web-push';
import { rowsOf } from '../../db/client.ts';
import {
  notificationSettings,
  notifications,
  pushDeliveries,
  pushSubscriptions,
  users,
} from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { pushAttemptsTotal } from '../../lib/metrics.ts';
import { PollLoop } from '../../lib/poll-loop.ts';
import { MSG } from '../../messages.ts';
import { postTo } from '../integration/webhook-target.ts';
import { pushTargetPolicy } from './push.service.ts';
import { pushPayload } from './push-payload.ts';
import { type VapidKeys, vapidSubject } from './vapid.ts';

/** How long a push service keeps a push for a device that is offline (the `TTL` header): a day. */
export const PUSH_TTL_SECONDS = 24 * 60 * 60;
/** Attempts of one push to one device, the first included. */
export const PUSH_MAX_ATTEMPTS = 4;
/** Items (and retries) one claim takes. */
const CLAIM_BATCH = 20;
/** Requests in flight at once. */
const PARALLEL = 4;

type SenderDeps = Pick<Deps, 'db' | 'config' | 'clock' | 'log'>;

/** What one run did, per outcome. */
export interface PushRun {
  /** Taken by the push service (2xx). */
  entregados: number;
  /** Refused for now (5xx, 429, 408, no connection): retried later. */
  reintentos: number;
  /** Given up, or not sent (person deactivated, device gone). */
  fallidos: number;
  /** The push service said the device is gone (404, 410): removed. */
  bajas: number;
}

type Result = keyof PushRun;

interface Claimed {
  id: number;
  intentos: number;
  noticeId: number;
  tipo: string;
  titulo: string;
  texto: string;
  ruta: string;
  subscriptionId: number | null;
  endpoint: string | null;
  p256dh: string | null;
  auth: string | null;
  sameOwner: boolean | null;
  activo: boolean;
  importes: boolean;
}

/** A status that says the push service did not take the push and may later: retried. */
const retryable = (status: number) => status >= 500 || status === 429 || status === 408;

/** Requests are never cut by a stop: a push cut after it was sent could not be told from one never sent. */
const NEVER = new AbortController().signal;

export class PushSender {
  private readonly loop = new PollLoop(
    () => this.runOnce(),
    (err) => this.deps.log.error({ err }, 'error al enviar avisos al teléfono'),
  );

  constructor(
    private readonly deps: SenderDeps,
    private readonly vapid: VapidKeys,
  ) {}

  /** Polls every PUSH_POLL_MS (0: never; another instance sends). */
  start(): void {
    this.loop.start(this.deps.config.PUSH_POLL_MS);
  }

  /** Stops polling and waits for the run under way (its requests finish: at most 10 s each). */
  async stop(): Promise<void> {
    await this.loop.stop();
  }

  /** Sends what is due; concurrent calls share one run (a call during it makes it claim once more). */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  /** Claims and sends, batch after batch, until a claim comes back short; answers what it did. */
  async runOnce(): Promise<PushRun> {
    const run: PushRun = { entregados: 0, reintentos: 0, fallidos: 0, bajas: 0 };
    // A private key sealed under no configured key (vapid.ts): the items wait for the operator.
    if (!this.vapid.privateKey) return run;
    for (;;) {
      const now = this.deps.clock.now();
      const fresh = await this.claimItems(now);
      const retries = await this.claimRetries(now);
      const ids = [...fresh.ids, ...retries];
      if (ids.length > 0) {
        const claimed = await this.read(ids);
        const queue = [...claimed];
        await Promise.all(
          Array.from({ length: Math.min(PARALLEL, queue.length) }, async () => {
            for (let c = queue.shift(); c; c = queue.shift()) run[await this.deliver(c)]++;
          }),
        );
      }
      if ((fresh.taken < CLAIM_BATCH && retries.length < CLAIM_BATCH) || this.loop.stopped) return run;
    }
  }

  /**
   * Takes the next items waiting to be pushed and writes a delivery per device of their person, `enviando`,
   * in one statement (committed before any request). A deactivated person's items are taken with no
   * delivery.
   */
  private async claimItems(now: Date): Promise<{ taken: number; ids: number[] }> {
    const [row] = await rowsOf<{ taken: number; ids: number[] }>(
      this.deps.db,
      sql`with picked as (
            select id from ${notifications}
            where push and push_at is null
            order by id limit ${CLAIM_BATCH}
            for update skip locked
          ), taken as (
            update ${notifications} n set push_at = ${now}
            from picked where n.id = picked.id
            returning n.id, n.user_id
          ), fresh as (
            insert into ${pushDeliveries} (notification_id, subscription_id, estado, intentos, created_at, updated_at)
            select t.id, s.id, 'enviando', 1, ${now}, ${now}
            from taken t
            join ${users} u on u.id = t.user_id and u.activo
            join ${pushSubscriptions} s on s.user_id = t.user_id
            returning id
          )
          select (select count(*)::int from taken) as taken,
            coalesce((select array_agg(id order by id) from fresh), '{}') as ids`,
    );
    return { taken: row?.taken ?? 0, ids: (row?.ids ?? []).map(Number) };
  }

  /** Takes the deliveries whose retry is due. */
  private async claimRetries(now: Date): Promise<number[]> {
    const rows = await rowsOf<{ id: number }>(
      this.deps.db,
      sql`update ${pushDeliveries} set estado = 'enviando', intentos = intentos + 1,
            siguiente_intento_at = null, updated_at = ${now}
          where id in (
            select id from ${pushDeliveries}
            where estado = 'pendiente' and siguiente_intento_at <= ${now}
            order by siguiente_intento_at, id limit ${CLAIM_BATCH}
            for update skip locked)
          returning id`,
    );
    return rows.map((r) => r.id);
  }

  /** The claimed deliveries with their item, device, person and the person's choice of amounts. */
  private read(ids: number[]): Promise<Claimed[]> {
    return rowsOf<Claimed>(
      this.deps.db,
      sql`select d.id, d.intentos, n.id as "noticeId", n.tipo, n.titulo, n.texto, n.ruta,
            s.id as "subscriptionId", s.endpoint, s.p256dh, s.auth, s.user_id = n.user_id as "sameOwner",
            u.activo, coalesce(ns.importes_en_telefono, false) as importes
          from ${pushDeliveries} d
          join ${notifications} n on n.id = d.notification_id
          join ${users} u on u.id = n.user_id
          left join ${pushSubscriptions} s on s.id = d.subscription_id
          left join ${notificationSettings} ns on ns.user_id = n.user_id
          where d.id = any(${sql.param(ids)}::int[])
          order by d.id`,
    );
  }

  /** One push to one device, and its outcome recorded. */
  private async deliver(c: Claimed): Promise<Result> {
    if (!c.activo) return this.settle(c, 'fallidos', { error: MSG.pushCuentaInactiva });
    if (c.subscriptionId === null || !c.sameOwner || !c.endpoint || !c.p256dh || !c.auth)
      return this.settle(c, 'fallidos', { error: MSG.pushSinDispositivo });
    const payload = JSON.stringify(pushPayload({ ...c, id: c.noticeId }, c.importes));
    let details: webpush.RequestDetails;
    try {
      details = webpush.generateRequestDetails(
        { endpoint: c.endpoint, keys: { p256dh: c.p256dh, auth: c.auth } },
        payload,
        {
          vapidDetails: {
            subject: vapidSubject(this.deps.config),
            publicKey: this.vapid.publicKey,
            privateKey: this.vapid.privateKey!,
          },
          TTL: PUSH_TTL_SECONDS,
          urgency: c.tipo === 'por_revisar' ? 'high' : 'normal',
          topic: String(c.noticeId),
          contentEncoding: 'aes128gcm',
        },
      );
    } catch {
      return this.settle(c, 'fallidos', { error: MSG.pushNoCifrado });
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(details.headers))
      if (name.toLowerCase() !== 'content-length') headers[name.toLowerCase()] = String(value);
    const started = performance.now();
    const outcome = await postTo(
      new URL(details.endpoint),
      details.body ?? Buffer.alloc(0),
      headers,
      pushTargetPolicy(this.deps.config),
      NEVER,
    );
    const status = outcome.status;
    const log = {
      entregaPush: c.id,
      aviso: c.noticeId,
      servicio: new URL(c.endpoint).origin,
      codigo: status,
    };
    if (outcome.ok) {
      await this.deps.db.execute(
        sql`update ${pushSubscriptions} set last_used_at = ${this.deps.clock.now()} where id = ${c.subscriptionId}`,
      );
      this.deps.log.info(
        { ...log, ms: Math.round(performance.now() - started) },
        'aviso enviado al teléfono',
      );
      return this.settle(c, 'entregados', { codigo: status });
    }
    if (status === 404 || status === 410) {
      const result = await this.settle(c, 'bajas', { codigo: status, error: MSG.pushRechazado(status) });
      await this.deps.db.execute(sql`delete from ${pushSubscriptions} where id = ${c.subscriptionId}`);
      this.deps.log.info(log, 'dispositivo dado de baja por el servicio de notificaciones');
      return result;
    }
    // No answer in time: the push service may have taken it, so it is not sent again.
    const timedOut = status === null && outcome.error === MSG.entregaSinRespuesta;
    const again = !timedOut && (status === null || retryable(status)) && c.intentos < PUSH_MAX_ATTEMPTS;
    const error = timedOut
      ? MSG.pushSinRespuesta
      : status === null
        ? (outcome.error ?? MSG.entregaConexion)
        : MSG.pushRechazado(status);
    this.deps.log.warn({ ...log, intentos: c.intentos, reintento: again }, 'aviso al teléfono no enviado');
    if (!again) return this.settle(c, 'fallidos', { codigo: status, error });
    const waitMs = this.deps.config.PUSH_RETRY_BASE_SECONDS * 1000 * 2 ** (c.intentos - 1);
    return this.settle(c, 'reintentos', {
      codigo: status,
      error,
      siguiente: new Date(this.deps.clock.ms() + Math.min(waitMs, 6 * 3_600_000)),
    });
  }

  /** Records a claimed delivery's outcome (only while this claim holds it). */
  private async settle(
    c: Claimed,
    result: Result,
    values: { codigo?: number | null; error?: string; siguiente?: Date },
  ): Promise<Result> {
    const estado = result === 'entregados' ? 'entregado' : result === 'reintentos' ? 'pendiente' : 'fallido';
    await this.deps.db.execute(
      sql`update ${pushDeliveries} set estado = ${estado}, codigo = ${values.codigo ?? null},
            error = ${values.error ?? null}, siguiente_intento_at = ${values.siguiente ?? null},
            updated_at = ${this.deps.clock.now()}
          where id = ${c.id} and estado = 'enviando' and intentos = ${c.intentos}`,
    );
    pushAttemptsTotal.inc({
      result: { entregados: 'entregado', reintentos: 'reintento', fallidos: 'fallido', bajas: 'baja' }[
        result
      ],
    });
    return result;
  }
}
