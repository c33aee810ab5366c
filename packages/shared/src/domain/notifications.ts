import { ROLES } from './roles.ts';

/**
 * What a person can be told about (issue 43 item 1, decision 0114). Each kind has a channel the person
 * chooses; every item of every kind also lands in the portal's bell. Account messages (password, access
 * links, two-factor, delegation) are not a kind: they always go by e-mail at once.
 */
export const NOTIFICATION_KINDS = ['por_revisar', 'pedido', 'comentario', 'presupuesto', 'envio'] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];

export const NOTIFICATION_KIND_LABELS: Record<NotificationKind, string> = {
  por_revisar: 'Pedidos por revisar, devueltos o escalados',
  pedido: 'Mis pedidos aprobados o cancelados',
  comentario: 'Comentarios en un pedido',
  presupuesto: 'Alertas de presupuesto',
  envio: 'Envíos y recepciones',
};

/**
 * How: an e-mail at once (today's behaviour, the default), one e-mail an hour or a day listing every item
 * (the digest), only in the portal's bell, or pushed at once to every device the person subscribed (Web Push,
 * decision 0117) and never e-mailed.
 */
export const NOTIFICATION_CHANNELS = ['inmediato', 'hora', 'dia', 'portal', 'telefono'] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

export const NOTIFICATION_CHANNEL_LABELS: Record<NotificationChannel, string> = {
  inmediato: 'Correo al momento',
  hora: 'Resumen cada hora',
  dia: 'Resumen diario',
  portal: 'Solo en el portal',
  telefono: 'En el teléfono',
};

/** The channels whose items wait for a digest e-mail. */
export function isDigest(channel: NotificationChannel): channel is 'hora' | 'dia' {
  return channel === 'hora' || channel === 'dia';
}

/**
 * The unread count is counted up to this many (the answer's `no_leidas`): the bell shows "9+" anyway, and a
 * person who never opens it must not make every page of theirs count thousands of rows.
 */
export const UNREAD_COUNT_CAP = 100;

/** The daily digest's default hour (business time zone). */
export const DEFAULT_DIGEST_HOUR = 8;

/** The kinds a role can receive (its preferences list only these). */
export function kindsForRole(rol: number): readonly NotificationKind[] {
  switch (rol) {
    case ROLES.usuario:
      return ['pedido', 'comentario', 'presupuesto', 'envio'];
    case ROLES.autorizador:
    case ROLES.superAutorizador:
      return ['por_revisar', 'comentario', 'presupuesto'];
    case ROLES.administrador:
      return ['comentario', 'envio'];
    default:
      return [];
  }
}

/** Every kind's channel: what the person chose, else at once. */
export function channelsWithDefaults(
  chosen: Partial<Record<NotificationKind, NotificationChannel>> | null | undefined,
): Record<NotificationKind, NotificationChannel> {
  return Object.fromEntries(NOTIFICATION_KINDS.map((k) => [k, chosen?.[k] ?? 'inmediato'])) as Record<
    NotificationKind,
    NotificationChannel
  >;
}
