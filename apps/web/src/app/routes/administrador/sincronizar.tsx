import { RosterSyncPage } from '../../../features/admin/users/roster-sync-page';

/** «Lista de personal» of the client chosen in `?cliente=` (opened from that client's Usuarios). */
export function Sincronizar() {
  return <RosterSyncPage />;
}
