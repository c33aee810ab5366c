/**
 * The dashboards' charts, one component per chart, shared by the authorizer's Tablero, the administrator's
 * and (SpendChart) the buyer's history. This module loads only with those screens; its bars are drawn by
 * bar-chart.tsx (decision 0142).
 */
import '@mantine/core/styles/Progress.css';
import { Anchor, Badge, Box, Button, Group, Progress, Stack, Text } from '@mantine/core';
import type { ShareLevel } from '@portal/shared/domain/budget-share';
import { formatMXN } from '@portal/shared/domain/money';
import type { BuyerSpendResponse, DashboardResponse } from '@portal/shared/schemas/dashboard';
import { IconAlertTriangle, IconCircleX } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { STATUS_PALETTE } from '../../../components/orders/status-badge';
import { formatCount, plural } from '../../../lib/format';
import {
  areasTable,
  buyersTable,
  categoriesTable,
  clientsTable,
  dayLabel,
  daysTable,
  LEVEL_TEXT,
  monthLabel,
  monthsTable,
  productsTable,
  type ShareItem,
  STATUS_ORDER,
  shareItems,
  spendTable,
  statusLabel,
} from '../lib/dashboard-data';
import { BarChart } from './bar-chart';
import { ChartCard } from './chart-card';

const money = (pesos: number) => formatMXN(pesos, false);
/** Made at the first axis drawn, not while the dashboard's code loads. */
let compact: Intl.NumberFormat | undefined;
/** Axis ticks: "$12.5 mil". */
const axisMoney = (pesos: number) => {
  compact ??= new Intl.NumberFormat('es-MX', { notation: 'compact', maximumFractionDigits: 1 });
  return `$${compact.format(pesos)}`;
};

/** Shade 7 of each hue: bars keep at least 3:1 against the white card. */
const BAR = 'indigo.6';
const LEVEL_COLOR: Record<ShareLevel, string> = { normal: 'indigo.6', cerca: 'orange.7', excedido: 'red.8' };

interface RangeProps {
  data: DashboardResponse;
  /** The CSV names' prefix ("tablero", "tablero-ferretera"). */
  filePrefix: string;
}

export function MonthsChart({ data, filePrefix }: RangeProps) {
  const table = monthsTable(data.meses);
  const hasOrders = data.meses.some((m) => STATUS_ORDER.some((s) => m[s] > 0));
  return (
    <ChartCard
      title="Pedidos por mes"
      description={`Importe con IVA por estatus, de ${monthLabel(data.desde).toLowerCase()} a ${monthLabel(data.hasta).toLowerCase()}.`}
      table={hasOrders ? table : { ...table, rows: [] }}
      filename={`${filePrefix}-pedidos-por-mes-${data.desde}-${data.hasta}`}
      empty="No hay pedidos en este periodo."
      chart={
        <BarChart
          label="Pedidos por mes"
          h={300}
          data={data.meses.map((m) => ({ ...m, etiqueta: monthLabel(m.mes, true) }))}
          dataKey="etiqueta"
          stacked
          series={STATUS_ORDER.map((s) => ({
            name: s,
            label: statusLabel(s),
            color: `${STATUS_PALETTE[s]}.7`,
          }))}
          withLegend
          valueFormatter={money}
          tickFormatter={axisMoney}
          axisWidth={72}
          maxBarWidth={48}
          data-testid="grafica-meses"
        />
      }
    />
  );
}

/** A share mark in words beside its colour: "Cerca del límite" (≥ 80 %), "Agotado" (≥ 100 %). */
function LevelBadge({ level }: { level: ShareLevel }) {
  if (level === 'normal') return null;
  return (
    <Badge
      size="sm"
      variant="light"
      color={level === 'excedido' ? 'red' : 'orange'}
      // Never cut: the name beside it gives way first.
      style={{ flex: 'none' }}
      leftSection={
        level === 'excedido' ? (
          <IconCircleX size={12} aria-hidden />
        ) : (
          <IconAlertTriangle size={12} aria-hidden />
        )
      }
    >
      {LEVEL_TEXT[level]}
    </Badge>
  );
}

