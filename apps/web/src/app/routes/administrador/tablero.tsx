/** The administrator's Tablero: a lazy chunk of its own, so the charts library loads only with it. */
import { ClientSelect, useSelectedClient } from '../../../features/admin/clients/client-select';
import { AdminDashboardPage } from '../../../features/dashboard/components/admin-dashboard-page';

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
