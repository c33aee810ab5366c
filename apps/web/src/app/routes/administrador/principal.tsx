import { OverviewPage } from '../../../features/admin/overview/overview-page';

/** The administrator's home: an overview of the portal and quick links to the five sections. */
export function Principal() {
  return <OverviewPage />;
}
