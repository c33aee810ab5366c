import '@mantine/core/styles/Table.css';
import { Paper, Table, Text } from '@mantine/core';
import type { OrderDetailDto } from '@portal/shared/schemas/orders';
import type { CSSProperties, ReactNode } from 'react';
import { formatMXN } from '../../lib/format';
import classes from '../ui/phone-table.module.css';
import { EXENTO_DE_IVA, ivaTotalLabel } from './iva-label';
import { businessToday, LineFulfilment } from './order-shipments';
import { OrderTotalsFoot } from './order-totals';

/** On phones each line is a card: its name, then its clave, then price × quantity and the amount. */
const CARD = {
  '--wide-min-width': '620px',
  '--phone-columns': 'auto auto 1fr',
  '--phone-areas': '"name name name" "clave clave clave" "price qty importe"',
} as CSSProperties;

/**
 * An order's lines (read-only) with Subtotal, IVA and Total: the buyer's detail and the support page. Under
 * each name its promised date, units shipped and cancelled (decision 0125), and the screen's line actions.
 */
export function OrderLinesTable({
  pedido,
  testIdPrefix,
  lineActions,
}: {
  pedido: OrderDetailDto;
  testIdPrefix: string;
  /** The operator's buttons for one line (cancel what is left, change its promised date). */
  lineActions?: (linea: OrderDetailDto['lineas'][number]) => ReactNode;
}) {
  const today = businessToday();
  return (
    <Paper withBorder radius="md" shadow="xs" style={{ overflow: 'hidden' }}>
      <div className={classes.scroll}>
        <Table
          className={classes.table}
          style={CARD}
          verticalSpacing="sm"
          horizontalSpacing="md"
          aria-label="Productos del pedido"
        >
          <Table.Thead bg="gray.0" className={classes.head}>
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
              <Table.Tr key={linea.id} data-testid="linea-pedido">
                <Table.Td style={{ gridArea: 'name' }}>
                  <Text size="sm" fw={600}>
                    {linea.nombre}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {linea.categoria} · {linea.unidad_de_medida}
                    {linea.impuesto ? '' : ` · ${EXENTO_DE_IVA}`}
                  </Text>
                  <LineFulfilment linea={linea} today={today} />
                  {lineActions?.(linea)}
                </Table.Td>
                <Table.Td style={{ gridArea: 'clave', whiteSpace: 'nowrap' }}>
                  <span className={classes.phoneOnly}>Clave: </span>
                  {linea.clave_interna}
                </Table.Td>
                <Table.Td ta="right" style={{ gridArea: 'price', whiteSpace: 'nowrap' }}>
                  {formatMXN(linea.costo)}
                </Table.Td>
                <Table.Td ta="center" style={{ gridArea: 'qty', whiteSpace: 'nowrap' }}>
                  <span className={classes.phoneOnly}>× </span>
                  {linea.cantidad}
                </Table.Td>
                <Table.Td
                  ta="right"
                  style={{ gridArea: 'importe', whiteSpace: 'nowrap', justifySelf: 'end' }}
                >
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
      </div>
    </Paper>
  );
}
