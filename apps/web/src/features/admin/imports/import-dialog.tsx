/**
 * The CSV import dialog (spec §2, §5, §7, §8) for products ('Cargar productos') and users ('Importación
 * por archivo'): 1) download the template, 2) choose a CSV (only CSV; the import button stays disabled
 * until there is a file), 3) upload it — the server answers at once ('Procesando archivo') and a
 * background job processes it; the dialog shows its progress and result (counts and per-row errors),
 * and the client's recent imports with their error reports.
 */
import '@mantine/dropzone/styles.css';
import {
  Alert,
  Anchor,
  Box,
  Button,
  CloseButton,
  Divider,
  Group,
  Modal,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  Text,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useMediaQuery } from '@mantine/hooks';
import { IMPORT_MAX_BYTES } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import type { ImportDetail, ImportKind } from '@portal/shared/schemas/imports';
import {
  IconAlertTriangle,
  IconDownload,
  IconFileImport,
  IconFileSpreadsheet,
  IconFileUpload,
  IconUpload,
  IconX,
} from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useRef, useState } from 'react';
import { showError } from '../../../components/ui/alerts';
import { isApiError } from '../../../lib/api';
import { adminKeys } from '../api/keys';
import { ImportHistory, ImportStatusBadge } from './import-history';
import {
  announceAccepted,
  downloadTemplate,
  errorReportUrl,
  isRunning,
  KIND_LABELS,
  resultSentence,
  TEMPLATE_FILENAMES,
  trackImport,
  uploadImport,
  useImportDetail,
} from './import-jobs';

/** What the picker accepts: files named .csv (Excel on Windows calls them application/vnd.ms-excel). */
const CSV_ACCEPT = { 'text/csv': ['.csv'], 'application/vnd.ms-excel': ['.csv'] };
const SOLO_CSV =
  'Solo se permiten archivos CSV (.csv). Descarga la plantilla, llénala y guárdala como "CSV UTF-8 (delimitado por comas)".';
const ERRORS_SHOWN = 50;

function isCsvName(name: string): boolean {
  return name.toLowerCase().endsWith('.csv');
}

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024)
    return `${(bytes / 1024).toLocaleString('es-MX', { maximumFractionDigits: 1 })} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString('es-MX', { maximumFractionDigits: 1 })} MB`;
}

const TITLES: Record<ImportKind, string> = {
  productos: 'Cargar productos',
  usuarios: 'Importación por archivo',
};

const INTRO: Record<ImportKind, string> = {
  productos:
    'Da de alta o actualiza productos en bloque. Se identifican por su clave interna; las categorías que no existan se crean.',
  usuarios:
    'Da de alta o actualiza usuarios en bloque. Se identifican por su usuario; cada usuario nuevo recibe un correo para establecer su contraseña.',
};

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <Group align="flex-start" gap="md" wrap="nowrap">
      <ThemeIcon radius="xl" size={28} variant="light" aria-hidden>
        <Text fw={700} size="sm">
          {n}
        </Text>
      </ThemeIcon>
      <Stack gap={8} style={{ flex: 1, minWidth: 0 }}>
        <Title order={3} fz="md">
          {title}
        </Title>
        {children}
      </Stack>
    </Group>
  );
}

interface ImportDialogProps {
  opened: boolean;
  onClose: () => void;
  kind: ImportKind;
  idCliente: number;
  clienteNombre?: string;
}

