/**
 * /administrador/pedidos/:id: any order, read-only, for support when a buyer calls: status, buyer and
 * client, its fulfilment state, lines with Subtotal, IVA and Total, the comments and the order's history.
 * The one action is the purchase order's download of an approved order (decision 0058).
 */
import '@mantine/core/styles/Grid.css';
import { Alert, Anchor, Grid, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { ROLES } from '@portal/shared/domain/roles';
import { IconArrowLeft, IconBan } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { FulfilmentBadge, FulfilmentInfo } from '../../../components/orders/fulfilment-badge';
import { OrderComments } from '../../../components/orders/order-comments';
import { OrderHistoryPanel } from '../../../components/orders/order-events';
import { OrderLinesTable } from '../../../components/orders/order-lines-table';
import { OrderNote } from '../../../components/orders/order-note';
import { PurchaseOrderButton } from '../../../components/orders/purchase-order-button';
import { StatusBadge } from '../../../components/orders/status-badge';
import { errorMessage } from '../../../lib/api';
import { formatDateTime, formatOrderNumber } from '../../../lib/format';
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
    <Stack gap={0}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm" mb="lg">
        <div>
          <Group gap="sm" wrap="wrap">
            <Title order={1} fz={{ base: 24, sm: 28 }}>
              Pedido {formatOrderNumber(id)}
            </Title>
            {pedido ? <StatusBadge status={pedido.status} size="lg" data-testid="estatus-pedido" /> : null}
            {pedido ? (
              <FulfilmentBadge surtido={pedido.surtido} size="lg" data-testid="surtido-pedido" />
            ) : null}
          </Group>
          {query.data && pedido ? (
            <Text c="dimmed" mt={4}>
              {query.data.comprador.nombre} ({query.data.comprador.usuario}) · {query.data.cliente.nombre} ·
              Fecha de compra: {formatDateTime(pedido.transaction_date)} · Solo lectura
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
          <OrderNote nota={pedido.nota} />
          <FulfilmentInfo
            surtido={pedido.surtido}
            guia={pedido.guia}
            paqueteria={pedido.paqueteria}
            notaRecepcion={pedido.nota_recepcion}
          />
          {pedido.status === 'aprobado' ? (
            <Group>
              <PurchaseOrderButton id={pedido.id} href={`/api/surtido/${pedido.id}/pdf`} />
            </Group>
          ) : null}
          <Grid gap="lg">
            <Grid.Col span={{ base: 12, lg: 8 }}>
              <Stack gap="lg">
                <OrderLinesTable testIdPrefix="soporte" pedido={pedido} />
                <OrderComments
                  key={pedido.id}
                  comentarios={pedido.comentarios}
                  total={pedido.comentarios_total}
                  loadOlder={(antes) => adminOlderComments(pedido.id, antes)}
                  viewerRol={ROLES.administrador}
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
