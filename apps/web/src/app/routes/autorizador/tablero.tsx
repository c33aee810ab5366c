/** The authorizer's Tablero: a lazy chunk of its own, so its charts load only with it. */
import { dashboardQuery } from '../../../features/dashboard/api/dashboard';
import { DashboardPage } from '../../../features/dashboard/components/dashboard-page';
import { monthRangeOf } from '../../../features/dashboard/components/dashboard-view';
import type { FirstData } from '../../../lib/boot-data';

export function Tablero() {
  return <DashboardPage />;
}

/** What the screen shows first, asked for at boot (decision 0141). */
export const firstData: Record<string, FirstData> = {
  Tablero: ({ search }) => [dashboardQuery({ ...monthRangeOf(search), cliente: null })],
};
