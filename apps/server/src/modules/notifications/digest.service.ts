/**
 * The notification digests (issue 43 item 1, decision 0114): the items a person gets "cada hora" or "diario"
 * wait in the bell (`notifications.resumen`) until this job sends them, one e-mail listing every item.
 *
 * An hourly digest goes at most once per clock hour: the first run after an item waits, unless one already
 * went this hour (then the first run of the next). A daily digest goes at most once per business day, in the
 * first run at or after the person's hour (`resumen_hora`, business time zone). The job runs every 15 minutes
 * (`NOTIFICATION_DIGEST_CRON`), so a run missed while the server was down is caught up by the next. Each
 * person's digest is claimed on their settings row, locked, in the transaction that marks the items sent and
 * writes the e-mail: two runs, or two instances, never send an item or a digest twice. A deactivated
 * person's waiting items are closed without an e-mail.
 */
import { homeFor } from '@portal/shared/domain/roles';
import { businessDate, formatDateTime, lastBusinessHour } from '@portal/shared/domain/time';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { notificationSettings, notifications, users } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { orderEmail } from '../../lib/emails.ts';
import { defineMailJob } from '../../lib/mail-jobs.ts';
import { addressOf, enqueueEmail } from '../../lib/mailer.ts';

export const DIGEST_QUEUE = 'resumen-avisos';

/** The items one digest lists; the rest are counted (the bell has them all). */
const DIGEST_ITEMS = 50;

interface Item {
  id: number;
  titulo: string;
  texto: string;
  ruta: string;
  creada: Date;
}

/** Sends every digest due at `now`; answers how many e-mails it wrote. */
export async function runDigests(
  deps: { db: Db; publicUrl: string; tz: string },
  now: Date,
): Promise<number> {
  // A deactivated person is told nothing more: their waiting items are closed without an e-mail.
  await deps.db.execute(sql`
    update ${notifications} n set resumido_at = ${now}
    from ${users} u
    where u.id = n.user_id and not u.activo and n.resumen is not null and n.resumido_at is null`);
  const waiting = await rowsOf<{ userId: number }>(
    deps.db,
    sql`select distinct user_id as "userId" from ${notifications}
        where resumen is not null and resumido_at is null
        order by 1`,
  );
  let sent = 0;
  for (const w of waiting) {
    const done = await deps.db.transaction((tx) => sendDigest(tx, deps.publicUrl, deps.tz, w.userId, now));
    if (done) sent++;
  }
  return sent;
}

/**
 * The person's digest, if one is due at `now`: claims it on their settings row (locked), marks its items
 * sent and writes its e-mail, in the caller's transaction. False when nothing was due or it went already.
 */
async function sendDigest(
  tx: Tx,
  publicUrl: string,
  tz: string,
  userId: number,
  now: Date,
): Promise<boolean> {
  const [settings] = await rowsOf<{
    hora: number;
    ultimaHora: Date | string | null;
    ultimoDia: string | null;
  }>(
    tx,
    sql`select resumen_hora as hora, ultimo_resumen_hora as "ultimaHora", ultimo_resumen_dia::text as "ultimoDia"
        from ${notificationSettings} where user_id = ${userId} for update`,
  );
  // Digest items are only written for someone who chose a digest, so the row exists.
  if (!settings) return false;
  const hourStart = new Date(Math.floor(now.getTime() / 3_600_000) * 3_600_000);
  const today = businessDate(now, tz);
  // A raw row's timestamp may come as text, depending on the driver.
  const hourly = settings.ultimaHora === null || new Date(settings.ultimaHora) < hourStart;
  const daily =
    (settings.ultimoDia === null || settings.ultimoDia < today) &&
    businessDate(lastBusinessHour(now, settings.hora, tz), tz) === today;
  const channels = [...(hourly ? ['hora'] : []), ...(daily ? ['dia'] : [])];
  if (channels.length === 0) return false;
  const items = await rowsOf<Item & { resumen: string }>(
    tx,
    sql`update ${notifications} set resumido_at = ${now}
        where user_id = ${userId} and resumido_at is null and created_at <= ${now}
          and resumen = any(${sql.param(channels)}::text[])
        returning id, titulo, texto, ruta, created_at as creada, resumen`,
  );
  if (items.length === 0) return false;
  items.sort((a, b) => a.id - b.id);
  await tx.execute(sql`
    update ${notificationSettings} set
      ultimo_resumen_hora = case when ${items.some((i) => i.resumen === 'hora')} then ${now}::timestamptz
        else ultimo_resumen_hora end,
      ultimo_resumen_dia = case when ${items.some((i) => i.resumen === 'dia')} then ${today}::date
        else ultimo_resumen_dia end
    where user_id = ${userId}`);
  const [person] = await rowsOf<{
    email: string;
    usuario: string;
    nombre: string;
    rol: number;
    activo: boolean;
  }>(tx, sql`select user_id as email, usuario, nombre, rol, activo from ${users} where id = ${userId}`);
  // Without an address the items stay in the bell, read there.
  const to = person?.activo ? addressOf(person) : null;
  if (!person || !to) return false;
  await enqueueEmail(tx, digestEmail(publicUrl, tz, to, person, items));
  return true;
}

function digestEmail(
  publicUrl: string,
  tz: string,
  to: string,
  person: { nombre: string; rol: number },
  items: readonly Item[],
) {
  const n = items.length;
  const shown = items.slice(0, DIGEST_ITEMS);
  const more = n - shown.length;
  return orderEmail(to, person.nombre, {
    subject:
      n === 1 ? 'Tu resumen del Portal de Compras: 1 aviso' : `Tu resumen del Portal de Compras: ${n} avisos`,
    paragraphs: [
      n === 1 ? 'Esto pasó desde tu último resumen:' : `Estos ${n} avisos llegaron desde tu último resumen:`,
      ...shown.map((i) => `${formatDateTime(i.creada, tz)} · ${i.titulo}: ${i.texto} ${publicUrl}${i.ruta}`),
      ...(more > 0 ? [`…y ${more} ${more === 1 ? 'aviso' : 'avisos'} más en la campana del portal.`] : []),
      'Cambia cómo te avisamos en tu menú de perfil, «Notificaciones».',
    ],
    url: `${publicUrl}${homeFor(person.rol)}`,
    label: 'Abrir el portal',
  });
}

/** Declares the digest queue and its schedule (called while the app is built). */
export function defineDigestJobs(deps: Deps): void {
  defineMailJob(deps, {
    name: DIGEST_QUEUE,
    cron: deps.config.NOTIFICATION_DIGEST_CRON,
    expireInSeconds: 15 * 60,
    run: runDigests,
  });
}
