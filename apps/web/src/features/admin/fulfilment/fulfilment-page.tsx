/**
 * /administrador/surtido: the approved orders of every client to fulfil (decision 0058). Filters by client,
 * fulfilment state, exported or not and dates (in the URL); 50 a page from the server; checkboxes and
 * 'Exportar seleccionados' (the detail CSV, stamped with a batch); a per-row menu that moves the state
 * forward, asking the carrier's reference when it is marked Enviado.
 */
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Checkbox,
  Group,
  Menu,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  FULFILMENT_LABELS,
  FULFILMENT_NOTE_MAX,
  FULFILMENT_STATES,
  type FulfilmentState,
  GUIA_MAX,
  nextFulfilmentStates,
} from '@portal/shared/domain/fulfilment';
import { MSG } from '@portal/shared/messages';
import { FULFILMENT_SORT, type FulfilmentRow, type FulfilmentSort } from '@portal/shared/schemas/fulfilment';
import {
  IconAlertTriangle,
  IconChevronDown,
  IconFileExport,
  IconFilterOff,
  IconMessageReport,
  IconTruckDelivery,
} from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { FulfilmentBadge } from '../../../components/orders/fulfilment-badge';
import { GuiaLink } from '../../../components/orders/guia-link';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { DateRangeField } from '../../../components/ui/date-range-field';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { PageHeader } from '../../../components/ui/page';
import { Pager } from '../../../components/ui/pager';
import { Refusal } from '../../../components/ui/refusal';
import { SortableTh } from '../../../components/ui/sortable-th';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatDate, formatDateTime, formatMXN, formatOrderNumber } from '../../../lib/format';
import { useSearchParamsUpdate } from '../../../lib/search-params';
import type { FulfilmentFilters } from '../api/keys';
import { ClientSelect } from '../clients/client-select';
import { useExportOrders, useFulfilmentQueue, useMoveFulfilment } from './api';

const ISO = /^\d{4}-\d{2}-\d{2}$/;

function useQueueParams() {
  const [params, setParams] = useSearchParamsUpdate();
  const date = (k: string) => {
    const v = params.get(k);
    return v && ISO.test(v) ? v : null;
  };
  const cliente = Number(params.get('cliente'));
  const surtido = params.get('surtido');
  const exportado = params.get('exportado');
  const filters: FulfilmentFilters = {
    page: Math.max(1, Math.floor(Number(params.get('page')) || 1)),
    cliente: Number.isInteger(cliente) && cliente > 0 ? cliente : null,
    surtido: surtido && (FULFILMENT_STATES as readonly string[]).includes(surtido) ? surtido : null,
    exportado: exportado === 'si' || exportado === 'no' ? exportado : null,
    desde: date('desde'),
    hasta: date('hasta'),
    orden: FULFILMENT_SORT.read(params.get('orden')),
  };
  /** A filter's change goes back to page 1. */
  const update = (changes: Record<string, string | null>, keepPage = false) =>
    setParams(keepPage ? changes : { ...changes, page: null });
  /** The Fecha header's sort (decision 0067), also back to page 1. */
  const sort = (orden: FulfilmentSort) =>
    update({ orden: orden === FULFILMENT_SORT.byDefault ? null : orden });
  return { filters, update, sort };
}

