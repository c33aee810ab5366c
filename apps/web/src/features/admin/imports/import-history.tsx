/** The client's imports, newest first: date, type, file, status, counts and the error report link. */
import '@mantine/core/styles/Table.css';
import { Anchor, Badge, Button, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { ImportJobDto } from '@portal/shared/schemas/imports';
import { IconFileDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { Pager } from '../../../components/ui/pager';
import { formatCount, formatDateTime } from '../../../lib/format';
import { errorReportUrl, KIND_LABELS, statusView, useImportList } from './import-jobs';

export function ImportStatusBadge({ job }: { job: Pick<ImportJobDto, 'status' | 'error_rows'> }) {
  const { label, color } = statusView(job);
  return (
    <Badge color={color} variant="light" radius="sm" styles={{ label: { overflow: 'visible' } }}>
      {label}
    </Badge>
  );
}

interface ImportHistoryProps {
  idCliente: number;
  /** Shows one import's detail (the dialog's result panel). */
  onSelect?: (id: number) => void;
  selectedId?: number | null;
}

export function ImportHistory({ idCliente, onSelect, selectedId }: ImportHistoryProps) {
  const [page, setPage] = useState(1);
  const { data, isLoading, isError } = useImportList(idCliente, page);
  const rows = data?.importaciones ?? [];
  const pages = data ? Math.max(1, Math.ceil(data.total / data.per_page)) : 1;

  if (isLoading) return <Skeleton h={120} radius="md" />;
  if (isError) {
    return (
      <Text size="sm" c="red" role="alert">
        No se pudo cargar el historial de importaciones.
      </Text>
    );
  }
  if (rows.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        Este cliente aún no tiene importaciones.
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      <Table.ScrollContainer minWidth={640}>
        <Table
          verticalSpacing="xs"
          striped
          highlightOnHover
          aria-label="Importaciones del cliente"
          styles={{ td: { verticalAlign: 'top' } }}
        >
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Fecha</Table.Th>
              <Table.Th>Tipo</Table.Th>
              <Table.Th>Archivo</Table.Th>
              <Table.Th>Estatus</Table.Th>
              <Table.Th>Registros</Table.Th>
              <Table.Th>Acciones</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((job) => (
              <Table.Tr
                key={job.id}
                bg={selectedId === job.id ? 'var(--mantine-color-indigo-0)' : undefined}
                data-testid={`importacion-${job.id}`}
              >
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatDateTime(job.created_at)}</Table.Td>
                <Table.Td>{KIND_LABELS[job.tipo]}</Table.Td>
                <Table.Td maw={180}>
                  <Text size="sm" truncate title={job.archivo}>
                    {job.archivo}
                  </Text>
                </Table.Td>
                <Table.Td>
                  <ImportStatusBadge job={job} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'nowrap' }}>
                  <Text size="sm">
                    {formatCount(job.ok_rows)} de {formatCount(job.total_rows)} correctos
                  </Text>
                  {job.error_rows > 0 ? (
                    <Text size="xs" c="red" fw={600}>
                      {formatCount(job.error_rows)} con errores
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>
                  <Stack gap={2} align="flex-start">
                    {onSelect ? (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        px={0}
                        onClick={() => onSelect(job.id)}
                        aria-label={`Ver detalle de la importación ${job.archivo} del ${formatDateTime(job.created_at)}`}
                      >
                        Ver detalle
                      </Button>
                    ) : null}
                    {job.error_rows > 0 ? (
                      <Anchor
                        href={errorReportUrl(job.id)}
                        download
                        size="xs"
                        fw={600}
                        style={{ display: 'inline-flex', alignItems: 'center', gap: 4, whiteSpace: 'nowrap' }}
                        aria-label={`Errores CSV de ${job.archivo}`}
                      >
                        <IconFileDownload size={14} aria-hidden />
                        Errores CSV
                      </Anchor>
                    ) : null}
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages > 1 ? (
        <Pager label="Páginas de importaciones" size="sm" total={pages} value={page} onChange={setPage} />
      ) : null}
    </Stack>
  );
}
