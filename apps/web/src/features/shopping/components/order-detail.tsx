import '@mantine/core/styles/Grid.css';
import { Alert, Anchor, Grid, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import type { OrderDetailDto } from '@portal/shared/schemas/shopping';
import { IconArrowLeft, IconBan, IconHourglassHigh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, Navigate } from 'react-router';
import { FulfilmentBadge, FulfilmentInfo } from '../../../components/orders/fulfilment-badge';
import { OrderComments } from '../../../components/orders/order-comments';
import { OrderHistoryPanel } from '../../../components/orders/order-events';
import { OrderLinesTable } from '../../../components/orders/order-lines-table';
import { OrderNote } from '../../../components/orders/order-note';
import { PurchaseOrderButton } from '../../../components/orders/purchase-order-button';
import { StatusBadge } from '../../../components/orders/status-badge';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatDate, formatOrderNumber } from '../../../lib/format';
import { orderQuery } from '../api/history';
import { buyerOlderComments, useAddBuyerComment } from '../api/order-actions';
import { waitingText } from '../lib/order-info';
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
 * aprobado download its purchase order, and once enviado confirm its receipt.
 */
function OrderActions({
  pedido,
  retirar,
  recibir,
}: {
  pedido: OrderDetailDto;
  retirar: boolean;
  recibir: boolean;
}) {
  const lines = pedido.lineas.map((linea) => ({ id: linea.id_producto, cantidad: linea.cantidad }));
  return (
    <Group gap="sm" wrap="wrap">
      <RepeatOrderButton id={pedido.id} />
      <SaveListButton lines={lines} suggestedName={`Pedido ${formatOrderNumber(pedido.id)}`} />
      {retirar ? <WithdrawOrderButton id={pedido.id} /> : null}
      {recibir ? <ReceiptButton id={pedido.id} /> : null}
      {pedido.status === 'aprobado' ? (
        <PurchaseOrderButton id={pedido.id} href={`/api/historial/${pedido.id}/pdf`} />
      ) : null}
    </Group>
  );
}

/** One of the user's orders: status, lines with Subtotal, IVA and Total, and the order's history. */
export function OrderDetail({ id }: { id: number }) {
  const query = useQuery(orderQuery(id));
  const addComment = useAddBuyerComment(id);
  const title = `Pedido ${formatOrderNumber(id)}`;

  // Not in the user's history (404): back to the list, as the spec says.
  if (query.isError && isApiError(query.error) && query.error.status === 404) {
    return <Navigate to="/usuario/historial" replace />;
  }

  const pedido = query.data?.pedido;
  const waiting = waitingText(query.data?.en_espera ?? null);
  return (
    <Stack gap={0}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm" mb="lg">
        <div>
          <Group gap="sm" wrap="wrap">
            <Title order={1} fz={{ base: 24, sm: 28 }}>
              {title}
            </Title>
            {pedido ? <StatusBadge status={pedido.status} size="lg" data-testid="estatus-pedido" /> : null}
            {pedido ? (
              <FulfilmentBadge surtido={pedido.surtido} size="lg" data-testid="surtido-pedido" />
            ) : null}
          </Group>
          {pedido ? (
            <Text c="dimmed" mt={4}>
              Fecha de compra: {formatDate(pedido.transaction_date)} ·{' '}
              {pedido.lineas.length === 1 ? '1 producto' : `${pedido.lineas.length} productos`}
            </Text>
          ) : null}
        </div>
        <BackLink />
      </Group>
      {query.isPending ? (
        <Stack gap="sm" aria-label="Cargando" aria-busy role="status">
          <Skeleton h={160} radius="md" />
          <Skeleton h={120} radius="md" />
        </Stack>
      ) : query.isError || !pedido ? (
        <Alert color="red" variant="light" title="No se pudo cargar el pedido">
          {errorMessage(query.error)}
        </Alert>
      ) : (
        <Stack gap="lg">
          {pedido.status === 'cancelado' ? (
            <Alert color="red" variant="light" icon={<IconBan size={18} />} title="Pedido cancelado">
              {pedido.motivo_cancelacion
                ? `Motivo: ${pedido.motivo_cancelacion}`
                : 'El pedido fue cancelado.'}
            </Alert>
          ) : null}
          {waiting ? (
            <Alert
              color={pedido.status === 'espera' ? 'blue' : 'yellow'}
              variant="light"
              icon={<IconHourglassHigh size={18} />}
              data-testid="en-espera"
            >
              {waiting}
            </Alert>
          ) : null}
          <OrderNote nota={pedido.nota} />
          <FulfilmentInfo
            surtido={pedido.surtido}
            guia={pedido.guia}
            paqueteria={pedido.paqueteria}
            notaRecepcion={pedido.nota_recepcion}
          />
          <OrderActions
            pedido={pedido}
            retirar={query.data?.acciones.retirar ?? false}
            recibir={query.data?.acciones.recibir ?? false}
          />
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Stack gap="lg">
                <OrderLinesTable testIdPrefix="detalle" pedido={pedido} />
                <OrderComments
                  key={pedido.id}
                  comentarios={pedido.comentarios}
                  total={pedido.comentarios_total}
                  loadOlder={(antes) => buyerOlderComments(pedido.id, antes)}
                  onSend={(texto) => addComment.mutateAsync(texto)}
                  viewerRol={ROLES.usuario}
                />
              </Stack>
            </Grid.Col>
            <Grid.Col span={{ base: 12, lg: 4 }}>
              <OrderHistoryPanel eventos={pedido.eventos} />
            </Grid.Col>
          </Grid>
        </Stack>
      )}
    </Stack>
  );
}
