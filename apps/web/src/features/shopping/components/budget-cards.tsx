import '@mantine/core/styles/Progress.css';
import { Box, Group, Paper, Progress, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import type { CategoryDto, ShopperSession } from '@portal/shared/schemas/shopping';
import {
  IconBuildingFactory2,
  IconChartPie,
  IconReceipt2,
  IconShoppingCart,
  IconWallet,
} from '@tabler/icons-react';
import { useState } from 'react';
import { CategoryIcon } from '../../../components/ui/category-icon';
import { StatCard } from '../../../components/ui/stat-card';
import { formatCentavos, formatMXN } from '../../../lib/format';
import {
  type AreaFigures,
  areaFigures,
  budgetCardFigures,
  type CategoryRemaining,
  categoryRemaining,
  usedAlert,
} from '../lib/budget-figures';
import { offersTopup, type TopupTarget, topupOffer } from '../lib/topups';
import { RequestTopupButton, TopupDialog } from './topup-dialog';

const barColor = (pct: number) => (pct >= 90 ? 'red' : pct >= 70 ? 'orange' : 'teal');

/** Category mode, all products: what each category has left, under the month's sum. */
function CategoryBudgets({ rows }: { rows: CategoryRemaining[] }) {
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      shadow="xs"
      mb="lg"
      role="group"
      aria-label="Restante por categoría"
    >
      <Text size="xs" c="dimmed" fw={700} tt="uppercase" mb="sm" style={{ letterSpacing: '0.04em' }}>
        Restante por categoría
      </Text>
      <SimpleGrid cols={{ base: 1, xs: 2, md: 3, lg: 4 }} spacing="sm" verticalSpacing="sm">
        {rows.map((r) => (
          <Group
            key={r.id}
            gap="sm"
            wrap="nowrap"
            align="flex-start"
            data-testid={`restante-categoria-${r.id}`}
          >
            <ThemeIcon
              variant="light"
              color={r.total > 0 ? 'indigo' : 'gray'}
              radius="md"
              size="md"
              aria-hidden
            >
              <CategoryIcon name={r.icono} size={16} />
            </ThemeIcon>
            <Stack gap={2} miw={0} flex={1}>
              <Group justify="space-between" gap="xs" wrap="nowrap">
                <Text size="sm" fw={600} truncate>
                  {r.nombre}
                </Text>
                {r.total > 0 ? (
                  <Text
                    size="sm"
                    fw={700}
                    c={r.restante < 0 ? 'red.8' : 'teal.9'}
                    style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
                    data-testid="valor"
                  >
                    {formatCentavos(r.restante)}
                  </Text>
                ) : (
                  <Text size="sm" c="dimmed" style={{ whiteSpace: 'nowrap' }} data-testid="valor">
                    Sin presupuesto
                  </Text>
                )}
              </Group>
              {r.total > 0 ? (
                <>
                  <Progress
                    value={r.usedPct}
                    size="xs"
                    color={barColor(r.usedPct)}
                    aria-label={`Presupuesto comprometido de ${r.nombre}`}
                  />
                  <Text size="xs" c="dimmed">
                    de {formatCentavos(r.total)}
                  </Text>
                </>
              ) : null}
            </Stack>
          </Group>
        ))}
      </SimpleGrid>
    </Paper>
  );
}

/**
 * The buyer's área (decision 0123): what the área has left this month after the buyer's cart, out of its
 * budget, shared by everyone in it; 'Solicitar ampliación' once it runs low.
 */
