import { InventoryPage } from '../../../features/admin/inventory/inventory-page';

/** Spec §2 "inventario": products, categories and icons of each client. */
export function Inventario() {
  return <InventoryPage />;
}
