import { setImmediate as nextTurn } from 'node:timers/promises';
import { addCalendarMonths } from '@portal/shared/domain/time';
import { type SQL, sql } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import { type Db, rowsOf, type Tx } from '../db/client.ts';
import {
  apiIdempotencyKeys,
  approvalReminders,
  authAttempts,
  budgetAlerts,
  emailOutbox,
  lateLineDigests,
  notifications,
  orderPhotos,
  passwordTokens,
  pushDeliveries,
  pushSubscriptions,
  scheduledPrices,
  scimTokens,
  ssoLogins,
  storedFiles,
  systemLogs,
  users,
  webhookDeliveries,
  webhookEvents,
} from '../db/schema/index.ts';
import { audit } from './audit.ts';
import type { Deps } from './deps.ts';

/** The daily purge of what has aged out (docs/domain.md "Retention", docs/operations.md, decision 0101). */
export const RETENTION_QUEUE = 'depuracion-datos';
/** Every day at 03:15 in the business time zone, when the portal is quietest. */
export const RETENTION_CRON = '15 3 * * *';

/**
 * How long the rows of every table live. Each table of db/schema is here (retention.test.ts fails
 * otherwise): `purged` names what the retention job removes and when, `kept` says why its rows stay. A new
 * table says which, and docs/domain.md "Retention" lists it too.
 */
