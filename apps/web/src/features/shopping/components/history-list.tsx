import {
  Alert,
  Button,
  EmptyState,
  Group,
  Paper,
  Skeleton,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { OrderSummaryDto } from '@portal/shared/schemas/shopping';
import { IconAlertTriangle, IconEye, IconHistory, IconLayoutGrid } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { StatusBadge } from '../../../components/orders/status-badge';
import { Pager } from '../../../components/ui/pager';
import { errorMessage } from '../../../lib/api';
import { formatDate, formatMXN, formatOrderNumber } from '../../../lib/format';
import { historyQuery } from '../api/history';
import { RepeatOrderButton } from './repeat-order-button';

function pageFrom(value: string | null): number {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 100000 ? n : 1;
}

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
        <Text fw={700}>{formatOrderNumber(pedido.id)}</Text>
        <StatusBadge status={pedido.status} />
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

/** The user's orders, newest first, 10 per page from the server; the page is kept in the URL. */
export function HistoryList() {
  const phone = useMediaQuery('(max-width: 36em)') ?? false;
  const [params, setParams] = useSearchParams();
  const page = pageFrom(params.get('page'));
  const query = useQuery(historyQuery(page));
  const data = query.data;

  if (query.isPending) {
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
  if (query.isError && !data) {
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
                  <Table.Th ta="right">Total</Table.Th>
                  <Table.Th>Estatus</Table.Th>
                  <Table.Th>Fecha</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Acciones</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.pedidos.map((pedido) => (
                  <Table.Tr key={pedido.id}>
                    <Table.Td fw={700}>{formatOrderNumber(pedido.id)}</Table.Td>
                    <Table.Td ta="center">{pedido.productos}</Table.Td>
                    <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                      {formatMXN(pedido.total)}
                    </Table.Td>
                    <Table.Td>
                      <StatusBadge status={pedido.status} />
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
          setParams((prev) => {
            const p = new URLSearchParams(prev);
            if (next > 1) p.set('page', String(next));
            else p.delete('page');
            return p;
          });
          window.scrollTo({ top: 0, behavior: 'smooth' });
        }}
      />
    </>
  );
}
