/**
 * /administrador/pedidos?estatus=por_autorizar&mes=2026-11: every client's orders of a status, read-only,
 * newest first unless sorted by the Fecha or Total header, 20 a page from the server; each row opens the read-only order page. The overview's
 * "Pedidos por autorizar" links here with its month.
 */
import '@mantine/core/styles/Table.css';
import { Alert, Anchor, Group, Paper, Select, Stack, Table, Text } from '@mantine/core';
import { monthName } from '@portal/shared/domain/months';
import type { AdminOrderFilter, AdminOrdersSort } from '@portal/shared/schemas/support';
import { AdminOrdersQuery } from '@portal/shared/schemas/support';
import { IconAlertTriangle, IconListSearch } from '@tabler/icons-react';
import { Link, useLocation } from 'react-router';
import { StatusBadge } from '../../../components/orders/status-badge';
import { LoadingRows } from '../../../components/ui/list-states';
import { PageHeader } from '../../../components/ui/page';
import { Pager } from '../../../components/ui/pager';
import { SortableTh } from '../../../components/ui/sortable-th';
import { errorMessage } from '../../../lib/api';
import { formatCount, formatDateTime, formatMXN, formatOrderNumber } from '../../../lib/format';
import { useListParams } from '../../../lib/list-params';
import { useAdminOrders } from './api';

const FILTERS: { value: AdminOrderFilter; label: string; title: string }[] = [
  { value: 'por_autorizar', label: 'Por autorizar (pendientes y en espera)', title: 'Pedidos por autorizar' },
  { value: 'pendiente', label: 'Pendiente', title: 'Pedidos pendientes' },
  { value: 'espera', label: 'En espera', title: 'Pedidos en espera' },
  { value: 'aprobado', label: 'Aprobado', title: 'Pedidos aprobados' },
  { value: 'cancelado', label: 'Cancelado', title: 'Pedidos cancelados' },
];

const monthTitle = (mes: string) => `${monthName(mes)} de ${mes.slice(0, 4)}`;

export function AdminOrdersPage() {
  const list = useListParams(AdminOrdersQuery);
  const { estatus, page, orden } = list.values;
  const mes = list.values.mes ?? null;
  const location = useLocation();
  const { data, isPending, isError, error, isFetching } = useAdminOrders(estatus, mes, page, orden);
  const sortProps = {
    sort: orden,
    onSort: (next: AdminOrdersSort) => list.set({ orden: next }),
    firstDirection: 'desc' as const,
  };
  const filter = FILTERS.find((f) => f.value === estatus)!;
  const pages = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;
  const back = `${location.pathname}${location.search}`;

  return (
    <Stack gap={0}>
      <PageHeader
        title={filter.title}
        description={`De todos los clientes${mes ? `, ${monthTitle(mes)}` : ''}, del más reciente al más antiguo. Solo lectura.`}
      />
      <Paper withBorder radius="lg" p="md" shadow="xs" mb="lg" component="section" aria-label="Filtros">
        <Group gap="md" align="flex-end" wrap="wrap">
          <Select
            label="Estatus"
            data={FILTERS.map(({ value, label }) => ({ value, label }))}
            value={estatus}
            allowDeselect={false}
            onChange={(v) => list.set({ estatus: v as AdminOrderFilter })}
            w={{ base: '100%', sm: 320 }}
          />
          <Select
            label="Mes"
            data={[
              ...(mes ? [{ value: mes, label: monthTitle(mes) }] : []),
              { value: 'todos', label: 'Todos los meses' },
            ]}
            value={mes ?? 'todos'}
            allowDeselect={false}
            onChange={(v) => list.set({ mes: v === 'todos' ? null : v })}
            w={{ base: '100%', sm: 220 }}
          />
        </Group>
      </Paper>
      <Paper withBorder radius="lg" shadow="xs" p={{ base: 'xs', sm: 'md' }}>
        <Text size="sm" c="dimmed" px="xs" pb="xs" aria-live="polite">
          {data ? `${formatCount(data.total)} ${data.total === 1 ? 'pedido' : 'pedidos'}` : ''}
        </Text>
        {isPending ? (
          <LoadingRows label="Cargando pedidos" rows={3} height={44} p={0} />
        ) : isError ? (
          <Alert color="red" variant="light" icon={<IconAlertTriangle size={18} />} role="alert">
            {errorMessage(error, 'No se pudieron cargar los pedidos.')}
          </Alert>
        ) : data.pedidos.length === 0 ? (
          <Stack align="center" gap={4} py="xl" c="dimmed">
            <IconListSearch size={32} stroke={1.5} aria-hidden />
            <Text fw={600}>No hay pedidos con este estatus</Text>
          </Stack>
        ) : (
          <Table.ScrollContainer minWidth={720} style={{ opacity: isFetching ? 0.7 : 1 }}>
            <Table verticalSpacing="sm" striped highlightOnHover aria-label={filter.title}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Pedido</Table.Th>
                  <SortableTh field="fecha" {...sortProps}>
                    Fecha
                  </SortableTh>
                  <Table.Th>Cliente</Table.Th>
                  <Table.Th>Comprador</Table.Th>
                  <Table.Th>Estatus</Table.Th>
                  <SortableTh field="total" ta="right" {...sortProps}>
                    Total
                  </SortableTh>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.pedidos.map((o) => (
                  <Table.Tr key={o.id} data-testid="pedido-admin">
                    <Table.Td>
                      <Anchor
                        component={Link}
                        to={`/administrador/pedidos/${o.id}`}
                        state={{ back }}
                        fw={600}
                      >
                        {formatOrderNumber(o.id)}
                      </Anchor>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(o.transaction_date)}</Table.Td>
                    <Table.Td>{o.cliente}</Table.Td>
                    <Table.Td>
                      <Text size="sm">{o.nombre}</Text>
                      <Text size="xs" c="dimmed">
                        {o.usuario}
                      </Text>
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={o.status} />
                    </Table.Td>
                    <Table.Td ta="right" style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}>
                      {formatMXN(o.total)}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        <Pager
          label="Páginas de pedidos"
          mt="lg"
          total={pages}
          value={page}
          onChange={(p) => list.set({ page: p })}
        />
      </Paper>
    </Stack>
  );
}
