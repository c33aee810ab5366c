/**
 * What the authorizer's Tablero and the administrator's share: the range in the URL (`?desde=&hasta=`,
 * months), the loading and error states, and the charts in one grid.
 */
import '@mantine/core/styles/Grid.css';
import { Alert, Grid, Skeleton, Stack } from '@mantine/core';
import { isMonthKey } from '@portal/shared/domain/months';
import type { DashboardResponse } from '@portal/shared/schemas/dashboard';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../../../lib/api';
import { useSearchParamsUpdate } from '../../../lib/search-params';
import type { ShareItem } from '../lib/dashboard-data';
import {
  AreasChart,
  BuyersChart,
  CategoriesChart,
  ClientsNearChart,
  DailyOrdersChart,
  MonthsChart,
  TopProductsTable,
} from './charts';

/** The months the URL asks for (null: the server's default, the last 12), and how to change them. */
/** The range of months in an address (`?desde=&hasta=`); either may be absent (the server's default). */
export function monthRangeOf(params: URLSearchParams): { desde: string | null; hasta: string | null } {
  const month = (key: string) => {
    const v = params.get(key);
    return v && isMonthKey(v) ? v : null;
  };
  return { desde: month('desde'), hasta: month('hasta') };
}

export function useMonthRange() {
  const [params, update] = useSearchParamsUpdate();
  return {
    ...monthRangeOf(params),
    setRange: (desde: string, hasta: string) => update({ desde, hasta }),
  };
}

export function DashboardLoading() {
  return (
    <Stack gap="md" role="status" aria-busy="true" aria-label="Cargando el tablero">
      <Skeleton h={340} radius="lg" />
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Skeleton h={300} radius="lg" />
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <Skeleton h={300} radius="lg" />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

export function DashboardError({ error }: { error: unknown }) {
  return (
    <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
      {errorMessage(error, 'No se pudo cargar el tablero.')}
    </Alert>
  );
}

interface DashboardChartsProps {
  data: DashboardResponse;
  filePrefix: string;
  /** Where a click on a buyer goes (the authorizer's order list for that buyer). */
  buyerHref?: (buyer: ShareItem) => string;
  /** Where a click on a client goes (the administrator's Tablero of that client). */
  clientHref?: (client: ShareItem) => string;
}

function Half({ children, wide, alone }: { children: ReactNode; wide?: boolean; alone?: boolean }) {
  return <Grid.Col span={{ base: 12, lg: alone ? 12 : wide ? 7 : 5 }}>{children}</Grid.Col>;
}

/** Every chart the answer has: the administrator's extra two only when it carries them. */
export function DashboardCharts({ data, filePrefix, buyerHref, clientHref }: DashboardChartsProps) {
  return (
    <Stack gap="md">
      <MonthsChart data={data} filePrefix={filePrefix} />
      {data.por_dia || data.clientes_cerca ? (
        <Grid gap="md">
          {data.por_dia ? (
            <Half wide alone={!data.clientes_cerca}>
              <DailyOrdersChart data={data} filePrefix={filePrefix} />
            </Half>
          ) : null}
          {data.clientes_cerca ? (
            <Half>
              <ClientsNearChart data={data} filePrefix={filePrefix} hrefOf={clientHref} />
            </Half>
          ) : null}
        </Grid>
      ) : null}
      {data.cliente ? (
        <Grid gap="md">
          <Half wide>
            <BuyersChart data={data} filePrefix={filePrefix} hrefOf={buyerHref} />
          </Half>
          <Half>
            <CategoriesChart data={data} filePrefix={filePrefix} />
          </Half>
        </Grid>
      ) : null}
      {data.por_area.length > 0 ? <AreasChart data={data} filePrefix={filePrefix} /> : null}
      <TopProductsTable data={data} filePrefix={filePrefix} />
    </Stack>
  );
}
