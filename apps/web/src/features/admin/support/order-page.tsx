/**
 * /administrador/pedidos/:id: any order, read-only, for support when a buyer calls: status, buyer and
 * client, its fulfilment state, lines with Subtotal, IVA and Total, the comments and the order's history.
 * The one action is the purchase order's download of an approved order (decision 0058).
 */
import { Anchor, Group } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { OrderView } from '../../../components/orders/order-view';
import { PurchaseOrderButton } from '../../../components/orders/purchase-order-button';
import { formatDateTime } from '../../../lib/format';
import { adminOlderComments, useAdminOrder } from './api';

/** Back to the order list it was opened from (its filters and page), else to the overview. */
function BackLink() {
  const state = useLocation().state as { back?: unknown } | null;
  const back =
    typeof state?.back === 'string' && state.back.startsWith('/administrador/pedidos') ? state.back : null;
  return (
    <Anchor component={Link} to={back ?? '/administrador/principal'} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {back ? 'Volver a la lista' : 'Volver al resumen'}
      </Group>
    </Anchor>
  );
}

export function AdminOrderPage({ id }: { id: number }) {
  const query = useAdminOrder(id);
  const pedido = query.data?.pedido;
  return (
    <OrderView
      id={id}
      pedido={pedido}
      query={query}
      subtitle={
        query.data && pedido ? (
          <>
            {query.data.comprador.nombre} ({query.data.comprador.usuario}) · {query.data.cliente.nombre} ·
            Fecha de compra: {formatDateTime(pedido.transaction_date)} · Solo lectura
          </>
        ) : null
      }
      back={<BackLink />}
      actions={
        pedido?.status === 'aprobado' ? (
          <Group>
            <PurchaseOrderButton id={pedido.id} href={`/api/surtido/${pedido.id}/pdf`} />
          </Group>
        ) : null
      }
      comments={{
        loadOlder: (antes) => adminOlderComments(id, antes),
        viewerRol: ROLES.administrador,
      }}
      testIdPrefix="soporte"
    />
  );
}
