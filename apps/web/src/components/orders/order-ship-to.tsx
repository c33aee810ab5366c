import { Group, Paper, Text } from '@mantine/core';
import type { OrderDetailDto } from '@portal/shared/schemas/orders';
import { IconMapPin } from '@tabler/icons-react';

/**
 * The delivery address the order copied when it was placed (decisions 0094, 0126): the whole line and who
 * receives; later edits of the profile or the address book never change it.
 */
export function OrderShipTo({ entrega }: { entrega: OrderDetailDto['entrega'] }) {
  if (!entrega?.direccion) return null;
  return (
    <Paper withBorder radius="md" p="sm" data-testid="pedido-entrega" aria-labelledby="pedido-entrega-titulo">
      <Group gap={6} mb={2} wrap="nowrap">
        <IconMapPin size={16} color="var(--mantine-color-indigo-6)" aria-hidden />
        <Text size="sm" fw={600} id="pedido-entrega-titulo">
          Dirección de entrega
        </Text>
      </Group>
      <Text size="sm" pl={22} style={{ overflowWrap: 'anywhere' }}>
        {entrega.direccion}
      </Text>
      {entrega.contacto ? (
        <Text size="sm" pl={22} c="dimmed">
          {entrega.contacto}
        </Text>
      ) : null}
    </Paper>
  );
}