/** The dialog of a move to Enviado: the carrier's reference and a comment, both optional. */
function ShipDialog({
  row,
  onClose,
  onSend,
  pending,
  refusal,
}: {
  row: FulfilmentRow | null;
  onClose: () => void;
  onSend: (guia: string, comentario: string) => void;
  /** The server's refusal of the last try, above the buttons. */
  refusal: string | null;
  pending: boolean;
}) {
  const [guia, setGuia] = useState('');
  const [comentario, setComentario] = useState('');
  const guiaLong = guia.trim().length > GUIA_MAX;
  const noteLong = comentario.trim().length > FULFILMENT_NOTE_MAX;
  return (
    <Modal
      opened={row !== null}
      onClose={onClose}
      title={row ? `Marcar como enviado el pedido ${formatOrderNumber(row.id)}` : ''}
      centered
      closeButtonProps={{ 'aria-label': 'Cerrar' }}
    >
      <Stack gap="sm">
        <TextInput
          label="Paquetería y guía"
          description="Opcional; el comprador la recibe por correo."
          placeholder="Ej. Estafeta 1234567890"
          value={guia}
          onChange={(e) => setGuia(e.currentTarget.value)}
          error={guiaLong ? MSG.surtidoGuiaLarga : undefined}
          data-autofocus
        />
        <Textarea
          label="Comentario (opcional)"
          autosize
          minRows={2}
          value={comentario}
          onChange={(e) => setComentario(e.currentTarget.value)}
          error={noteLong ? MSG.surtidoNotaLarga : undefined}
        />
        <DialogActions
          error={refusal}
          errorTitle="No se pudo cambiar el estado"
          busy={pending}
          onCancel={onClose}
          onConfirm={() => onSend(guia.trim(), comentario.trim())}
          confirmLabel="Marcar como enviado"
          confirmIcon={<IconTruckDelivery size={16} aria-hidden />}
          disabled={guiaLong || noteLong}
        />
      </Stack>
    </Modal>
  );
}

