/**
 * The client administrator's area (rol 5, decision 0122): «Mi empresa», and the administrator's users and
 * log screens with the client fixed to its own (features/admin/scope.ts). One lazy chunk for the area.
 */
import { ClientHomePage } from '../../../features/admin/client-home/client-home-page';
import { LogsPage } from '../../../features/admin/logs/logs-page';
import { ClientAdminScope } from '../../../features/admin/scope-context';
import { UsersPage } from '../../../features/admin/users/users-page';

/** «Mi empresa». */
export function Principal() {
  return <ClientHomePage />;
}

/** The client's users: no import, no delegations (the distributor's). */
export function Usuarios() {
  return (
    <ClientAdminScope>
      <UsersPage />
    </ClientAdminScope>
  );
}

/** The client's own entries of «Registros del sistema». */
export function Registros() {
  return (
    <ClientAdminScope>
      <LogsPage />
    </ClientAdminScope>
  );
}
