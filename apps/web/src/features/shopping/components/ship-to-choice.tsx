import { Box, Group, Select, Text } from '@mantine/core';
import type { ShipToDto } from '@portal/shared/schemas/addresses';
import type { DeliveryAddress } from '@portal/shared/schemas/shopping';
import { IconMapPin } from '@tabler/icons-react';
import { addressLines } from '../lib/order-info';

interface ShipToChoiceProps {
  /** The buyer's profile address: what the order copies when the client's book gives it none. */
  direccion: DeliveryAddress;
  /** The address book entries the buyer may choose, its default first (decision 0126). */
  choices: readonly ShipToDto[];
  value: number | null;
  onChange: (id: number) => void;
}

/**
 * Where the order will be delivered, before 'Enviar pedido': with address book entries, the one chosen (a
 * Select when there are several) printed whole with who receives; else the profile's address as the
 * administrator registered it.
 */
export function ShipToChoice({ direccion, choices, value, onChange }: ShipToChoiceProps) {
  const chosen = choices.find((c) => c.id === value) ?? choices[0];
  const lines = chosen ? [chosen.direccion, chosen.contacto].filter(Boolean) : addressLines(direccion);
  return (
    <Box component="section" aria-labelledby="direccion-entrega" mb="md" data-testid="direccion-entrega">
      <Group gap={6} mb={4} wrap="nowrap">
        <IconMapPin size={16} color="var(--mantine-color-indigo-6)" aria-hidden />
        <Text size="sm" fw={600} id="direccion-entrega">
          Dirección de entrega
        </Text>
      </Group>
      {chosen && choices.length > 1 ? (
        <Select
          aria-labelledby="direccion-entrega"
          pl={22}
          mb={4}
          maw={420}
          allowDeselect={false}
          data={choices.map((c) => ({
            value: String(c.id),
            label: c.predeterminada ? `${c.nombre} (predeterminada)` : c.nombre,
          }))}
          value={String(chosen.id)}
          onChange={(v) => v && onChange(Number(v))}
        />
      ) : chosen ? (
        <Text size="sm" pl={22} fw={500}>
          {chosen.nombre}
        </Text>
      ) : null}
      {lines.length > 0 ? (
        lines.map((line, i) => (
          <Text key={line} size="sm" pl={22} c={chosen && i === 1 ? 'dimmed' : undefined}>
            {line}
          </Text>
        ))
      ) : (
        <Text size="sm" c="dimmed" pl={22}>
          Sin dirección de entrega registrada; pide a tu administrador que la agregue.
        </Text>
      )}
    </Box>
  );
}
