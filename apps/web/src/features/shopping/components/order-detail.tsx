import { Alert, Anchor, Group } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import type { OrderDetailDto } from '@portal/shared/schemas/orders';
import { IconArrowLeft, IconHourglassHigh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { OrderInvoicesPanel } from '../../../components/orders/order-invoices';
import { OrderView } from '../../../components/orders/order-view';
import { PurchaseOrderButton } from '../../../components/orders/purchase-order-button';
import { isApiError } from '../../../lib/api';
import { formatDate, formatOrderNumber } from '../../../lib/format';
import { orderInvoicesQuery, orderQuery } from '../api/history';
import { buyerOlderComments, useAddBuyerComment } from '../api/order-actions';
import { waitingText } from '../lib/order-info';
import { useClaimActions } from './order-claim-actions';
import { ReceiptButton } from './receipt-button';
import { RepeatOrderButton } from './repeat-order-button';
import { SaveListButton } from './save-list-button';
import { WithdrawOrderButton } from './withdraw-order-button';

function BackLink() {
  return (
    <Anchor component={Link} to="/usuario/historial" size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        Volver al historial
      </Group>
    </Anchor>
  );
}

/**
 * What the buyer can do with the order: repeat it, save it as a list, while pendiente withdraw it, once
 * aprobado download its purchase order, once enviado confirm its receipt as a whole, and once shipped open a
 * claim (decision 0127; each shipment's own receipt is on the shipment).
 */
function OrderActions({
  pedido,
  retirar,
  recibir,
  claim,
}: {
  pedido: OrderDetailDto;
  retirar: boolean;
  recibir: boolean;
  claim: ReactNode;
}) {
  const lines = pedido.lineas.map((linea) => ({ id: linea.id_producto, cantidad: linea.cantidad }));
  return (
    <Group gap="sm" wrap="wrap">
      <RepeatOrderButton id={pedido.id} />
      <SaveListButton lines={lines} suggestedName={`Pedido ${formatOrderNumber(pedido.id)}`} />
      {retirar ? <WithdrawOrderButton id={pedido.id} /> : null}
      {recibir ? <ReceiptButton id={pedido.id} /> : null}
      {claim}
      {pedido.status === 'aprobado' ? (
        <PurchaseOrderButton id={pedido.id} href={`/api/historial/${pedido.id}/pdf`} />
      ) : null}
    </Group>
  );
}

/** The order's invoices with their match, files and the SAT's verification link (decision 0133). */
function BuyerInvoices({ id }: { id: number }) {
  const query = useQuery(orderInvoicesQuery(id));
  return (
    <OrderInvoicesPanel
      query={query}
      fileHref={(uuid, which) => `/api/historial/${id}/facturas/${uuid}/${which}`}
    />
  );
}

/** One of the user's orders: status, lines with Subtotal, IVA and Total, and the order's history. */
export function OrderDetail({ id }: { id: number }) {
  const query = useQuery(orderQuery(id));
  const addComment = useAddBuyerComment(id);
  const claims = useClaimActions(query.data?.pedido);

  // Not in the user's history (404): back to the list, as the spec says.
  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <Navigate to="/usuario/historial" replace />;
  }

  const pedido = query.data?.pedido;
  const waiting = waitingText(query.data?.en_espera ?? null);
  return (
    <>
      <OrderView
        id={id}
        pedido={pedido}
        query={query}
        subtitle={
          pedido ? (
            <>
              Fecha de compra: {formatDate(pedido.transaction_date)} ·{' '}
              {pedido.lineas.length === 1 ? '1 producto' : `${pedido.lineas.length} productos`}
            </>
          ) : null
        }
        back={<BackLink />}
        remisionHref={(numero) => `/api/historial/${id}/envios/${numero}/remision`}
        photoHref={(foto) => `/api/historial/${id}/fotos/${foto}`}
        receiptAction={claims.receiptAction}
        invoices={pedido?.status === 'aprobado' ? <BuyerInvoices id={id} /> : null}
        notices={
          waiting && pedido ? (
            <Alert
              color={pedido.status === 'espera' ? 'blue' : 'yellow'}
              variant="light"
              icon={<IconHourglassHigh size={18} />}
              data-testid="en-espera"
            >
              {waiting}
            </Alert>
          ) : null
        }
        actions={
          pedido ? (
            <OrderActions
              pedido={pedido}
              retirar={query.data?.acciones.retirar ?? false}
              recibir={query.data?.acciones.recibir ?? false}
              claim={claims.claimButton}
            />
          ) : null
        }
        comments={{
          loadOlder: (antes) => buyerOlderComments(id, antes),
          onSend: (texto) => addComment.mutateAsync(texto),
          viewerRol: ROLES.usuario,
        }}
        testIdPrefix="detalle"
      />
      {claims.dialogs}
    </>
  );
}
