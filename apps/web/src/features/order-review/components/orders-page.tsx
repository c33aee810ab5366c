/**
 * Principal (and reportes, the same screen): the client's orders, 50 per page
 * from the server, filtered by status, date range and searched by order number or user (debounced,
 * server-side), sorted by date or total (the Fecha and Total headers; a select on phones), with the sum of what the filter holds, each row's budget after it
 * (flagged when approving it would exceed the buyer's budget), bulk approve and cancel of the selected
 * rows, and the 'Generar reporte' button. Filters live in the URL so the back button and links keep them.
 */
import '@mantine/core/styles/Table.css';
import {
  Badge,
  type BadgeProps,
  Box,
  Button,
  Card,
  Checkbox,
  EmptyState,
  Group,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { actionableStatus } from '@portal/shared/domain/order-workflow';
import { ORDERS_PER_PAGE } from '@portal/shared/limits';
import { AuthorizerOrdersQuery, type AuthorizerOrdersResponse } from '@portal/shared/schemas/orders';
import {
  IconAlertTriangle,
  IconChevronRight,
  IconClipboardCheck,
  IconEye,
  IconHourglassHigh,
  IconStairsUp,
} from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { Link, useLocation } from 'react-router';
import type { z } from 'zod';
import { CommentCount } from '../../../components/orders/order-comments';
import { StatusBadge } from '../../../components/orders/status-badge';
import { FetchingBadge, ListPanel, listStatusText } from '../../../components/ui/list-panel';
import { ListEmpty } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { SortableTh } from '../../../components/ui/sortable-th';
import { formatDate, formatMXN, formatOrderNumber } from '../../../lib/format';
import { readListParams, useListParams, usePagedSearch } from '../../../lib/list-params';
import { useRowSelection } from '../../../lib/row-selection';
import { useSession } from '../../../lib/session';
import {
  type AuthorizerOrderRow,
  type BulkResponse,
  type OrderSort,
  type OrdersFilters,
  ordersListQuery,
} from '../api/orders';
import { buyerName } from '../lib/order-edits';
import { LIST_URL_KEYS, orderHref } from '../lib/queue';
import { type BulkAction, BulkSummary, OrdersBulk } from './bulk-actions';
import { OrdersFilterBar } from './orders-filters';
import { ShortcutsHint } from './queue-nav';
import { ReportButton } from './report-button';
import { useListKeys } from './use-list-keys';

// The dialog (and the date pickers) load the first time it opens.

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
  has: (id: number) => boolean;
  toggle: (row: AuthorizerOrderRow) => void;
}

