import { Paper, Table, Text } from '@mantine/core';
import type { OrderDetailDto } from '@portal/shared/schemas/shopping';
import { formatMXN } from '../../lib/format';
import { EXENTO_DE_IVA, ivaTotalLabel } from './iva-label';
import { OrderTotalsFoot } from './order-totals';

/** An order's lines (read-only) with Subtotal, IVA and Total: the buyer's detail and the support page. */
export function OrderLinesTable({ pedido, testIdPrefix }: { pedido: OrderDetailDto; testIdPrefix: string }) {
  return (
    <Paper withBorder radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
      <Table.ScrollContainer minWidth={620} type="native">
        <Table verticalSpacing="sm" horizontalSpacing="md" aria-label="Productos del pedido">
          <Table.Thead bg="gray.0">
            <Table.Tr>
              <Table.Th>Producto</Table.Th>
              <Table.Th>Clave</Table.Th>
              <Table.Th ta="right">Precio</Table.Th>
              <Table.Th ta="center">Cantidad</Table.Th>
              <Table.Th ta="right">Importe</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {pedido.lineas.map((linea) => (
              <Table.Tr key={linea.id}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {linea.nombre}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {linea.categoria} · {linea.unidad_de_medida}
                    {linea.impuesto ? '' : ` · ${EXENTO_DE_IVA}`}
                  </Text>
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{linea.clave_interna}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMXN(linea.costo)}
                </Table.Td>
                <Table.Td ta="center">{linea.cantidad}</Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: 'nowrap' }}>
                  {formatMXN(linea.importe)}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <OrderTotalsFoot
            totals={pedido}
            format={formatMXN}
            ivaLabel={ivaTotalLabel(pedido.lineas)}
            labelSpan={4}
            testIdPrefix={testIdPrefix}
          />
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