export const TABLE_RETENTION: Record<string, { purged: string } | { kept: string }> = {
  clients: { kept: 'the tenant; deactivated, never deleted (its orders and log name it)' },
  users: { kept: 'deactivated, never deleted (orders, approvals and the log name them)' },
  categories: { kept: 'the catalogue; orders copy what they need' },
  user_category_budgets: { kept: 'current settings, replaced when edited' },
  products: { kept: 'the catalogue; deactivated, never deleted' },
  scheduled_prices: {
    purged:
      'RETENTION_NOTICE_MONTHS (13) months after the change was applied; a pending one lives until applied or cancelled (decision 0132)',
  },
  user_products: { kept: 'current assignments, replaced when edited' },
  cart_items: { kept: 'current carts: removed by the purchase or by the buyer' },
  orders: { kept: 'business records: purchases, approvals and totals' },
  order_lines: { kept: 'part of their order' },
  order_events: { kept: "part of their order's history" },
  order_comments: { kept: 'part of their order' },
  order_comment_notices: { kept: 'one row per order and recipient, overwritten' },
  approval_reminders: { purged: 'RETENTION_NOTICE_MONTHS (13) months after the digest' },
  order_shipments: { kept: 'part of their order (decision 0125)' },
  order_shipment_lines: { kept: 'part of their shipment' },
  client_shipments_to_receive: {
    kept: 'running counts of the shipments to receive: rows appended by each statement that moves one, merged into one row per client and address (none when it sums to zero) by the receivers’ reads (decision 0149)',
  },
  order_receipts: { kept: 'part of their order: the buyer’s receipt of each shipment (decision 0127)' },
  order_receipt_lines: { kept: 'part of their receipt' },
  order_claims: { kept: 'part of their order: its claims and the operator’s decisions (decision 0127)' },
  order_claim_lines: { kept: 'part of their claim' },
  invoices: {
    kept: 'fiscal records (decision 0131): a CFDI lives with its order, which is never deleted — so at least the 5 years after the invoice date that the SAT requires (CFF art. 30); its XML and PDF are stored files it names',
  },
  invoice_lines: { kept: 'part of their invoice (its concepts)' },
  invoice_applications: { kept: 'part of their invoices: the credit notes and payments applied to each' },
  client_open_invoice_days: {
    kept: 'running totals of the open invoices, a row per client and day with one open, removed when the day has none (decision 0148)',
  },
  order_photos: {
    purged:
      'PHOTO_LOOSE_HOURS (24) hours after the upload when never attached to a receipt or a claim, with its stored file (unless another photo names it); an attached one lives with its order',
  },
  late_line_digests: { purged: 'RETENTION_NOTICE_MONTHS (13) months after the digest' },
  product_month_sales: { kept: 'running totals the dashboard and budgets read' },
  user_month_spend: { kept: 'running totals the dashboard and budgets read' },
  client_order_versions: { kept: 'counters, at most 16 rows per client' },
  client_buyer_versions: { kept: 'a counter, one row per client' },
  user_counts: { kept: 'counters, merged now and then' },
  user_order_counts: { kept: 'one counter per user with orders, removed with the user' },
  sales_state: { kept: 'one row' },
  budget_alerts: { purged: 'RETENTION_NOTICE_MONTHS (13) months after the alert' },
  delegations: { kept: 'at most one row per delegator, deleted when ended' },
  notifications: { purged: 'RETENTION_NOTICE_MONTHS (13) months after the item, read or not' },
  notification_settings: { kept: 'one row per person who changed their preferences, replaced when edited' },
  saved_lists: { kept: "the buyer's own, until deleted" },
  saved_list_items: { kept: 'part of their list' },
  weeks: { kept: 'access weeks: a few rows per client and year, the record of when buying was open' },
  system_logs: { purged: 'RETENTION_LOG_MONTHS (24) months after the entry; 0 keeps them' },
  sessions: { kept: 'removed when they expire, every 10 minutes (lib/housekeeping.ts)' },
  two_factor_backup_codes: { kept: 'at most one set per user, replaced when new codes are made' },
  password_tokens: { purged: 'RETENTION_LINK_DAYS (30) days after the link was used or expired' },
  auth_attempts: { purged: 'RETENTION_SIGNIN_DAYS (30) days after the attempt' },
  stored_files: {
    kept: 'product pictures, documents, import files, order photos and invoices’ XML and PDF their rows name; an upload cut off while it arrived is removed after an hour (lib/housekeeping.ts); a photo never attached goes with its order_photos row',
  },
  stored_file_parts: { kept: 'the bytes of their file: removed with it (on delete cascade)' },
  email_outbox: {
    purged: 'RETENTION_EMAIL_DAYS (90) days after delivery; pending, failed and unsent rows stay',
  },
  import_jobs: { kept: 'the import history administrators read' },
  api_tokens: { kept: 'the record of who had access: revoked or expired, never deleted (50 per client)' },
  webhook_endpoints: { kept: 'configuration; deactivated, never deleted (deliveries name them)' },
  webhook_events: {
    purged: 'RETENTION_WEBHOOK_DAYS (90) days after every delivery of the event succeeded',
  },
  webhook_deliveries: { purged: 'with their event' },
  push_vapid: { kept: "one row: the portal's VAPID key pair, made at the first start" },
  push_subscriptions: {
    purged:
      'RETENTION_PUSH_MONTHS (3) months after the device last received a push or was subscribed again, and at once when its person is deactivated; sign-out and a 404/410 of the push service remove it too',
  },
  push_deliveries: { purged: 'RETENTION_PUSH_DAYS (7) days after the push' },
  client_sso: {
    kept: 'configuration: one row per client that signs in with its own provider, lives with its client',
  },
  client_sso_domains: { kept: 'part of their client_sso row (on delete cascade)' },
  sso_logins: {
    purged: 'SSO_LOGIN_RETENTION_DAYS (1) day after the sign-in started (each one is usable for 10 minutes)',
  },
  budget_change_requests: {
    kept: 'the record of who asked for a budget above the cap and who granted or refused it: a few rows per user',
  },
  areas: {
    kept: "a client's cost centres: removed only while nobody belongs to one and nothing was charged to it",
  },
  area_month_spend: { kept: 'running totals the áreas’ budgets read (one row per área and month)' },
  area_budget_alerts: {
    kept: 'at most three rows per área and month (the thresholds): the claim that sends each once',
  },
  budget_topups: {
    kept: 'the record of who asked for more budget and who granted or refused it: a few rows per buyer and month',
  },
  budget_adjustments: {
    kept: 'business records: what raised or moved a month’s budget (the figures add them up)',
  },
  client_addresses: {
    kept: "a client's address book: lives as long as its client; deactivated, never deleted (orders keep their own copy)",
  },
  user_addresses: {
    kept: 'current choices of a buyer, replaced when edited; removed with the user or when the address is deactivated',
  },
  receiver_addresses: {
    kept: 'current settings of a receiver (decision 0130), replaced when edited; removed with the user, kept when the address is deactivated',
  },
  scim_tokens: {
    purged: 'RETENTION_NOTICE_MONTHS (13) months after the token was revoked; the live one stays',
  },
  api_idempotency_keys: {
    purged: 'IDEMPOTENCY_RETENTION_HOURS (24) hours after the write it remembers (decision 0124)',
  },
};

