/**
 * The bell and the notification preferences (issue 43 item 1, decision 0114). The items are written with the
 * e-mails that tell people things (lib/mailer.ts `outboxCtes`, in the same statement); here a person reads
 * their own, marks them read, and chooses per kind how to be told. Another person's item answers like a
 * missing one.
 */
import {
  channelsWithDefaults,
  DEFAULT_DIGEST_HOUR,
  kindsForRole,
  type NotificationChannel,
  type NotificationKind,
  UNREAD_COUNT_CAP,
} from '@portal/shared/domain/notifications';
import { MAX_ID } from '@portal/shared/limits';
import type {
  NotificationPreferences,
  NotificationPreferencesBody,
  NotificationsMarked,
  NotificationsPage,
} from '@portal/shared/schemas/notifications';
import { and, eq, isNull, sql } from 'drizzle-orm';
import { type Db, rowsOf } from '../../db/client.ts';
import { executeNamed } from '../../db/prepared.ts';
import { notificationSettings, notifications, pushSubscriptions } from '../../db/schema/index.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';

/** Items a page of the bell holds. */
export const NOTIFICATIONS_PAGE = 20;

interface BellRow {
  unread: number;
  id: number | null;
  tipo: string;
  titulo: string;
  texto: string;
  ruta: string;
  creada: Date | string;
  leida: boolean;
}

/**
 * The person's unread count and a page of their items, newest first (`antes`: older than that item), in one
 * named statement: the bell asks every minute for everyone signed in (benchmarks, scenario `avisos`).
 */
export async function listNotifications(
  db: Db,
  userId: number,
  antes: number | undefined,
): Promise<NotificationsPage> {
  const rows = await executeNamed<BellRow>(
    db,
    'portal_bell',
    sql`select c.unread, n.id, n.tipo, n.titulo, n.texto, n.ruta, n.created_at as creada, n.leida
        from (${unreadSql(userId)}) c
        left join lateral (
          select id, tipo, titulo, texto, ruta, created_at, read_at is not null as leida
          from ${notifications}
          where user_id = ${userId} and id < ${antes ?? MAX_ID + 1}::bigint
          order by id desc
          limit ${NOTIFICATIONS_PAGE + 1}
        ) n on true
        order by n.id desc`,
  );
  const items = rows.filter((r) => r.id !== null);
  return {
    no_leidas: rows[0]?.unread ?? 0,
    notificaciones: items.slice(0, NOTIFICATIONS_PAGE).map((r) => ({
      id: r.id!,
      tipo: r.tipo as NotificationKind,
      titulo: r.titulo,
      texto: r.texto,
      ruta: r.ruta,
      creada: new Date(r.creada).toISOString(),
      leida: r.leida,
    })),
    hay_mas: items.length > NOTIFICATIONS_PAGE,
  };
}

/** The person's unread items, counted up to UNREAD_COUNT_CAP, as one row `unread`. */
function unreadSql(userId: number) {
  return sql`select count(*)::int as unread from (
      select 1 from ${notifications} where user_id = ${userId} and read_at is null
      limit ${UNREAD_COUNT_CAP}) u`;
}

async function unreadCount(db: Db, userId: number): Promise<number> {
  const [row] = await rowsOf<{ unread: number }>(db, unreadSql(userId));
  return row?.unread ?? 0;
}

/**
 * Marks one of the person's items read (again is fine: `marcadas` 0); someone else's answers like a missing
 * one. Answers what is left unread.
 */
export async function markRead(db: Db, userId: number, id: number, now: Date): Promise<NotificationsMarked> {
  const [row] = await rowsOf<{ antes: Date | null }>(
    db,
    sql`update ${notifications} n set read_at = coalesce(n.read_at, ${now})
        from (select id, read_at from ${notifications} where id = ${id} and user_id = ${userId} for update) old
        where n.id = old.id
        returning old.read_at as antes`,
  );
  if (!row) throw notFound(MSG.avisoNoEncontrado);
  return { marcadas: row.antes === null ? 1 : 0, no_leidas: await unreadCount(db, userId) };
}

/** Marks every unread item of the person read; answers how many (and that none are left). */
export async function markAllRead(db: Db, userId: number, now: Date): Promise<NotificationsMarked> {
  const rows = await db
    .update(notifications)
    .set({ readAt: now })
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)))
    .returning({ id: notifications.id });
  return { marcadas: rows.length, no_leidas: await unreadCount(db, userId) };
}

/**
 * The person's channel per kind (defaults filled in), the digest hour, the kinds their role receives, whether
 * pushes show amounts, and how many devices receive their pushes (decision 0117).
 */
export async function preferences(
  db: Db,
  user: { id: number; rol: number },
): Promise<NotificationPreferences> {
  const [row] = await rowsOf<{
    canales: Record<string, string> | null;
    resumenHora: number | null;
    importes: boolean | null;
    telefonos: number;
  }>(
    db,
    sql`select s.canales, s.resumen_hora as "resumenHora", s.importes_en_telefono as importes,
          (select count(*)::int from ${pushSubscriptions} where user_id = ${user.id}) as telefonos
        from (select 1) one
        left join ${notificationSettings} s on s.user_id = ${user.id}`,
  );
  return {
    canales: channelsWithDefaults(row?.canales as Partial<Record<NotificationKind, NotificationChannel>>),
    resumen_hora: row?.resumenHora ?? DEFAULT_DIGEST_HOUR,
    tipos: [...kindsForRole(user.rol)],
    importes_en_telefono: row?.importes ?? false,
    telefonos: row?.telefonos ?? 0,
  };
}

/**
 * Saves the person's choices: the kinds named change, the others keep theirs. A kind the role never receives
 * is refused (400), so the screen and the server agree on what there is to choose.
 */
export async function setPreferences(
  db: Db,
  user: { id: number; rol: number },
  body: NotificationPreferencesBody,
  now: Date,
): Promise<NotificationPreferences> {
  const allowed = kindsForRole(user.rol);
  const chosen = Object.entries(body.canales) as [NotificationKind, NotificationChannel][];
  if (chosen.some(([kind]) => !allowed.includes(kind)))
    throw badRequest('VALIDATION', MSG.avisoTipoNoAplica, { canales: MSG.avisoTipoNoAplica });
  const canales = JSON.stringify(Object.fromEntries(chosen));
  const importes =
    body.importes_en_telefono === undefined ? {} : { importesEnTelefono: body.importes_en_telefono };
  await db
    .insert(notificationSettings)
    .values({
      userId: user.id,
      canales: Object.fromEntries(chosen),
      resumenHora: body.resumen_hora,
      ...importes,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: notificationSettings.userId,
      set: {
        canales: sql`${notificationSettings.canales} || ${canales}::jsonb`,
        resumenHora: body.resumen_hora,
        ...importes,
        updatedAt: now,
      },
    });
  return preferences(db, user);
}
