import { Navigate, useParams } from 'react-router';
import { AdminOrderPage } from '../../../features/admin/support/order-page';
import { positiveId } from '../params';

/** /administrador/pedidos/:id: any order, read-only. */
export function Pedido() {
  const id = positiveId(useParams().id);
  if (!id) return <Navigate to="/administrador/principal" replace />;
  return <AdminOrderPage key={id} id={id} />;
}
