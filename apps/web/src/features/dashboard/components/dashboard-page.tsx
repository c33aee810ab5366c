/**
 * Tablero (roles 2, 3 and 5): the client's orders per month by status, this month's buyers against their
 * budgets, spend per category and the top products, over a range of months (default the last 12). A
 * buyer's name opens the order list searched by that buyer's user name, over the current month.
 */
import { Stack } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import { useQuery } from '@tanstack/react-query';
import { PageHeader } from '../../../components/ui/page';
import { useSession } from '../../../lib/session';
import { dashboardQuery } from '../api/dashboard';
import { monthDates } from '../lib/dashboard-data';
import { DashboardCharts, DashboardError, DashboardLoading, useMonthRange } from './dashboard-view';
import { MonthRangeField } from './month-range-field';

export function DashboardPage() {
  const { user } = useSession();
  const { desde, hasta, setRange } = useMonthRange();
  const { data, isLoading, isError, error } = useQuery(dashboardQuery({ desde, hasta, cliente: null }));

  return (
    <Stack gap={0}>
      <PageHeader
        title="Tablero"
        description={`Cómo va el gasto de ${user.cliente?.nombre ?? 'tu empresa'}: pedidos, presupuestos y productos.`}
        actions={
          data ? (
            <MonthRangeField
              desde={data.desde}
              hasta={data.hasta}
              maxMonth={data.mes_actual}
              onChange={setRange}
            />
          ) : null
        }
      />
      {isLoading ? (
        <DashboardLoading />
      ) : isError || !data ? (
        <DashboardError error={error} />
      ) : (
        <DashboardCharts
          data={data}
          filePrefix="tablero"
          // A buyer's name opens the authorizer's order list; a client administrator has none.
          buyerHref={
            user.rol === ROLES.administradorCliente
              ? undefined
              : (buyer) => {
                  const [first, last] = monthDates(data.mes_actual);
                  const params = new URLSearchParams({
                    estatus: 'todos',
                    q: buyer.detalle ?? buyer.nombre,
                    desde: first,
                    hasta: last,
                  });
                  return `/autorizador/principal?${params}`;
                }
          }
        />
      )}
    </Stack>
  );
}
