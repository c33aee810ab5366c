/**
 * What a price change touches, as the server counted it (decision 0132): carts, saved lists, orders waiting
 * for approval and each buyer's cart total before and after. One summary for the inventory list's
 * «Programar precio» (one product) and a product import's «Vista previa de precios» (a whole file).
 */
import '@mantine/core/styles/Table.css';
import { List, Stack, Table, Text } from '@mantine/core';
import type { PricePreviewResponse } from '@portal/shared/schemas/inventory';
import { formatMXN, plural } from '../../../lib/format';

interface PricePreviewSummaryProps {
  preview: PricePreviewResponse;
  /** The summary's heading. */
  title?: string;
  /** What is said when no price changes. */
  unchanged?: string;
  /** The heading of the buyers' column valued at the new prices. */
  afterLabel?: string;
}

export function PricePreviewSummary({
  preview,
  title = 'Lo que toca este cambio',
  unchanged = 'El precio es igual al actual: no cambia nada.',
  afterLabel = 'Desde la fecha',
}: PricePreviewSummaryProps) {
  if (preview.productos === 0) return <Text size="sm">{unchanged}</Text>;
  const others = preview.compradores_total - preview.compradores.length;
  return (
    <Stack gap="xs" data-testid="vista-previa-precio">
      <Text size="sm" fw={600}>
        {title}
      </Text>
      <List size="sm" spacing={2}>
        <List.Item>{plural(preview.carritos, 'carrito', 'carritos')}</List.Item>
        <List.Item>{plural(preview.listas, 'lista guardada', 'listas guardadas')}</List.Item>
        <List.Item>
          {plural(
            preview.pedidos_pendientes,
            'pedido por autorizar (conserva su precio)',
            'pedidos por autorizar (conservan su precio)',
          )}
        </List.Item>
      </List>
      {preview.compradores.length > 0 ? (
        <Table.ScrollContainer minWidth={320}>
          <Table fz="sm" verticalSpacing={4} withTableBorder>
            <Table.Caption>Total del carrito de cada comprador, con IVA</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Comprador</Table.Th>
                <Table.Th ta="right">Hoy</Table.Th>
                <Table.Th ta="right">{afterLabel}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {preview.compradores.map((b) => (
                <Table.Tr key={b.id}>
                  <Table.Td>{b.nombre}</Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatMXN(b.total_actual)}
                  </Table.Td>
                  <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                    {formatMXN(b.total_nuevo)}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      {others > 0 ? (
        <Text size="xs" c="dimmed">
          …y {plural(others, 'comprador más', 'compradores más')}.
        </Text>
      ) : null}
    </Stack>
  );
}
