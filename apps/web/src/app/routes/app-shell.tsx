import { AppLayout } from '../../components/layouts/app-layout';
import { GlobalSearch } from '../../features/admin/support/global-search';

/** The signed-in layout, with the administrator's support search in its header (issue 39: app composes). */
export function Component() {
  return <AppLayout supportSearch={<GlobalSearch />} />;
}
