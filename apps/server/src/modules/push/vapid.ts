/**
 * The portal's VAPID key pair (RFC 8292; decision 0117): made at the first start, kept in `push_vapid` (one
 * row) with the private key sealed under the app's encryption key, and read once per process.
 */
import { eq } from 'drizzle-orm';
import webpush from 'web-push';
import type { Config } from '../../config.ts';
import { pushVapid } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { encryptionRing } from '../../lib/keys.ts';
import { openWithRing, SecretBoxError, sealSecret, vapidContext } from '../../lib/secret-box.ts';

/** push_vapid's one row. */
const ROW = 1;

export interface VapidKeys {
  /** The uncompressed P-256 public key, base64url: the browser's `applicationServerKey`. */
  publicKey: string;
  /** The private key (base64url, 32 bytes); null when it is sealed under no key this server knows. */
  privateKey: string | null;
}

/**
 * The key pair, made if there is none: the new pair is inserted with `on conflict do nothing` and the row read
 * back, so two instances starting at once both end with the one pair that won. A private key that opens
 * with no configured key (SECRET_KEY changed without SECRET_KEY_PREVIOUS) is reported in the log; pushes
 * wait until an operator fixes the key or deletes the row (a new pair; devices subscribe again).
 */
export async function loadVapidKeys(deps: Pick<Deps, 'db' | 'keys' | 'clock' | 'log'>): Promise<VapidKeys> {
  const read = async () => (await deps.db.select().from(pushVapid).where(eq(pushVapid.id, ROW)))[0];
  let row = await read();
  if (!row) {
    const pair = webpush.generateVAPIDKeys();
    await deps.db
      .insert(pushVapid)
      .values({
        id: ROW,
        clavePublica: pair.publicKey,
        clavePrivadaCifrada: sealSecret(deps.keys.encryption, pair.privateKey, vapidContext(ROW)),
        createdAt: deps.clock.now(),
      })
      .onConflictDoNothing();
    row = await read();
    if (!row) throw new Error('push_vapid: no se pudo guardar el par de claves');
  }
  try {
    const opened = openWithRing(encryptionRing(deps.keys), row.clavePrivadaCifrada, vapidContext(ROW));
    return { publicKey: row.clavePublica, privateKey: opened.plaintext };
  } catch (err) {
    if (!(err instanceof SecretBoxError)) throw err;
    deps.log.error(
      'La clave privada de las notificaciones push no se abre con ninguna clave configurada (SECRET_KEY cambió): no se envían avisos al teléfono. Configura SECRET_KEY_PREVIOUS o borra la fila de push_vapid y reinicia.',
    );
    return { publicKey: row.clavePublica, privateKey: null };
  }
}

/**
 * The VAPID subject (the `sub` of every JWT): PUSH_SUBJECT, else PUBLIC_URL when it is https, else a mailto:
 * of MAIL_FROM's address. Push services accept only `mailto:` and `https:` subjects.
 */
export function vapidSubject(config: Pick<Config, 'PUSH_SUBJECT' | 'PUBLIC_URL' | 'MAIL_FROM'>): string {
  if (config.PUSH_SUBJECT) return config.PUSH_SUBJECT;
  if (config.PUBLIC_URL.startsWith('https://')) return config.PUBLIC_URL;
  const address = /<([^<>\s]+@[^<>\s]+)>/.exec(config.MAIL_FROM)?.[1] ?? config.MAIL_FROM.trim();
  return /^[^\s@<>]+@[^\s@<>]+$/.test(address)
    ? `mailto:${address}`
    : 'mailto:no-reply@portal-de-compras.local';
}
