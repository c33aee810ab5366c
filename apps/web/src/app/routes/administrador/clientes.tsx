import { ClientsPage } from '../../../features/admin-a/components/clients-page';

export function Clientes() {
  return <ClientsPage />;
}
