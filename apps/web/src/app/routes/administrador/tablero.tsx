/** The administrator's Tablero: a lazy chunk of its own, so the charts library loads only with it. */
import { AdminDashboardPage } from '../../../features/admin/overview/dashboard-page';

export function Tablero() {
  return <AdminDashboardPage />;
}
