import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  attachments: { filename: string; contentType: string; content: Buffer }[];
}

/** A real SMTP server on a free loopback port that keeps what it receives. */
export async function startSmtp() {
  const received: ReceivedMail[] = [];
  /** While set, each message's data waits for it before it is taken (`hold`). */
  let gate: Promise<void> | null = null;
  let held = 0;
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      const waiting = gate;
      if (waiting) held++;
      Promise.resolve(waiting)
        .then(() => simpleParser(stream))
        .then((mail: ParsedMail) => {
          const to = Array.isArray(mail.to) ? mail.to.map((a) => a.text).join(', ') : (mail.to?.text ?? '');
          received.push({
            to,
            subject: mail.subject ?? '',
            text: mail.text ?? '',
            html: typeof mail.html === 'string' ? mail.html : '',
            attachments: mail.attachments.map((a) => ({
              filename: a.filename ?? '',
              contentType: a.contentType,
              content: a.content,
            })),
          });
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /**
     * Holds every message from now on until `release()`: the sender stays in the middle of its delivery.
     * `held()` counts the messages that arrived and wait.
     */
    hold() {
      let release = () => {};
      gate = new Promise<void>((resolve) => {
        release = resolve;
      });
      return {
        held: () => held,
        release: () => {
          gate = null;
          release();
        },
      };
    },
    /** Waits until a message matching the predicate arrives. */
    async waitFor(predicate: (m: ReceivedMail) => boolean, timeoutMs = 10_000): Promise<ReceivedMail> {
      const start = Date.now();
      while (Date.now() - start < timeoutMs) {
        const found = received.find(predicate);
        if (found) return found;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(
        `no llegó el correo esperado (recibidos: ${received.map((m) => m.subject).join(' | ')})`,
      );
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