/** A photo uploaded for a receipt or a claim and never attached to one is removed after this (decision 0127). */
export const PHOTO_LOOSE_HOURS = 24;
/** Sign-ins with a client's provider in progress live 10 minutes; their rows are removed a day after. */
export const SSO_LOGIN_RETENTION_DAYS = 1;
/** A v1 write's `Idempotency-Key` answers a retry for this many hours (decision 0124). */
export const IDEMPOTENCY_RETENTION_HOURS = 24;

/** The v1 API's Idempotency-Key answers (decision 0124): a retry comes within minutes, a day is plenty. */
const idempotencyPurge = (ms: number): [keyof RetentionCounts, PgTable, SQL, SQL, SQL] => [
  'claves_idempotencia',
  apiIdempotencyKeys,
  sql`id`,
  sql`created_at < ${new Date(ms - IDEMPOTENCY_RETENTION_HOURS * 3_600_000)}`,
  sql`created_at`,
];

/** Scheduled price changes (decision 0132): an applied one is kept as long as the notices; a pending one stays. */
const appliedPricesPurge = (cutoff: Date): [keyof RetentionCounts, PgTable, SQL, SQL, SQL] => [
  'precios_programados',
  scheduledPrices,
  sql`id`,
  sql`applied_at < ${cutoff}`,
  sql`applied_at`,
];

/** What one run removed, per kind (the system log entry's metadata keys). */
export interface RetentionCounts {
  eventos_webhook: number;
  entregas_webhook: number;
  recordatorios: number;
  resumenes_atrasos: number;
  alertas_presupuesto: number;
  avisos: number;
  correos: number;
  enlaces: number;
  intentos_acceso: number;
  registros_sistema: number;
  entregas_push: number;
  dispositivos_push: number;
  inicios_sso: number;
  tokens_scim: number;
  claves_idempotencia: number;
  fotos_sueltas: number;
  precios_programados: number;
}

const LABELS: Record<keyof RetentionCounts, string> = {
  eventos_webhook: 'eventos de webhook',
  entregas_webhook: 'entregas de webhook',
  recordatorios: 'recordatorios de autorización',
  resumenes_atrasos: 'resúmenes de líneas atrasadas',
  alertas_presupuesto: 'alertas de presupuesto',
  avisos: 'avisos de la campana',
  correos: 'correos enviados',
  enlaces: 'enlaces de contraseña y bienvenida',
  intentos_acceso: 'intentos de acceso',
  registros_sistema: 'registros del sistema',
  entregas_push: 'envíos al teléfono',
  dispositivos_push: 'teléfonos suscritos',
  inicios_sso: 'inicios de sesión con la cuenta de la empresa',
  tokens_scim: 'tokens de aprovisionamiento (SCIM) revocados',
  claves_idempotencia: 'claves de idempotencia de la API',
  fotos_sueltas: 'fotos de recepciones y reclamos sin adjuntar',
  precios_programados: 'cambios de precio programados ya aplicados',
};

export interface RetentionSettings {
  webhookDays: number;
  noticeMonths: number;
  emailDays: number;
  linkDays: number;
  signinDays: number;
  /** 0: the system log is kept for ever. */
  logMonths: number;
  /** Push delivery records (decision 0117). */
  pushDays: number;
  /** Devices neither pushed to nor subscribed again for this long. */
  pushMonths: number;
  /** Rows one statement removes, at most. */
  batchSize: number;
  /** A batch that held its locks longer than this halves the next one's size. */
  batchHoldMs: number;
}

