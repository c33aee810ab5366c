import { ROLES } from '@portal/shared/domain/roles';
import { AppLayout } from '../../components/layouts/app-layout';
import { useClientAdminHome } from '../../features/admin/client-home/api';
import { GlobalSearch } from '../../features/admin/support/global-search';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { useSession } from '../../lib/session';
import { LiveUpdates } from '../live-updates';
import { AccountMenu, getsNotices } from './account-menu';

/**
 * The signed-in layout, with the administrator's support search, the notifications' bell and the profile
 * menu's panels in its header (issue 39: app composes), and the live updates' stream while it is mounted
 * (the bell and the stream for the roles that have notices). A client administrator's sidebar links follow
 * what its client allows (GET /api/cliente, the query its screens read too: a change of the distributor's
 * shows at the next screen opened).
 */
export function Component() {
  const { rol } = useSession().user;
  const notices = getsNotices(rol);
  const clientHome = useClientAdminHome(rol === ROLES.administradorCliente);
  return (
    <>
      {notices ? <LiveUpdates /> : null}
      <AppLayout
        supportSearch={<GlobalSearch />}
        bell={notices ? <NotificationBell /> : null}
        profileMenu={<AccountMenu />}
        clientPermissions={clientHome.data?.cliente.permisos_cliente}
      />
    </>
  );
}
