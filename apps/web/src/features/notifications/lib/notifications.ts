/**
 * The bell's pure part (decision 0114): what it says about the unread count, and its list's cache as the
 * marks change it (the preferences form's part is preferences.ts).
 */
import { UNREAD_COUNT_CAP } from '@portal/shared/domain/notifications';
import type { NotificationsPage } from '@portal/shared/schemas/notifications';

/** The Indicator's text: the count up to 9, "9+" above; null (hidden) at 0. */
export function unreadBadge(count: number): string | null {
  if (count <= 0) return null;
  return count > 9 ? '9+' : String(count);
}

/**
 * The bell's name: "Avisos", or "Avisos, 3 sin leer" (the full count, not the badge's); the server counts up
 * to UNREAD_COUNT_CAP, so at the cap it says "más de 99".
 */
export function bellLabel(count: number): string {
  if (count >= UNREAD_COUNT_CAP) return `Avisos, más de ${UNREAD_COUNT_CAP - 1} sin leer`;
  return count > 0 ? `Avisos, ${count} sin leer` : 'Avisos';
}

/** The list's pages as react-query's infinite query keeps them. */
export interface NotificationPages {
  pages: NotificationsPage[];
  pageParams: unknown[];
}

/** The next page starts after the last item shown (`antes`), when the server says there is one. */
export function nextPageParam(page: NotificationsPage): number | undefined {
  return page.hay_mas ? page.notificaciones.at(-1)?.id : undefined;
}

/** The unread count the server last told (it comes with the first page and with each mark). */
export function unreadOf(data: NotificationPages | undefined): number {
  return data?.pages[0]?.no_leidas ?? 0;
}

/**
 * The pages after marking items read: `ids` (every one when null) read, and the count the server answered,
 * or — before it answers — one less per unread item marked.
 */
export function markedRead(
  data: NotificationPages,
  ids: readonly number[] | null,
  noLeidas?: number,
): NotificationPages {
  const marks = (id: number) => ids === null || ids.includes(id);
  let newlyRead = 0;
  const pages = data.pages.map((page) => ({
    ...page,
    notificaciones: page.notificaciones.map((n) => {
      if (n.leida || !marks(n.id)) return n;
      newlyRead++;
      return { ...n, leida: true };
    }),
  }));
  const count = noLeidas ?? Math.max(0, unreadOf(data) - newlyRead);
  return { ...data, pages: pages.map((page, i) => (i === 0 ? { ...page, no_leidas: count } : page)) };
}

/**
 * Only the first page, as the bell keeps the list while it is closed: its refresh every minute then asks for
 * one page, not every page "Ver más" loaded.
 */
export function firstPageOnly(data: NotificationPages): NotificationPages {
  if (data.pages.length <= 1) return data;
  return { pages: data.pages.slice(0, 1), pageParams: data.pageParams.slice(0, 1) };
}