/**
 * The longest a batch may hold its locks: one that took longer halves the next one's size. Each batch is
 * its own statement (or, for webhooks, a short transaction), so its locks end with it.
 */
export const BATCH_HOLD_MS = 100;

export function retentionSettings(config: Deps['config']): RetentionSettings {
  return {
    webhookDays: config.RETENTION_WEBHOOK_DAYS,
    noticeMonths: config.RETENTION_NOTICE_MONTHS,
    emailDays: config.RETENTION_EMAIL_DAYS,
    linkDays: config.RETENTION_LINK_DAYS,
    signinDays: config.RETENTION_SIGNIN_DAYS,
    logMonths: config.RETENTION_LOG_MONTHS,
    pushDays: config.RETENTION_PUSH_DAYS,
    pushMonths: config.RETENTION_PUSH_MONTHS,
    batchSize: config.RETENTION_BATCH_SIZE,
    batchHoldMs: BATCH_HOLD_MS,
  };
}

export interface RetentionRun {
  removed: RetentionCounts;
  /** Statements run per kind (how many batches each needed). */
  batches: RetentionCounts;
  /** The job's signal stopped it between two batches. */
  interrupted: boolean;
  /** The longest batch, in milliseconds (its locks were held no longer). */
  longestBatchMs: number;
}

const count = async (db: Db | Tx, query: SQL): Promise<number> =>
  (
    await rowsOf<{ n: number }>(
      db,
      sql`with gone as (${query} returning 1) select count(*)::int as n from gone`,
    )
  )[0]!.n;

/**
 * Removes what has aged out at `now`, in batches of at most `batchSize` rows, stopping between two batches
 * when `signal` aborts, and writes one system log entry with the counts (also when stopped or failed).
 * Never removes a row still needed: an undelivered webhook, an unsent e-mail, an unused and unexpired link.
 */
