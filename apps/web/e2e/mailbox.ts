import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { E2E_PORT } from './ports';

/** Every e-mail the e2e server sends lands in this file (one JSON per line), written by the global setup. */
export const MAILBOX = path.resolve(import.meta.dirname, `../../../.tmp/e2e-mailbox-${E2E_PORT}.jsonl`);

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export function resetMailbox(): void {
  rmSync(MAILBOX, { force: true });
}

export function deliver(mail: Mail): void {
  appendFileSync(MAILBOX, `${JSON.stringify(mail)}\n`);
}

/**
 * The e-mails delivered so far. Only lines that end in a line break are read: the SMTP server of another
 * test worker may be appending one at this moment, and its half-written line is read on the next poll.
 */
export function readMailbox(): Mail[] {
  if (!existsSync(MAILBOX)) return [];
  const text = readFileSync(MAILBOX, 'utf8');
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Mail);
}

/** Waits for an e-mail that matches (the newest first). */
export async function waitForMail(predicate: (m: Mail) => boolean, timeoutMs = 20_000): Promise<Mail> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const found = readMailbox().reverse().find(predicate);
    if (found) return found;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(
    `No llegó el correo esperado (recibidos: ${readMailbox()
      .map((m) => m.subject)
      .join(' | ')})`,
  );
}
