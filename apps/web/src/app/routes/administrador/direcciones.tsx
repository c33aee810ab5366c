import { AddressesPage } from '../../../features/admin/addresses/addresses-page';

/** A client's ship-to addresses (decision 0126). */
export function Direcciones() {
  return <AddressesPage />;
}
