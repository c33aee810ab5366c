/**
 * Seals again, under the current SECRET_KEY, every secret kept at rest that a previous key sealed
 * (decision 0102): two-factor secrets (active and pending), webhook signing secrets, the VAPID private key
 * of Web Push (decision 0117) and the clients' single sign-on client secrets (decision 0120).
 *
 * Safe while instances run: rows are read in batches by their key and each one is written back with a
 * compare-and-set on the sealed value it had (`… where id = $1 and column = $old`), one short statement
 * per row; a row that an instance changed in between (a new enrolment, a new signing secret) is read again
 * and never overwritten. Idempotent (what the current key sealed is left as it is) and resumable (an
 * interrupted run leaves every row either as it was or sealed under the new key; the next run finishes).
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../db/client.ts';
import { type AppKeys, encryptionRing } from './keys.ts';
import {
  openWithRing,
  SecretBoxError,
  sealSecret,
  secretContext,
  ssoContext,
  vapidContext,
} from './secret-box.ts';
import { totpContext } from './totp.ts';

/** A column of sealed values. */
export interface SealedColumn {
  /** What the operator reads (Spanish). */
  label: string;
  table: 'users' | 'webhook_endpoints' | 'push_vapid' | 'client_sso';
  column: 'totp_secret' | 'totp_pending_secret' | 'secreto_cifrado' | 'clave_privada_cifrada';
  /** The table's integer key (the rows are read in its order): `id` unless said. */
  key?: 'id' | 'id_cliente';
  /** The context a row's value is sealed with (lib/secret-box.ts), by the row's key. */
  context(id: number): string;
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  {
    label: 'Secretos de verificación en dos pasos',
    table: 'users',
    column: 'totp_secret',
    context: totpContext,
  },
  {
    label: 'Activaciones pendientes de verificación en dos pasos',
    table: 'users',
    column: 'totp_pending_secret',
    context: totpContext,
  },
  {
    label: 'Secretos de firma de webhooks',
    table: 'webhook_endpoints',
    column: 'secreto_cifrado',
    context: secretContext,
  },
  {
    label: 'Clave privada de las notificaciones push (VAPID)',
    table: 'push_vapid',
    column: 'clave_privada_cifrada',
    context: vapidContext,
  },
  {
    label: 'Secretos de cliente del inicio de sesión con la cuenta de la empresa',
    table: 'client_sso',
    column: 'secreto_cifrado',
    key: 'id_cliente',
    context: ssoContext,
  },
];

export interface ColumnCounts {
  label: string;
  /** Sealed under a previous key, now under the current one. */
  reencrypted: number;
  /** Already under the current key. */
  current: number;
  /** Under no key configured: the ids of their rows (to reset them). */
  unreadable: number[];
}

export interface RotationOptions {
  /** Rows read at a time. */
  batchSize?: number;
  /** Stops between rows (the command's Ctrl-C): what is done stays done. */
  signal?: AbortSignal;
  /** Called with each batch once read, before any of it is written (tests change rows there). */
  afterRead?: (column: SealedColumn, ids: number[]) => Promise<void>;
}

/** A row's value, read again after its compare-and-set found it changed. */
async function reread(db: Db, c: SealedColumn, id: number): Promise<string | null> {
  const [row] = await rowsOf<{ sealed: string | null }>(
    db,
    sql`select ${sql.identifier(c.column)} as sealed from ${sql.identifier(c.table)}
        where ${sql.identifier(c.key ?? 'id')} = ${id}`,
  );
  return row?.sealed ?? null;
}

async function rotateColumn(
  db: Db,
  ring: Buffer[],
  c: SealedColumn,
  options: RotationOptions,
): Promise<ColumnCounts> {
  const counts: ColumnCounts = { label: c.label, reencrypted: 0, current: 0, unreadable: [] };
  const table = sql.identifier(c.table);
  const column = sql.identifier(c.column);
  const key = sql.identifier(c.key ?? 'id');
  const batchSize = options.batchSize ?? 100;
  let after = 0;
  for (;;) {
    const batch = await rowsOf<{ id: number; sealed: string }>(
      db,
      sql`select ${key} as id, ${column} as sealed from ${table}
          where ${key} > ${after} and ${column} is not null order by ${key} limit ${batchSize}`,
    );
    if (batch.length === 0) return counts;
    await options.afterRead?.(
      c,
      batch.map((r) => r.id),
    );
    for (const row of batch) {
      options.signal?.throwIfAborted();
      let sealed: string | null = row.sealed;
      // A concurrent change makes the compare-and-set miss: the row is read again and judged anew.
      while (sealed !== null) {
        let opened: { plaintext: string; current: boolean };
        try {
          opened = openWithRing(ring, sealed, c.context(row.id));
        } catch (err) {
          if (!(err instanceof SecretBoxError)) throw err;
          counts.unreadable.push(row.id);
          break;
        }
        if (opened.current) {
          counts.current++;
          break;
        }
        const next = sealSecret(ring[0]!, opened.plaintext, c.context(row.id));
        const set: SQL = sql`update ${table} set ${column} = ${next}
                             where ${key} = ${row.id} and ${column} = ${sealed} returning ${key}`;
        if ((await rowsOf(db, set)).length === 1) {
          counts.reencrypted++;
          break;
        }
        sealed = await reread(db, c, row.id);
      }
      after = row.id;
    }
  }
}

/** Every sealed column, in turn; the counts of each. */
export async function rotateSecrets(
  db: Db,
  keys: Pick<AppKeys, 'encryption' | 'encryptionPrevious'>,
  options: RotationOptions = {},
): Promise<ColumnCounts[]> {
  const ring = encryptionRing(keys);
  const result: ColumnCounts[] = [];
  for (const c of SEALED_COLUMNS) result.push(await rotateColumn(db, ring, c, options));
  return result;
}

/** The command's report (Spanish), one line per column and a summary. */
export function rotationReport(counts: ColumnCounts[]): string {
  const lines = counts.map(
    (c) =>
      `${c.label}: vueltos a cifrar ${c.reencrypted}, ya con la clave actual ${c.current}, ilegibles ${c.unreadable.length}` +
      (c.unreadable.length > 0 ? ` (ids ${c.unreadable.join(', ')})` : ''),
  );
  const total = (f: (c: ColumnCounts) => number) => counts.reduce((n, c) => n + f(c), 0);
  const reencrypted = total((c) => c.reencrypted);
  const unreadable = total((c) => c.unreadable.length);
  const current = total((c) => c.current);
  lines.push(
    `Total: vueltos a cifrar ${reencrypted}, ya con la clave actual ${current}, ilegibles ${unreadable} (no se abren con ninguna clave configurada).`,
  );
  if (reencrypted === 0)
    lines.push('Nada que volver a cifrar: todo estaba ya con la clave actual o es ilegible.');
  if (unreadable > 0)
    lines.push(
      'Los ilegibles no se pueden recuperar: restablece la verificación en dos pasos de esos usuarios (Usuarios → Restablecer verificación en dos pasos) y registra de nuevo esos webhooks (el secreto nuevo se muestra al registrarlos). Si es la clave de las notificaciones push, bórrala (`delete from push_vapid`) y reinicia: se crea otra y cada dispositivo se suscribe de nuevo al abrir el portal. Si es el secreto de cliente del inicio de sesión con la cuenta de la empresa, guarda de nuevo ese cliente con su secreto (los ids son los de los clientes).',
    );
  return `${lines.join('\n')}\n`;
}
