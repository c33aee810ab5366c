import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox } from '../db/schema/index.ts';
import { createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';
import { startSmtp } from '../test/smtp.ts';
import { eventually } from '../test/webhook-receiver.ts';
import { DELIVERED_BODY, enqueueEmail, enqueueEmails } from './mailer.ts';

/** The e-mail outbox's worker: what one flush covers, with and without an SMTP server. */
describe.each(DB_KINDS)('mail outbox (%s)', (kind) => {
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let sending: TestApp;
  let recording: TestApp;

  beforeAll(async () => {
    smtp = await startSmtp();
    [sending, recording] = await Promise.all([
      createTestApp(kind, { env: { SMTP_URL: smtp.url } }),
      createTestApp(kind),
    ]);
  });
  afterAll(async () => {
    await Promise.all([sending?.close(), recording?.close()]);
    await smtp?.close();
  });

  it('a flush asked while a message is being sent also sends what was queued meanwhile', async () => {
    const db = sending.database.db;
    const gate = smtp.hold();
    await enqueueEmail(db, { to: 'primero@cliente.mx', subject: 'Primero', text: 'uno' });
    const first = sending.app.mailer.flush();
    // The worker claimed "Primero" (alone: its claim came back short) and is in the middle of sending it.
    // A wait for the worker's connection, not a bound: 10 s ran out once in a loaded CI run.
    await eventually(async () => gate.held() > 0, 30_000, 'el primer correo en camino');
    await enqueueEmail(db, { to: 'segundo@cliente.mx', subject: 'Segundo', text: 'dos' });
    const second = sending.app.mailer.flush();
    gate.release();
    await Promise.all([first, second]);
    // No poll came in between (MAIL_POLL_MS is a minute in the tests): the flush itself sent both.
    expect(smtp.received.map((m) => m.subject).sort()).toEqual(['Primero', 'Segundo']);
    const rows = await db
      .select({ status: emailOutbox.status, text: emailOutbox.text, attempts: emailOutbox.attempts })
      .from(emailOutbox)
      .orderBy(asc(emailOutbox.id));
    expect(rows).toEqual([
      { status: 'enviado', text: DELIVERED_BODY, attempts: 1 },
      { status: 'enviado', text: DELIVERED_BODY, attempts: 1 },
    ]);
  });

  it('without SMTP one flush records every due message, batch after batch, and keeps the body', async () => {
    const db = recording.database.db;
    await enqueueEmails(
      db,
      Array.from({ length: 23 }, (_, i) => ({
        to: `c${i}@cliente.mx`,
        subject: `Aviso ${i}`,
        text: `texto ${i}`,
      })),
    );
    // One not yet due (a retry waiting for its time) stays as it is.
    await enqueueEmail(db, { to: 'luego@cliente.mx', subject: 'Luego', text: 'después' });
    await db
      .update(emailOutbox)
      .set({ nextAttemptAt: new Date(Date.now() + 3_600_000) })
      .where(eq(emailOutbox.subject, 'Luego'));
    await recording.app.mailer.flush();
    const rows = await db
      .select({
        subject: emailOutbox.subject,
        status: emailOutbox.status,
        text: emailOutbox.text,
        attempts: emailOutbox.attempts,
        sent: emailOutbox.sentAt,
      })
      .from(emailOutbox)
      .orderBy(asc(emailOutbox.id));
    expect(rows).toHaveLength(24);
    for (const [i, row] of rows.slice(0, 23).entries()) {
      expect(row).toMatchObject({
        subject: `Aviso ${i}`,
        status: 'registrado',
        text: `texto ${i}`,
        attempts: 1,
      });
      expect(row.sent).toBeInstanceOf(Date);
    }
    expect(rows[23]).toMatchObject({ subject: 'Luego', status: 'pendiente', attempts: 0, sent: null });
  });
});
