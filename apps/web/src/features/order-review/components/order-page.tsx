/**
 * /autorizador/orden/:id: budget cards (and the order's área's, decision 0123), the lines (editable by rol 2 while pendiente), live totals,
 * Approve and Cancel exactly when the server would accept them (order-actions.tsx), the buyer's side panel
 * and the order's history. A missing order, or another client's (404), goes back to the list. The review's
 * state lives in use-order-review.ts. The list's filter travels in the address (lib/queue.ts): the back link
 * returns to the same list, j/k and "Anterior"/"Siguiente" move through it, `a` opens the approval, and
 * "Siguiente pendiente" follows an approval or cancellation (decision 0048). Leaving with unsaved line
 * edits asks first.
 */
import '@mantine/core/styles/Grid.css';
import {
  Alert,
  Anchor,
  Box,
  Button,
  Divider,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useHotkeys } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { approvalOutcome, approvalTarget } from '@portal/shared/domain/approval-rules';
import { pesosToCentavos } from '@portal/shared/domain/money';
import { IconAlertTriangle, IconArrowLeft, IconPencil } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { ivaTotalLabel } from '../../../components/orders/iva-label';
import { OrderClaims } from '../../../components/orders/order-claims';
import { OrderComments } from '../../../components/orders/order-comments';
import { OrderEvents } from '../../../components/orders/order-events';
import { OrderInvoicesPanel } from '../../../components/orders/order-invoices';
import { OrderNote } from '../../../components/orders/order-note';
import { OrderShipments } from '../../../components/orders/order-shipments';
import { OrderTotalsSummary } from '../../../components/orders/order-totals';
import { CancellationNotice, OrderHeader } from '../../../components/orders/order-view';
import { Refusal } from '../../../components/ui/refusal';
import { useLeaveGuard } from '../../../components/ui/use-leave-guard';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatCentavos, formatDate, formatOrderNumber } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import {
  type AuthorizerOrderView,
  approverOlderComments,
  approverOrderQuery,
  neighboursQuery,
  orderInvoicesQuery,
} from '../api/orders';
import { buyerName, editSummary, overBudgetText } from '../lib/order-edits';
import { listHref, orderHref, queueFilter } from '../lib/queue';
import { AreaBudgetCard, BudgetCards } from './budget-cards';
import { BuyerPanel, CategoryBudgets } from './buyer-panel';
import { OrderActions } from './order-actions';
import { OrderLinesTable } from './order-lines';
import { NextPending, QueueNav, ShortcutsHint } from './queue-nav';
import { useOrderReview } from './use-order-review';
import { ApproveDialog, CancelDialog, ReturnDialog } from './workflow-dialogs';

/** Back to the list, with the filter it had. */
function BackLink() {
  const { search } = useLocation();
  return (
    <Anchor component={Link} to={listHref(search)} size="sm" fw={500}>
      <Group gap={4} component="span">
        <IconArrowLeft size={16} aria-hidden />
        Volver al historial de pedidos
      </Group>
    </Anchor>
  );
}

function LoadingOrder({ id }: { id: number }) {
  return (
    <Stack gap="lg" aria-busy="true">
      <BackLink />
      <Title order={1} fz={{ base: 24, sm: 28 }}>
        Pedido {formatOrderNumber(id)}
      </Title>
      <Grid>
        {[0, 1, 2, 3].map((i) => (
          <Grid.Col key={i} span={{ base: 6, md: 3 }}>
            <Skeleton height={104} radius="lg" />
          </Grid.Col>
        ))}
      </Grid>
      <Skeleton height={280} radius="lg" />
    </Stack>
  );
}

/** The order's neighbours under the list's filter (undefined while they load or when they failed). */
function useNeighbours(id: number, search: string) {
  return useQuery(neighboursQuery(id, queueFilter(search))).data;
}

/**
 * The order's shipments (decision 0125), each with its remisión and its receipt for the approvers, and the
 * order's claims (0127).
 */
function Shipments({ pedido }: { pedido: AuthorizerOrderView['pedido'] }) {
  const photoHref = (foto: number) => `/api/pedidos/${pedido.id}/fotos/${foto}`;
  return (
    <>
      <OrderShipments
        id={pedido.id}
        envios={pedido.envios}
        lineas={pedido.lineas}
        remisionHref={(numero) => `/api/pedidos/${pedido.id}/envios/${numero}/remision`}
        photoHref={photoHref}
      />
      <OrderClaims reclamos={pedido.reclamos} photoHref={photoHref} />
      {pedido.status === 'aprobado' ? <ApproverInvoices id={pedido.id} /> : null}
    </>
  );
}

/** The order's invoices with their match, files and the SAT's verification link (decision 0133). */
function ApproverInvoices({ id }: { id: number }) {
  const query = useQuery(orderInvoicesQuery(id));
  return (
    <OrderInvoicesPanel
      query={query}
      fileHref={(uuid, which) => `/api/pedidos/${id}/facturas/${uuid}/${which}`}
    />
  );
}