/** Horizontal used-against-budget bars, highest share first; the first `initial` and then all. */
function ShareBars({
  items,
  hrefOf,
  initial = 10,
  noun,
}: {
  items: readonly ShareItem[];
  hrefOf?: (item: ShareItem) => string;
  initial?: number;
  noun: string;
}) {
  const [all, setAll] = useState(false);
  const shown = all ? items : items.slice(0, initial);
  return (
    <Stack gap="sm">
      <Stack component="ul" gap="sm" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {shown.map((item) => (
          <Box component="li" key={item.id} data-testid="barra-presupuesto" data-nivel={item.level}>
            {/* On a phone the figures go under the name rather than squeezing it. */}
            <Group justify="space-between" gap="xs" align="flex-end" style={{ rowGap: 2 }}>
              <Box miw={0} style={{ flex: '1 1 12rem' }}>
                <Group gap={6} wrap="nowrap">
                  {hrefOf ? (
                    <Anchor component={Link} to={hrefOf(item)} fw={600} size="sm" truncate>
                      {item.nombre}
                    </Anchor>
                  ) : (
                    <Text fw={600} size="sm" truncate>
                      {item.nombre}
                    </Text>
                  )}
                  <LevelBadge level={item.level} />
                </Group>
                {item.detalle ? (
                  <Text size="xs" c="dimmed" truncate>
                    {item.detalle}
                  </Text>
                ) : null}
              </Box>
              <Text
                size="sm"
                ta="right"
                ml="auto"
                style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
              >
                {money(item.utilizado)}{' '}
                <Text span c="dimmed" size="sm">
                  / {money(item.presupuesto)}
                </Text>{' '}
                <Text span fw={700} size="sm" c={item.level === 'excedido' ? 'red.9' : undefined}>
                  · {item.percent}
                </Text>
              </Text>
            </Group>
            <Progress
              mt={4}
              size="lg"
              radius="xl"
              value={Number.isFinite(item.share) ? Math.min(100, item.share * 100) : 100}
              color={LEVEL_COLOR[item.level]}
              aria-hidden
            />
          </Box>
        ))}
      </Stack>
      {items.length > initial ? (
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => setAll((v) => !v)}
          style={{ alignSelf: 'center' }}
        >
          {all ? `Mostrar solo los primeros ${initial}` : `Mostrar los ${items.length} ${noun}`}
        </Button>
      ) : null}
    </Stack>
  );
}

export function BuyersChart({
  data,
  filePrefix,
  hrefOf,
}: RangeProps & { hrefOf?: (buyer: ShareItem) => string }) {
  const items = shareItems(data.por_usuario);
  const { total, sobre_80, sobre_100 } = data.usuarios;
  return (
    <ChartCard
      title="Presupuesto usado por comprador"
      description={`${monthLabel(data.mes_actual)}: lo utilizado frente al presupuesto de cada comprador.${hrefOf ? ' Elige un nombre para ver sus pedidos.' : ''}`}
      table={buyersTable(items)}
      filename={`${filePrefix}-compradores-${data.mes_actual}`}
      empty={
        data.cliente
          ? 'Ningún comprador tiene presupuesto ni compras este mes.'
          : 'Elige un cliente para ver a sus compradores.'
      }
      extra={
        total > 0 ? (
          <Group gap="xs" mb="sm" data-testid="conteo-compradores">
            <Badge variant="outline" color="gray" size="lg" radius="sm">
              {plural(total, 'comprador', 'compradores')}
            </Badge>
            <Badge variant="light" color="orange" size="lg" radius="sm">
              {formatCount(sobre_80)} con 80% o más
            </Badge>
            <Badge variant="light" color="red" size="lg" radius="sm">
              {formatCount(sobre_100)} con 100% o más
            </Badge>
          </Group>
        ) : null
      }
      chart={<ShareBars items={items} hrefOf={hrefOf} noun="compradores" />}
    />
  );
}

export function CategoriesChart({ data, filePrefix }: RangeProps) {
  const rows = data.por_categoria;
  const withBudget = rows.some((c) => c.presupuesto !== null);
  return (
    <ChartCard
      title="Gasto por categoría"
      description={`${monthLabel(data.mes_actual)}${withBudget ? ', frente al presupuesto de cada categoría' : ''}.`}
      table={categoriesTable(rows)}
      filename={`${filePrefix}-categorias-${data.mes_actual}`}
      empty={
        data.cliente ? 'No hay compras por categoría este mes.' : 'Elige un cliente para ver sus categorías.'
      }
      chart={
        <BarChart
          label="Gasto por categoría"
          h={Math.max(180, rows.length * (withBudget ? 56 : 36) + 70)}
          data={rows.map((c) => ({ ...c, presupuesto: c.presupuesto ?? 0 }))}
          dataKey="nombre"
          horizontal
          series={[
            { name: 'utilizado', label: 'Utilizado', color: BAR },
            ...(withBudget ? [{ name: 'presupuesto', label: 'Presupuesto', color: 'gray.5' }] : []),
          ]}
          withLegend={withBudget}
          valueFormatter={money}
          tickFormatter={axisMoney}
          axisWidth={130}
          maxBarWidth={22}
          data-testid="grafica-categorias"
        />
      }
    />
  );
}

