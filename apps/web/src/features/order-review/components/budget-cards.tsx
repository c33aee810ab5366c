import { Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import { IconPackage, IconPigMoney, type IconProps, IconReceipt2, IconWallet } from '@tabler/icons-react';
import type { ComponentType, ReactNode } from 'react';
import { formatCentavos } from '../../../lib/format';
import type { BudgetAfter } from '../lib/order-edits';

interface StatProps {
  label: string;
  value: ReactNode;
  hint: string;
  color: string;
  Icon: ComponentType<IconProps>;
  danger?: boolean;
}

function Stat({ label, value, hint, color, Icon, danger }: StatProps) {
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs">
      <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
        <Text size="xs" tt="uppercase" fw={700} c="dimmed" lh={1.3}>
          {label}
        </Text>
        <ThemeIcon variant="light" color={danger ? 'red' : color} radius="md" size="md" aria-hidden>
          <Icon size={18} />
        </ThemeIcon>
      </Group>
      <Text
        fz={{ base: 18, sm: 22 }}
        fw={700}
        mt={4}
        c={danger ? 'red' : undefined}
        style={{ fontVariantNumeric: 'tabular-nums', overflowWrap: 'anywhere' }}
      >
        {value}
      </Text>
      <Text size="xs" c="dimmed" mt={2}>
        {hint}
      </Text>
    </Paper>
  );
}

/** Spec §2: 'Presupuesto disponible', used, remaining and count of products, recomputed while editing. */
export function BudgetCards({ budget, units }: { budget: BudgetAfter; units: number }) {
  return (
    <SimpleGrid
      cols={{ base: 2, md: 4 }}
      spacing={{ base: 'sm', sm: 'md' }}
      aria-label="Presupuesto del usuario"
    >
      <Stat
        label="Presupuesto disponible"
        value={formatCentavos(budget.disponible)}
        hint="Mensual del usuario"
        color="indigo"
        Icon={IconWallet}
      />
      <Stat
        label="Utilizado"
        value={formatCentavos(budget.utilizado)}
        hint="Otros pedidos del mes"
        color="grape"
        Icon={IconReceipt2}
      />
      <Stat
        label="Restante"
        value={formatCentavos(budget.restante)}
        hint="Después de este pedido"
        color="teal"
        Icon={IconPigMoney}
        danger={budget.restante < 0}
      />
      <Stat
        label="Productos"
        value={units}
        hint={units === 1 ? 'Pieza en este pedido' : 'Piezas en este pedido'}
        color="orange"
        Icon={IconPackage}
      />
    </SimpleGrid>
  );
}