export function ImportDialog({ opened, onClose, kind, idCliente, clienteNombre }: ImportDialogProps) {
  const phone = useMediaQuery('(max-width: 36em)');
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const openFilePicker = useRef<() => void>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [currentId, setCurrentId] = useState<number | null>(null);

  const template = useMutation({
    mutationFn: () => downloadTemplate(kind, idCliente),
    onError: () => void showError(MSG.plantillaFallida),
  });

  const upload = useMutation({
    mutationFn: (f: File) => uploadImport(kind, idCliente, f),
    onSuccess: (accepted) => {
      announceAccepted(accepted);
      trackImport(accepted.id_importacion, kind, idCliente);
      setCurrentId(accepted.id_importacion);
      setFile(null);
      void queryClient.invalidateQueries({ queryKey: adminKeys.imports });
    },
    onError: (error) => {
      // A clear refusal from the server (not a CSV, wrong header, empty file...) is shown as it is.
      const specific = isApiError(error) && error.status >= 400 && error.status < 500 && error.msg;
      setUploadError(specific ? error.msg : MSG.subidaFallida);
    },
  });

  function pick(files: File[], rejections: FileRejection[] = []) {
    setUploadError(null);
    const chosen = files[0] ?? rejections[0]?.file ?? null;
    if (!chosen) return;
    if (!isCsvName(chosen.name)) {
      setFile(null);
      setFileError(SOLO_CSV);
      return;
    }
    if (chosen.size > IMPORT_MAX_BYTES) {
      setFile(null);
      setFileError('El archivo excede el tamaño máximo de 20 MB.');
      return;
    }
    setFileError(null);
    setFile(chosen);
  }

  function submit(event: React.FormEvent) {
    event.preventDefault();
    setUploadError(null);
    if (!file) {
      setFileError(MSG.archivoNoSeleccionado);
      return;
    }
    upload.mutate(file);
  }

  function close() {
    if (upload.isPending) return;
    setFile(null);
    setFileError(null);
    setUploadError(null);
    onClose();
  }

  return (
    <Modal
      opened={opened}
      onClose={close}
      size="56rem"
      fullScreen={phone}
      centered={!phone}
      title={
        <span>
          {TITLES[kind]}
          {clienteNombre ? (
            <Text component="span" c="dimmed" fw={500} size="sm" ml={8}>
              {clienteNombre}
            </Text>
          ) : null}
        </span>
      }
    >
      <Stack gap="lg">
        <Text size="sm" c="dimmed">
          {INTRO[kind]}
        </Text>

        <Step n={1} title="Descarga la plantilla">
          <Text size="sm">
            Trae las columnas que espera el sistema y una fila de ejemplo. Llénala en Excel y guárdala como
            «CSV UTF-8 (delimitado por comas)».
          </Text>
          <Group>
            <Button
              variant="light"
              leftSection={<IconDownload size={16} />}
              loading={template.isPending}
              onClick={() => template.mutate()}
            >
              Descargar plantilla
            </Button>
            <Text size="xs" c="dimmed">
              {TEMPLATE_FILENAMES[kind]}
            </Text>
          </Group>
        </Step>

        <form onSubmit={submit} noValidate>
          <Step n={2} title="Selecciona el archivo CSV">
            {file ? (
              <Paper withBorder radius="md" p="sm" data-testid="archivo-seleccionado">
                <Group wrap="nowrap" gap="sm">
                  <ThemeIcon variant="light" color="teal" size="lg" aria-hidden>
                    <IconFileSpreadsheet size={20} />
                  </ThemeIcon>
                  <Box style={{ flex: 1, minWidth: 0 }}>
                    <Text fw={600} size="sm" truncate>
                      {file.name}
                    </Text>
                    <Text size="xs" c="dimmed">
                      {fileSize(file.size)}
                    </Text>
                  </Box>
                  <CloseButton
                    aria-label={`Quitar el archivo ${file.name}`}
                    onClick={() => setFile(null)}
                    disabled={upload.isPending}
                  />
                </Group>
              </Paper>
            ) : (
              <Stack gap="xs">
                <Dropzone
                  onDrop={(files) => pick(files)}
                  onReject={(rejections) => pick([], rejections)}
                  accept={CSV_ACCEPT}
                  multiple={false}
                  radius="md"
                  p="lg"
                  openRef={openFilePicker}
                  // The zone is for the mouse (drop or click); keyboards and screen readers use the button
                  // below, so the zone is no control of its own and its file input stays out of their way.
                  activateOnKeyboard={false}
                  inputProps={{ 'aria-label': 'Archivo CSV', 'aria-hidden': true }}
                  style={{ borderColor: fileError ? 'var(--mantine-color-red-6)' : undefined }}
                >
                  <Group justify="center" gap="md" wrap="nowrap" style={{ pointerEvents: 'none' }}>
                    <Dropzone.Accept>
                      <IconUpload size={36} stroke={1.5} color="var(--mantine-color-indigo-6)" />
                    </Dropzone.Accept>
                    <Dropzone.Reject>
                      <IconX size={36} stroke={1.5} color="var(--mantine-color-red-6)" />
                    </Dropzone.Reject>
                    <Dropzone.Idle>
                      <IconFileUpload size={36} stroke={1.5} color="var(--mantine-color-gray-6)" />
                    </Dropzone.Idle>
                    <div>
                      <Text fw={600} size="sm">
                        Arrastra aquí el archivo o haz clic para elegirlo
                      </Text>
                      <Text size="xs" c="dimmed">
                        Solo archivos .csv, hasta 20 MB
                      </Text>
                    </div>
                  </Group>
                </Dropzone>
                <Button
                  variant="light"
                  leftSection={<IconFileUpload size={16} aria-hidden />}
                  onClick={() => openFilePicker.current?.()}
                  style={{ alignSelf: 'flex-start' }}
                >
                  Elegir archivo CSV
                </Button>
              </Stack>
            )}
            {fileError ? (
              <Text size="sm" c="red" role="alert">
                {fileError}
              </Text>
            ) : null}
            {uploadError ? (
              <Alert
                color="red"
                variant="light"
                icon={<IconAlertTriangle size={18} />}
                title={MSG.subidaFallida}
                role="alert"
              >
                {uploadError === MSG.subidaFallida ? 'Inténtalo de nuevo en unos momentos.' : uploadError}
              </Alert>
            ) : null}
            <Group justify="flex-end" gap="sm">
              <Button variant="default" onClick={close} disabled={upload.isPending}>
                Cerrar
              </Button>
              <Button
                type="submit"
                leftSection={<IconFileImport size={16} />}
                disabled={!file}
                loading={upload.isPending}
              >
                Importar
              </Button>
            </Group>
          </Step>
        </form>

        {currentId !== null ? <ImportResult id={currentId} /> : null}

        <Divider />
        <Stack gap="xs">
          <Title order={3} fz="md">
            Importaciones recientes
          </Title>
          <ImportHistory idCliente={idCliente} onSelect={setCurrentId} selectedId={currentId} />
        </Stack>
      </Stack>
    </Modal>
  );
}

