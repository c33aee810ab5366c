import { z } from 'zod';
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_KINDS,
  type NotificationChannel,
  type NotificationKind,
} from '../domain/notifications.ts';
import { MAX_ID } from '../limits.ts';
import { MSG } from '../messages.ts';

const Kind = z.enum(NOTIFICATION_KINDS, { error: MSG.avisoTipoInvalido });
const Channel = z.enum(NOTIFICATION_CHANNELS, { error: MSG.avisoCanalInvalido });

/** One item of the bell: what happened, where it is, and whether the person has seen it. */
export const NotificationDto = z.object({
  id: z.number().int(),
  tipo: z.enum(NOTIFICATION_KINDS),
  titulo: z.string(),
  texto: z.string(),
  /** The portal's path it opens (e.g. /autorizador/orden/12). */
  ruta: z.string(),
  creada: z.string(),
  leida: z.boolean(),
});
export type NotificationDto = z.infer<typeof NotificationDto>;

/**
 * GET /api/notificaciones: the unread count (counted up to UNREAD_COUNT_CAP: 100 means "100 or more") and a
 * page of the latest items, newest first.
 */
export const NotificationsQuery = z.object({
  /** The items older than this one (the next page). */
  antes: z.coerce
    .number({ error: MSG.avisoAnteriorInvalido })
    .int(MSG.avisoAnteriorInvalido)
    .min(1, MSG.avisoAnteriorInvalido)
    .max(MAX_ID, MSG.avisoAnteriorInvalido)
    .optional(),
});
export type NotificationsQuery = z.infer<typeof NotificationsQuery>;

export const NotificationsPage = z.object({
  no_leidas: z.number().int(),
  notificaciones: z.array(NotificationDto),
  hay_mas: z.boolean(),
});
export type NotificationsPage = z.infer<typeof NotificationsPage>;

/** POST /api/notificaciones/leidas and /api/notificaciones/{id}/leida: how many were marked, how many are left. */
export const NotificationsMarked = z.object({ marcadas: z.number().int(), no_leidas: z.number().int() });
export type NotificationsMarked = z.infer<typeof NotificationsMarked>;

/**
 * PUT /api/notificaciones/preferencias: a channel per kind (a kind left out keeps its channel), the daily
 * digest's hour (0–23, business time zone) and, optionally, whether pushes to the phone may show amounts
 * (left out: unchanged; false until the person says yes, decision 0117).
 */
export const NotificationPreferencesBody = z.object({
  canales: z.partialRecord(Kind, Channel, { error: MSG.avisoCanalInvalido }),
  resumen_hora: z.coerce
    .number({ error: MSG.resumenHoraInvalida })
    .int(MSG.resumenHoraInvalida)
    .min(0, MSG.resumenHoraInvalida)
    .max(23, MSG.resumenHoraInvalida),
  importes_en_telefono: z.boolean({ error: MSG.importesEnTelefonoInvalido }).optional(),
});
export type NotificationPreferencesBody = z.infer<typeof NotificationPreferencesBody>;

/**
 * GET and PUT /api/notificaciones/preferencias: every kind's channel, the digest hour, the role's kinds, whether
 * pushes show amounts, and how many devices receive this person's pushes (0: a kind set to 'telefono' is only
 * in the bell until a device subscribes).
 */
export const NotificationPreferences = z.object({
  canales: z.record(z.enum(NOTIFICATION_KINDS), z.enum(NOTIFICATION_CHANNELS)),
  resumen_hora: z.number().int(),
  /** The kinds this person can receive, in the order the screen lists them. */
  tipos: z.array(z.enum(NOTIFICATION_KINDS)),
  importes_en_telefono: z.boolean(),
  telefonos: z.number().int(),
});
export type NotificationPreferences = {
  canales: Record<NotificationKind, NotificationChannel>;
  resumen_hora: number;
  tipos: NotificationKind[];
  importes_en_telefono: boolean;
  telefonos: number;
};
