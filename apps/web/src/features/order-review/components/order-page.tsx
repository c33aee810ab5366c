/**
 * Spec §2 /autorizador/orden/:id: budget cards, the lines (editable by rol 2 while pendiente), live
 * totals, Approve and Cancel exactly when the server would accept them (`acciones`, decision 0013), the
 * buyer's side panel and the order's history. A missing order, or another client's (404), goes back to
 * the list.
 */
import {
  Alert,
  Anchor,
  Box,
  Button,
  Divider,
  Flex,
  Grid,
  Group,
  Paper,
  Skeleton,
  Stack,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { pesosToCentavos } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate } from '@portal/shared/domain/time';
import { MSG } from '@portal/shared/messages';
import type { WorkflowResponse } from '@portal/shared/schemas/orders';
import {
  IconAlertTriangle,
  IconArrowLeft,
  IconBan,
  IconCheck,
  IconInfoCircle,
  IconPencil,
} from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { OrderEvents } from '../../../components/orders/order-events';
import { OrderTotalsSummary } from '../../../components/orders/order-totals';
import { StatusBadge } from '../../../components/orders/status-badge';
import { showError, showSuccess } from '../../../components/ui/alerts';
import { errorMessage, isApiError } from '../../../lib/api';
import {
  formatCentavos,
  formatDate,
  formatOrderNumber,
  getBusinessTimeZone,
  titleCase,
} from '../../../lib/format';
import { useSession } from '../../../lib/session';
import {
  type AuthorizerOrderView,
  approveOrder,
  authorizerKeys,
  cancelOrder,
  fetchOrder,
} from '../api/orders';
import {
  approvalLines,
  budgetAfter,
  buyerName,
  checkQuantity,
  editSummary,
  hasEdits,
  initialQuantities,
  overBudgetText,
  type Quantities,
  totalsFor,
  unitsFor,
} from '../lib/order-edits';
import { BudgetCards } from './budget-cards';
import { BuyerPanel, CategoryBudgets } from './buyer-panel';
import { type LineControls, OrderLinesTable } from './order-lines';
import { ApproveDialog, CancelDialog } from './workflow-dialogs';

const BACK = '/autorizador/principal';

