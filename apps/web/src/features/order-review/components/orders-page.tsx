/**
 * Principal (and reportes, the same screen): the client's orders, 50 per page
 * from the server, filtered by status, date range and searched by order number or user (debounced,
 * server-side), sorted by date or total (the Fecha and Total headers; a select on phones), with the sum of what the filter holds, each row's budget after it
 * (flagged when approving it would exceed the buyer's budget), bulk approve and cancel of the selected
 * rows, and the 'Generar reporte' button. Filters live in the URL so the back button and links keep them.
 */
import '@mantine/core/styles/FloatingIndicator.css';
import '@mantine/core/styles/SegmentedControl.css';
import '@mantine/core/styles/Table.css';
import {
  Alert,
  Badge,
  Box,
  Button,
  Card,
  Checkbox,
  EmptyState,
  Group,
  Paper,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue, useDisclosure } from '@mantine/hooks';
import { actionableStatus } from '@portal/shared/domain/order-workflow';
import { ORDERS_PER_PAGE } from '@portal/shared/limits';
import {
  IconAlertTriangle,
  IconChevronRight,
  IconClipboardCheck,
  IconEye,
  IconFileSpreadsheet,
} from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { CommentCount } from '../../../components/orders/order-comments';
import { StatusBadge } from '../../../components/orders/status-badge';
import { DateRangeField } from '../../../components/ui/date-range-field';
import { ListSearch } from '../../../components/ui/list-search';
import { ListEmpty, LoadingRows } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { Pager } from '../../../components/ui/pager';
import { PhoneFilters } from '../../../components/ui/phone-filters';
import { SortableTh } from '../../../components/ui/sortable-th';
import { errorMessage } from '../../../lib/api';
import { formatDate, formatMXN, formatOrderNumber } from '../../../lib/format';
import { useSearchParamsUpdate } from '../../../lib/search-params';
import { useSession } from '../../../lib/session';
import {
  type AuthorizerOrderRow,
  authorizerKeys,
  type BulkResponse,
  bulkApprove,
  bulkCancel,
  fetchOrders,
  type OrderFilter,
  type OrderSort,
  type OrdersFilters,
} from '../api/orders';
import { bulkOutcome } from '../lib/bulk-outcome';
import { buyerName } from '../lib/order-edits';
import { orderHref } from '../lib/queue';
import { BulkApproveDialog, BulkBar, BulkCancelDialog, BulkSummary } from './bulk-actions';
import { ShortcutsHint } from './queue-nav';
import { useListKeys } from './use-list-keys';

// The dialog (and the date pickers) load the first time it opens.
const ReportDialog = lazy(() => import('./report-dialog').then((m) => ({ default: m.ReportDialog })));

const FILTERS: { value: OrderFilter; label: string }[] = [
  { value: 'accionables', label: 'Por atender' },
  { value: 'todos', label: 'Todos' },
  { value: 'pendiente', label: 'Pendiente' },
  { value: 'espera', label: 'Espera' },
  { value: 'aprobado', label: 'Aprobado' },
  { value: 'cancelado', label: 'Cancelado' },
];

const SORTS: { value: OrderSort; label: string }[] = [
  { value: 'fecha_desc', label: 'Más recientes' },
  { value: 'fecha_asc', label: 'Más antiguos' },
  { value: 'total_desc', label: 'Total mayor' },
  { value: 'total_asc', label: 'Total menor' },
];

const SEARCH_DEBOUNCE_MS = 300;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;

function isFilter(value: string | null): value is OrderFilter {
  return FILTERS.some((f) => f.value === value);
}

function isSort(value: string | null): value is OrderSort {
  return SORTS.some((f) => f.value === value);
}

function useListParams() {
  const [params, update] = useSearchParamsUpdate();
  const rawStatus = params.get('estatus');
  const status: OrderFilter = isFilter(rawStatus) ? rawStatus : 'accionables';
  const page = Math.max(1, Math.floor(Number(params.get('pagina')) || 1));
  const q = params.get('q') ?? '';
  const rawSort = params.get('orden');
  const orden: OrderSort = isSort(rawSort) ? rawSort : 'fecha_desc';
  const date = (key: string) => {
    const v = params.get(key) ?? '';
    return ISO_DATE.test(v) ? v : '';
  };
  return { status, page, q, orden, desde: date('desde'), hasta: date('hasta'), update };
}

