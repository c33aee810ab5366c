/**
 * The signed-in person's notification centre (decision 0114): the bell's items with the unread count, marking
 * them read, and how each kind of notice reaches them. Types come from the shared schemas.
 */
import type {
  NotificationPreferences,
  NotificationPreferencesBody,
  NotificationsMarked,
  NotificationsPage,
} from '@portal/shared/schemas/notifications';
import { infiniteQueryOptions, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { markedRead, type NotificationPages, nextPageParam } from '../lib/notifications';

export type { NotificationPreferences, NotificationsPage };

export const notificationKeys = {
  all: ['notificaciones'] as const,
  /** The bell: the unread count and the items, newest first, one entry per page loaded. */
  list: ['notificaciones', 'lista'] as const,
  preferences: ['notificaciones', 'preferencias'] as const,
};

export function fetchNotifications(
  antes: number | undefined,
  signal?: AbortSignal,
): Promise<NotificationsPage> {
  const query = antes === undefined ? '' : `?${new URLSearchParams({ antes: String(antes) })}`;
  return api.get<NotificationsPage>(`/api/notificaciones${query}`, { signal });
}

/**
 * The bell's list, 20 items a page ("Ver más" asks for the items older than the last one shown); its first
 * page carries the unread count. Asked again when the window gets the focus back and when the live updates
 * say the bell changed (app/live-updates.tsx); every minute while they are down (notification-bell.tsx).
 */
export const notificationsQuery = infiniteQueryOptions({
  queryKey: notificationKeys.list,
  queryFn: ({ pageParam, signal }) => fetchNotifications(pageParam, signal),
  initialPageParam: undefined as number | undefined,
  getNextPageParam: nextPageParam,
  refetchOnWindowFocus: true,
  staleTime: 0,
});

export function markNotificationRead(id: number): Promise<NotificationsMarked> {
  return api.post<NotificationsMarked>(`/api/notificaciones/${id}/leida`);
}

export function markAllNotificationsRead(): Promise<NotificationsMarked> {
  return api.post<NotificationsMarked>('/api/notificaciones/leidas');
}

/**
 * Marks one item (`id`) or every item (null) read: the bell shows it at once, and takes the count the server
 * answers. The callbacks live on the mutation, so they still run when the list that started it has closed.
 */
export function useMarkRead() {
  const queryClient = useQueryClient();
  const update = (change: (data: NotificationPages) => NotificationPages) =>
    queryClient.setQueryData<NotificationPages>(notificationKeys.list, (data) => data && change(data));
  return useMutation({
    mutationFn: (id: number | null) => (id === null ? markAllNotificationsRead() : markNotificationRead(id)),
    onMutate: async (id) => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.list });
      update((data) => markedRead(data, id === null ? null : [id]));
    },
    onSuccess: (res, id) => update((data) => markedRead(data, id === null ? null : [id], res.no_leidas)),
    onError: () => void queryClient.invalidateQueries({ queryKey: notificationKeys.list }),
  });
}

export const preferencesQuery = queryOptions({
  queryKey: notificationKeys.preferences,
  queryFn: ({ signal }) => api.get<NotificationPreferences>('/api/notificaciones/preferencias', { signal }),
  staleTime: 0,
});

export function savePreferences(body: NotificationPreferencesBody): Promise<NotificationPreferences> {
  return api.put<NotificationPreferences>('/api/notificaciones/preferencias', body);
}