/**
 * The client's credit before approving (decision 0134): over its limit or with an overdue invoice, with
 * policy `retener` the approval will hold the order from fulfilment; with `avisar` it is only said.
 */
function CreditWarning({ credito }: { credito: AuthorizerOrderView['credito'] | null }) {
  if (!credito) return null;
  return (
    <Alert
      color={credito.retendra ? 'red' : 'orange'}
      variant="light"
      title={credito.retendra ? 'El pedido quedará retenido por crédito' : 'El cliente rebasa su crédito'}
      icon={<IconAlertTriangle size={18} />}
      data-testid="alerta-credito"
    >
      {credito.aviso}
    </Alert>
  );
}

function OrderReview({ view }: { view: AuthorizerOrderView }) {
  const { user } = useSession();
  const { pedido, acciones } = view;
  const numero = formatOrderNumber(pedido.id);
  const comprador = buyerName(view.usuario.nombre);
  const review = useOrderReview(view);
  const { edited, totals, budget, originalTotal, approve, cancel, sendBack, setDialog } = review;
  const { search } = useLocation();
  const neighbours = useNeighbours(pedido.id, search);
  const { navigateGuarded } = useLeaveGuard(
    edited,
    'Los cambios a las cantidades de este pedido no se han guardado. Si sales ahora, se perderán.',
  );
  const goTo = (id: number) => navigateGuarded(orderHref(id, search));
  const idle = review.dialog === null && !review.pending;
  // j/k move through the list, a opens the approval's confirmation (never approves by itself). Mantine's
  // hotkeys ignore keys typed in inputs, text areas and selects.
  useHotkeys([
    ['j', () => idle && neighbours?.siguiente != null && goTo(neighbours.siguiente)],
    ['k', () => idle && neighbours?.anterior != null && goTo(neighbours.anterior)],
    ['a', () => idle && acciones.aprobar && setDialog('aprobar')],
  ]);
  const done = !acciones.aprobar && !acciones.cancelar;

  const overBudget = acciones.aprobar && budget.excedido;
  const overText = overBudgetText(budget, comprador);
  const overAdvice = acciones.editar
    ? 'Reduce cantidades o quita productos antes de aprobar, o cancela el pedido.'
    : 'No se podrá aprobar así; puedes cancelarlo.';

  const changes = edited ? editSummary(pedido.lineas, review.quantities, originalTotal, totals.total) : [];
  // Where this approval takes the order: the level's step, or the client's rule by amount (decision 0049).
  // By the order's status, not the user's role: a delegate may approve at the other level (decision 0053).
  // With what the buyer placed in the client's window before this order (decision 0100).
  const previos = pesosToCentavos(view.reglas.previos);
  const target = approvalTarget(
    pedido.status === 'pendiente' && user.cliente?.cantidad_autorizadores === 2 ? 'espera' : 'aprobado',
    pedido.status,
    totals.total,
    {
      autoHasta: null,
      segundoNivelDesde:
        view.reglas.segundo_nivel_desde === null ? null : pesosToCentavos(view.reglas.segundo_nivel_desde),
    },
    previos,
  );
  const outcome = approvalOutcome({
    target,
    total: totals.total,
    previos,
    ventanaHoras: view.reglas.ventana_horas,
    comprador,
  });

  return (
    <Stack gap="lg">
      <BackLink />
      <OrderHeader
        id={pedido.id}
        pedido={pedido}
        subtitle={
          <>
            Fecha de compra: {formatDate(pedido.transaction_date)} · {comprador}
          </>
        }
        aside={
          <Stack gap={6} align="flex-end">
            {neighbours && neighbours.anterior === null && neighbours.siguiente === null ? null : (
              // Nothing to move to (the only order under this filter): no buttons.
              <QueueNav
                anterior={neighbours?.anterior ?? null}
                siguiente={neighbours?.siguiente ?? null}
                onGo={goTo}
              />
            )}
            <ShortcutsHint
              keys={[
                ['j', 'siguiente'],
                ['k', 'anterior'],
                ...(acciones.aprobar ? ([['a', 'aprobar']] as [string, string][]) : []),
              ]}
            />
          </Stack>
        }
      />

      <Refusal error={review.refusal} onClose={review.clearRefusal} />
      <BudgetCards budget={budget} units={review.units} />
      {budget.area ? <AreaBudgetCard area={budget.area} /> : null}

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            <OrderNote nota={pedido.nota} />
            <CancellationNotice pedido={pedido} />
            {acciones.aprobar ? <CreditWarning credito={view.credito ?? null} /> : null}
            {overBudget ? (
              <Alert
                color="orange"
                variant="light"
                title="El presupuesto quedaría excedido"
                icon={<IconAlertTriangle size={18} />}
                data-testid="alerta-presupuesto"
              >
                {overText} {overAdvice}
              </Alert>
            ) : null}

            <Paper withBorder radius="lg" shadow="xs" component="section" aria-labelledby="productos-titulo">
              <Group justify="space-between" p="md" pb="sm" gap="xs">
                <Title order={2} fz="lg" id="productos-titulo">
                  Productos
                </Title>
                {acciones.editar ? (
                  <Text size="xs" c="dimmed">
                    <IconPencil size={12} aria-hidden style={{ verticalAlign: -1 }} /> Puedes ajustar
                    cantidades o quitar productos; se guardan al aprobar.
                  </Text>
                ) : null}
              </Group>
              <Box px={{ base: 'sm', sm: 0 }}>
                <OrderLinesTable lineas={pedido.lineas} controls={review.controls} />
              </Box>
              <Divider />
              <Stack gap={4} p="md" ml="auto" maw={360} data-testid="totales">
                <OrderTotalsSummary
                  totals={totals}
                  format={formatCentavos}
                  ivaLabel={ivaTotalLabel(pedido.lineas)}
                  after={
                    edited ? (
                      <Text size="xs" c="dimmed" ta="right">
                        Total original: <s>{formatCentavos(originalTotal)}</s>
                      </Text>
                    ) : null
                  }
                />
              </Stack>

              <Divider />
              <Box p="md">
                <OrderActions
                  view={view}
                  user={user}
                  edited={edited}
                  pending={review.pending}
                  approving={approve.isPending}
                  cancelling={cancel.isPending}
                  returning={sendBack.isPending}
                  onDiscard={review.discardEdits}
                  onApprove={() => setDialog('aprobar')}
                  onCancel={() => setDialog('cancelar')}
                  onReturn={() => setDialog('devolver')}
                />
                {done ? (
                  <NextPending
                    next={neighbours?.siguiente_accionable}
                    onGo={goTo}
                    backToList={
                      <Button component={Link} to={listHref(search)} variant="default" size="sm">
                        Volver a la lista
                      </Button>
                    }
                  />
                ) : null}
              </Box>
            </Paper>
            <Shipments pedido={pedido} />
            <OrderComments
              key={pedido.id}
              comentarios={pedido.comentarios}
              total={pedido.comentarios_total}
              loadOlder={(antes) => approverOlderComments(pedido.id, antes)}
              onSend={(texto) => review.comment.mutateAsync(texto)}
              viewerRol={user.rol}
            />
          </Stack>
        </Grid.Col>

        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="lg">
            <BuyerPanel view={view} />
            <CategoryBudgets budget={budget} />
            <Paper
              withBorder
              radius="lg"
              p="md"
              shadow="xs"
              component="section"
              aria-labelledby="historial-pedido"
            >
              <Text id="historial-pedido" size="xs" tt="uppercase" fw={700} c="dimmed" mb="md">
                Historial del pedido
              </Text>
              <OrderEvents eventos={pedido.eventos} />
            </Paper>
          </Stack>
        </Grid.Col>
      </Grid>

      <ApproveDialog
        opened={review.dialog === 'aprobar'}
        onClose={() => setDialog(null)}
        onConfirm={(comentario) => approve.mutate(comentario)}
        pending={approve.isPending}
        numero={numero}
        outcome={outcome}
        changes={changes}
        warning={overBudget ? `${overText} El sistema no permitirá aprobarlo.` : null}
      />
      <CancelDialog
        opened={review.dialog === 'cancelar'}
        onClose={() => setDialog(null)}
        onConfirm={(motivo) => cancel.mutate(motivo)}
        pending={cancel.isPending}
        numero={numero}
        comprador={comprador}
        discardsEdits={edited}
      />
      <ReturnDialog
        opened={review.dialog === 'devolver'}
        onClose={() => setDialog(null)}
        onConfirm={(comentario) => sendBack.mutate(comentario)}
        pending={sendBack.isPending}
        numero={numero}
      />
    </Stack>
  );
}