function StateMenu({
  row,
  onMove,
  onShip,
}: {
  row: FulfilmentRow;
  onMove: (row: FulfilmentRow, estado: FulfilmentState) => void;
  onShip: (row: FulfilmentRow) => void;
}) {
  const next = nextFulfilmentStates(row.surtido);
  if (next.length === 0) return null;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          size="xs"
          variant="default"
          rightSection={<IconChevronDown size={14} aria-hidden />}
          aria-label={`Cambiar el estado de surtido del pedido ${formatOrderNumber(row.id)}`}
        >
          Estado
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Mover a</Menu.Label>
        {next.map((estado) => (
          <Menu.Item key={estado} onClick={() => (estado === 'enviado' ? onShip(row) : onMove(row, estado))}>
            {FULFILMENT_LABELS[estado]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

export function FulfilmentPage() {
  const { filters, update, sort } = useQueueParams();
  const query = useFulfilmentQueue(filters);
  const move = useMoveFulfilment();
  const exporter = useExportOrders();
  const [selected, setSelected] = useState<Set<number>>(new Set());
  const [shipping, setShipping] = useState<FulfilmentRow | null>(null);
  // A refused move or export: in the shipping dialog when it is open, else above the queue.
  const [refusal, setRefusal] = useState<{ title: string; text: string } | null>(null);

  const rows = query.data?.pedidos ?? [];
  const total = query.data?.total ?? 0;
  const pages = query.data ? Math.max(1, Math.ceil(total / query.data.per_page)) : 1;
  const filtered = Boolean(
    filters.cliente || filters.surtido || filters.exportado || filters.desde || filters.hasta,
  );
  const pageIds = rows.map((r) => r.id);
  const allOnPage = pageIds.length > 0 && pageIds.every((id) => selected.has(id));
  const someOnPage = pageIds.some((id) => selected.has(id));

  const toggle = (id: number) =>
    setSelected((prev) => {
      const next = new Set(prev);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });
  const togglePage = () =>
    setSelected((prev) => {
      const next = new Set(prev);
      for (const id of pageIds) {
        if (allOnPage) next.delete(id);
        else next.add(id);
      }
      return next;
    });

  const doMove = (row: FulfilmentRow, estado: FulfilmentState, guia?: string, comentario?: string) =>
    move.mutate(
      { id: row.id, estado, ...(guia ? { guia } : {}), ...(comentario ? { comentario } : {}) },
      {
        onSuccess: (res) => {
          setShipping(null);
          setRefusal(null);
          showSuccess(`Pedido ${formatOrderNumber(row.id)}`, res.msg);
        },
        onError: (error) =>
          setRefusal({
            title: `No se pudo cambiar el estado del pedido ${formatOrderNumber(row.id)}`,
            text: errorMessage(error),
          }),
      },
    );

  const doExport = (reexportar: boolean) => {
    const ids = [...selected];
    exporter.mutate(
      { ids, reexportar },
      {
        onSuccess: (filename) => {
          setSelected(new Set());
          setRefusal(null);
          showSuccess('Exportación lista', `${ids.length} pedido(s) en ${filename}`);
        },
        onError: (error) => {
          if (isApiError(error) && error.code === 'ALREADY_EXPORTED') {
            confirmAction({
              title: 'Pedidos ya exportados',
              message: (
                <Text size="sm">
                  {error.msg} Se exportarán de nuevo los{' '}
                  {ids.length === 1 ? 'un pedido' : `${ids.length} pedidos`} seleccionados con un número de
                  lote nuevo.
                </Text>
              ),
              confirmLabel: 'Volver a exportar',
              onConfirm: async () => {
                const filename = await exporter.mutateAsync({ ids, reexportar: true });
                setSelected(new Set());
                showSuccess('Exportación lista', `${ids.length} pedido(s) en ${filename}`);
              },
            });
            return;
          }
          setRefusal({ title: 'No se pudo exportar', text: errorMessage(error) });
        },
      },
    );
  };

  return (
    <Stack gap={0}>
      <PageHeader
        title="Surtido"
        description="Pedidos aprobados de todos los clientes: expórtalos para surtirlos y avanza su estado hasta la entrega."
        actions={
          <Button
            leftSection={<IconFileExport size={16} aria-hidden />}
            disabled={selected.size === 0}
            loading={exporter.isPending}
            onClick={() => doExport(false)}
            data-testid="exportar-seleccionados"
          >
            Exportar seleccionados{selected.size > 0 ? ` (${selected.size})` : ''}
          </Button>
        }
      />
      <Paper withBorder radius="lg" p="md" shadow="xs" mb="lg" component="section" aria-label="Filtros">
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm" style={{ alignItems: 'end' }}>
          <ClientSelect
            value={filters.cliente}
            onChange={(id) => update({ cliente: id ? String(id) : null })}
            placeholder="Todos los clientes"
            clearable
          />
          <Select
            label="Estado de surtido"
            placeholder="Todos"
            data={FULFILMENT_STATES.map((s) => ({ value: s, label: FULFILMENT_LABELS[s] }))}
            value={filters.surtido}
            onChange={(v) => update({ surtido: v })}
            clearable
          />
          <Select
            label="Exportación"
            placeholder="Todos"
            data={[
              { value: 'no', label: 'Sin exportar' },
              { value: 'si', label: 'Exportados' },
            ]}
            value={filters.exportado}
            onChange={(v) => update({ exportado: v })}
            clearable
          />
          <DateRangeField
            label="Fecha del pedido"
            desde={filters.desde}
            hasta={filters.hasta}
            onChange={(desde, hasta) => update({ desde, hasta })}
          />
          <Button
            variant="default"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            disabled={!filtered}
            onClick={() =>
              update({ cliente: null, surtido: null, exportado: null, desde: null, hasta: null })
            }
          >
            Limpiar filtros
          </Button>
        </SimpleGrid>
      </Paper>

      <Refusal
        error={shipping ? null : (refusal?.text ?? null)}
        title={refusal?.title}
        onClose={() => setRefusal(null)}
        mb="md"
      />
      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'xs', sm: 'md' }}>
        <Group justify="space-between" px="xs" pb="xs">
          <Text size="sm" c="dimmed" aria-live="polite">
            {query.data ? `${total.toLocaleString('es-MX')} ${total === 1 ? 'pedido' : 'pedidos'}` : ''}
          </Text>
        </Group>
        {query.isLoading ? (
          <Stack gap="xs">
            {[0, 1, 2].map((k) => (
              <Skeleton key={k} h={48} radius="sm" />
            ))}
          </Stack>
        ) : query.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {errorMessage(query.error, 'No se pudieron cargar los pedidos.')}
          </Alert>
        ) : rows.length === 0 ? (
          <Text ta="center" c="dimmed" py="xl" fw={600}>
            {filtered ? 'Ningún pedido coincide con los filtros' : 'No hay pedidos aprobados por surtir'}
          </Text>
        ) : (
          <Table.ScrollContainer minWidth={980} style={{ opacity: query.isFetching ? 0.7 : 1 }}>
            <Table verticalSpacing="sm" striped aria-label="Pedidos por surtir">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th w={40}>
                    <Checkbox
                      aria-label="Seleccionar página"
                      checked={allOnPage}
                      indeterminate={someOnPage && !allOnPage}
                      onChange={togglePage}
                    />
                  </Table.Th>
                  <Table.Th>Pedido</Table.Th>
                  <SortableTh
                    field="fecha"
                    sort={filters.orden ?? FULFILMENT_SORT.byDefault}
                    onSort={sort}
                    firstDirection="desc"
                  >
                    Fecha
                  </SortableTh>
                  <Table.Th>Cliente</Table.Th>
                  <Table.Th>Comprador</Table.Th>
                  <Table.Th ta="right">Total</Table.Th>
                  <Table.Th>Surtido</Table.Th>
                  <Table.Th>Exportado</Table.Th>
                  <Table.Th />
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {rows.map((row) => {
                  const numero = formatOrderNumber(row.id);
                  return (
                    <Table.Tr key={row.id} data-testid="surtido-fila">
                      <Table.Td>
                        <Checkbox
                          aria-label={`Seleccionar el pedido ${numero}`}
                          checked={selected.has(row.id)}
                          onChange={() => toggle(row.id)}
                        />
                      </Table.Td>
                      <Table.Td fw={700}>
                        <Anchor component={Link} to={`/administrador/pedidos/${row.id}`}>
                          {numero}
                        </Anchor>
                      </Table.Td>
                      <Table.Td>{formatDate(row.transaction_date)}</Table.Td>
                      <Table.Td>{row.cliente.nombre}</Table.Td>
                      <Table.Td>{row.comprador}</Table.Td>
                      <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                        {formatMXN(row.total)}
                      </Table.Td>
                      <Table.Td>
                        <Stack gap={2}>
                          <FulfilmentBadge surtido={row.surtido} data-testid="surtido-estado" />
                          {row.guia ? (
                            <Text size="xs" c="dimmed">
                              Guía: <GuiaLink guia={row.guia} paqueteria={row.paqueteria} />
                            </Text>
                          ) : null}
                          {row.nota_recepcion ? (
                            <Group gap={4} wrap="nowrap" align="flex-start">
                              <IconMessageReport
                                size={14}
                                color="var(--mantine-color-orange-8)"
                                aria-hidden
                              />
                              <Text size="xs" c="orange.9" data-testid="nota-recepcion">
                                {row.nota_recepcion}
                              </Text>
                            </Group>
                          ) : null}
                        </Stack>
                      </Table.Td>
                      <Table.Td>
                        {row.exportado_at ? (
                          <Stack gap={2}>
                            <Badge variant="light" color="gray" radius="sm" style={{ textTransform: 'none' }}>
                              Lote {row.lote}
                            </Badge>
                            <Text size="xs" c="dimmed">
                              {formatDateTime(row.exportado_at)}
                            </Text>
                          </Stack>
                        ) : (
                          <Text size="sm" c="dimmed">
                            Sin exportar
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <StateMenu
                          row={row}
                          onMove={(r, estado) => doMove(r, estado)}
                          onShip={(r) => {
                            setRefusal(null);
                            setShipping(r);
                          }}
                        />
                      </Table.Td>
                    </Table.Tr>
                  );
                })}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Pager
          label="Páginas de pedidos por surtir"
          total={pages}
          value={filters.page}
          onChange={(page) => update({ page: String(page) }, true)}
          divided
          mt="sm"
        />
      </Paper>
      <ShipDialog
        key={shipping?.id ?? 0}
        row={shipping}
        onClose={() => {
          setShipping(null);
          setRefusal(null);
        }}
        refusal={refusal?.text ?? null}
        pending={move.isPending}
        onSend={(guia, comentario) => shipping && doMove(shipping, 'enviado', guia, comentario)}
      />
    </Stack>
  );
}
