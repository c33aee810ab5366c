/** One import's result in the import dialog: progress while it runs; then its counts and its refused rows. */
import '@mantine/core/styles/Progress.css';
import '@mantine/core/styles/Table.css';
import {
  Alert,
  Anchor,
  Box,
  Group,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import type { ImportDetail, ImportRowError } from '@portal/shared/schemas/imports';
import { IconAlertTriangle } from '@tabler/icons-react';
import { formatCount } from '../../../lib/format';
import { ImportStatusBadge } from './import-history';
import { errorReportUrl, isRunning, KIND_LABELS, resultSentence, useImportDetail } from './import-jobs';

const ERRORS_SHOWN = 50;

function Figure({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz="xl" c={color}>
        {formatCount(value)}
      </Text>
    </Paper>
  );
}

export function ImportResult({ id }: { id: number }) {
  const { data: job, isLoading } = useImportDetail(id);
  if (isLoading || !job) {
    return (
      <Paper withBorder radius="md" p="md" aria-busy="true">
        <Text size="sm" c="dimmed">
          Consultando la importación…
        </Text>
      </Paper>
    );
  }
  return (
    <Paper
      withBorder
      radius="md"
      p="md"
      component="section"
      aria-label="Resultado de la importación"
      data-testid="resultado-importacion"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Box miw={0}>
            <Title order={3} fz="md">
              Resultado de la importación
            </Title>
            <Text size="xs" c="dimmed" truncate>
              {KIND_LABELS[job.tipo]} · {job.archivo}
            </Text>
          </Box>
          <ImportStatusBadge job={job} />
        </Group>
        {isRunning(job.status) ? <Running job={job} /> : <Finished job={job} />}
      </Stack>
    </Paper>
  );
}

function Running({ job }: { job: ImportDetail }) {
  const done = job.ok_rows + job.error_rows;
  const percent = job.total_rows > 0 ? Math.min(100, Math.round((done / job.total_rows) * 100)) : 0;
  return (
    <Stack gap={6} aria-live="polite">
      <Progress value={Math.max(percent, 8)} animated striped aria-label="Avance de la importación" />
      <Text size="sm">
        Procesando {formatCount(job.total_rows)} registros… Te avisaremos al terminar; puedes cerrar esta
        ventana.
      </Text>
    </Stack>
  );
}

function Finished({ job }: { job: ImportDetail }) {
  const fileProblem = job.errores.find((e) => e.fila === 0);
  const rows = job.errores.filter((e) => e.fila > 0);
  return (
    <Stack gap="sm" aria-live="polite">
      <Text size="sm">{resultSentence(job)}</Text>
      <SimpleGrid cols={3} spacing="sm">
        <Figure label="Registros" value={job.total_rows} />
        <Figure label="Correctos" value={job.ok_rows} color="teal" />
        <Figure label="Con errores" value={job.error_rows} color={job.error_rows ? 'red' : undefined} />
      </SimpleGrid>
      {fileProblem ? (
        <Alert
          color="red"
          variant="light"
          icon={<IconAlertTriangle size={18} />}
          title="La importación se detuvo"
        >
          {fileProblem.motivo}
        </Alert>
      ) : null}
      {rows.length > 0 ? (
        <>
          <Group justify="space-between" gap="xs">
            <Text size="sm" fw={600}>
              Registros con errores (no se guardaron)
            </Text>
            <Anchor href={errorReportUrl(job.id)} download size="sm" fw={600}>
              Descargar reporte de errores (CSV)
            </Anchor>
          </Group>
          <RowErrorsTable errores={rows.slice(0, ERRORS_SHOWN)} />
          {rows.length > ERRORS_SHOWN ? (
            <Text size="xs" c="dimmed">
              Se muestran los primeros {ERRORS_SHOWN} errores de {rows.length}; el reporte CSV los trae todos.
            </Text>
          ) : null}
        </>
      ) : null}
    </Stack>
  );
}

/** The refused rows of an import (row, column, reason, value), as every import result shows them. */
export function RowErrorsTable({ errores }: { errores: readonly ImportRowError[] }) {
  return (
    <>
      <RowErrorsList errores={errores} />
      <RowErrorsGrid errores={errores} />
    </>
  );
}

/** Phones: one line per refused row, nothing to scroll sideways. */
function RowErrorsList({ errores }: { errores: readonly ImportRowError[] }) {
  return (
    // The list scrolls down: the scrolling box takes the keyboard focus to do so.
    <Box
      hiddenFrom="sm"
      mah={280}
      style={{ overflowY: 'auto' }}
      tabIndex={0}
      role="region"
      aria-label="Errores por registro: lista"
    >
      <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
        {errores.map((e) => (
          <Text component="li" size="sm" key={`${e.fila}-${e.campo}-${e.motivo}`}>
            <Text span fw={600}>
              Fila {e.fila}
            </Text>{' '}
            ·{' '}
            <Text span ff="monospace" size="sm">
              {e.campo}
            </Text>
            : {e.motivo}
            {e.valor ? (
              <Text span c="dimmed" size="sm" style={{ overflowWrap: 'anywhere' }}>
                {' '}
                ({e.valor})
              </Text>
            ) : null}
          </Text>
        ))}
      </Stack>
    </Box>
  );
}

/** From sm up: the table (row, column, reason, value). */
function RowErrorsGrid({ errores }: { errores: readonly ImportRowError[] }) {
  return (
    // The list scrolls down: the scrolling box takes the keyboard focus to do so.
    <Table.ScrollContainer
      visibleFrom="sm"
      minWidth={520}
      mah={280}
      type="native"
      tabIndex={0}
      role="region"
      aria-label="Errores por registro: tabla"
    >
      <Table
        verticalSpacing={6}
        striped
        withTableBorder
        stickyHeader
        aria-label="Errores por registro"
        fz="sm"
      >
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={70}>Fila</Table.Th>
            <Table.Th>Columna</Table.Th>
            <Table.Th>Motivo</Table.Th>
            <Table.Th>Valor</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {errores.map((e) => (
            <Table.Tr key={`${e.fila}-${e.campo}-${e.motivo}`}>
              <Table.Td>{e.fila}</Table.Td>
              <Table.Td>
                <Text size="sm" ff="monospace">
                  {e.campo}
                </Text>
              </Table.Td>
              <Table.Td>{e.motivo}</Table.Td>
              <Table.Td>
                <Text size="sm" c="dimmed" truncate maw={180} title={e.valor}>
                  {e.valor || '—'}
                </Text>
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
