/**
 * The header's bell (decision 0114), for every role: the unread count on an icon of a fixed size (the badge
 * floats over it, so nothing in the header moves when it comes), and a popover with the latest items. The
 * count comes with the list's first page, asked for as the shell mounts without holding anything up, and
 * again when the live updates say the bell changed (or every minute while they are down); the popover's list
 * is a chunk of its own, loaded when the bell is first pointed at or opened.
 */
import '@mantine/core/styles/Indicator.css';
import { ActionIcon, Indicator, Popover } from '@mantine/core';
import { useIdle, useWindowEvent } from '@mantine/hooks';
import { IconBell } from '@tabler/icons-react';
import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useId, useState } from 'react';
import { LoadingRows } from '../../../components/ui/list-states';
import { useLiveEventsUp } from '../../../lib/live-events';
import { notificationKeys, notificationsQuery } from '../api/notifications';
import {
  bellLabel,
  firstPageOnly,
  type NotificationPages,
  unreadBadge,
  unreadOf,
} from '../lib/notifications';

const loadList = () => import('./notification-list');
const NotificationList = lazy(loadList);

/**
 * How often the bell asks again while the tab is visible (react-query stops the interval in a hidden tab)
 * and the live updates' stream is down; while it is up, the stream says when to ask (decision 0116).
 */
const REFRESH_MS = 60_000;

/**
 * After this long without a key, a pointer or a scroll in the tab the bell stops asking (until the next one,
 * or the window's focus): each request slides the session's idle expiry, and an unattended tab must still
 * be signed out when its idle time is up.
 */
const IDLE_MS = 10 * 60_000;

/** The popover's width: 360 px, or the screen less a margin on each side on a phone. */
const POPOVER_WIDTH = 'min(360px, calc(100vw - 16px))';

export function NotificationBell() {
  const queryClient = useQueryClient();
  const [opened, setOpened] = useState(false);
  const dropdownId = useId();
  const idle = useIdle(IDLE_MS, { initialState: false });
  // Escape closes the list wherever the focus is: a live update can re-render what had it (decision 0116).
  useWindowEvent('keydown', (event) => {
    if (opened && event.key === 'Escape') setOpened(false);
  });
  const live = useLiveEventsUp();
  const list = useInfiniteQuery({
    ...notificationsQuery,
    refetchInterval: idle || live ? false : REFRESH_MS,
  });
  const count = unreadOf(list.data);
  const badge = unreadBadge(count);

  const toggle = (next: boolean) => {
    setOpened(next);
    // Closed, the bell keeps only the first page: its refresh each minute asks for one page again.
    if (!next)
      queryClient.setQueryData<NotificationPages>(
        notificationKeys.list,
        (data) => data && firstPageOnly(data),
      );
  };

  return (
    <Popover
      opened={opened}
      onChange={toggle}
      position="bottom-end"
      width={POPOVER_WIDTH}
      shadow="md"
      radius="md"
      offset={8}
      middlewares={{ shift: { padding: 8 }, flip: false }}
      trapFocus
      returnFocus
      // Its own roles: Mantine's would name the dropdown by the bell, whose name carries the count.
      withRoles={false}
    >
      <Indicator
        label={badge}
        size={18}
        disabled={badge === null}
        color="red"
        offset={4}
        inline
        data-testid="campana"
      >
        <Popover.Target>
          <ActionIcon
            variant="light"
            size="lg"
            radius="xl"
            aria-label={bellLabel(count)}
            aria-haspopup="dialog"
            aria-expanded={opened}
            aria-controls={opened ? dropdownId : undefined}
            onClick={() => toggle(!opened)}
            onPointerEnter={() => void loadList()}
            onFocus={() => void loadList()}
          >
            <IconBell size={20} />
          </ActionIcon>
        </Popover.Target>
      </Indicator>
      <Popover.Dropdown p={0} id={dropdownId} role="dialog" aria-label="Avisos" tabIndex={-1}>
        <Suspense fallback={<LoadingRows label="Cargando avisos" rows={4} height={52} />}>
          <NotificationList onClose={() => toggle(false)} />
        </Suspense>
      </Popover.Dropdown>
    </Popover>
  );
}