function Figure({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Paper withBorder radius="md" p="sm">
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} fz="xl" c={color}>
        {value.toLocaleString('es-MX')}
      </Text>
    </Paper>
  );
}

/** One import: progress while it runs; then its counts and its refused rows. */
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
        Procesando {job.total_rows.toLocaleString('es-MX')} registros… Te avisaremos al terminar; puedes
        cerrar esta ventana.
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
          <Table.ScrollContainer minWidth={520} mah={280}>
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
                {rows.slice(0, ERRORS_SHOWN).map((e) => (
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

interface ImportButtonProps {
  kind: ImportKind;
  idCliente: number;
  clienteNombre?: string;
  label?: string;
  variant?: string;
}

/** The button that opens the import dialog ('Cargar productos', 'Importación por archivo'). */
export function ImportButton({
  kind,
  idCliente,
  clienteNombre,
  label,
  variant = 'light',
}: ImportButtonProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <Button variant={variant} leftSection={<IconFileImport size={16} />} onClick={() => setOpened(true)}>
        {label ?? TITLES[kind]}
      </Button>
      <ImportDialog
        opened={opened}
        onClose={() => setOpened(false)}
        kind={kind}
        idCliente={idCliente}
        clienteNombre={clienteNombre}
      />
    </>
  );
}
