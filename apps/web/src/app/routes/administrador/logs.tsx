import { LogsPage } from '../../../features/admin/logs/logs-page';

/** 'Registros del sistema'. */
export function Logs() {
  return <LogsPage />;
}
