import { Text } from '@mantine/core';
import { MSG } from '@portal/shared/messages';

/**
 * A product's maximum per order ('máx. 3'), shown next to its quantity before the cart would refuse more
 * (decision 0096). `reached` when the cart already holds it; the id lets a disabled control point at it.
 */
export function LimitHint({ id, limit, reached = false }: { id?: string; limit: number; reached?: boolean }) {
  return (
    <Text id={id} size="xs" c="dimmed" lh={1.3} data-testid="limite-producto">
      {reached ? `Tienes el máximo (${limit})` : MSG.maximoPorPedido(limit)}
    </Text>
  );
}
