import { ClientsPage } from '../../../features/admin/clients/clients-page';

export function Clientes() {
  return <ClientsPage />;
}
