import { Navigate, useParams } from 'react-router';
import { AdminOrderPage } from '../../../features/admin/support/order-page';
import { AdminOrdersPage } from '../../../features/admin/support/orders-page';
import { positiveId } from '../params';

/** /administrador/pedidos/:id: any order, read-only. */
export function Pedido() {
  const id = positiveId(useParams().id);
  if (!id) return <Navigate to="/administrador/principal" replace />;
  return <AdminOrderPage key={id} id={id} />;
}

/** /administrador/pedidos?estatus=&mes=: every client's orders of a status, read-only. */
export function Pedidos() {
  return <AdminOrdersPage />;
}