function AreaBudget({ area, onRequestTopup }: { area: AreaFigures; onRequestTopup: () => void }) {
  const title = `Presupuesto del área ${area.nombre}`;
  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      shadow="xs"
      mb="lg"
      role="group"
      aria-label={title}
      data-testid="presupuesto-area"
    >
      <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
        <Group gap="sm" wrap="nowrap" align="flex-start" miw={0}>
          <ThemeIcon variant="light" color="cyan" radius="md" size="md" aria-hidden>
            <IconBuildingFactory2 size={18} />
          </ThemeIcon>
          <Box miw={0}>
            <Text size="xs" c="dimmed" fw={700} tt="uppercase" style={{ letterSpacing: '0.04em' }}>
              {title}
            </Text>
            <Text size="xs" c="dimmed">
              Clave {area.codigo} · lo comparte toda el área
            </Text>
          </Box>
        </Group>
        <Box ta="right" style={{ flexShrink: 0 }}>
          <Text
            fw={700}
            fz={{ base: 17, sm: 22 }}
            lh={1.2}
            c={area.restante < 0 ? 'red' : 'teal'}
            style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
            data-testid="valor"
          >
            {formatCentavos(area.restante)}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            restante de {formatCentavos(area.total)}
          </Text>
        </Box>
      </Group>
      <Progress
        value={area.usedPct}
        size="sm"
        mt={8}
        color={barColor(area.usedPct)}
        aria-label={`Presupuesto comprometido del área ${area.nombre}`}
      />
      <Group justify="space-between" align="center" gap="xs" mt={6}>
        <Text size="xs" c="dimmed">
          Pedidos del mes del área: {formatCentavos(area.utilizado)}
          {area.enCarrito > 0 ? ` · tu carrito: ${formatCentavos(area.enCarrito)}` : ''}
        </Text>
        {offersTopup(area.level, area.restante) ? (
          <RequestTopupButton size="compact-xs" variant="subtle" onClick={onRequestTopup} />
        ) : null}
      </Group>
    </Paper>
  );
}

interface BudgetCardsProps {
  shopper: ShopperSession;
  /** On a category page in category mode: that category's figures. */
  categoria?: CategoryDto | null;
}

/**
 * The four budget cards, shown only when the client lets its users see their budget, and the área's line
 * below them when the buyer belongs to one (decision 0123).
 */
export function BudgetCards({ shopper, categoria }: BudgetCardsProps) {
  const [topup, setTopup] = useState<TopupTarget | null>(null);
  const { presupuesto: p } = shopper;
  if (!p.mostrar) return null;
  const { byCategory, total, utilizado, restante, enCarrito, unidades, usedPct } = budgetCardFigures(
    shopper,
    categoria,
  );
  const alert = usedAlert(shopper, { byCategory, total, utilizado }, categoria);
  const limite = p.limite_de_compras;
  const perCategory = categoria ? null : categoryRemaining(shopper);
  const area = areaFigures(shopper);
  // The buyer's own budget (on a category page in category mode, that category's, if it has one).
  const ownTopup = topupOffer(
    shopper,
    p.tipo_presupuesto === 'categoria' ? 'CATEGORY_BUDGET' : 'BUDGET',
    categoria?.id ?? null,
  );

  return (
    <>
      <SimpleGrid cols={{ base: 2, lg: 4 }} spacing={{ base: 'xs', sm: 'md' }} mb="lg">
        <StatCard
          label="Presupuesto mensual"
          value={formatCentavos(total)}
          icon={<IconWallet size={18} />}
          color="indigo"
          caption={
            byCategory && categoria
              ? `Categoría ${categoria.nombre}`
              : p.ampliaciones > 0
                ? `Incluye ampliación de ${formatMXN(p.ampliaciones)}`
                : 'Se renueva cada mes'
          }
        />
        <StatCard
          label="Utilizado"
          value={formatCentavos(utilizado)}
          icon={<IconReceipt2 size={18} />}
          color="orange"
          caption="Pedidos del mes (con IVA)"
          tone={alert.level === 'agotado' ? 'danger' : alert.level === 'aviso' ? 'warning' : undefined}
          danger={alert.level === 'agotado'}
        >
          {alert.sentence ? (
            <Text
              size="sm"
              fw={600}
              mt={6}
              c={alert.level === 'agotado' ? 'red' : 'yellow'}
              data-testid="aviso-presupuesto"
            >
              {alert.sentence}
            </Text>
          ) : null}
        </StatCard>
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
            enCarrito > 0
              ? `Ya descuenta tu carrito: ${formatCentavos(enCarrito)}`
              : 'Disponible para comprar'
          }
        >
          <Progress
            value={usedPct}
            size="sm"
            mt={8}
            color={barColor(usedPct)}
            aria-label="Presupuesto comprometido"
          />
          {ownTopup && offersTopup(alert.level, restante) ? (
            <RequestTopupButton
              size="compact-xs"
              variant="subtle"
              mt={6}
              px={4}
              onClick={() => setTopup(ownTopup)}
            />
          ) : null}
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
      {area ? (
        <AreaBudget area={area} onRequestTopup={() => setTopup({ destino: 'area', idCategoria: null })} />
      ) : null}
      {perCategory && perCategory.length > 0 ? <CategoryBudgets rows={perCategory} /> : null}
      <TopupDialog target={topup} onClose={() => setTopup(null)} />
    </>
  );
}
