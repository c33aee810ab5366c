/**
 * /administrador/surtido: the approved orders of every client to fulfil (decision 0058). Filters by client,
 * fulfilment state, exported or not, late only (decision 0125; the late-lines e-mail links to ?atrasado=si)
 * and dates (in the URL); 50 a page from the server; checkboxes and
 * 'Exportar seleccionados' (the detail CSV, stamped with a batch, saved as surtido-lote-N.csv); a per-row
 * menu that moves the state forward, asking the carrier's reference when it is marked Enviado; the selection
 * moved together with a result per order and 'Importar guías' (decision 0094). Cards at phone width.
 */
import '@mantine/core/styles/Table.css';
import {
  Alert,
  Button,
  Checkbox,
  Group,
  Menu,
  Modal,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import {
  FULFILMENT_LABELS,
  FULFILMENT_NOTE_MAX,
  FULFILMENT_STATES,
  type FulfilmentState,
  GUIA_MAX,
  nextFulfilmentStates,
} from '@portal/shared/domain/fulfilment';
import { MSG } from '@portal/shared/messages';
import {
  type BulkFulfilmentResponse,
  FULFILMENT_SORT,
  FulfilmentQueueQuery,
  type FulfilmentRow,
} from '@portal/shared/schemas/fulfilment';
import {
  IconAlertTriangle,
  IconChevronDown,
  IconFileExport,
  IconFileUpload,
  IconFilterOff,
  IconMessageReport,
  IconTruckDelivery,
} from '@tabler/icons-react';
import { lazy, Suspense, useState } from 'react';
import { Link } from 'react-router';
import { showSuccess } from '../../../components/ui/alerts';
import { confirmAction } from '../../../components/ui/confirm';
import { DateRangeField } from '../../../components/ui/date-range-field';
import { DialogActions } from '../../../components/ui/dialog-actions';
import { LoadingRows } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { Pager } from '../../../components/ui/pager';
import { PhoneFilters } from '../../../components/ui/phone-filters';
import { Refusal } from '../../../components/ui/refusal';
import { errorMessage, isApiError } from '../../../lib/api';
import { pageHeading } from '../../../lib/first-paint';
import { formatCount, formatOrderNumber } from '../../../lib/format';
import { useListParams } from '../../../lib/list-params';
import { type RowSelection, useRowSelection } from '../../../lib/row-selection';
import type { FulfilmentFilters } from '../api/keys';
import { ClientSelect } from '../clients/client-select';
import {
  type PickListFormat,
  useBulkMove,
  useExportOrders,
  useFulfilmentQueue,
  useMoveFulfilment,
  usePickList,
} from './api';
import { useCreditRelease } from './credit-release';
import { BulkMoveBar, BulkMoveSummary } from './fulfilment-bulk';
import { QueueCards, QueueTable } from './fulfilment-rows';

/** 'Importar guías': loaded when opened, with its file picker (decision 0094). */
const GuiasDialog = lazy(() => import('./guias-dialog'));

/** The queue's parameters in the URL (`?page=&cliente=&surtido=&exportado=&atrasado=&desde=&hasta=&orden=`). */
function useQueueParams() {
  const list = useListParams(FulfilmentQueueQuery);
  const { page, cliente, surtido, exportado, atrasado, retenido, desde, hasta, orden } = list.values;
  const filters: FulfilmentFilters = {
    page,
    cliente: cliente ?? null,
    surtido: surtido === 'todos' ? null : surtido,
    exportado: exportado === 'todos' ? null : exportado,
    atrasado: atrasado === 'si' ? 'si' : null,
    retenido: retenido === 'si' ? 'si' : null,
    desde: desde ?? null,
    hasta: hasta ?? null,
    orden,
  };
  return { filters, set: list.set };
}
type QueueParams = ReturnType<typeof useQueueParams>;

/** A refused move or export: its title and the server's words. */
interface QueueRefusal {
  title: string;
  text: string;
}

/** The dialog of a move to Enviado: the carrier's reference and a comment, both optional. */
function ShipDialog({
  opened,
  title,
  withComment = true,
  onClose,
  onSend,
  pending,
  refusal,
}: {
  opened: boolean;
  title: string;
  /** The single move takes a comment; a move in bulk only the guía, the same for every order. */
  withComment?: boolean;
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
      opened={opened}
      onClose={onClose}
      title={title}
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
        {withComment ? (
          <Textarea
            label="Comentario (opcional)"
            autosize
            minRows={2}
            value={comentario}
            onChange={(e) => setComentario(e.currentTarget.value)}
            error={noteLong ? MSG.surtidoNotaLarga : undefined}
          />
        ) : null}
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

/** The order's fulfilment state, its guía (a tracking link when the carrier is known) and the buyer's note. */

const isFiltered = (f: FulfilmentFilters) =>
  Boolean(f.cliente || f.surtido || f.exportado || f.atrasado || f.retenido || f.desde || f.hasta);

/** The queue's filters, as the URL holds them, and 'Limpiar filtros'. */
function QueueFilters({ filters, set }: { filters: FulfilmentFilters; set: QueueParams['set'] }) {
  const filtered = isFiltered(filters);
  return (
    <Paper withBorder radius="lg" p="md" shadow="xs" mb="lg" component="section" aria-label="Filtros">
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 5 }} spacing="sm" style={{ alignItems: 'end' }}>
        <ClientSelect
          value={filters.cliente}
          onChange={(id) => set({ cliente: id })}
          placeholder="Todos los clientes"
          clearable
        />
        {/* On phones the state, export and date filters fold behind one button (issue 37). */}
        <PhoneFilters
          inGrid
          active={
            Number(!!filters.surtido) +
            Number(!!filters.exportado) +
            Number(!!filters.atrasado) +
            Number(!!filters.retenido) +
            Number(!!(filters.desde || filters.hasta))
          }
        >
          <Select
            label="Estado de surtido"
            placeholder="Todos"
            data={FULFILMENT_STATES.map((s) => ({ value: s, label: FULFILMENT_LABELS[s] }))}
            value={filters.surtido}
            onChange={(v) => set({ surtido: v as FulfilmentState | null })}
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
            onChange={(v) => set({ exportado: v as 'si' | 'no' | null })}
            clearable
          />
          <Checkbox
            label="Solo atrasados"
            description="Con productos que pasaron su fecha prometida"
            checked={filters.atrasado === 'si'}
            onChange={(e) => set({ atrasado: e.currentTarget.checked ? 'si' : null })}
          />
          <Checkbox
            label="Solo retenidos por crédito"
            description="Esperan a que los liberes para surtirse"
            checked={filters.retenido === 'si'}
            onChange={(e) => set({ retenido: e.currentTarget.checked ? 'si' : null })}
          />
          <DateRangeField
            label="Fecha del pedido"
            desde={filters.desde}
            hasta={filters.hasta}
            onChange={(desde, hasta) => set({ desde, hasta })}
          />
          <Button
            variant="default"
            leftSection={<IconFilterOff size={16} aria-hidden />}
            disabled={!filtered}
            onClick={() =>
              set({
                cliente: null,
                surtido: null,
                exportado: null,
                atrasado: null,
                retenido: null,
                desde: null,
                hasta: null,
              })
            }
          >
            Limpiar filtros
          </Button>
        </PhoneFilters>
      </SimpleGrid>
    </Paper>
  );
}

/**
 * 'Exportar seleccionados': the detail CSV of the selected orders, stamped with a batch; orders exported
 * before are exported again, with a new batch, after a confirmation. The exported ones leave the selection.
 */
function useExport(selected: RowSelection<FulfilmentRow>, onRefusal: (refusal: QueueRefusal | null) => void) {
  const exporter = useExportOrders();
  const doExport = (reexportar: boolean) => {
    const ids = selected.ids;
    exporter.mutate(
      { ids, reexportar },
      {
        onSuccess: (filename) => {
          selected.clear();
          onRefusal(null);
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
                selected.clear();
                showSuccess('Exportación lista', `${ids.length} pedido(s) en ${filename}`);
              },
            });
            return;
          }
          onRefusal({ title: 'No se pudo exportar', text: errorMessage(error) });
        },
      },
    );
  };

  return { run: doExport, pending: exporter.isPending };
}

