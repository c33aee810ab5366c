import { UsersPage } from '../../../features/admin/users/users-page';
import { UsersImportButton } from './usuarios-import';

export function Usuarios() {
  return <UsersPage importButton={(idCliente) => <UsersImportButton idCliente={idCliente} />} />;
}