/** The buyer's budget after the order, flagged when approving it would exceed it. */
function BudgetCell({ row }: { row: AuthorizerOrderRow }) {
  if (row.status === 'aprobado' || row.status === 'cancelado')
    return (
      <Text size="sm" c="dimmed">
        —
      </Text>
    );
  return (
    <Stack gap={2} align="flex-end">
      <Text
        size="sm"
        c={row.excede_presupuesto ? 'red.9' : undefined}
        fw={row.excede_presupuesto ? 600 : undefined}
        style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}
      >
        {formatMXN(row.restante_despues)}
      </Text>
      {row.excede_presupuesto ? (
        <Badge
          color="red"
          variant="light"
          size="sm"
          leftSection={<IconAlertTriangle size={12} aria-hidden />}
        >
          Excede presupuesto
        </Badge>
      ) : null}
    </Stack>
  );
}

interface Selection {
  /** Rows this role can act on (a checkbox each). */
  selectable: (row: AuthorizerOrderRow) => boolean;
  selected: ReadonlySet<number>;
  toggle: (row: AuthorizerOrderRow) => void;
}

function RowCheckbox({ row, selection }: { row: AuthorizerOrderRow; selection: Selection }) {
  if (!selection.selectable(row)) return null;
  return (
    <Checkbox
      aria-label={`Seleccionar pedido ${formatOrderNumber(row.id)}`}
      checked={selection.selected.has(row.id)}
      onChange={() => selection.toggle(row)}
    />
  );
}

function UserCell({ row }: { row: AuthorizerOrderRow }) {
  return (
    <Box miw={0}>
      <Text size="sm" fw={500} truncate>
        {buyerName(row.nombre)}
      </Text>
      <Text size="xs" c="dimmed" truncate>
        {row.usuario}
      </Text>
    </Box>
  );
}

function ViewButton({ row, fullWidth }: { row: AuthorizerOrderRow; fullWidth?: boolean }) {
  const { search } = useLocation();
  return (
    <Button
      component={Link}
      to={orderHref(row.id, search)}
      data-orden-link
      variant="light"
      size="xs"
      fullWidth={fullWidth}
      leftSection={<IconEye size={16} aria-hidden />}
      aria-label={`Ver pedido ${formatOrderNumber(row.id)}`}
    >
      Ver
    </Button>
  );
}

