/** The administrator's Tablero: a lazy chunk of its own, so its charts load only with it. */
import {
  allClientsQuery,
  ClientSelect,
  useSelectedClient,
} from '../../../features/admin/clients/client-select';
import { dashboardQuery } from '../../../features/dashboard/api/dashboard';
import { AdminDashboardPage } from '../../../features/dashboard/components/admin-dashboard-page';
import { monthRangeOf } from '../../../features/dashboard/components/dashboard-view';
import type { FirstData } from '../../../lib/boot-data';

/** The dashboard of the client in the address (`?cliente=`), picked with the administrator's client select. */
export function Tablero() {
  const [cliente, setCliente, clientPending] = useSelectedClient();
  return (
    <AdminDashboardPage
      cliente={cliente}
      clientPending={clientPending}
      clientSelect={
        <ClientSelect
          value={cliente}
          onChange={(id) => setCliente(id)}
          placeholder="Todos los clientes"
          w={{ base: '100%', xs: 260 }}
        />
      }
    />
  );
}

/** What the screen shows first, asked for at boot (decision 0141): every client's, when none is chosen. */
export const firstData: Record<string, FirstData> = {
  Tablero: ({ search }) =>
    search.has('cliente')
      ? [allClientsQuery]
      : [allClientsQuery, dashboardQuery({ ...monthRangeOf(search), cliente: null })],
};
