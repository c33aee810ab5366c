import { mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { CHROMIUM } from './chromium';
import { deliver, MAILBOX, resetMailbox } from './mailbox';
import { E2E_SMTP_PORT, SUFFIX_CLAIMS } from './ports';

/**
 * The browser tests need Debian's Chromium (./chromium.ts); without it they fail (never skip) with one clear line.
 * A real SMTP server runs for the whole run and writes what it receives to the mailbox file, so any spec
 * can read the e-mails the portal sends.
 */
export default async function globalSetup(): Promise<() => Promise<void>> {
  if (!CHROMIUM) {
    const error = new Error(
      'Chromium no está instalado: ejecuta `apt-get install -y chromium-headless-shell`',
    );
    error.stack = error.message;
    throw error;
  }
  mkdirSync(path.dirname(MAILBOX), { recursive: true });
  resetMailbox();
  // A new run draws its data's suffixes afresh (its server's database is new too).
  rmSync(SUFFIX_CLAIMS, { recursive: true, force: true });
  mkdirSync(SUFFIX_CLAIMS, { recursive: true });
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail: ParsedMail) => {
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
          deliver({ to, subject: mail.subject ?? '', text: mail.text ?? '' });
          callback();
        })
        .catch((error: Error) => callback(error));
    },
  });
  await new Promise<void>((resolve, reject) => {
    smtp.once('error', reject);
    smtp.listen(E2E_SMTP_PORT, '127.0.0.1', () => resolve());
  });
  return () => new Promise<void>((resolve) => smtp.close(() => resolve()));
}