function OrdersTable({
  rows,
  selection,
  orden,
  onSort,
}: {
  rows: AuthorizerOrderRow[];
  selection: Selection;
  orden: OrderSort;
  onSort: (orden: OrderSort) => void;
}) {
  const sortProps = { sort: orden, onSort, firstDirection: 'desc' as const };
  const any = rows.some(selection.selectable);
  return (
    <Table.ScrollContainer minWidth={900} type="native">
      <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover striped="even">
        <Table.Thead>
          <Table.Tr>
            {any ? (
              <Table.Th w={40}>
                <VisuallyHidden>Seleccionar</VisuallyHidden>
              </Table.Th>
            ) : null}
            <Table.Th>Pedido</Table.Th>
            <Table.Th>Usuario</Table.Th>
            <Table.Th ta="center">Productos</Table.Th>
            <SortableTh field="total" ta="right" {...sortProps}>
              Total
            </SortableTh>
            <Table.Th
              ta="right"
              style={{ whiteSpace: 'nowrap' }}
              title="Presupuesto del usuario que queda en el mes después de este pedido"
            >
              Queda después
            </Table.Th>
            <Table.Th>Estatus</Table.Th>
            <SortableTh field="fecha" {...sortProps}>
              Fecha
            </SortableTh>
            <Table.Th ta="right">Acciones</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id}>
              {any ? (
                <Table.Td>
                  <RowCheckbox row={row} selection={selection} />
                </Table.Td>
              ) : null}
              <Table.Td>
                <Group gap={6} wrap="nowrap">
                  <Text fw={600} ff="monospace" size="sm">
                    {formatOrderNumber(row.id)}
                  </Text>
                  <CommentCount n={row.comentarios} />
                </Group>
              </Table.Td>
              <Table.Td maw={260}>
                <UserCell row={row} />
              </Table.Td>
              <Table.Td ta="center">{row.productos}</Table.Td>
              <Table.Td ta="right" style={{ whiteSpace: 'nowrap', fontVariantNumeric: 'tabular-nums' }}>
                {formatMXN(row.total)}
              </Table.Td>
              <Table.Td ta="right">
                <BudgetCell row={row} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>
                <StatusBadge status={row.status} />
              </Table.Td>
              <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDate(row.transaction_date)}</Table.Td>
              <Table.Td ta="right">
                <ViewButton row={row} />
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Phones: one card per order instead of a wide table. */
function OrdersCards({ rows, selection }: { rows: AuthorizerOrderRow[]; selection: Selection }) {
  const { search } = useLocation();
  return (
    <Stack gap="sm" p="sm" component="ul" m={0} style={{ listStyle: 'none' }}>
      {rows.map((row) => (
        <Card key={row.id} withBorder radius="md" padding="md" component="li">
          <Group justify="space-between" wrap="nowrap" mb={6}>
            <Group gap="sm" wrap="nowrap">
              <RowCheckbox row={row} selection={selection} />
              <Text fw={700} ff="monospace">
                {formatOrderNumber(row.id)}
              </Text>
              <CommentCount n={row.comentarios} />
            </Group>
            <StatusBadge status={row.status} />
          </Group>
          <UserCell row={row} />
          {row.excede_presupuesto && row.status !== 'aprobado' && row.status !== 'cancelado' ? (
            <Badge color="red" variant="light" size="sm" mt={6}>
              Excede presupuesto: quedaría en {formatMXN(row.restante_despues)}
            </Badge>
          ) : null}
          <Group justify="space-between" mt="sm" wrap="nowrap" align="flex-end">
            <Box>
              <Text size="xs" c="dimmed">
                {formatDate(row.transaction_date)} · {row.productos}{' '}
                {row.productos === 1 ? 'producto' : 'productos'}
              </Text>
              <Text fw={700} style={{ fontVariantNumeric: 'tabular-nums' }}>
                {formatMXN(row.total)}
              </Text>
            </Box>
            <Button
              component={Link}
              to={orderHref(row.id, search)}
              data-orden-link
              variant="light"
              size="xs"
              rightSection={<IconChevronRight size={16} aria-hidden />}
              aria-label={`Ver pedido ${formatOrderNumber(row.id)}`}
            >
              Ver
            </Button>
          </Group>
        </Card>
      ))}
    </Stack>
  );
}

function emptyText(filters: OrdersFilters, accionables: readonly string[]) {
  if (filters.q.trim()) {
    return {
      title: 'No encontramos pedidos',
      description: `Ningún pedido coincide con “${filters.q.trim()}”. Busca por número de pedido, usuario o nombre.`,
    };
  }
  if (filters.status === 'accionables') {
    return {
      title: 'No tienes pedidos por atender',
      description:
        accionables.length > 1
          ? 'Cuando haya pedidos que te toque autorizar, por tu nivel o por el de quien te delegó, aparecerán aquí.'
          : accionables[0] === 'espera'
            ? 'Cuando el autorizador apruebe un pedido, aparecerá aquí para tu aprobación final.'
            : 'Cuando tus usuarios envíen pedidos, aparecerán aquí para que los revises.',
    };
  }
  return { title: 'No hay pedidos con este estatus', description: 'Prueba con otro filtro.' };
}

interface OrdersPageProps {
  /** Whom the user acts for today, above the list (out-of-office delegation; another feature owns it). */
  onBehalf?: ReactNode;
}

