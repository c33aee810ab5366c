/**
 * The fulfilment queue's rows: a table from the sm breakpoint up, a card per order at phone width, each with
 * its checkbox, its fulfilment state («Retenido por crédito», decision 0134; «Atrasado» when a line is late,
 * decision 0125; guía, the buyer's
 * receipt note) and its last export.
 */
import '@mantine/core/styles/Table.css';
import { Anchor, Badge, Checkbox, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { CREDIT_HOLD_LABEL } from '@portal/shared/domain/credit';
import type { FulfilmentRow, FulfilmentSort } from '@portal/shared/schemas/fulfilment';
import { IconMessageReport } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { FulfilmentBadge } from '../../../components/orders/fulfilment-badge';
import { GuiaLink } from '../../../components/orders/guia-link';
import { SortableTh } from '../../../components/ui/sortable-th';
import { formatDate, formatDateTime, formatMXN, formatOrderNumber } from '../../../lib/format';
import type { RowSelection } from '../../../lib/row-selection';

function SurtidoCell({ row }: { row: FulfilmentRow }) {
  return (
    <Stack gap={2}>
      <Group gap={4} wrap="wrap">
        <FulfilmentBadge surtido={row.surtido} data-testid="surtido-estado" />
        {row.retenido_credito ? (
          <Badge
            color="red.9"
            variant="filled"
            radius="sm"
            miw="max-content"
            style={{ textTransform: 'none' }}
            title={row.retenido_credito}
            data-testid="surtido-retenido"
          >
            {CREDIT_HOLD_LABEL}
          </Badge>
        ) : null}
        {row.atrasado ? (
          <Badge
            color="red"
            variant="filled"
            radius="sm"
            miw="max-content"
            title="Tiene productos con la fecha prometida vencida"
            data-testid="surtido-atrasado"
          >
            Atrasado
          </Badge>
        ) : null}
      </Group>
      {row.retenido_credito ? (
        <Text size="xs" c="red.9" maw={280} data-testid="surtido-retenido-motivo">
          {row.retenido_credito}
        </Text>
      ) : null}
      {row.guia ? (
        <Text size="xs" c="dimmed">
          Guía: <GuiaLink guia={row.guia} paqueteria={row.paqueteria} />
        </Text>
      ) : null}
      {row.nota_recepcion ? (
        <Group gap={4} wrap="nowrap" align="flex-start">
          <IconMessageReport size={14} color="var(--mantine-color-orange-8)" aria-hidden />
          <Text size="xs" data-testid="nota-recepcion">
            {row.nota_recepcion}
          </Text>
        </Group>
      ) : null}
    </Stack>
  );
}

/** The order's last export: its batch and when, or 'Sin exportar'. */
function ExportCell({ row }: { row: FulfilmentRow }) {
  return row.exportado_at ? (
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
  );
}

/** One order of the queue at phone width: the table's cells as a card, nothing cut off. */
function OrderCard({
  row,
  checked,
  onToggle,
  menu,
}: {
  row: FulfilmentRow;
  checked: boolean;
  onToggle: () => void;
  menu: ReactNode;
}) {
  const numero = formatOrderNumber(row.id);
  return (
    <Paper withBorder radius="md" p="sm" data-testid="surtido-fila">
      <Stack gap={6}>
        <Group justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap">
            <Checkbox aria-label={`Seleccionar el pedido ${numero}`} checked={checked} onChange={onToggle} />
            <Anchor component={Link} to={`/administrador/pedidos/${row.id}`} fw={700}>
              {numero}
            </Anchor>
          </Group>
          <Text fw={700} style={{ whiteSpace: 'nowrap' }}>
            {formatMXN(row.total)}
          </Text>
        </Group>
        <Text size="sm">
          {row.cliente.nombre} · {row.comprador}
        </Text>
        <Text size="xs" c="dimmed">
          {formatDate(row.transaction_date)}
        </Text>
        <Group justify="space-between" align="flex-end" wrap="nowrap" gap="xs">
          <Group gap="md" align="flex-start" wrap="wrap" style={{ minWidth: 0 }}>
            <SurtidoCell row={row} />
            <ExportCell row={row} />
          </Group>
          {menu}
        </Group>
      </Stack>
    </Paper>
  );
}

interface QueueRowsProps {
  rows: FulfilmentRow[];
  selection: RowSelection<FulfilmentRow>;
  /** A new page is loading: the rows shown are dimmed. */
  fetching: boolean;
  /** The row's state menu. */
  menuOf: (row: FulfilmentRow) => ReactNode;
}

/** The queue as a table, sorted by the Fecha header (decision 0067). */
export function QueueTable({
  rows,
  selection,
  fetching,
  menuOf,
  sort,
  onSort,
}: QueueRowsProps & { sort: FulfilmentSort; onSort: (sort: FulfilmentSort) => void }) {
  return (
    <Table.ScrollContainer minWidth={980} style={{ opacity: fetching ? 0.7 : 1 }}>
      <Table verticalSpacing="sm" striped aria-label="Pedidos por surtir">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={40}>
              <Checkbox aria-label="Seleccionar página" {...selection.page(rows)} />
            </Table.Th>
            <Table.Th>Pedido</Table.Th>
            <SortableTh field="fecha" sort={sort} onSort={onSort} firstDirection="desc">
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
                    checked={selection.has(row.id)}
                    onChange={() => selection.toggle(row)}
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
                  <SurtidoCell row={row} />
                </Table.Td>
                <Table.Td>
                  <ExportCell row={row} />
                </Table.Td>
                <Table.Td>{menuOf(row)}</Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** The queue at phone width: "Seleccionar página" and a card per order. */
export function QueueCards({ rows, selection, fetching, menuOf }: QueueRowsProps) {
  return (
    <Stack gap="xs" style={{ opacity: fetching ? 0.7 : 1 }}>
      <Checkbox label="Seleccionar página" {...selection.page(rows)} px="xs" />
      {rows.map((row) => (
        <OrderCard
          key={row.id}
          row={row}
          checked={selection.has(row.id)}
          onToggle={() => selection.toggle(row)}
          menu={menuOf(row)}
        />
      ))}
    </Stack>
  );
}