export async function runRetention(
  db: Db,
  settings: RetentionSettings,
  now: Date,
  tz: string,
  signal?: AbortSignal,
): Promise<RetentionRun> {
  const ms = now.getTime();
  const daysAgo = (days: number) => new Date(ms - days * 86_400_000);
  const monthsAgo = (months: number) => new Date(addCalendarMonths(ms, -months, tz));
  const zeros = () =>
    Object.fromEntries(Object.keys(LABELS).map((k) => [k, 0])) as unknown as RetentionCounts;
  const run: RetentionRun = {
    removed: zeros(),
    batches: zeros(),
    interrupted: false,
    longestBatchMs: 0,
  };

  /** Runs `batch` until it removes fewer rows than asked, or the signal aborts between two batches. */
  const inBatches = async (kind: keyof RetentionCounts, batch: (limit: number) => Promise<number>) => {
    let size = Math.max(1, Math.floor(settings.batchSize));
    for (;;) {
      if (signal?.aborted) {
        run.interrupted = true;
        return;
      }
      const started = performance.now();
      const picked = await batch(size);
      const held = performance.now() - started;
      run.batches[kind]++;
      run.longestBatchMs = Math.max(run.longestBatchMs, Math.ceil(held));
      if (picked < size) return;
      if (held > settings.batchHoldMs) size = Math.max(1, Math.floor(size / 2));
      // Other work (on the embedded database, every request) gets its turn between two batches.
      await nextTurn();
    }
  };

  let failure: unknown = null;
  try {
    const webhookCutoff = daysAgo(settings.webhookDays);
    await inBatches('eventos_webhook', (limit) =>
      db.transaction(async (tx) => {
        // Events whose every delivery succeeded before the cut-off; one being resent now is skipped.
        const events = await rowsOf<{ id: string }>(
          tx,
          sql`select e.id from ${webhookEvents} e
              where e.created_at < ${webhookCutoff}
                and not exists (
                  select 1 from ${webhookDeliveries} d
                  where d.event_id = e.id
                    and (d.estado <> 'entregado' or d.entregado_en is null or d.entregado_en >= ${webhookCutoff}))
              order by e.created_at
              limit ${limit}
              for update of e skip locked`,
        );
        if (events.length === 0) return 0;
        const ids = sql.join(
          events.map((e) => sql`${e.id}`),
          sql`, `,
        );
        // The same conditions again: a delivery resent since the select keeps its row, and so its event.
        run.removed.entregas_webhook += await count(
          tx,
          sql`delete from ${webhookDeliveries}
              where event_id in (${ids}) and estado = 'entregado' and entregado_en < ${webhookCutoff}`,
        );
        run.removed.eventos_webhook += await count(
          tx,
          sql`delete from ${webhookEvents} e
              where e.id in (${ids})
                and not exists (select 1 from ${webhookDeliveries} d where d.event_id = e.id)`,
        );
        return events.length;
      }),
    );
    run.batches.entregas_webhook = run.batches.eventos_webhook;

    const photoCutoff = new Date(ms - PHOTO_LOOSE_HOURS * 3_600_000);
    await inBatches('fotos_sueltas', (limit) => purgeLoosePhotos(db, photoCutoff, limit, run.removed));

    const noticeCutoff = monthsAgo(settings.noticeMonths);
    const emailCutoff = daysAgo(settings.emailDays);
    const linkCutoff = daysAgo(settings.linkDays);
    const signinCutoff = daysAgo(settings.signinDays);
    const sentAged = sql`sent_at < ${noticeCutoff}`;
    const purges: [keyof RetentionCounts, PgTable, key: SQL, where: SQL, order: SQL][] = [
      ['recordatorios', approvalReminders, sql`user_id, fecha`, sentAged, sql`sent_at`],
      ['resumenes_atrasos', lateLineDigests, sql`user_id, fecha`, sentAged, sql`sent_at`],
      ['alertas_presupuesto', budgetAlerts, sql`id`, sentAged, sql`sent_at`],
      ['avisos', notifications, sql`id`, sql`created_at < ${noticeCutoff}`, sql`created_at`],
      // Only delivered messages: pending, failed, replaced and recorded-without-SMTP ones stay, and so does
      // the delivered access e-mail of a user who has not set a password yet (the unsent-access banner
      // reads an account's latest one, decision 0097). An attachment is a reference rendered at send time
      // (decision 0056): the row holds no bytes to remove before it.
      [
        'correos',
        emailOutbox,
        sql`id`,
        sql`status = 'enviado' and sent_at < ${emailCutoff} and not (tipo = 'acceso' and exists (
              select 1 from ${users} u where u.id = ${emailOutbox}.user_id and u.password_hash is null))`,
        sql`sent_at`,
      ],
      // A link used, or expired, before the cut-off; an unused link still valid is never older than it.
      [
        'enlaces',
        passwordTokens,
        sql`id`,
        sql`used_at < ${linkCutoff} or expires_at < ${linkCutoff}`,
        sql`id`,
      ],
      ['intentos_acceso', authAttempts, sql`id`, sql`created_at < ${signinCutoff}`, sql`created_at`],
    ];
    // RETENTION_LOG_MONTHS=0 keeps the system log for ever.
    if (settings.logMonths > 0) {
      const logCutoff = monthsAgo(settings.logMonths);
      purges.push([
        'registros_sistema',
        systemLogs,
        sql`id`,
        sql`created_at < ${logCutoff}`,
        sql`created_at`,
      ]);
    }
    // Web Push (decision 0117): delivery records are short-lived; a device lives while it is used, and not
    // at all once its person is deactivated.
    const pushCutoff = daysAgo(settings.pushDays);
    const deviceCutoff = monthsAgo(settings.pushMonths);
    purges.push(
      ['entregas_push', pushDeliveries, sql`id`, sql`created_at < ${pushCutoff}`, sql`created_at`],
      [
        'dispositivos_push',
        pushSubscriptions,
        sql`id`,
        sql`last_used_at < ${deviceCutoff} or user_id in (select u.id from ${users} u where not u.activo)`,
        sql`id`,
      ],
    );
    // Single sign-on (decision 0120): a flow is usable for 10 minutes; its row is kept a day for support.
    purges.push([
      'inicios_sso',
      ssoLogins,
      sql`id`,
      sql`created_at < ${daysAgo(SSO_LOGIN_RETENTION_DAYS)}`,
      sql`created_at`,
    ]);
    // SCIM tokens (decision 0121): a revoked one is kept as long as the notices, then removed.
    purges.push(['tokens_scim', scimTokens, sql`id`, sql`revocado_en < ${noticeCutoff}`, sql`revocado_en`]);
    purges.push(idempotencyPurge(ms), appliedPricesPurge(noticeCutoff));
    for (const [kind, table, key, where, order] of purges)
      await inBatches(kind, async (limit) => {
        const n = await count(
          db,
          sql`delete from ${table} where (${key}) in (
                select ${key} from ${table} where ${where} order by ${order} limit ${limit})`,
        );
        run.removed[kind] += n;
        return n;
      });
  } catch (err) {
    failure = err;
  }

  const summary = (Object.keys(LABELS) as (keyof RetentionCounts)[])
    .map((k) => `${LABELS[k]}: ${run.removed[k]}`)
    .join(', ');
  const stopped = run.interrupted ? ' (interrumpida)' : failure ? ' (falló)' : '';
  await audit(db, {
    userId: null,
    eventType: 'datos_depurados',
    description: `Depuración de datos antiguos${stopped}: ${summary}`,
    metadata: {
      ...run.removed,
      interrumpida: run.interrupted,
      fallida: failure !== null,
      lote_mas_largo_ms: run.longestBatchMs,
    },
  });
  if (failure) throw failure;
  return run;
}