/** An order that is not found (or is another client's) sends the authorizer back to the list. */
function NotFound({ id }: { id: number }) {
  useEffect(() => {
    notifications.show({
      id: `pedido-${id}-no-encontrado`,
      color: 'yellow',
      title: 'Pedido no encontrado',
      message: `El pedido ${formatOrderNumber(id)} no existe.`,
      autoClose: 4000,
    });
  }, [id]);
  const { search } = useLocation();
  return <Navigate to={listHref(search)} replace />;
}

export function OrderPage({ id }: { id: number }) {
  const query = useQuery(approverOrderQuery(id));

  if (query.isPending) return <LoadingOrder id={id} />;
  if (query.isError) {
    if (isApiError(query.error) && query.error.status === 404) return <NotFound id={id} />;
    return (
      <Stack gap="lg">
        <BackLink />
        <Alert
          color="red"
          variant="light"
          title="No se pudo cargar el pedido"
          icon={<IconAlertTriangle size={18} />}
        >
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{errorMessage(query.error)}</Text>
            <Button size="xs" variant="white" color="red" onClick={() => void query.refetch()}>
              Reintentar
            </Button>
          </Stack>
        </Alert>
      </Stack>
    );
  }
  const view = query.data;
  // Edits start again from the server's lines whenever the order changes (a transition, a refetch).
  const version = `${view.pedido.id}-${view.pedido.status}-${view.pedido.eventos.length}`;
  return <OrderReview key={version} view={view} />;
}
