/**
 * «Liberar» (decision 0134): an order held for credit shows this button instead of the state menu; after a
 * confirmation that repeats why it is held, the operator releases it and it may move again. A refusal (409:
 * someone released it first) goes above the queue.
 */
import { Button, Stack, Text } from '@mantine/core';
import type { FulfilmentRow } from '@portal/shared/schemas/fulfilment';
import { IconLockOpen } from '@tabler/icons-react';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { errorMessage } from '../../../lib/api';
import { formatOrderNumber } from '../../../lib/format';
import { useReleaseHold } from './api';

export function useCreditRelease(onRefusal: (refusal: { title: string; text: string } | null) => void) {
  const release = useReleaseHold();
  const ask = (row: FulfilmentRow) => {
    onRefusal(null);
    const numero = formatOrderNumber(row.id);
    confirmAction({
      title: `¿Liberar el pedido ${numero}?`,
      message: (
        <Stack gap="xs">
          <Text size="sm">Está retenido por crédito: {row.retenido_credito}</Text>
          <Text size="sm">Al liberarlo podrá prepararse y enviarse.</Text>
        </Stack>
      ),
      confirmLabel: 'Liberar',
      onConfirm: () =>
        release.mutate(row.id, {
          onSuccess: (res) => showSuccess(`Pedido ${numero}`, res.msg),
          onError: (error) =>
            onRefusal({ title: `No se pudo liberar el pedido ${numero}`, text: errorMessage(error) }),
        }),
    });
  };
  const button = (row: FulfilmentRow) => (
    <Button
      size="xs"
      leftSection={<IconLockOpen size={14} aria-hidden />}
      onClick={() => ask(row)}
      loading={release.isPending && release.variables === row.id}
      aria-label={`Liberar el pedido ${formatOrderNumber(row.id)}`}
    >
      Liberar
    </Button>
  );
  return { button };
}