/** 'Lista de surtido': the selection's pick list as a file; the selection stays, since nothing moved. */
function usePickListDownload(
  selected: RowSelection<FulfilmentRow>,
  onRefusal: (refusal: QueueRefusal | null) => void,
) {
  const pickList = usePickList();
  const run = (formato: PickListFormat) =>
    pickList.mutate(
      { ids: selected.ids, formato },
      {
        onSuccess: (filename) => {
          onRefusal(null);
          showSuccess('Lista de surtido descargada', filename);
        },
        onError: (error) =>
          onRefusal({ title: 'No se pudo preparar la lista de surtido', text: errorMessage(error) }),
      },
    );
  return { run, pending: pickList.isPending };
}

/** The queue's header actions: «Reclamos», «Importar guías» and «Exportar seleccionados». */
function QueueActions(p: {
  selected: number;
  exporting: boolean;
  onExport: () => void;
  onGuias: () => void;
}) {
  return (
    <Group gap="xs" wrap="wrap">
      <Button
        component={Link}
        to="/administrador/reclamos"
        variant="default"
        leftSection={<IconMessageReport size={16} aria-hidden />}
      >
        Reclamos
      </Button>
      <Button variant="default" leftSection={<IconFileUpload size={16} aria-hidden />} onClick={p.onGuias}>
        Importar guías
      </Button>
      <Button
        leftSection={<IconFileExport size={16} aria-hidden />}
        disabled={p.selected === 0}
        loading={p.exporting}
        onClick={p.onExport}
        data-testid="exportar-seleccionados"
      >
        Exportar seleccionados{p.selected > 0 ? ` (${p.selected})` : ''}
      </Button>
    </Group>
  );
}