/**
 * One batch of photos uploaded before `cutoff` and never attached to a receipt or a claim (decision 0127):
 * their rows, then each stored file no other photo names (one being named right now by a new upload of the
 * same picture is locked by it, and skipped). Answers how many photos it removed.
 */
async function purgeLoosePhotos(
  db: Db,
  cutoff: Date,
  limit: number,
  removed: RetentionCounts,
): Promise<number> {
  return db.transaction(async (tx) => {
    const gone = await rowsOf<{ file_id: string }>(
      tx,
      sql`delete from ${orderPhotos} where id in (
            select id from ${orderPhotos}
            where receipt_id is null and claim_id is null and created_at < ${cutoff}
            order by created_at limit ${limit}
            for update skip locked)
          returning file_id`,
    );
    if (gone.length === 0) return 0;
    const files = [...new Set(gone.map((g) => g.file_id))];
    const free = await rowsOf<{ id: string }>(
      tx,
      sql`select f.id from ${storedFiles} f
          where f.id = any(${sql.param(files)}::text[])
            and not exists (select 1 from ${orderPhotos} p where p.file_id = f.id)
          for update of f skip locked`,
    );
    if (free.length > 0)
      await tx.execute(
        sql`delete from ${storedFiles} where id = any(${sql.param(free.map((f) => f.id))}::text[])`,
      );
    removed.fotos_sueltas += gone.length;
    return gone.length;
  });
}

/** Declares the retention queue and its daily schedule (called while the app is built). */
export function defineRetentionJob(deps: Pick<Deps, 'db' | 'config' | 'clock' | 'jobs'>): void {
  deps.jobs.define<Record<string, never>>({
    name: RETENTION_QUEUE,
    retryLimit: 2,
    retryDelay: 300,
    expireInSeconds: 60 * 60,
    cron: { expression: RETENTION_CRON, tz: deps.config.BUSINESS_TZ },
    handler: async (_data, ctx) => {
      await runRetention(
        deps.db,
        retentionSettings(deps.config),
        deps.clock.now(),
        deps.config.BUSINESS_TZ,
        ctx.signal,
      );
    },
  });
}
