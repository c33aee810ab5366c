import { isEmailAddress } from '@portal/shared/domain/email';
import type { NotificationKind } from '@portal/shared/domain/notifications';
import { eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { type Db, rowsOf, type Tx } from '../db/client.ts';
import { executeNamed } from '../db/prepared.ts';
import {
  type EmailAttachmentRef,
  emailOutbox,
  notificationSettings,
  notifications,
} from '../db/schema/index.ts';
import { emailAttemptsTotal } from './metrics.ts';
import { PollLoop } from './poll-loop.ts';

export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** A document attached at send time (rendered then by the worker's `attach`). */
  adjunto?: EmailAttachmentRef;
  /** 'acceso' for a welcome link (the unsent-access banner counts them, decision 0097). */
  tipo?: 'acceso';
  /** The account the message is about (an access e-mail's user). */
  userId?: number;
  /**
   * The person told and the kind (decision 0114): the message also becomes an item of their bell, and goes
   * by e-mail now, in their digest, or not at all, as they chose for the kind. Without it, always now.
   */
  aviso?: Notice;
}

/** What the bell keeps of a message: its subject is the title, `texto` its first sentence, `ruta` the link. */
export interface Notice {
  userId: number;
  tipo: NotificationKind;
  texto: string;
  ruta: string;
}

/** A file handed to the SMTP server with a message. */
export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
}

const MAX_ATTEMPTS = 6;

interface OutboxClaim {
  id: number;
  to: string;
  subject: string;
  text: string;
  html: string | null;
  adjunto: EmailAttachmentRef | null;
  attempts: number;
}
/** A claimed message whose sender died is retried after this long. */
const CLAIM_MS = 5 * 60_000;
/** How many messages one claim takes. */
const CLAIM_BATCH = 10;
/** The next batch of due messages, locked; rows another worker holds are skipped. */
const DUE_BATCH = sql`
  select id from ${emailOutbox}
  where status in ('pendiente', 'enviando') and next_attempt_at <= now()
  order by id limit ${sql.raw(String(CLAIM_BATCH))} for update skip locked`;

/**
 * Writes an e-mail to the outbox, in the caller's transaction: it is sent if and only if the change
 * that caused it commits. The worker delivers it in the background, so a slow mail server never slows a
 * request.
 */
export async function enqueueEmail(db: Db | Tx, email: Email): Promise<void> {
  await enqueueEmails(db, [email]);
}

/** Several messages in one statement (one round trip, whatever the number of recipients). */
export async function enqueueEmails(db: Db | Tx, emails: readonly Email[]): Promise<void> {
  if (emails.length === 0) return;
  await executeNamed(
    db,
    'portal_outbox_insert',
    sql`with ${outboxCtes(outboxRows(emails))} select (select count(*) from m) as emails`,
  );
}

/** The messages as the outbox insert's one JSON parameter. */
export function outboxRows(emails: readonly Email[]): string {
  return JSON.stringify(
    emails.map((e) => ({
      to: e.to,
      subject: e.subject,
      text: e.text,
      html: e.html ?? null,
      adjunto: e.adjunto ?? null,
      tipo: e.tipo ?? null,
      user_id: e.userId ?? null,
      aviso_user: e.aviso?.userId ?? null,
      aviso_tipo: e.aviso?.tipo ?? null,
      aviso_texto: e.aviso?.texto ?? null,
      aviso_ruta: e.aviso?.ruta ?? null,
    })),
  );
}

/**
 * The messages of `outboxRows`' JSON (a value or a placeholder: a statement built once) as three common
 * table expressions, for a `with` of the caller's statement: `mail` reads them with each person's channel
 * for the kind (decision 0114), `mail_notices` writes the bell's items, and `m` inserts into the outbox, in
 * their order, the messages that go now (`m` returns one row per message). A message with an empty `to` (a
 * person without an address) only writes its bell item. An item of a kind the person wants 'telefono' is
 * marked `push` for the push sender (modules/push, decision 0117) and is not e-mailed.
 */
export function outboxCtes(rows: string | Placeholder): SQL {
  return sql`mail as (
      select x.*, coalesce(s.canales ->> x.aviso_tipo, 'inmediato') as canal
      from rows from (jsonb_to_recordset(${rows}::jsonb) as ("to" text, subject text, text text, html text,
        adjunto jsonb, tipo text, user_id integer, aviso_user integer, aviso_tipo text, aviso_texto text,
        aviso_ruta text)) with ordinality as x("to", subject, text, html, adjunto, tipo, user_id, aviso_user,
        aviso_tipo, aviso_texto, aviso_ruta, n)
      left join ${notificationSettings} s on s.user_id = x.aviso_user
    ), mail_notices as (
      insert into ${notifications} (user_id, tipo, titulo, texto, ruta, resumen, push)
      select aviso_user, aviso_tipo, subject, aviso_texto, aviso_ruta,
        case when canal in ('hora', 'dia') then canal end, canal = 'telefono'
      from mail where aviso_user is not null
      order by n
      returning 1
    ), m as (
      insert into ${emailOutbox} ("to", subject, text, html, adjunto, tipo, user_id)
      select "to", subject, text, html, adjunto, tipo, user_id
      from mail where "to" <> '' and (aviso_user is null or canal = 'inmediato')
      order by n
      returning 1
    )`;
}

