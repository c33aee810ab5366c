/**
 * The Subtotal, IVA and Total of an order or a cart in one of two layouts: footer rows
 * of the lines' table (the user's cart and order detail) or a right-aligned summary (the authorizer's review).
 */
import '@mantine/core/styles/Table.css';
import { Divider, Group, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface Totals {
  subtotal: number;
  iva: number;
  total: number;
}

interface TableTotalsProps {
  totals: Totals;
  /** formatMXN for pesos, formatCentavos for centavos. */
  format: (amount: number) => string;
  ivaLabel: string;
  /** How many columns the labels span: the value stands in the next one. */
  labelSpan: number;
  /** Empty cells after the value (a column of row actions). */
  trailingCells?: number;
  /** `detalle-subtotal`, `detalle-iva`, `detalle-total` on the values, under this prefix. */
  testIdPrefix?: string;
  /** The font size of the values other than the total. */
  valueSize?: 'sm';
}

/** The table form: a <tfoot> with a line above it and the total highlighted. */
export function OrderTotalsFoot({ totals, format, ivaLabel, ...row }: TableTotalsProps) {
  return (
    <Table.Tfoot style={{ borderTop: '1px solid var(--mantine-color-default-border)' }}>
      <TotalRow label="Subtotal" value={format(totals.subtotal)} testId="subtotal" {...row} />
      <TotalRow label={ivaLabel} value={format(totals.iva)} testId="iva" {...row} />
      <TotalRow label="Total" value={format(totals.total)} testId="total" strong {...row} />
    </Table.Tfoot>
  );
}

function TotalRow({
  label,
  value,
  strong = false,
  labelSpan,
  trailingCells = 0,
  testIdPrefix,
  testId,
  valueSize,
}: Omit<TableTotalsProps, 'totals' | 'format' | 'ivaLabel'> & {
  label: string;
  value: string;
  strong?: boolean;
  testId: string;
}) {
  return (
    <Table.Tr bg={strong ? 'indigo.0' : undefined}>
      <Table.Th
        colSpan={labelSpan}
        ta="right"
        scope="row"
        fw={strong ? 700 : 500}
        c={strong ? undefined : 'dimmed'}
      >
        {label}
      </Table.Th>
      <Table.Td
        ta="right"
        fw={strong ? 800 : 600}
        fz={valueSize ? (strong ? 'md' : valueSize) : undefined}
        style={{ whiteSpace: 'nowrap' }}
        data-testid={testIdPrefix ? `${testIdPrefix}-${testId}` : undefined}
      >
        {value}
      </Table.Td>
      {Array.from({ length: trailingCells }, (_, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: empty filler cells
        <Table.Td key={i} />
      ))}
    </Table.Tr>
  );
}

/** The summary form: label and value on a line each, a divider above the total, then `after` (a note). */
export function OrderTotalsSummary({
  totals,
  format,
  ivaLabel,
  after,
}: {
  totals: Totals;
  format: (amount: number) => string;
  ivaLabel: string;
  after?: ReactNode;
}) {
  return (
    <>
      <SummaryRow label="Subtotal" value={format(totals.subtotal)} />
      <SummaryRow label={ivaLabel} value={format(totals.iva)} />
      <Divider my={4} />
      <SummaryRow label="Total" value={format(totals.total)} strong />
      {after}
    </>
  );
}

function SummaryRow({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Group justify="space-between" gap="xl" wrap="nowrap">
      <Text size={strong ? 'md' : 'sm'} fw={strong ? 700 : 400} c={strong ? undefined : 'dimmed'}>
        {label}
      </Text>
      <Text
        size={strong ? 'lg' : 'sm'}
        fw={strong ? 700 : 500}
        style={{ fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }}
      >
        {value}
      </Text>
    </Group>
  );
}
