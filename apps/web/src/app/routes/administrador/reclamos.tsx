import { ClaimsPage } from '../../../features/admin/claims/claims-page';

/** 'Reclamos': every client's claims on shipped units, to decide (decision 0127). */
export function Reclamos() {
  return <ClaimsPage />;
}
