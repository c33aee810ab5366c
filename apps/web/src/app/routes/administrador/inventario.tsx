import { InventoryPage } from '../../../features/admin/inventory/inventory-page';

/** Products, categories and icons of each client. */
export function Inventario() {
  return <InventoryPage />;
}
