import { LogsPage } from '../../../features/admin-b/components/logs-page';

/** Spec §2 "logs": 'Registros del sistema'. */
export function Logs() {
  return <LogsPage />;
}
