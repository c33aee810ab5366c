import '@mantine/core/styles/Table.css';
import { Box, Button, Group, Paper, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { IconChartBar, IconDownload, IconTable } from '@tabler/icons-react';
import { type ReactNode, useId, useState } from 'react';
import { downloadCsv } from '../../../lib/csv';
import type { ChartTable } from '../lib/dashboard-data';

interface ChartCardProps {
  title: string;
  description?: ReactNode;
  /** The figures, for "Ver como tabla" and "Descargar CSV". */
  table: ChartTable;
  /** The CSV's file name, without '.csv'. */
  filename: string;
  /** The chart; without one the card shows the table (a top-10 list). */
  chart?: ReactNode;
  /** Shown instead of chart and table when there are no rows. */
  empty: string;
  /** Between the title and the chart (counts, a legend). */
  extra?: ReactNode;
}

/** The figures of a chart as an accessible table, its caption the chart's title. */
export function FiguresTable({ title, table }: { title: string; table: ChartTable }) {
  return (
    // On a phone the table scrolls sideways: the scrolling box takes the keyboard focus to do so.
    <Table.ScrollContainer
      minWidth={table.header.length * 110}
      type="native"
      tabIndex={0}
      role="region"
      aria-label={`${title}: tabla`}
    >
      <Table striped highlightOnHover verticalSpacing={6} fz="sm">
        <Table.Caption>
          <VisuallyHidden>{title}</VisuallyHidden>
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {table.header.map((h, i) => (
              <Table.Th key={h} ta={table.numeric[i] ? 'right' : undefined} scope="col">
                {h}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {table.rows.map((row) => (
            <Table.Tr key={row.key}>
              {row.cells.map((cell, i) => (
                <Table.Td
                  // biome-ignore lint/suspicious/noArrayIndexKey: columns are fixed
                  key={i}
                  ta={table.numeric[i] ? 'right' : undefined}
                  style={
                    table.numeric[i]
                      ? { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' }
                      : undefined
                  }
                >
                  {cell}
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/**
 * One chart of a dashboard in its frame: the title, "Ver como tabla" (the same figures as a table, and back
 * with "Ver gráfica") and "Descargar CSV" (the figures, made in the browser).
 */
export function ChartCard({ title, description, table, filename, chart, empty, extra }: ChartCardProps) {
  const id = useId();
  const [asTable, setAsTable] = useState(false);
  const isEmpty = table.rows.length === 0;
  return (
    // Nothing of a chart (a tooltip left where it was, a wide table) reaches past the card.
    <Paper
      withBorder
      radius="lg"
      p="md"
      shadow="xs"
      component="section"
      aria-labelledby={id}
      h="100%"
      style={{ overflow: 'hidden' }}
    >
      <Group justify="space-between" align="flex-start" gap="xs" mb="xs">
        <Box miw={0}>
          <Title order={2} fz="lg" id={id}>
            {title}
          </Title>
          {description ? (
            <Text size="sm" c="dimmed">
              {description}
            </Text>
          ) : null}
        </Box>
        {isEmpty ? null : (
          <Group gap={4}>
            {chart ? (
              <Button
                variant="subtle"
                size="compact-sm"
                leftSection={
                  asTable ? <IconChartBar size={16} aria-hidden /> : <IconTable size={16} aria-hidden />
                }
                aria-label={`${asTable ? 'Ver gráfica' : 'Ver como tabla'}: ${title}`}
                onClick={() => setAsTable((v) => !v)}
              >
                {asTable ? 'Ver gráfica' : 'Ver como tabla'}
              </Button>
            ) : null}
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconDownload size={16} aria-hidden />}
              aria-label={`Descargar CSV: ${title}`}
              onClick={() =>
                downloadCsv(
                  `${filename}.csv`,
                  table.header,
                  table.rows.map((r) => r.csv),
                )
              }
            >
              Descargar CSV
            </Button>
          </Group>
        )}
      </Group>
      {extra}
      {isEmpty ? (
        <Text size="sm" c="dimmed" py="lg" ta="center">
          {empty}
        </Text>
      ) : asTable || !chart ? (
        <FiguresTable title={title} table={table} />
      ) : (
        chart
      )}
    </Paper>
  );
}
