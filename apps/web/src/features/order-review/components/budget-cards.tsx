import { Box, Group, Paper, SimpleGrid, Text, ThemeIcon } from '@mantine/core';
import {
  IconBuildingFactory2,
  IconPackage,
  IconPigMoney,
  IconReceipt2,
  IconWallet,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCentavos } from '../../../lib/format';
import type { AreaAfter, BudgetAfter } from '../lib/order-edits';

function AreaFigure({ label, caption, children }: { label: string; caption: string; children: ReactNode }) {
  return (
    <Box miw={0}>
      <Text size="xs" c="dimmed" fw={700} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
        {label}
      </Text>
      <Text
        fw={700}
        fz={{ base: 15, sm: 18 }}
        style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
        data-testid="valor"
      >
        {children}
      </Text>
      <Text size="xs" c="dimmed">
        {caption}
      </Text>
    </Box>
  );
}

/**
 * The área the order is charged to (decision 0123): its budget of the month, what its other orders spend
 * and what is left after this order as edited — red when the approval would overdraw it.
 */
export function AreaBudgetCard({ area }: { area: AreaAfter }) {
  const title = `Presupuesto del área ${area.nombre} (${area.codigo})`;
  const over = area.restante < 0;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      shadow="xs"
      role="group"
      aria-label={title}
      data-testid="presupuesto-area"
      style={over ? { borderColor: 'var(--mantine-color-red-6)', borderWidth: 2 } : undefined}
    >
      <Group gap="sm" wrap="nowrap" mb="sm">
        <ThemeIcon variant="light" color={over ? 'red' : 'cyan'} radius="md" size="md" aria-hidden>
          <IconBuildingFactory2 size={18} />
        </ThemeIcon>
        <Text fw={700} size="sm">
          {title}
        </Text>
      </Group>
      <SimpleGrid cols={3} spacing="xs">
        <AreaFigure label="Disponible" caption="Del mes">
          {formatCentavos(area.disponible)}
        </AreaFigure>
        <AreaFigure label="Utilizado" caption="Otros pedidos del área">
          {formatCentavos(area.utilizado)}
        </AreaFigure>
        <AreaFigure label="Restante" caption="Después de este pedido">
          <Text span inherit c={over ? 'red' : 'teal'}>
            {formatCentavos(area.restante)}
          </Text>
        </AreaFigure>
      </SimpleGrid>
    </Paper>
  );
}

/** 'Presupuesto disponible', used, remaining and count of products, recomputed while editing. */
export function BudgetCards({ budget, units }: { budget: BudgetAfter; units: number }) {
  return (
    <SimpleGrid
      cols={{ base: 2, md: 4 }}
      spacing={{ base: 'sm', sm: 'md' }}
      aria-label="Presupuesto del usuario"
    >
      <StatCard
        label="Presupuesto disponible"
        value={formatCentavos(budget.disponible)}
        caption="Mensual del usuario"
        color="indigo"
        icon={<IconWallet size={18} />}
      />
      <StatCard
        label="Utilizado"
        value={formatCentavos(budget.utilizado)}
        caption="Otros pedidos del mes"
        color="grape"
        icon={<IconReceipt2 size={18} />}
      />
      <StatCard
        label="Restante"
        value={formatCentavos(budget.restante)}
        caption="Después de este pedido"
        color="teal"
        icon={<IconPigMoney size={18} />}
        danger={budget.restante < 0}
      />
      <StatCard
        label="Productos"
        value={units}
        caption={units === 1 ? 'Pieza en este pedido' : 'Piezas en este pedido'}
        color="orange"
        icon={<IconPackage size={18} />}
      />
    </SimpleGrid>
  );
}
