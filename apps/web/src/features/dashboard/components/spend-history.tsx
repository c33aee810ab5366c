/**
 * The buyer's last six months against the budget, on the history page: one small chart, and in category
 * mode one per category with a budget. Loaded lazily with the charts.
 */
import { SimpleGrid, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { spendQuery } from '../api/spend';
import { SpendChart } from './charts';
import { SPEND_CARD_HEIGHT, SpendHistoryPlaceholder } from './spend-history-placeholder';

export function SpendHistory() {
  const { data, isLoading, isError } = useQuery(spendQuery());
  if (isLoading) return <SpendHistoryPlaceholder />;
  // The history below still works without the chart.
  if (isError || !data) return null;
  return (
    <Stack gap="md" mb="lg">
      <Stack mih={SPEND_CARD_HEIGHT} justify="flex-start">
        <SpendChart
          title="Tu gasto de los últimos 6 meses"
          meses={data.meses}
          presupuesto={data.presupuesto}
          filename="mi-gasto-6-meses"
        />
      </Stack>
      {data.modo === 'categoria' && data.categorias.length > 0 ? (
        <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }} spacing="md">
          {data.categorias.map((c) => (
            <SpendChart
              key={c.id}
              title={c.nombre}
              meses={c.meses}
              presupuesto={c.presupuesto}
              filename={`mi-gasto-${c.id}`}
            />
          ))}
        </SimpleGrid>
      ) : null}
    </Stack>
  );
}
