import '@mantine/core/styles/Table.css';
import {
  Alert,
  Button,
  EmptyState,
  Group,
  Paper,
  Select,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue, useMediaQuery } from '@mantine/hooks';
import type { OrderSummaryDto } from '@portal/shared/schemas/orders';
import { HISTORY_SORT, type HistoryResponse, type HistorySort } from '@portal/shared/schemas/shopping';
import { IconAlertTriangle, IconEye, IconFilterOff, IconHistory, IconLayoutGrid } from '@tabler/icons-react';
import { type UseQueryResult, useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { Link } from 'react-router';
import { FulfilmentBadge } from '../../../components/orders/fulfilment-badge';
import { CommentCount } from '../../../components/orders/order-comments';
import { StatusBadge } from '../../../components/orders/status-badge';
import { ListSearch } from '../../../components/ui/list-search';
import { ListEmpty } from '../../../components/ui/list-states';
import { Pager } from '../../../components/ui/pager';
import { PhoneFilters } from '../../../components/ui/phone-filters';
import { SortableTh } from '../../../components/ui/sortable-th';
import { errorMessage, isApiError } from '../../../lib/api';
import { formatDate, formatMXN, formatOrderNumber, getBusinessTimeZone } from '../../../lib/format';
import { useSearchParamsUpdate, useSortParam } from '../../../lib/search-params';
import { historyQuery } from '../api/history';
import {
  filterChanges,
  filtersFromParams,
  HISTORY_STATUSES,
  type HistoryFilters,
  hasFilters,
  orderNumberProblem,
  recentMonths,
} from '../lib/history-filters';
import { RepeatOrderButton } from './repeat-order-button';

const SEARCH_DEBOUNCE_MS = 300;

function DetailsButton({ pedido }: { pedido: OrderSummaryDto }) {
  return (
    <Button
      component={Link}
      to={`/usuario/historial/${pedido.id}`}
      size="xs"
      variant="light"
      leftSection={<IconEye size={14} />}
      aria-label={`Ver detalles del pedido ${formatOrderNumber(pedido.id)}`}
    >
      Detalles
    </Button>
  );
}

/** One order as a card, for phones (the table would scroll sideways). */
function OrderCard({ pedido }: { pedido: OrderSummaryDto }) {
  return (
    <Paper component="li" withBorder radius="md" p="sm" shadow="xs">
      <Group justify="space-between" gap="xs" wrap="nowrap">
        <Group gap={6} wrap="nowrap">
          <Text fw={700}>{formatOrderNumber(pedido.id)}</Text>
          <CommentCount n={pedido.comentarios} />
        </Group>
        <Group gap={4} wrap="nowrap">
          <StatusBadge status={pedido.status} />
          <FulfilmentBadge surtido={pedido.surtido} />
        </Group>
      </Group>
      <Group justify="space-between" gap="xs" mt={6}>
        <Text size="sm" c="dimmed">
          {formatDate(pedido.transaction_date)} · {pedido.productos}{' '}
          {pedido.productos === 1 ? 'producto' : 'productos'}
        </Text>
        <Text fw={600} style={{ whiteSpace: 'nowrap' }}>
          {formatMXN(pedido.total)}
        </Text>
      </Group>
      <Group justify="flex-end" mt="xs" gap="xs">
        <RepeatOrderButton id={pedido.id} size="xs" variant="default" />
        <DetailsButton pedido={pedido} />
      </Group>
    </Paper>
  );
}

/** Status, business month (this one and the 11 before it) and order number; every change goes to page 1. */
function HistoryFilterBar({
  filters,
  onChange,
  qError,
}: {
  filters: HistoryFilters;
  onChange: (changes: Partial<Omit<HistoryFilters, 'page'>>) => void;
  qError: string | null;
}) {
  const months = useMemo(() => recentMonths(Date.now(), getBusinessTimeZone()), []);
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} shadow="xs" mb="md">
      <Group gap="sm" wrap="wrap" align="flex-start">
        <ListSearch
          label="Número de pedido"
          placeholder="#00042"
          value={filters.q}
          error={qError}
          onChange={(q) => onChange({ q })}
          w={{ base: '100%', xs: 220 }}
        />
        {/* On phones the status and month fold behind one button (issue 37). */}
        <PhoneFilters
          active={Number(filters.status !== 'todos') + Number(!!filters.mes)}
          w={{ base: '100%', sm: 'auto' }}
        >
          <Group gap="sm" wrap="wrap" align="flex-start">
            <Select
              label="Estatus"
              data={HISTORY_STATUSES}
              value={filters.status}
              allowDeselect={false}
              onChange={(value) => onChange({ status: (value ?? 'todos') as HistoryFilters['status'] })}
              w={{ base: '100%', xs: 180 }}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label="Mes"
              placeholder="Todos los meses"
              data={months}
              value={filters.mes || null}
              clearable
              clearButtonProps={{ 'aria-label': 'Quitar mes' }}
              onChange={(value) => onChange({ mes: value ?? '' })}
              w={{ base: '100%', xs: 200 }}
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
        </PhoneFilters>
      </Group>
    </Paper>
  );
}

