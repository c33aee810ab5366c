import { SimpleGrid } from '@mantine/core';
import { IconPackage, IconPigMoney, IconReceipt2, IconWallet } from '@tabler/icons-react';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCentavos } from '../../../lib/format';
import type { BudgetAfter } from '../lib/order-edits';

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
