/**
 * The authorizer area (roles 2 and 3), its own lazy chunk: principal and reportes are the same screen,
 * orden/:id reviews one order, ampliaciones decides the buyers' budget top-ups (decision 0123).
 */
import { ROLES } from '@portal/shared/domain/roles';
import { Navigate, useParams } from 'react-router';
import { StatementPage } from '../../../features/credit/components/statement-page';
import { OnBehalfNotices } from '../../../features/delegation/components/on-behalf-notices';
import { approverOrderQuery, neighboursQuery } from '../../../features/order-review/api/orders';
import { OrderPage } from '../../../features/order-review/components/order-page';
import { OrdersPage, ordersEntryQuery } from '../../../features/order-review/components/orders-page';
import { queueFilter } from '../../../features/order-review/lib/queue';
import { TopupsPage } from '../../../features/topups/components/topups-page';
import type { FirstData } from '../../../lib/boot-data';
import { useSession } from '../../../lib/session';
import { positiveId } from '../params';
import { ReceivingList, ReceivingShipment } from '../receiving-pages';

/** principal and reportes are the same screen; above the list, whom the user acts for today. */
export function Pedidos() {
  return <OrdersPage onBehalf={<OnBehalfNotices />} />;
}

export function Orden() {
  const id = positiveId(useParams().id);
  if (!id) return <Navigate to="/autorizador/principal" replace />;
  // A new id is a new screen: its own query and its own local edits.
  return <OrderPage key={id} id={id} />;
}

/** The budget top-ups: an authorizer's áreas', a super authorizer's whole client's. */
export function Ampliaciones() {
  const { user } = useSession();
  return (
    <TopupsPage
      description={
        user.rol === ROLES.superAutorizador
          ? 'Las solicitudes de más presupuesto de las personas y las áreas de tu empresa.'
          : 'Las solicitudes de más presupuesto de las áreas de las que eres responsable y de sus personas.'
      }
    />
  );
}

/** «Recepción» of an approver the client named receiver (decision 0130). */
export function Recepcion() {
  return <ReceivingList base="/autorizador/recepcion" />;
}

export function RecepcionEnvio() {
  return <ReceivingShipment base="/autorizador/recepcion" />;
}

/** «Estado de cuenta» of the approver's own client (decision 0134). */
export function EstadoDeCuenta() {
  return <StatementPage fileHref={(pedido, uuid) => `/api/pedidos/${pedido}/facturas/${uuid}/xml`} />;
}

/** What some screens show first, asked for at boot (decision 0141). */
export const firstData: Record<string, FirstData> = {
  Pedidos: ({ pathname, search }) => [ordersEntryQuery(pathname, search)],
  Orden: ({ params, search }) => {
    const id = positiveId(params.id);
    return id ? [approverOrderQuery(id), neighboursQuery(id, queueFilter(search.toString()))] : [];
  },
};