/** The address an account's e-mail goes to: its Email field, else its username when it is an address. */
export function addressOf(user: { email: string; usuario: string }): string | null {
  const isAddress = (v: string) => isEmailAddress(v.trim());
  if (user.email && isAddress(user.email)) return user.email.trim();
  if (isAddress(user.usuario)) return user.usuario.trim();
  return null;
}

export interface MailWorkerOptions {
  db: Db;
  smtpUrl?: string;
  from: string;
  pollMs: number;
  log: FastifyBaseLogger;
  /** Renders a row's attachment at send time; a failure is retried like a failed delivery. */
  attach?: (ref: EmailAttachmentRef) => Promise<MailAttachment>;
}

/**
 * Delivers the outbox. Rows are claimed with FOR UPDATE SKIP LOCKED, so any number of server instances
 * can run a worker without sending a message twice. Without SMTP_URL, messages are only recorded
 * (status 'registrado') and their recipient and subject logged — never their body, which may hold a link.
 */
/** What stays of a message's body in the outbox once the SMTP server has taken it. */
export const DELIVERED_BODY = '[entregado; el contenido no se conserva]';

export class MailWorker {
  private readonly loop = new PollLoop(
    () => this.deliverDue(),
    (err) => this.options.log.error({ err }, 'error al enviar correos'),
  );
  private readonly transport: Transporter | null;

  constructor(private readonly options: MailWorkerOptions) {
    this.transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : null;
  }

  start(): void {
    this.loop.start(this.options.pollMs);
  }

  async stop(): Promise<void> {
    await this.loop.stop();
    this.transport?.close();
  }

  /**
   * Sends what is due now. Concurrent calls share one run; a call that comes during a run makes it claim
   * once more before it ends (the caller's message may have been committed after the run's last claim), so
   * whoever awaits the run finds their message handled.
   */
  flush(): Promise<void> {
    return this.loop.flush();
  }

  /** Claims and handles what is due, batch after batch, until a claim comes back short. */
  private async deliverDue(): Promise<void> {
    const { db, log } = this.options;
    for (;;) {
      if (!this.transport) {
        // Without SMTP the messages are only recorded: the claim itself records its batch.
        const recorded = await rowsOf<{ id: number; to: string; subject: string }>(
          db,
          sql`
          update ${emailOutbox} set status = 'registrado', sent_at = now(), attempts = attempts + 1
          where id in (${DUE_BATCH})
          returning id, "to", subject`,
        );
        if (recorded.length > 0) emailAttemptsTotal.inc({ result: 'registrado' }, recorded.length);
        for (const row of recorded)
          log.info(
            { outboxId: row.id, to: row.to, subject: row.subject },
            'correo registrado (sin SMTP_URL)',
          );
        if (recorded.length < CLAIM_BATCH) return;
        continue;
      }
      const rows = await rowsOf<OutboxClaim>(
        db,
        sql`
        update ${emailOutbox} set status = 'enviando', attempts = attempts + 1,
          next_attempt_at = now() + (${CLAIM_MS} * interval '1 millisecond')
        where id in (${DUE_BATCH})
        returning id, "to", subject, text, html, adjunto, attempts`,
      );
      for (const row of rows) {
        try {
          const attachment =
            row.adjunto && this.options.attach ? await this.options.attach(row.adjunto) : null;
          await this.transport.sendMail({
            from: this.options.from,
            to: row.to,
            subject: row.subject,
            text: row.text,
            html: row.html ?? undefined,
            ...(attachment ? { attachments: [attachment] } : {}),
          });
          // Delivered: the body (a single-use link, or the one temporary password) is not kept.
          await db
            .update(emailOutbox)
            .set({ status: 'enviado', sentAt: sql`now()`, lastError: null, text: DELIVERED_BODY, html: null })
            .where(eq(emailOutbox.id, row.id));
          emailAttemptsTotal.inc({ result: 'enviado' });
          log.info({ outboxId: row.id, subject: row.subject }, 'correo enviado');
        } catch (err) {
          const failed = row.attempts >= MAX_ATTEMPTS;
          const backoffMs = Math.min(60 * 60_000, 2 ** row.attempts * 5_000);
          await db
            .update(emailOutbox)
            .set({
              status: failed ? 'fallido' : 'pendiente',
              lastError: String((err as Error).message ?? err).slice(0, 500),
              // The outbox's times are the database's own (the claim compares them with its now()).
              nextAttemptAt: sql`now() + (${backoffMs} * interval '1 millisecond')`,
            })
            .where(eq(emailOutbox.id, row.id));
          emailAttemptsTotal.inc({ result: failed ? 'fallido' : 'error' });
          log.warn(
            { outboxId: row.id, attempts: row.attempts, err: (err as Error).message },
            'no se pudo enviar un correo',
          );
        }
      }
      // A short claim took everything that was due (a flush asked meanwhile makes `flush` claim again).
      if (rows.length < CLAIM_BATCH) return;
    }
  }
}