function BackLink() {
  return (
    <Anchor component={Link} to={BACK} size="sm" fw={500}>
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

/** Why there is nothing to do, when Approve and Cancel are not offered. */
function noActionNote(view: AuthorizerOrderView, user: { id: number; rol: number }): string {
  const { status } = view.pedido;
  const { rol } = user;
  // Separation of duties (decision 0039): the server offers no action on an order the user placed.
  if (view.usuario.id === user.id && (status === 'pendiente' || status === 'espera')) return MSG.pedidoPropio;
  if (status === 'aprobado') return 'Este pedido ya está aprobado. No requiere más acciones.';
  if (status === 'cancelado') return 'Este pedido fue cancelado. No requiere más acciones.';
  if (status === 'espera' && rol === ROLES.autorizador)
    return 'Este pedido ya fue autorizado y espera la aprobación final del Super Autorizador.';
  if (status === 'pendiente' && rol === ROLES.superAutorizador)
    return 'Este pedido aún debe autorizarlo el Autorizador; después podrás darle la aprobación final.';
  return 'No tienes acciones disponibles para este pedido.';
}

function OrderReview({ view }: { view: AuthorizerOrderView }) {
  const { user } = useSession();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const { pedido, acciones } = view;
  const numero = formatOrderNumber(pedido.id);
  const comprador = buyerName(view.usuario.nombre);

  const [quantities, setQuantities] = useState<Quantities>(() => initialQuantities(pedido.lineas));
  const [dialog, setDialog] = useState<'aprobar' | 'cancelar' | null>(null);

  const editable = acciones.editar;
  const edited = editable && hasEdits(pedido.lineas, quantities);
  const totals = useMemo(() => totalsFor(pedido.lineas, quantities), [pedido.lineas, quantities]);
  const budget = useMemo(() => budgetAfter(view, quantities), [view, quantities]);
  const units = unitsFor(quantities);
  const originalTotal = pesosToCentavos(pedido.total);

  const onDone = (result: WorkflowResponse) => {
    setDialog(null);
    queryClient.setQueryData<AuthorizerOrderView>(authorizerKeys.order(pedido.id), (old) =>
      old
        ? {
            ...old,
            pedido: { ...result.pedido, status: result.nuevo_estatus },
            acciones: { aprobar: false, cancelar: false, editar: false },
          }
        : old,
    );
    void queryClient.invalidateQueries({ queryKey: authorizerKeys.order(pedido.id) });
    void queryClient.invalidateQueries({ queryKey: authorizerKeys.lists() });
    showSuccess(result.msg, `Pedido ${numero} · Estatus: ${titleCase(result.nuevo_estatus)}`);
  };
  const onFailed = (error: unknown) => {
    setDialog(null);
    if (isApiError(error) && error.status === 404) {
      void navigate(BACK, { replace: true });
      return;
    }
    // 409 (someone else acted first), 403, 422 (budget): show the server's words and the current state.
    void queryClient.invalidateQueries({ queryKey: authorizerKeys.order(pedido.id) });
    void queryClient.invalidateQueries({ queryKey: authorizerKeys.lists() });
    void showError(errorMessage(error));
  };

  const approve = useMutation({
    mutationFn: () =>
      approveOrder({
        id: pedido.id,
        orden: approvalLines(pedido.lineas, quantities),
        fecha: businessDate(Date.now(), getBusinessTimeZone()),
        total: totals.total / 100,
      }),
    onSuccess: onDone,
    onError: onFailed,
  });
  const cancel = useMutation({
    mutationFn: (motivo: string) => cancelOrder(pedido.id, motivo),
    onSuccess: onDone,
    onError: onFailed,
  });
  const pending = approve.isPending || cancel.isPending;

  const [editor, setEditor] = useState<LineControls['editor']>(null);
  const controls: LineControls = {
    editable: editable && !pending,
    quantityOf: (id) => quantities.get(id),
    limitOf: (id) => view.limites[String(id)] ?? 1,
    keptCount: quantities.size,
    editor,
    startEdit: (id) => setEditor({ id, value: quantities.get(id) ?? 1, error: null }),
    changeDraft: (value) => setEditor((e) => (e ? { ...e, value, error: null } : e)),
    applyEdit: () => {
      if (!editor) return;
      const result = checkQuantity(view, quantities, editor.id, editor.value);
      if (result.ok) {
        setQuantities(result.quantities);
        setEditor(null);
        return;
      }
      // Spec §5: over the budget the old quantity is put back.
      const value = result.restore ? (quantities.get(editor.id) ?? editor.value) : editor.value;
      setEditor({ ...editor, value, error: result.error });
    },
    cancelEdit: () => setEditor(null),
    remove: (id) => {
      if (quantities.size <= 1) return;
      const next = new Map(quantities);
      next.delete(id);
      setQuantities(next);
      if (editor?.id === id) setEditor(null);
    },
    restore: (id) => {
      const line = pedido.lineas.find((l) => l.id_producto === id);
      if (!line) return;
      const next = new Map(quantities);
      next.set(id, line.cantidad);
      setQuantities(next);
    },
  };

  const overBudget = acciones.aprobar && budget.excedido;
  const overText = overBudgetText(budget, comprador);
  const overAdvice = editable
    ? 'Reduce cantidades o quita productos antes de aprobar, o cancela el pedido.'
    : 'No se podrá aprobar así; puedes cancelarlo.';

  const changes = edited ? editSummary(pedido.lineas, quantities, originalTotal, totals.total) : [];
  const outcome =
    user.rol === ROLES.autorizador && user.cliente?.cantidad_autorizadores === 2
      ? 'El pedido pasará a Espera para la aprobación final del Super Autorizador.'
      : `El pedido quedará Aprobado y se avisará a ${comprador} por correo.`;

  return (
    <Stack gap="lg">
      <BackLink />
      <Group justify="space-between" align="flex-end" gap="sm" wrap="wrap">
        <div>
          <Group gap="sm" align="center">
            <Title order={1} fz={{ base: 24, sm: 28 }}>
              Pedido {numero}
            </Title>
            <StatusBadge status={pedido.status} size="lg" data-testid="estatus-pedido" />
          </Group>
          <Text c="dimmed" mt={4}>
            Enviado el {formatDate(pedido.transaction_date)} por {comprador}
          </Text>
        </div>
      </Group>

      <BudgetCards budget={budget} units={units} />

      <Grid gap="lg">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="lg">
            {pedido.status === 'cancelado' && pedido.motivo_cancelacion ? (
              <Alert color="red" variant="light" title="Motivo de cancelación" icon={<IconBan size={18} />}>
                {pedido.motivo_cancelacion}
              </Alert>
            ) : null}
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
                {editable ? (
                  <Text size="xs" c="dimmed">
                    <IconPencil size={12} aria-hidden style={{ verticalAlign: -1 }} /> Puedes ajustar
                    cantidades o quitar productos; se guardan al aprobar.
                  </Text>
                ) : null}
              </Group>
              <Box px={{ base: 'sm', sm: 0 }}>
                <OrderLinesTable lineas={pedido.lineas} controls={controls} />
              </Box>
              <Divider />
              <Stack gap={4} p="md" ml="auto" maw={360} data-testid="totales">
                <OrderTotalsSummary
                  totals={totals}
                  format={formatCentavos}
                  ivaLabel="IVA (16%)"
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
                {acciones.aprobar || acciones.cancelar ? (
                  <Flex
                    direction={{ base: 'column', sm: 'row' }}
                    justify="space-between"
                    align={{ base: 'stretch', sm: 'center' }}
                    gap="sm"
                  >
                    {edited ? (
                      <Group gap="xs" wrap="nowrap">
                        <ThemeIcon variant="light" color="indigo" radius="xl" size="sm" aria-hidden>
                          <IconPencil size={12} />
                        </ThemeIcon>
                        <Text size="sm">
                          Cambios sin guardar.{' '}
                          <Anchor
                            component="button"
                            type="button"
                            size="sm"
                            onClick={() => {
                              setQuantities(initialQuantities(pedido.lineas));
                              setEditor(null);
                            }}
                            disabled={pending}
                          >
                            Descartar cambios
                          </Anchor>
                        </Text>
                      </Group>
                    ) : !acciones.aprobar && pedido.status === 'espera' ? (
                      // Rol 3 on an order it gave the level-1 approval of: it may cancel, not approve.
                      <Group gap="xs" wrap="nowrap">
                        <IconInfoCircle size={18} color="var(--mantine-color-dimmed)" aria-hidden />
                        <Text size="sm" c="dimmed">
                          {MSG.segundaAutorizacionOtraPersona}
                        </Text>
                      </Group>
                    ) : null}
                    <Flex
                      direction={{ base: 'column-reverse', xs: 'row' }}
                      justify="flex-end"
                      gap="sm"
                      style={{ flexGrow: 1 }}
                    >
                      {acciones.cancelar ? (
                        <Button
                          variant="outline"
                          color="red"
                          leftSection={<IconBan size={18} aria-hidden />}
                          onClick={() => setDialog('cancelar')}
                          disabled={pending}
                          loading={cancel.isPending}
                          w={{ base: '100%', xs: 'auto' }}
                        >
                          Cancelar pedido
                        </Button>
                      ) : null}
                      {acciones.aprobar ? (
                        <Button
                          color="teal"
                          leftSection={<IconCheck size={18} aria-hidden />}
                          onClick={() => setDialog('aprobar')}
                          disabled={pending}
                          loading={approve.isPending}
                          w={{ base: '100%', xs: 'auto' }}
                        >
                          {edited ? 'Guardar cambios y aprobar' : 'Aprobar pedido'}
                        </Button>
                      ) : null}
                    </Flex>
                  </Flex>
                ) : (
                  <Group gap="xs" wrap="nowrap" data-testid="sin-acciones">
                    <IconInfoCircle size={18} color="var(--mantine-color-dimmed)" aria-hidden />
                    <Text size="sm" c="dimmed">
                      {noActionNote(view, user)}
                    </Text>
                  </Group>
                )}
              </Box>
            </Paper>
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
        opened={dialog === 'aprobar'}
        onClose={() => setDialog(null)}
        onConfirm={() => approve.mutate()}
        pending={approve.isPending}
        numero={numero}
        outcome={outcome}
        changes={changes}
        warning={overBudget ? `${overText} El sistema no permitirá aprobarlo.` : null}
      />
      <CancelDialog
        opened={dialog === 'cancelar'}
        onClose={() => setDialog(null)}
        onConfirm={(motivo) => cancel.mutate(motivo)}
        pending={cancel.isPending}
        numero={numero}
        comprador={comprador}
        discardsEdits={edited}
      />
    </Stack>
  );
}

/** Spec §2: an order that is not found (or is another client's) sends the authorizer back to the list. */
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
  return <Navigate to={BACK} replace />;
}

export function OrderPage({ id }: { id: number }) {
  const query = useQuery({
    queryKey: authorizerKeys.order(id),
    queryFn: ({ signal }) => fetchOrder(id, signal),
    staleTime: 0,
  });

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
