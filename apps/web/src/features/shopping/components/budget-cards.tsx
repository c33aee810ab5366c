import { Progress, SimpleGrid, Text } from '@mantine/core';
import type { CategoryDto, ShopperSession } from '@portal/shared/schemas/shopping';
import { IconChartPie, IconReceipt2, IconShoppingCart, IconWallet } from '@tabler/icons-react';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCentavos } from '../../../lib/format';
import { budgetCardFigures } from '../budget-figures';

interface BudgetCardsProps {
  shopper: ShopperSession;
  /** On a category page in category mode: that category's figures. */
  categoria?: CategoryDto | null;
}

/** The four budget cards (spec §2), shown only when the client lets its users see their budget. */
export function BudgetCards({ shopper, categoria }: BudgetCardsProps) {
  const { presupuesto: p } = shopper;
  if (!p.mostrar) return null;
  const { byCategory, total, utilizado, restante, enCarrito, unidades, usedPct } = budgetCardFigures(
    shopper,
    categoria,
  );
  const limite = p.limite_de_compras;

  return (
    <SimpleGrid cols={{ base: 2, lg: 4 }} spacing={{ base: 'xs', sm: 'md' }} mb="lg">
      <StatCard
        label="Presupuesto mensual"
        value={formatCentavos(total)}
        icon={<IconWallet size={18} />}
        color="indigo"
        caption={byCategory && categoria ? `Categoría ${categoria.nombre}` : 'Se renueva cada mes'}
      />
      <StatCard
        label="Utilizado"
        value={formatCentavos(utilizado)}
        icon={<IconReceipt2 size={18} />}
        color="orange"
        caption="Pedidos del mes (con IVA)"
      />
      <StatCard
        label="Restante"
        value={
          <Text span inherit c={restante < 0 ? 'red' : 'teal'}>
            {formatCentavos(restante)}
          </Text>
        }
        icon={<IconChartPie size={18} />}
        color="teal"
        caption={
          enCarrito > 0 ? `Ya descuenta tu carrito: ${formatCentavos(enCarrito)}` : 'Disponible para comprar'
        }
      >
        <Progress
          value={usedPct}
          size="sm"
          mt={8}
          color={usedPct >= 90 ? 'red' : usedPct >= 70 ? 'orange' : 'teal'}
          aria-label="Presupuesto comprometido"
        />
      </StatCard>
      <StatCard
        label="Productos en carrito"
        value={unidades}
        icon={<IconShoppingCart size={18} />}
        color="grape"
        caption={
          byCategory
            ? 'De esta categoría'
            : limite === -1
              ? 'Sin límite de pedidos al mes'
              : `Pedidos este mes: ${p.cantidad_de_compras} de ${limite}`
        }
      />
    </SimpleGrid>
  );
}
