/**
 * The notification preferences form's pure part (decision 0114): its values, the body it sends, and where a
 * refusal goes.
 */
import {
  NOTIFICATION_CHANNEL_LABELS,
  NOTIFICATION_CHANNELS,
  type NotificationChannel,
  type NotificationKind,
} from '@portal/shared/domain/notifications';
import type {
  NotificationPreferences,
  NotificationPreferencesBody,
} from '@portal/shared/schemas/notifications';
import { errorMessage } from '../../../lib/api';
import { serverFieldErrors } from '../../../lib/form-errors';

/** Each channel as the selects offer it. */
export const CHANNEL_OPTIONS = NOTIFICATION_CHANNELS.map((value) => ({
  value,
  label: NOTIFICATION_CHANNEL_LABELS[value],
}));

/** "08:00": an hour of the day as the screens show times. */
export function hourLabel(hour: number): string {
  return `${String(hour).padStart(2, '0')}:00`;
}

/** The 24 hours of the daily digest, 00:00 to 23:00 (the select's values are the hours' numbers). */
export const HOUR_OPTIONS = Array.from({ length: 24 }, (_, h) => ({ value: String(h), label: hourLabel(h) }));

/** The form's values: the channel of each of the role's kinds, and the digest hour as the select holds it. */
export interface PreferenceValues {
  canales: Partial<Record<NotificationKind, NotificationChannel>>;
  resumen_hora: string;
  /** Pushes to the phone may show amounts (decision 0117; off until the person says yes). */
  importes_en_telefono: boolean;
}

export function preferenceValues(prefs: NotificationPreferences): PreferenceValues {
  return {
    canales: Object.fromEntries(prefs.tipos.map((kind) => [kind, prefs.canales[kind]])),
    resumen_hora: String(prefs.resumen_hora),
    importes_en_telefono: prefs.importes_en_telefono,
  };
}

/** Whether pushes may show amounts matters only when some kind goes to the phone. */
export function usesPhone(values: Pick<PreferenceValues, 'canales'>): boolean {
  return Object.values(values.canales).includes('telefono');
}

/** The daily digest's hour matters only when some kind goes in it. */
export function usesDailyDigest(values: Pick<PreferenceValues, 'canales'>): boolean {
  return Object.values(values.canales).includes('dia');
}

/** The body of PUT /api/notificaciones/preferencias (the select's hour as a number). */
export function preferencesBody(values: PreferenceValues): NotificationPreferencesBody {
  return {
    canales: values.canales,
    resumen_hora: Number(values.resumen_hora),
    importes_en_telefono: values.importes_en_telefono,
  };
}

/**
 * Where a refusal of the save goes: a kind's channel (`canales.<kind>`) and the hour under their fields;
 * anything else — a kind the role does not receive (`canales`), a lost connection — above the buttons.
 */
export function preferenceRefusal(error: unknown): {
  fields: Record<string, string>;
  refusal: string | null;
} {
  const fields: Record<string, string> = {};
  let refusal: string | null = null;
  for (const [field, message] of Object.entries(serverFieldErrors(error))) {
    if (field === 'resumen_hora' || field === 'importes_en_telefono' || field.startsWith('canales.'))
      fields[field] = message;
    else refusal ??= message;
  }
  if (Object.keys(fields).length === 0 && refusal === null) refusal = errorMessage(error);
  return { fields, refusal };
}