export function AreasChart({ data, filePrefix }: RangeProps) {
  const rows = data.por_area;
  return (
    <ChartCard
      title="Gasto por área"
      description={`${monthLabel(data.mes_actual)}, frente al presupuesto de cada área (con sus ampliaciones y transferencias).`}
      table={areasTable(rows)}
      filename={`${filePrefix}-areas-${data.mes_actual}`}
      empty="Este cliente no tiene áreas."
      chart={
        <BarChart
          label="Gasto por área"
          h={Math.max(180, rows.length * 56 + 70)}
          data={rows}
          dataKey="nombre"
          horizontal
          series={[
            { name: 'utilizado', label: 'Utilizado', color: BAR },
            { name: 'presupuesto', label: 'Presupuesto', color: 'gray.5' },
          ]}
          withLegend
          valueFormatter={money}
          tickFormatter={axisMoney}
          axisWidth={130}
          maxBarWidth={22}
          data-testid="grafica-areas"
        />
      }
    />
  );
}

export function TopProductsTable({ data, filePrefix }: RangeProps) {
  return (
    <ChartCard
      title="Productos más comprados"
      description="Los 10 de mayor importe (sin IVA) en el periodo, sin pedidos cancelados."
      table={productsTable(data.top_productos)}
      filename={`${filePrefix}-productos-${data.desde}-${data.hasta}`}
      empty="No hay productos comprados en este periodo."
    />
  );
}

export function DailyOrdersChart({ data, filePrefix }: RangeProps) {
  const rows = data.por_dia ?? [];
  const table = daysTable(rows);
  const hasOrders = rows.some((d) => d.pedidos > 0);
  return (
    <ChartCard
      title="Pedidos por día"
      description="Los últimos 30 días."
      table={hasOrders ? table : { ...table, rows: [] }}
      filename={`${filePrefix}-pedidos-por-dia`}
      empty="No hay pedidos en los últimos 30 días."
      chart={
        <BarChart
          label="Pedidos por día"
          h={240}
          data={rows.map((d) => ({ ...d, etiqueta: dayLabel(d.fecha) }))}
          dataKey="etiqueta"
          series={[{ name: 'pedidos', label: 'Pedidos', color: BAR }]}
          valueFormatter={formatCount}
          integers
          axisWidth={40}
          data-testid="grafica-dias"
        />
      }
    />
  );
}

export function ClientsNearChart({
  data,
  filePrefix,
  hrefOf,
}: RangeProps & { hrefOf?: (client: ShareItem) => string }) {
  const items = shareItems(data.clientes_cerca ?? []);
  return (
    <ChartCard
      title="Clientes más cerca de su presupuesto"
      description={`${monthLabel(data.mes_actual)}: lo utilizado frente a la suma de los presupuestos de sus compradores.`}
      table={clientsTable(items)}
      filename={`${filePrefix}-clientes-${data.mes_actual}`}
      empty="Ningún cliente tiene compras ni presupuesto este mes."
      chart={<ShareBars items={items} hrefOf={hrefOf} noun="clientes" initial={8} />}
    />
  );
}

/** One small chart: months against the budget, a reference line at the budget. */
export function SpendChart({
  title,
  meses,
  presupuesto,
  filename,
}: {
  title: string;
  meses: BuyerSpendResponse['meses'];
  presupuesto: number;
  filename: string;
}) {
  return (
    <ChartCard
      title={title}
      description={`Presupuesto: ${money(presupuesto)} al mes.`}
      table={spendTable(meses, presupuesto)}
      filename={filename}
      empty="Sin datos."
      chart={
        <BarChart
          label={title}
          h={190}
          data={meses.map((m) => ({ ...m, etiqueta: monthLabel(m.mes, true) }))}
          dataKey="etiqueta"
          series={[{ name: 'utilizado', label: 'Utilizado', color: BAR }]}
          barColor={(value) => (value > presupuesto ? 'red.8' : BAR)}
          reference={
            presupuesto > 0 ? { value: presupuesto, label: 'Presupuesto', color: 'red.8' } : undefined
          }
          valueFormatter={money}
          tickFormatter={axisMoney}
          axisWidth={64}
          maxBarWidth={36}
          data-testid="grafica-gasto"
        />
      }
    />
  );
}