function RowCheckbox({ row, selection }: { row: AuthorizerOrderRow; selection: Selection }) {
  if (!selection.selectable(row)) return null;
  return (
    <Checkbox
      aria-label={`Seleccionar pedido ${formatOrderNumber(row.id)}`}
      checked={selection.has(row.id)}
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
                <Stack gap={4} align="flex-start">
                  <StatusBadge status={row.status} />
                  <SecondLevelMark row={row} />
                  <WaitingMark row={row} />
                </Stack>
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

/**
 * A pendiente order that the client's rule by amount sends on to the Super Autorizador after the level-1
 * approval (its total with the buyer's orders of the rule's window): said before anyone approves it.
 */
function SecondLevelMark({ row, ...props }: { row: AuthorizerOrderRow } & Omit<BadgeProps, 'children'>) {
  if (!row.segundo_nivel) return null;
  return (
    <Badge
      color="grape"
      variant="light"
      size="sm"
      leftSection={<IconStairsUp size={12} aria-hidden />}
      title="Por su monto, al aprobarlo pasará al Super Autorizador"
      data-testid="va-a-segundo-nivel"
      {...props}
    >
      Va a 2.º nivel
    </Badge>
  );
}

/** An open order that has waited on its level longer than the client's escalation hours (decision 0113). */
function WaitingMark({ row, ...props }: { row: AuthorizerOrderRow } & Omit<BadgeProps, 'children'>) {
  if (row.esperando_horas === null) return null;
  return (
    <Badge
      color="orange"
      variant="light"
      size="sm"
      leftSection={<IconHourglassHigh size={12} aria-hidden />}
      title="Espera más de lo que el cliente acordó: ya se avisó a quien sigue"
      data-testid="esperando"
      {...props}
    >
      Esperando {row.esperando_horas} h
    </Badge>
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
          <SecondLevelMark row={row} mt={6} />
          <WaitingMark row={row} mt={6} />
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

/** The empty list's words: no match for the search, nothing to attend to, or nothing in the status. */
function OrdersEmpty({
  filters,
  accionables,
  onShowAll,
}: {
  filters: OrdersFilters;
  accionables: readonly string[];
  onShowAll: () => void;
}) {
  const q = filters.q.trim();
  const { title, description } = q
    ? {
        title: 'No encontramos pedidos',
        description: `Ningún pedido coincide con “${q}”. Busca por número de pedido, usuario o nombre.`,
      }
    : filters.status === 'accionables'
      ? {
          title: 'No tienes pedidos por atender',
          description:
            accionables.length > 1
              ? 'Cuando haya pedidos que te toque autorizar, por tu nivel o por el de quien te delegó, aparecerán aquí.'
              : accionables[0] === 'espera'
                ? 'Cuando el autorizador apruebe un pedido, aparecerá aquí para tu aprobación final.'
                : 'Cuando tus usuarios envíen pedidos, aparecerán aquí para que los revises.',
        }
      : { title: 'No hay pedidos con este estatus', description: 'Prueba con otro filtro.' };
  return (
    <ListEmpty icon={<IconClipboardCheck size={28} stroke={1.6} />} title={title} description={description}>
      {filters.status === 'accionables' && !filters.q ? (
        <EmptyState.Actions>
          <Button variant="default" size="xs" onClick={onShowAll}>
            Ver todos los pedidos
          </Button>
        </EmptyState.Actions>
      ) : null}
    </ListEmpty>
  );
}

/** "Seleccionar página", "Mostrando…", the sum of what the filter holds, and the keyboard shortcuts. */
function OrdersStatus({
  data,
  page,
  fetching,
  pageCheckbox,
}: {
  data: AuthorizerOrdersResponse;
  page: number;
  fetching: boolean;
  /** The page's checkbox, when the page has rows the user can act on. */
  pageCheckbox: { checked: boolean; indeterminate: boolean; onChange: () => void } | null;
}) {
  const shown = {
    page,
    perPage: data.per_page || ORDERS_PER_PAGE,
    shown: data.pedidos.length,
    total: data.total,
  };
  return (
    <Group gap="xs" justify="space-between">
      <Group gap="md">
        {pageCheckbox ? <Checkbox label="Seleccionar página" {...pageCheckbox} /> : null}
        <Text size="sm" c="dimmed" aria-live="polite">
          {listStatusText(shown, ['pedido', 'pedidos'])}
        </Text>
        {data.total > 0 ? (
          <Text size="sm" fw={600} data-testid="suma-filtro" style={{ fontVariantNumeric: 'tabular-nums' }}>
            Suma: {formatMXN(data.suma)}
          </Text>
        ) : null}
      </Group>
      {fetching ? (
        <FetchingBadge />
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
  );
}

/** The list's filters from its URL's values and the search sent; a range out of order is not sent. */
function listFilters(values: z.output<typeof AuthorizerOrdersQuery>, q: string): OrdersFilters {
  const desde = values.desde ?? '';
  const hasta = values.hasta ?? '';
  // A range whose start is after its end is explained on its field and not sent.
  const rangeError = desde && hasta && desde > hasta;
  const { status, page, orden } = values;
  return { status, q, page, orden, desde: rangeError ? '' : desde, hasta: rangeError ? '' : hasta };
}

/** The list as the screen asks for it on entry at `pathname` (decision 0141). */
export function ordersEntryQuery(pathname: string, search: URLSearchParams) {
  const values = readListParams(AuthorizerOrdersQuery, search, LIST_URL_KEYS);
  return ordersListQuery(pathname, listFilters(values, (search.get('q') ?? '').trim()));
}

/**
 * The list's parameters in the URL (`?estatus=&q=&pagina=&orden=&desde=&hasta=`), its search, and the page
 * the server is asked for. A step to the next or previous page names the row it starts from (keyset paging,
 * decision 0076); the page number alone (a jump, a reload, the browser's back) is found by counting.
 */
function useOrdersList() {
  const { pathname } = useLocation();
  const list = useListParams(AuthorizerOrdersQuery, LIST_URL_KEYS);
  const { q, debouncedQ } = usePagedSearch(list);
  const { page } = list.values;
  const [pageKey, setPageKey] = useState<{ page: number; despues?: number; antes?: number } | null>(null);
  const key = pageKey?.page === page ? pageKey : null;
  const filters: OrdersFilters = {
    ...listFilters(list.values, debouncedQ),
    ...(key?.despues ? { despues: key.despues } : key?.antes ? { antes: key.antes } : {}),
  };
  const query = useQuery(ordersListQuery(pathname, filters));
  const goTo = (p: number) => {
    const rows = query.data?.pedidos ?? [];
    if (p === page + 1 && rows.length > 0) setPageKey({ page: p, despues: rows[rows.length - 1]!.id });
    else if (p === page - 1 && p > 1 && rows.length > 0) setPageKey({ page: p, antes: rows[0]!.id });
    else setPageKey(null);
    list.set({ page: p });
    window.scrollTo({ top: 0 });
  };
  return { list, q, filters, query, goTo };
}

interface OrdersPageProps {
  /** Whom the user acts for today, above the list (out-of-office delegation; another feature owns it). */
  onBehalf?: ReactNode;
}

export function OrdersPage({ onBehalf }: OrdersPageProps) {
  const { user } = useSession();
  const { list, q, filters, query, goTo } = useOrdersList();
  const { page, orden } = list.values;
  useListKeys();
  // The selection belongs to the page on screen: another page or filter starts without one.
  const checked = useRowSelection<AuthorizerOrderRow>(JSON.stringify(filters));
  const [summary, setSummary] = useState<{ result: BulkResponse; action: BulkAction } | null>(null);

  const accionable = actionableStatus(user.rol, user.cliente?.cantidad_autorizadores ?? 0);
  const data = query.data;
  const perPage = data?.per_page || ORDERS_PER_PAGE;
  const pageRows = data?.pedidos ?? [];
  // The statuses the user acts on today: their role's, and a delegator's while a delegation holds.
  const canAct = (row: AuthorizerOrderRow) => data?.accionables.includes(row.status) ?? false;
  const actionableRows = pageRows.filter(canAct);
  const selection: Selection = { selectable: canAct, has: checked.has, toggle: (row) => checked.toggle(row) };

  return (
    <Stack gap={0}>
      <PageHeader
        title="Pedidos"
        description={
          accionable === 'espera'
            ? 'Da la aprobación final a los pedidos que ya autorizó el primer nivel.'
            : 'Revisa, ajusta y autoriza los pedidos de tus usuarios.'
        }
        actions={<ReportButton />}
      />
      {onBehalf}
      <ListPanel
        header={<OrdersFilterBar list={list} q={q} />}
        page={data ? { page, perPage, shown: pageRows.length, total: data.total } : undefined}
        noun={['pedido', 'pedidos']}
        status={
          data ? (
            <OrdersStatus
              data={data}
              page={page}
              fetching={query.isFetching}
              pageCheckbox={actionableRows.length > 0 ? checked.page(actionableRows) : null}
            />
          ) : null
        }
        notice={
          summary ? (
            <BulkSummary result={summary.result} action={summary.action} onClose={() => setSummary(null)} />
          ) : null
        }
        query={query}
        loading={{ label: 'Cargando pedidos', rows: 6 }}
        errorTitle="No se pudieron cargar los pedidos"
        empty={
          <OrdersEmpty
            filters={filters}
            accionables={data?.accionables ?? (accionable ? [accionable] : [])}
            onShowAll={() => list.set({ status: 'todos' })}
          />
        }
        pager={{ label: 'Páginas de pedidos', onChange: goTo }}
      >
        <Box visibleFrom="sm">
          <OrdersTable
            rows={pageRows}
            selection={selection}
            orden={orden}
            onSort={(next) => list.set({ orden: next })}
          />
        </Box>
        <Box hiddenFrom="sm">
          <OrdersCards rows={pageRows} selection={selection} />
        </Box>
      </ListPanel>
      <OrdersBulk
        selected={pageRows.filter((r) => checked.has(r.id) && canAct(r))}
        levels={user.cliente?.cantidad_autorizadores ?? 1}
        onClear={checked.clear}
        onDone={(result, action) => {
          setSummary({ result, action });
          checked.clear();
        }}
      />
    </Stack>
  );
}
