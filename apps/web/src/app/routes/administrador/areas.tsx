import { AreasPage } from '../../../features/admin/areas/areas-page';

export function Areas() {
  return <AreasPage />;
}