// biome-ignore lint/complexity/noExcessiveLinesPerFunction: a list screen, to split into filters, table and bulk bar (docs/code-style.md)
export function OrdersPage({ onBehalf }: OrdersPageProps) {
  const { pathname } = useLocation();
  const { user } = useSession();
  const { status, page, q, orden, desde, hasta, update } = useListParams();
  const queryClient = useQueryClient();
  const [debouncedQ] = useDebouncedValue(q.trim(), SEARCH_DEBOUNCE_MS);
  const [reportOpened, report] = useDisclosure(false);
  const [reportLoaded, setReportLoaded] = useState(false);
  useListKeys();

  // A new search starts again on page 1.
  const lastQ = useRef(debouncedQ);
  useEffect(() => {
    if (lastQ.current !== debouncedQ) {
      lastQ.current = debouncedQ;
      if (page !== 1) update({ pagina: null });
    }
  }, [debouncedQ, page, update]);

  // A range whose start is after its end is explained on its field and not sent.
  const rangeError =
    desde && hasta && desde > hasta ? 'La fecha inicial no puede ser posterior a la final.' : null;
  // A step to the next or previous page names the row it starts from (keyset paging, decision 0076); the
  // page number alone (a jump, a reload, the browser's back) is found by counting.
  const [pageKey, setPageKey] = useState<{ page: number; despues?: number; antes?: number } | null>(null);
  const key = pageKey?.page === page ? pageKey : null;
  const filters: OrdersFilters = {
    status,
    q: debouncedQ,
    page,
    orden,
    desde: rangeError ? '' : desde,
    hasta: rangeError ? '' : hasta,
    ...(key?.despues ? { despues: key.despues } : key?.antes ? { antes: key.antes } : {}),
  };
  const query = useQuery({
    queryKey: authorizerKeys.list(pathname, filters),
    queryFn: ({ signal }) => fetchOrders(filters, signal),
    placeholderData: keepPreviousData,
    // On entry it fetches: never an old list from another visit.
    staleTime: 0,
  });

  // The selection belongs to the page on screen: another page or filter starts without one.
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const listKey = JSON.stringify(filters);
  const lastList = useRef(listKey);
  useEffect(() => {
    if (lastList.current !== listKey) {
      lastList.current = listKey;
      setSelected(new Set());
    }
  }, [listKey]);
  const [dialog, setDialog] = useState<'aprobar' | 'cancelar' | null>(null);
  const [bulkRefusal, setBulkRefusal] = useState<string | null>(null);
  const [summary, setSummary] = useState<{ result: BulkResponse; action: 'aprobar' | 'cancelar' } | null>(
    null,
  );

  const accionable = actionableStatus(user.rol, user.cliente?.cantidad_autorizadores ?? 0);
  const description =
    accionable === 'espera'
      ? 'Da la aprobación final a los pedidos que ya autorizó el primer nivel.'
      : 'Revisa, ajusta y autoriza los pedidos de tus usuarios.';

  const data = query.data;
  const totalPages = data ? Math.max(1, Math.ceil(data.total / (data.per_page || ORDERS_PER_PAGE))) : 1;
  const first = data && data.total > 0 ? (page - 1) * (data.per_page || ORDERS_PER_PAGE) + 1 : 0;
  const last = data ? first + data.pedidos.length - (data.pedidos.length ? 1 : 0) : 0;
  const accionables = data?.accionables ?? (accionable ? [accionable] : []);
  const empty = emptyText(filters, accionables);

  const pageRows = data?.pedidos ?? [];
  // The statuses the user acts on today: their role's, and a delegator's while a delegation holds.
  const canAct = (row: AuthorizerOrderRow) => data?.accionables.includes(row.status) ?? false;
  const actionableRows = pageRows.filter(canAct);
  const selectedRows = pageRows.filter((r) => selected.has(r.id) && canAct(r));
  const approveRows = selectedRows.filter((r) => !r.excede_presupuesto);
  const selection: Selection = {
    selectable: canAct,
    selected,
    toggle: (row) =>
      setSelected((prev) => {
        const next = new Set(prev);
        if (next.has(row.id)) next.delete(row.id);
        else next.add(row.id);
        return next;
      }),
  };
  const allSelected = actionableRows.length > 0 && actionableRows.every((r) => selected.has(r.id));
  const someSelected = actionableRows.some((r) => selected.has(r.id));

  const bulk = useMutation({
    mutationFn: (input: { action: 'aprobar' | 'cancelar'; ids: number[]; motivo?: string }) =>
      input.action === 'aprobar' ? bulkApprove(input.ids) : bulkCancel(input.ids, input.motivo ?? ''),
    onSuccess: (result, input) => {
      setSummary({ result, action: input.action });
      setSelected(new Set());
      setDialog(null);
      void queryClient.invalidateQueries({ queryKey: authorizerKeys.all });
    },
    onError: (err) => setBulkRefusal(errorMessage(err)),
  });
  const outcome = bulkOutcome(approveRows, user.cliente?.cantidad_autorizadores ?? 1);

  return (
    <Stack gap={0}>
      <PageHeader
        title="Pedidos"
        description={description}
        actions={
          <Button
            leftSection={<IconFileSpreadsheet size={18} aria-hidden />}
            onClick={() => {
              setReportLoaded(true);
              report.open();
            }}
          >
            Generar reporte
          </Button>
        }
      />

      {onBehalf}

      <Paper withBorder radius="lg" shadow="xs">
        <Stack gap="sm" p={{ base: 'sm', sm: 'md' }}>
          <Group justify="space-between" gap="sm" wrap="wrap" align="flex-end">
            <Box visibleFrom="md">
              <Text size="sm" fw={500} mb={4} id="filtro-estatus">
                Estatus
              </Text>
              <SegmentedControl
                aria-labelledby="filtro-estatus"
                data={FILTERS}
                value={status}
                onChange={(value) =>
                  update({ estatus: value === 'accionables' ? null : value, pagina: null })
                }
                radius="md"
              />
            </Box>
            <ListSearch
              label="Buscar pedido"
              placeholder="Número, usuario o nombre"
              value={q}
              onChange={(value) => update({ q: value, pagina: null })}
              w={{ base: '100%', xs: 300 }}
            />
          </Group>
          {/* On phones the status, order and period fold behind one button (issue 37). */}
          <PhoneFilters
            active={
              Number(status !== 'accionables') + Number(orden !== 'fecha_desc') + Number(!!(desde || hasta))
            }
          >
            <Group gap="sm" wrap="wrap" align="flex-start">
              <Select
                hiddenFrom="md"
                label="Estatus"
                data={FILTERS}
                value={status}
                allowDeselect={false}
                onChange={(value) =>
                  update({ estatus: !value || value === 'accionables' ? null : value, pagina: null })
                }
                w={{ base: '100%', xs: 200 }}
                comboboxProps={{ withinPortal: true }}
              />
              <Select
                hiddenFrom="sm"
                label="Ordenar por"
                data={SORTS}
                value={orden}
                allowDeselect={false}
                onChange={(value) =>
                  update({ orden: !value || value === 'fecha_desc' ? null : value, pagina: null })
                }
                w={{ base: '100%', xs: 180 }}
                comboboxProps={{ withinPortal: true }}
              />
              <DateRangeField
                label="Periodo"
                desde={desde || null}
                hasta={hasta || null}
                onChange={(d, h) => update({ desde: d, hasta: h, pagina: null })}
                w={{ base: '100%', xs: 240 }}
              />
              {desde || hasta ? (
                <Button
                  variant="subtle"
                  size="sm"
                  mt={{ base: 0, xs: 25 }}
                  onClick={() => update({ desde: null, hasta: null, pagina: null })}
                >
                  Quitar fechas
                </Button>
              ) : null}
            </Group>
          </PhoneFilters>
          {data ? (
            <Group gap="xs" justify="space-between">
              <Group gap="md">
                {actionableRows.length > 0 ? (
                  <Checkbox
                    label="Seleccionar página"
                    checked={allSelected}
                    indeterminate={someSelected && !allSelected}
                    onChange={() =>
                      setSelected(allSelected ? new Set() : new Set(actionableRows.map((r) => r.id)))
                    }
                  />
                ) : null}
                <Text size="sm" c="dimmed" aria-live="polite">
                  {data.total === 0
                    ? 'Sin resultados'
                    : `Mostrando ${first}–${last} de ${data.total} ${data.total === 1 ? 'pedido' : 'pedidos'}`}
                </Text>
                {data.total > 0 ? (
                  <Text
                    size="sm"
                    fw={600}
                    data-testid="suma-filtro"
                    style={{ fontVariantNumeric: 'tabular-nums' }}
                  >
                    Suma: {formatMXN(data.suma)}
                  </Text>
                ) : null}
              </Group>
              {query.isFetching ? (
                <Badge variant="dot" color="gray" size="sm">
                  Actualizando…
                </Badge>
              ) : data.total > 0 ? (
                <ShortcutsHint
                  keys={[
                    ['j', 'siguiente'],
                    ['k', 'anterior'],
                    ['Enter', 'abrir'],
                  ]}
                />
              ) : null}
            </Group>
          ) : null}
        </Stack>

        {summary ? (
          <BulkSummary result={summary.result} action={summary.action} onClose={() => setSummary(null)} />
        ) : null}

        <Box style={{ borderTop: '1px solid var(--mantine-color-gray-3)' }}>
          {query.isPending ? (
            <LoadingRows label="Cargando pedidos" rows={6} />
          ) : query.isError ? (
            <Alert
              m="md"
              color="red"
              variant="light"
              title="No se pudieron cargar los pedidos"
              icon={<IconAlertTriangle size={18} />}
            >
              <Stack gap="xs" align="flex-start">
                <Text size="sm">{errorMessage(query.error)}</Text>
                <Button size="xs" variant="white" color="red" onClick={() => void query.refetch()}>
                  Reintentar
                </Button>
              </Stack>
            </Alert>
          ) : data && data.pedidos.length > 0 ? (
            <>
              <Box visibleFrom="sm">
                <OrdersTable
                  rows={data.pedidos}
                  selection={selection}
                  orden={orden}
                  onSort={(next) => update({ orden: next === 'fecha_desc' ? null : next, pagina: null })}
                />
              </Box>
              <Box hiddenFrom="sm">
                <OrdersCards rows={data.pedidos} selection={selection} />
              </Box>
            </>
          ) : (
            <ListEmpty
              icon={<IconClipboardCheck size={28} stroke={1.6} />}
              title={empty.title}
              description={empty.description}
            >
              {filters.status === 'accionables' && !filters.q ? (
                <EmptyState.Actions>
                  <Button
                    variant="default"
                    size="xs"
                    onClick={() => update({ estatus: 'todos', pagina: null })}
                  >
                    Ver todos los pedidos
                  </Button>
                </EmptyState.Actions>
              ) : null}
            </ListEmpty>
          )}
        </Box>

        {data ? (
          <Pager
            label="Páginas de pedidos"
            divided
            total={totalPages}
            value={page}
            onChange={(p) => {
              const rows = data.pedidos;
              if (p === page + 1 && rows.length > 0)
                setPageKey({ page: p, despues: rows[rows.length - 1]!.id });
              else if (p === page - 1 && p > 1 && rows.length > 0)
                setPageKey({ page: p, antes: rows[0]!.id });
              else setPageKey(null);
              update({ pagina: p === 1 ? null : String(p) });
              window.scrollTo({ top: 0 });
            }}
          />
        ) : null}
      </Paper>

      <BulkBar
        selected={selectedRows}
        onApprove={() => {
          setBulkRefusal(null);
          setDialog('aprobar');
        }}
        onCancel={() => {
          setBulkRefusal(null);
          setDialog('cancelar');
        }}
        onClear={() => setSelected(new Set())}
      />
      <BulkApproveDialog
        opened={dialog === 'aprobar'}
        onClose={() => setDialog(null)}
        pending={bulk.isPending}
        rows={approveRows}
        refusal={bulkRefusal}
        outcome={outcome}
        onConfirm={() => bulk.mutate({ action: 'aprobar', ids: approveRows.map((r) => r.id) })}
      />
      <BulkCancelDialog
        opened={dialog === 'cancelar'}
        onClose={() => setDialog(null)}
        pending={bulk.isPending}
        rows={selectedRows}
        refusal={bulkRefusal}
        onConfirm={(motivo) =>
          bulk.mutate({ action: 'cancelar', ids: selectedRows.map((r) => r.id), motivo })
        }
      />

      {reportLoaded ? (
        <Suspense fallback={null}>
          <ReportDialog opened={reportOpened} onClose={report.close} />
        </Suspense>
      ) : null}
    </Stack>
  );
}
