/** The authorizer's Tablero: a lazy chunk of its own, so the charts library loads only with it. */
import { DashboardPage } from '../../../features/dashboard/components/dashboard-page';

export function Tablero() {
  return <DashboardPage />;
}
