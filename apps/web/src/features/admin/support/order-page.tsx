/**
 * /administrador/pedidos/:id: any order, read-only, for support when a buyer calls: status, buyer and
 * client, its fulfilment state, lines with Subtotal, IVA and Total, the comments and the order's history.
 * An approved order's purchase order downloads here (decision 0058); while units are left to ship the
 * operator registers shipments, cancels what is missing of a line and changes promised dates (0125); the
 * shipments' receipts and the order's claims show with their photos, and the operator decides an open claim
 * here as on «Reclamos» (0127). «Facturas» lists an approved order's CFDIs and takes the upload of one (0131).
 */
import { Anchor, Group } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { OrderView } from '../../../components/orders/order-view';
import { PurchaseOrderButton } from '../../../components/orders/purchase-order-button';
import { formatDateTime } from '../../../lib/format';
import { useClaimDecisions } from '../claims/claim-decision';
import { InvoicesSection } from '../invoices/invoices-section';
import { adminOlderComments, useAdminOrder } from './api';
import { useShipmentActions } from './shipment-dialogs';

/** Back to the order list or the claims it was opened from (their filters and page), else to the overview. */
function BackLink() {
  const state = useLocation().state as { back?: unknown } | null;
  const back =
    typeof state?.back === 'string' &&
    (state.back.startsWith('/administrador/pedidos') || state.back.startsWith('/administrador/reclamos'))
      ? state.back
      : null;
  return (
    <Anchor component={Link} to={back ?? '/administrador/principal'} size="sm">
      <Group gap={4} component="span">
        <IconArrowLeft size={14} aria-hidden />
        {!back
          ? 'Volver al resumen'
          : back.startsWith('/administrador/reclamos')
            ? 'Volver a los reclamos'
            : 'Volver a la lista'}
      </Group>
    </Anchor>
  );
}

export function AdminOrderPage({ id }: { id: number }) {
  const query = useAdminOrder(id);
  const pedido = query.data?.pedido;
  const shipments = useShipmentActions(pedido);
  const decisions = useClaimDecisions();
  return (
    <>
      <OrderView
        id={id}
        pedido={pedido}
        query={query}
        subtitle={
          query.data && pedido ? (
            <>
              {query.data.comprador.nombre} ({query.data.comprador.usuario}) · {query.data.cliente.nombre} ·
              Fecha de compra: {formatDateTime(pedido.transaction_date)}
              {shipments.button ? null : ' · Solo lectura'}
            </>
          ) : null
        }
        back={<BackLink />}
        actions={
          pedido?.status === 'aprobado' ? (
            <Group gap="sm" wrap="wrap">
              {shipments.button}
              <PurchaseOrderButton id={pedido.id} href={`/api/surtido/${pedido.id}/pdf`} />
            </Group>
          ) : null
        }
        lineActions={shipments.lineActions}
        remisionHref={(numero) => `/api/surtido/${id}/envios/${numero}/remision`}
        photoHref={(foto) => `/api/surtido/${id}/fotos/${foto}`}
        claimActions={(reclamo) => decisions.buttons(reclamo, id)}
        invoices={
          pedido?.status === 'aprobado' ? <InvoicesSection id={id} envios={pedido.envios ?? []} /> : null
        }
        comments={{
          loadOlder: (antes) => adminOlderComments(id, antes),
          viewerRol: ROLES.administrador,
        }}
        testIdPrefix="soporte"
      />
      {shipments.dialogs}
      {decisions.dialog}
    </>
  );
}
