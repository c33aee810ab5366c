import { AppLayout } from '../../components/layouts/app-layout';
import { GlobalSearch } from '../../features/admin/support/global-search';
import { NotificationBell } from '../../features/notifications/components/notification-bell';
import { LiveUpdates } from '../live-updates';
import { AccountMenu } from './account-menu';

/**
 * The signed-in layout, with the administrator's support search, the notifications' bell and the profile
 * menu's panels in its header (issue 39: app composes), and the live updates' stream while it is mounted.
 */
export function Component() {
  return (
    <>
      <LiveUpdates />
      <AppLayout supportSearch={<GlobalSearch />} bell={<NotificationBell />} profileMenu={<AccountMenu />} />
    </>
  );
}
