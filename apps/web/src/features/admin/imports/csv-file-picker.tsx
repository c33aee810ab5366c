/**
 * Step 2 of the import dialog: choosing the CSV, by dropping it on the zone or with 'Elegir archivo CSV'
 * (only .csv, at most 20 MB unless told), then the chosen file with its size and a button to take it back.
 */
// The drop zone's loading overlay (Mantine's own component, not in the base styles).
import '@mantine/core/styles/LoadingOverlay.css';
import '@mantine/dropzone/styles.css';
import { Box, Button, CloseButton, Group, Paper, Stack, Text, ThemeIcon } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { IMPORT_MAX_BYTES } from '@portal/shared/limits';
import { IconFileSpreadsheet, IconFileUpload, IconUpload, IconX } from '@tabler/icons-react';
import { useRef } from 'react';

/** What the picker accepts: files named .csv (Excel on Windows calls them application/vnd.ms-excel). */
const CSV_ACCEPT = { 'text/csv': ['.csv'], 'application/vnd.ms-excel': ['.csv'] };
const SOLO_CSV =
  'Solo se permiten archivos CSV (.csv). Descarga la plantilla, llénala y guárdala como "CSV UTF-8 (delimitado por comas)".';

function isCsvName(name: string): boolean {
  return name.toLowerCase().endsWith('.csv');
}

function fileSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024)
    return `${(bytes / 1024).toLocaleString('es-MX', { maximumFractionDigits: 1 })} KB`;
  return `${(bytes / 1024 / 1024).toLocaleString('es-MX', { maximumFractionDigits: 1 })} MB`;
}

/** "20 MB", "1 MB": a size limit as the picker and its refusal name it. */
const limitText = (bytes: number) => `${(bytes / 1024 / 1024).toLocaleString('es-MX')} MB`;

/** Why a chosen file cannot be imported, or null. */
function refusal(file: File, maxBytes: number): string | null {
  if (!isCsvName(file.name)) return SOLO_CSV;
  if (file.size > maxBytes) return `El archivo excede el tamaño máximo de ${limitText(maxBytes)}.`;
  return null;
}

interface CsvFilePickerProps {
  file: File | null;
  /** Why the last file was refused (or that none was chosen). */
  error: string | null;
  disabled: boolean;
  /** A file was dropped or chosen: the file to import, or null and why it was refused. */
  onPick: (file: File | null, error: string | null) => void;
  onRemove: () => void;
  /** The largest file accepted (the imports' 20 MB unless told). */
  maxBytes?: number;
}

export function CsvFilePicker({
  file,
  error,
  disabled,
  onPick,
  onRemove,
  maxBytes = IMPORT_MAX_BYTES,
}: CsvFilePickerProps) {
  const openFilePicker = useRef<() => void>(null);

  function pick(files: File[], rejections: FileRejection[] = []) {
    const chosen = files[0] ?? rejections[0]?.file ?? null;
    if (!chosen) return;
    const reason = refusal(chosen, maxBytes);
    onPick(reason ? null : chosen, reason);
  }

  return (
    <>
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
              onClick={onRemove}
              disabled={disabled}
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
            style={{ borderColor: error ? 'var(--mantine-color-red-6)' : undefined }}
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
                  Solo archivos .csv, hasta {limitText(maxBytes)}
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
      {error ? (
        <Text size="sm" c="red" role="alert">
          {error}
        </Text>
      ) : null}
    </>
  );
}
