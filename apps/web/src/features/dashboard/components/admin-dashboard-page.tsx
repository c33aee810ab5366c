/**
 * The administrator's Tablero: the dashboard of one client (picked in "Cliente", kept in the URL) or of
 * every client, with the orders per day of the last 30 days and, across clients, those closest to their
 * budgets (a click opens that client's Tablero). The client and its picker are the administrator area's,
 * given by app/.
 */
import { Group, Stack } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/ui/page';
import { pageHeading } from '../../../lib/first-paint';
import { dashboardQuery } from '../api/dashboard';
import { DashboardCharts, DashboardError, DashboardLoading, useMonthRange } from './dashboard-view';
import { MonthRangeField } from './month-range-field';

interface AdminDashboardPageProps {
  /** The client shown (null: every client). */
  cliente: number | null;
  /** A client is in the address and not yet known to be one: nothing is read until it is. */
  clientPending: boolean;
  /** The "Cliente" picker, beside the months. */
  clientSelect: ReactNode;
}

export function AdminDashboardPage({ cliente, clientPending, clientSelect }: AdminDashboardPageProps) {
  const [params] = useSearchParams();
  const { desde, hasta, setRange } = useMonthRange();
  // A client in the address is read once it is known to be one (not the whole portal's first).
  const query = useQuery({ ...dashboardQuery({ desde, hasta, cliente }), enabled: !clientPending });
  const { data, isError, error } = query;
  const isLoading = query.isLoading || clientPending;

  const heading = pageHeading('tableroAdministrador');
  const clientHref = (client: { id: number }) => {
    const next = new URLSearchParams(params);
    next.set('cliente', String(client.id));
    return `/administrador/tablero?${next}`;
  };

  return (
    <Stack gap={0}>
      <PageHeader
        title={heading.title}
        description={
          data?.cliente
            ? `El gasto de ${data.cliente.nombre}: pedidos, presupuestos y productos.`
            : heading.description
        }
        actions={
          <Group gap="sm" align="flex-end" wrap="wrap">
            {clientSelect}
            {data ? (
              <MonthRangeField
                desde={data.desde}
                hasta={data.hasta}
                maxMonth={data.mes_actual}
                onChange={setRange}
              />
            ) : null}
          </Group>
        }
      />
      {isLoading ? (
        <DashboardLoading />
      ) : isError || !data ? (
        <DashboardError error={error} />
      ) : (
        <DashboardCharts
          data={data}
          filePrefix={data.cliente ? `tablero-cliente-${data.cliente.id}` : 'tablero-todos'}
          clientHref={clientHref}
        />
      )}
    </Stack>
  );
}
