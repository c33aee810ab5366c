import { InventoryPage } from '../../../features/admin-b/components/inventory-page';

/** Spec §2 "inventario": products, categories and icons of each client. */
export function Inventario() {
  return <InventoryPage />;
}