export function FulfilmentPage() {
  const { filters, set } = useQueueParams();
  const query = useFulfilmentQueue(filters);
  const move = useMoveFulfilment();
  const selected = useRowSelection<FulfilmentRow>();
  const [shipping, setShipping] = useState<FulfilmentRow | null>(null);
  const bulk = useBulkMove();
  const [bulkShipping, setBulkShipping] = useState(false);
  const [bulkResult, setBulkResult] = useState<BulkFulfilmentResponse | null>(null);
  const [guiasOpen, setGuiasOpen] = useState(false);
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  // A refused move or export: in the shipping dialog when it is open, else above the queue.
  const [refusal, setRefusal] = useState<QueueRefusal | null>(null);

  const rows = query.data?.pedidos ?? [];
  const total = query.data?.total ?? 0;
  const pages = query.data ? Math.max(1, Math.ceil(total / query.data.per_page)) : 1;
  const filtered = isFiltered(filters);
  const exporter = useExport(selected, setRefusal);
  const pickList = usePickListDownload(selected, setRefusal);

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

  /** Moves the selection together: each order on its own; the moved ones leave the selection. */
  const doBulkMove = (estado: FulfilmentState, guia?: string) => {
    const ids = selected.ids;
    bulk.mutate(
      { ids, estado, ...(guia ? { guia } : {}) },
      {
        onSuccess: (res) => {
          setBulkShipping(false);
          setRefusal(null);
          setBulkResult(res);
          selected.drop(res.resultados.filter((r) => r.ok).map((r) => r.id));
        },
        onError: (error) =>
          setRefusal({ title: 'No se pudieron mover los pedidos', text: errorMessage(error) }),
      },
    );
  };
  const askBulkMove = (estado: FulfilmentState) => {
    setRefusal(null);
    if (estado === 'enviado') {
      setBulkShipping(true);
      return;
    }
    const n = selected.size;
    confirmAction({
      title: `¿Marcar ${n === 1 ? '1 pedido' : `${n} pedidos`} como «${FULFILMENT_LABELS[estado]}»?`,
      message: (
        <Text size="sm">
          Cada pedido avanza por su cuenta: los que ya están en ese estado o en uno posterior, o que no están
          aprobados, se quedan como están y el resumen dice por qué.
        </Text>
      ),
      confirmLabel: `Marcar como «${FULFILMENT_LABELS[estado]}»`,
      onConfirm: () => doBulkMove(estado),
    });
  };

  const release = useCreditRelease(setRefusal);

  const menuOf = (row: FulfilmentRow) =>
    row.retenido_credito ? (
      release.button(row)
    ) : (
      <StateMenu
        row={row}
        onMove={(r, estado) => doMove(r, estado)}
        onShip={(r) => {
          setRefusal(null);
          setShipping(r);
        }}
      />
    );

  return (
    <Stack gap={0}>
      <PageHeader
        {...pageHeading('surtido')}
        actions={
          <QueueActions
            selected={selected.size}
            exporting={exporter.pending}
            onExport={() => exporter.run(false)}
            onGuias={() => setGuiasOpen(true)}
          />
        }
      />
      <QueueFilters filters={filters} set={set} />

      {bulkResult ? <BulkMoveSummary result={bulkResult} onClose={() => setBulkResult(null)} /> : null}
      <Refusal
        error={shipping || bulkShipping ? null : (refusal?.text ?? null)}
        title={refusal?.title}
        onClose={() => setRefusal(null)}
        mb="md"
      />
      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'xs', sm: 'md' }}>
        <Group justify="space-between" px="xs" pb="xs">
          <Text size="sm" c="dimmed" aria-live="polite">
            {query.data ? `${formatCount(total)} ${total === 1 ? 'pedido' : 'pedidos'}` : ''}
          </Text>
        </Group>
        {query.isLoading ? (
          <LoadingRows label="Cargando pedidos" rows={3} height={48} p={0} />
        ) : query.isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {errorMessage(query.error, 'No se pudieron cargar los pedidos.')}
          </Alert>
        ) : rows.length === 0 ? (
          <Text ta="center" c="dimmed" py="xl" fw={600}>
            {filtered ? 'Ningún pedido coincide con los filtros' : 'No hay pedidos aprobados por surtir'}
          </Text>
        ) : phone ? (
          <QueueCards rows={rows} selection={selected} fetching={query.isFetching} menuOf={menuOf} />
        ) : (
          <QueueTable
            rows={rows}
            selection={selected}
            fetching={query.isFetching}
            menuOf={menuOf}
            sort={filters.orden ?? FULFILMENT_SORT.byDefault}
            onSort={(orden) => set({ orden })}
          />
        )}
        <BulkMoveBar
          count={selected.size}
          busy={bulk.isPending}
          picking={pickList.pending}
          onMove={askBulkMove}
          onPickList={pickList.run}
          onClear={selected.clear}
        />
        <Pager
          label="Páginas de pedidos por surtir"
          total={pages}
          value={filters.page}
          onChange={(page) => set({ page })}
          divided
          mt="sm"
        />
      </Paper>
      <ShipDialog
        key={shipping?.id ?? 0}
        opened={shipping !== null}
        title={shipping ? `Marcar como enviado el pedido ${formatOrderNumber(shipping.id)}` : ''}
        onClose={() => {
          setShipping(null);
          setRefusal(null);
        }}
        refusal={refusal?.text ?? null}
        pending={move.isPending}
        onSend={(guia, comentario) => shipping && doMove(shipping, 'enviado', guia, comentario)}
      />
      <ShipDialog
        key={bulkShipping ? 'lote' : 'cerrado'}
        opened={bulkShipping}
        title={`Marcar como enviados ${selected.size === 1 ? '1 pedido' : `${selected.size} pedidos`}`}
        withComment={false}
        onClose={() => {
          setBulkShipping(false);
          setRefusal(null);
        }}
        refusal={refusal?.text ?? null}
        pending={bulk.isPending}
        onSend={(guia) => doBulkMove('enviado', guia)}
      />
      {guiasOpen ? (
        <Suspense fallback={null}>
          <GuiasDialog opened onClose={() => setGuiasOpen(false)} />
        </Suspense>
      ) : null}
    </Stack>
  );
}
