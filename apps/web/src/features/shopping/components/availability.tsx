import { Text } from '@mantine/core';
import { type Disponibilidad, disponibilidadLabel } from '@portal/shared/domain/stock';

/** The theme's readable text colours (app/theme.ts: the filled shade darkened to 4.5:1 on the page). */
const COLOR: Record<Disponibilidad['estado'], string> = {
  en_existencia: 'var(--mantine-color-teal-filled)',
  pocas: 'var(--mantine-color-orange-filled)',
  sobre_pedido: 'var(--mantine-color-gray-7)',
};

/**
 * What the catalogue says of a product's stock (decision 0124): "En existencia", "Quedan 3" or
 * "Sobre pedido · entrega estimada 12/12/2026"; nothing when the stock is unknown.
 */
export function Availability({ value, mt }: { value: Disponibilidad | null; mt?: number }) {
  if (!value) return null;
  return (
    <Text size="xs" fw={600} c={COLOR[value.estado]} mt={mt} data-testid="disponibilidad">
      {disponibilidadLabel(value)}
    </Text>
  );
}
