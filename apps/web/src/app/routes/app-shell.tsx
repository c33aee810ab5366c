import { AppLayout } from '../../components/layouts/app-layout';
import { GlobalSearch } from '../../features/admin/support/global-search';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { useSession } from '../../lib/session';
import { LiveUpdates } from '../live-updates';
import { AccountMenu, getsNotices } from './account-menu';

/**
 * The signed-in layout, with the administrator's support search, the notifications' bell and the profile
 * menu's panels in its header (issue 39: app composes), and the live updates' stream while it is mounted
 * (the bell and the stream for the roles that have notices).
 */
export function Component() {
  const notices = getsNotices(useSession().user.rol);
  return (
    <>
      {notices ? <LiveUpdates /> : null}
      <AppLayout
        supportSearch={<GlobalSearch />}
        bell={notices ? <NotificationBell /> : null}
        profileMenu={<AccountMenu />}
      />
    </>
  );
}
