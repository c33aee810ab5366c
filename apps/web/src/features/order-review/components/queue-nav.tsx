/**
 * Moving through the review queue (decision 0048): the shortcuts' hint, the previous/next buttons of the
 * order screen, and "Siguiente pendiente" once the order needs nothing more from this user.
 */
import '@mantine/core/styles/Kbd.css';
import { Button, Group, Kbd, Text } from '@mantine/core';
import { IconArrowRight, IconChevronLeft, IconChevronRight } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { formatOrderNumber } from '../../../lib/format';

/** A discreet line naming the keys a screen answers to (not on phones). */
export function ShortcutsHint({ keys }: { keys: [string, string][] }) {
  return (
    <Text size="xs" c="dimmed" visibleFrom="sm" data-testid="atajos">
      Atajos:{' '}
      {keys.map(([key, what], i) => (
        <span key={key}>
          {i > 0 ? ' · ' : null}
          <Kbd size="xs">{key}</Kbd> {what}
        </span>
      ))}
    </Text>
  );
}

interface QueueNavProps {
  anterior: number | null;
  siguiente: number | null;
  onGo: (id: number) => void;
}

/** "Anterior" and "Siguiente" in the list's order (k and j). */
export function QueueNav({ anterior, siguiente, onGo }: QueueNavProps) {
  return (
    <Group gap={6} wrap="nowrap">
      <Button
        variant="default"
        size="xs"
        leftSection={<IconChevronLeft size={16} aria-hidden />}
        disabled={anterior === null}
        onClick={() => anterior !== null && onGo(anterior)}
        aria-label={
          anterior === null ? 'Sin pedido anterior' : `Pedido anterior, ${formatOrderNumber(anterior)}`
        }
      >
        Anterior
      </Button>
      <Button
        variant="default"
        size="xs"
        rightSection={<IconChevronRight size={16} aria-hidden />}
        disabled={siguiente === null}
        onClick={() => siguiente !== null && onGo(siguiente)}
        aria-label={
          siguiente === null ? 'Sin pedido siguiente' : `Pedido siguiente, ${formatOrderNumber(siguiente)}`
        }
      >
        Siguiente
      </Button>
    </Group>
  );
}

interface NextPendingProps {
  /** The next order this user can act on under the list's filter, null when none is left. */
  next: number | null | undefined;
  onGo: (id: number) => void;
  backToList: ReactNode;
}

/** After approving or cancelling (or on an order that needs nothing more): on to the next one. */
export function NextPending({ next, onGo, backToList }: NextPendingProps) {
  if (next === undefined) return null;
  return (
    <Group justify="flex-end" gap="sm" mt="sm" data-testid="siguiente-pendiente">
      {next === null ? (
        <>
          <Text size="sm" c="dimmed">
            No hay más pedidos por atender con este filtro.
          </Text>
          {backToList}
        </>
      ) : (
        <Button rightSection={<IconArrowRight size={18} aria-hidden />} onClick={() => onGo(next)}>
          Siguiente pendiente
        </Button>
      )}
    </Group>
  );
}
