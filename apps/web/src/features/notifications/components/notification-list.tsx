/**
 * The bell's popover (decision 0114): the latest items, newest first — the title in bold while unread, the
 * text in two lines, when — each a link to what it is about that marks it read and closes the popover;
 * "Marcar todo como leído" and "Ver más" (the next 20). Its own chunk, loaded with the bell's first use.
 */
import { Box, Button, Group, ScrollArea, Text, UnstyledButton, VisuallyHidden } from '@mantine/core';
import type { NotificationDto } from '@portal/shared/schemas/notifications';
import { IconBellOff, IconChecks } from '@tabler/icons-react';
import { useInfiniteQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ListEmpty, LoadError, LoadingRows } from '../../../components/ui/list-states';
import { formatDateTime } from '../../../lib/format';
import { notificationsQuery, useMarkRead } from '../api/notifications';
import { unreadOf } from '../lib/notifications';
import classes from './notification-list.module.css';

interface NotificationListProps {
  /** Closes the popover (an item was opened). */
  onClose: () => void;
}

export function NotificationList({ onClose }: NotificationListProps) {
  const list = useInfiniteQuery(notificationsQuery);
  const mark = useMarkRead();
  const unread = unreadOf(list.data);
  const items = list.data?.pages.flatMap((page) => page.notificaciones) ?? [];

  return (
    <Box>
      <Group justify="space-between" wrap="nowrap" gap="xs" px="md" py="xs">
        <Text fw={700}>Avisos</Text>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<IconChecks size={16} aria-hidden />}
          disabled={unread === 0}
          onClick={() => mark.mutate(null)}
        >
          Marcar todo como leído
        </Button>
      </Group>
      {list.isPending ? (
        <LoadingRows label="Cargando avisos" rows={4} height={52} />
      ) : list.isError ? (
        <LoadError
          title="No se pudieron cargar los avisos"
          error={list.error}
          onRetry={() => void list.refetch()}
        />
      ) : items.length === 0 ? (
        <ListEmpty icon={<IconBellOff size={28} stroke={1.6} />} title="No tienes avisos." py="lg" />
      ) : (
        <ScrollArea.Autosize mah="min(440px, calc(100dvh - 160px))" type="auto" offsetScrollbars={false}>
          <Box
            component="ul"
            m={0}
            p={0}
            style={{ listStyle: 'none', borderTop: '1px solid var(--mantine-color-gray-2)' }}
          >
            {items.map((n) => (
              <li key={n.id}>
                <NotificationItem
                  item={n}
                  onOpen={() => {
                    if (!n.leida) mark.mutate(n.id);
                    onClose();
                  }}
                />
              </li>
            ))}
          </Box>
          {list.hasNextPage ? (
            <Button
              variant="subtle"
              fullWidth
              radius={0}
              onClick={() => void list.fetchNextPage()}
              loading={list.isFetchingNextPage}
            >
              Ver más
            </Button>
          ) : null}
        </ScrollArea.Autosize>
      )}
    </Box>
  );
}

function NotificationItem({ item, onOpen }: { item: NotificationDto; onOpen: () => void }) {
  const unread = !item.leida || undefined;
  return (
    <UnstyledButton
      component={Link}
      to={item.ruta}
      onClick={onOpen}
      className={classes.item}
      data-unread={unread}
    >
      <Group wrap="nowrap" align="flex-start" gap="sm">
        <span className={classes.dot} data-unread={unread} aria-hidden />
        <Box miw={0} flex={1}>
          {unread ? <VisuallyHidden>Sin leer: </VisuallyHidden> : null}
          <Text size="sm" fw={unread ? 700 : 500} span display="block">
            {item.titulo}
          </Text>
          <Text size="sm" c="dimmed" lineClamp={2}>
            {item.texto}
          </Text>
          <Text size="xs" c="dimmed" mt={2}>
            {formatDateTime(item.creada)}
          </Text>
        </Box>
      </Group>
    </UnstyledButton>
  );
}

export default NotificationList;
