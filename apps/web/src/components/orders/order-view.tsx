/**
 * One order as the order screens show it, with no calls of its own: the header (number, status and
 * fulfilment badges, a line of dates and who), then the buyer's note, the shipment, the lines with Subtotal,
 * IVA and Total, the shipments (decision 0125) with their receipts, the claims (0127), the comments and the
 * order's history. The buyer's detail and the administrator's read-only
 * page render `OrderView` with their own actions; the approver's review renders `OrderHeader` above its
 * editing table, budgets and buttons. Each screen fetches the order and passes what it may do.
 */
import '@mantine/core/styles/Grid.css';
import { Alert, Grid, Group, type MantineSpacing, Skeleton, Stack, Text, Title } from '@mantine/core';
import type { ClaimDto } from '@portal/shared/schemas/claims';
import type { OlderCommentsResponse } from '@portal/shared/schemas/comments';
import type { OrderDetailDto, OrderShipmentDto } from '@portal/shared/schemas/orders';
import { IconBan } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { errorMessage } from '../../lib/api';
import { formatOrderNumber } from '../../lib/format';
import { FulfilmentBadge, FulfilmentInfo } from './fulfilment-badge';
import { OrderClaims } from './order-claims';
import { OrderComments } from './order-comments';
import { OrderHistoryPanel } from './order-events';
import { OrderLinesTable } from './order-lines-table';
import { OrderNote } from './order-note';
import type { PhotoHref } from './order-photos';
import { OrderShipTo } from './order-ship-to';
import { OrderShipments } from './order-shipments';
import { StatusBadge } from './status-badge';

/** A cancelled order's notice, with its reason when it has one: the same on every role's order page. */
export function CancellationNotice({
  pedido,
}: {
  pedido: Pick<OrderDetailDto, 'status' | 'motivo_cancelacion'>;
}) {
  if (pedido.status !== 'cancelado') return null;
  return (
    <Alert color="red" variant="light" icon={<IconBan size={18} />} title="Pedido cancelado">
      {pedido.motivo_cancelacion ? `Motivo: ${pedido.motivo_cancelacion}` : 'El pedido fue cancelado.'}
    </Alert>
  );
}

/** "Pedido 000123", its status and fulfilment badges, a dimmed line below, and what goes at the right. */
export function OrderHeader({
  id,
  pedido,
  subtitle,
  aside,
  mb,
}: {
  id: number;
  /** Undefined while the order loads (the badges wait for it). */
  pedido: Pick<OrderDetailDto, 'status' | 'surtido'> | undefined;
  /** The line under the title (dates, buyer); null shows none. */
  subtitle: ReactNode;
  /** At the right: a back link, the list's navigation. */
  aside: ReactNode;
  mb?: MantineSpacing;
}) {
  return (
    <Group justify="space-between" align="flex-end" wrap="wrap" gap="sm" mb={mb}>
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
        {subtitle == null ? null : (
          <Text c="dimmed" mt={4}>
            {subtitle}
          </Text>
        )}
      </div>
      {aside}
    </Group>
  );
}

/** What the screen passes to the comments: its own calls and whose screen it is. */
export interface OrderViewComments {
  loadOlder: (antes: number) => Promise<OlderCommentsResponse>;
  /** Without it the comments are read-only. */
  onSend?: (texto: string) => Promise<unknown>;
  viewerRol: number;
}

interface OrderViewProps {
  id: number;
  /** The order once loaded. */
  pedido: OrderDetailDto | undefined;
  /** What the view needs of the order's query (a react-query result fits). */
  query: { isPending: boolean; isError: boolean; error: unknown };
  subtitle: ReactNode;
  back: ReactNode;
  /** Notices under the cancellation's (the buyer's "en espera"). */
  notices?: ReactNode;
  /** The screen's buttons, above the lines. */
  actions?: ReactNode;
  comments: OrderViewComments;
  /** The totals' test ids (`${prefix}-total`…). */
  testIdPrefix: string;
  /** A shipment's remisión for the viewer's role (decision 0125). */
  remisionHref?: (numero: number) => string;
  /** The operator's buttons under each line. */
  lineActions?: (linea: OrderDetailDto['lineas'][number]) => ReactNode;
  /** A receipt's or a claim's photo for the viewer's role (decision 0127). */
  photoHref?: PhotoHref;
  /** The buyer's «Confirmar recepción» of a shipment not received yet. */
  receiptAction?: (envio: OrderShipmentDto) => ReactNode;
  /** The operator's buttons for a claim. */
  claimActions?: (reclamo: ClaimDto) => ReactNode;
  /** The operator's «Facturas» (decision 0131), under the claims. */
  invoices?: ReactNode;
}

/** What the order's body takes of the view's props. */
type BodyProps = Pick<
  OrderViewProps,
  | 'notices'
  | 'actions'
  | 'comments'
  | 'testIdPrefix'
  | 'remisionHref'
  | 'lineActions'
  | 'photoHref'
  | 'receiptAction'
  | 'claimActions'
  | 'invoices'
>;

function OrderBody({
  pedido,
  notices,
  actions,
  comments,
  testIdPrefix,
  remisionHref,
  lineActions,
  photoHref,
  receiptAction,
  claimActions,
  invoices,
}: BodyProps & { pedido: OrderDetailDto }) {
  return (
    <Stack gap="lg">
      <CancellationNotice pedido={pedido} />
      {notices}
      <OrderNote nota={pedido.nota} />
      <OrderShipTo entrega={pedido.entrega} />
      <FulfilmentInfo
        surtido={pedido.surtido}
        guia={pedido.guia}
        paqueteria={pedido.paqueteria}
        notaRecepcion={pedido.nota_recepcion}
      />
      {actions}
      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <OrderLinesTable testIdPrefix={testIdPrefix} pedido={pedido} lineActions={lineActions} />
            <OrderShipments
              id={pedido.id}
              envios={pedido.envios}
              lineas={pedido.lineas}
              remisionHref={remisionHref}
              photoHref={photoHref}
              receiptAction={receiptAction}
            />
            <OrderClaims reclamos={pedido.reclamos} photoHref={photoHref} claimActions={claimActions} />
            {invoices}
            <OrderComments
              key={pedido.id}
              comentarios={pedido.comentarios}
              total={pedido.comentarios_total}
              loadOlder={comments.loadOlder}
              onSend={comments.onSend}
              viewerRol={comments.viewerRol}
            />
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <OrderHistoryPanel eventos={pedido.eventos} />
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

/** One order read-only (the buyer's detail, the administrator's support page), with the screen's actions. */
export function OrderView({ id, pedido, query, subtitle, back, ...body }: OrderViewProps) {
  return (
    <Stack gap={0}>
      <OrderHeader id={id} pedido={pedido} subtitle={subtitle} aside={back} mb="lg" />
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
        <OrderBody pedido={pedido} {...body} />
      )}
    </Stack>
  );
}
