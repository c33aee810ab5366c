import { LogsPage } from '../../../features/admin/logs/logs-page';

/** Spec §2 "logs": 'Registros del sistema'. */
export function Logs() {
  return <LogsPage />;
}