/** The user's orders, newest first, 10 per page from the server; filters and page are kept in the URL. */
export function HistoryList() {
  const [params, update] = useSearchParamsUpdate();
  const filters = filtersFromParams(params);
  const [, setSort] = useSortParam(HISTORY_SORT);
  // A chosen status or month is a step back and forward go through; typing a number replaces the entry.
  const changeFilters = (changes: Partial<Omit<HistoryFilters, 'page'>>) =>
    update(filterChanges(changes), { push: !('q' in changes) });
  const [debouncedQ] = useDebouncedValue(filters.q.trim(), SEARCH_DEBOUNCE_MS);
  const qProblem = orderNumberProblem(filters.q);
  const query = useQuery(historyQuery({ ...filters, q: debouncedQ }));
  // The shared schema refuses a malformed number before it is sent; a 400 the server gives anyway is shown
  // on the field, not as a failed list.
  const badRequest = query.isError && isApiError(query.error) && query.error.status === 400;
  const qError = qProblem ?? (badRequest ? errorMessage(query.error) : null);
  return (
    <>
      <HistoryFilterBar filters={filters} onChange={changeFilters} qError={qError} />
      <HistoryRows
        filters={filters}
        query={query}
        failed={query.isError && !badRequest}
        onPage={(next) => update({ page: next > 1 ? String(next) : null }, { push: true })}
        onClear={() => update({ status: null, mes: null, q: null, page: null }, { push: true })}
        onSort={setSort}
      />
    </>
  );
}

function HistoryRows({
  filters,
  query,
  failed,
  onPage,
  onClear,
  onSort,
}: {
  filters: HistoryFilters;
  query: UseQueryResult<HistoryResponse>;
  failed: boolean;
  onPage: (page: number) => void;
  onClear: () => void;
  onSort: (orden: HistorySort) => void;
}) {
  const sortProps = {
    sort: filters.orden ?? HISTORY_SORT.byDefault,
    onSort,
    firstDirection: 'desc' as const,
  };
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const page = filters.page;
  const data = query.data;

  if (query.isPending && !failed) {
    return (
      <Paper withBorder radius="md" p="md" shadow="xs" aria-label="Cargando" aria-busy role="status">
        <Stack gap="sm">
          {Array.from({ length: 5 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders without identity
            <Skeleton key={i} h={28} />
          ))}
        </Stack>
      </Paper>
    );
  }
  if (failed && !data) {
    return (
      <Alert
        color="red"
        variant="light"
        title="No se pudo cargar tu historial"
        icon={<IconAlertTriangle size={18} />}
      >
        <Text size="sm">{errorMessage(query.error)}</Text>
        <Button size="xs" variant="light" color="red" mt="sm" onClick={() => void query.refetch()}>
          Reintentar
        </Button>
      </Alert>
    );
  }
  if (hasFilters(filters) && (!data || data.total === 0)) {
    return (
      <Paper withBorder radius="lg" shadow="xs">
        <ListEmpty
          icon={<IconFilterOff size={28} stroke={1.6} />}
          title="No hay pedidos con estos filtros"
          description="Prueba con otro estatus, otro mes u otro número de pedido."
        >
          <Button variant="light" leftSection={<IconFilterOff size={16} />} mt="xs" onClick={onClear}>
            Quitar filtros
          </Button>
        </ListEmpty>
      </Paper>
    );
  }
  if (!data || data.total === 0) {
    return (
      <Paper withBorder radius="lg" p={{ base: 'lg', sm: 48 }} shadow="xs">
        <EmptyState
          color="indigo"
          variant="light"
          icon={<IconHistory size={28} stroke={1.6} />}
          title="Todavía no has hecho pedidos"
          description="Cuando envíes tu primer pedido lo verás aquí con su estatus."
        >
          <Button component={Link} to="/usuario/principal" leftSection={<IconLayoutGrid size={16} />} mt="xs">
            Ver todos los productos
          </Button>
        </EmptyState>
      </Paper>
    );
  }

  const pages = Math.max(1, Math.ceil(data.total / data.per_page));
  return (
    <>
      {phone ? (
        <Stack
          component="ul"
          gap="xs"
          aria-label="Pedidos"
          style={{ listStyle: 'none', padding: 0, margin: 0 }}
        >
          {data.pedidos.map((pedido) => (
            <OrderCard key={pedido.id} pedido={pedido} />
          ))}
        </Stack>
      ) : (
        <Paper withBorder radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
          <Table.ScrollContainer minWidth={620} type="native">
            <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover aria-label="Pedidos">
              <Table.Thead bg="gray.0">
                <Table.Tr>
                  <Table.Th>Pedido</Table.Th>
                  <Table.Th ta="center">Productos</Table.Th>
                  <SortableTh field="total" ta="right" {...sortProps}>
                    Total
                  </SortableTh>
                  <Table.Th>Estatus</Table.Th>
                  <SortableTh field="fecha" {...sortProps}>
                    Fecha
                  </SortableTh>
                  <Table.Th>
                    <VisuallyHidden>Acciones</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.pedidos.map((pedido) => (
                  <Table.Tr key={pedido.id}>
                    <Table.Td fw={700}>
                      <Group gap={6} wrap="nowrap">
                        {formatOrderNumber(pedido.id)}
                        <CommentCount n={pedido.comentarios} />
                      </Group>
                    </Table.Td>
                    <Table.Td ta="center">{pedido.productos}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatMXN(pedido.total)}
                    </Table.Td>
                    <Table.Td>
                      <Group gap={4} wrap="nowrap">
                        <StatusBadge status={pedido.status} />
                        <FulfilmentBadge surtido={pedido.surtido} data-testid="surtido-fila" />
                      </Group>
                    </Table.Td>
                    <Table.Td>{formatDate(pedido.transaction_date)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" justify="flex-end" wrap="nowrap">
                        <RepeatOrderButton id={pedido.id} size="xs" variant="default" />
                        <DetailsButton pedido={pedido} />
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        </Paper>
      )}
      <Text size="sm" c="dimmed" mt="sm" ta="center">
        {data.total === 1 ? '1 pedido' : `${data.total} pedidos`}
      </Text>
      <Pager
        label="Páginas del historial"
        mt="xl"
        total={pages}
        value={page}
        onChange={(next) => {
          onPage(next);
          window.scrollTo({ top: 0, behavior: 'smooth' });
        }}
      />
    </>
  );
}
