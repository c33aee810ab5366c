/**
 * The PDF field (a client's calendar and manual): upload, replace ('Reemplazar') or remove ('Quitar') a
 * document of at most 20 MB. Its value is a FileValue, as the image field's.
 */
import { Anchor, Box, Button, FileButton, Group, Paper, Text } from '@mantine/core';
import { PDF_MAX_BYTES } from '@portal/shared/domain/files';
import { MSG } from '@portal/shared/messages';
import { IconFileTypePdf } from '@tabler/icons-react';
import { FileFieldFrame, type FileFieldProps, useFileChoice } from './file-field';

function pdfRefusal(file: File): string | null {
  if (file.type !== 'application/pdf' && !/\.pdf$/i.test(file.name)) return 'Solo se permiten archivos PDF.';
  if (file.size > PDF_MAX_BYTES) return MSG.pdfPesado;
  return null;
}

function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function PdfField({
  label,
  value,
  onChange,
  disabled,
  error,
  description = 'PDF, hasta 20 MB.',
}: FileFieldProps) {
  const choice = useFileChoice(value, onChange, pdfRefusal, error);
  const stored = value.currentUrl && !value.remove ? value.currentUrl : null;
  const has = Boolean(value.file || stored);
  const name = label.toLowerCase();

  return (
    <FileFieldFrame id={choice.id} label={label} description={description} message={choice.message}>
      <Paper withBorder radius="md" p="xs" mt={6} role="group" aria-label={label}>
        <Group gap="sm" wrap="nowrap" justify="space-between">
          <Group gap="xs" wrap="nowrap" miw={0}>
            <Box c={has ? 'red' : 'gray.5'} style={{ display: 'flex', flexShrink: 0 }}>
              <IconFileTypePdf size={26} stroke={1.5} aria-hidden />
            </Box>
            <Box miw={0}>
              {value.file ? (
                <>
                  <Text size="sm" fw={500} truncate>
                    {value.file.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    Nuevo · {formatSize(value.file.size)} · se guardará al enviar
                  </Text>
                </>
              ) : stored ? (
                <>
                  <Text size="sm" fw={500}>
                    {label} actual
                  </Text>
                  <Anchor href={stored} target="_blank" rel="noopener" size="xs">
                    Ver PDF
                  </Anchor>
                </>
              ) : (
                <Text size="sm" c="dimmed">
                  {value.remove ? 'Se quitará al guardar' : 'Sin documento'}
                </Text>
              )}
            </Box>
          </Group>
          <Group gap={6} wrap="nowrap">
            <FileButton
              onChange={choice.choose}
              accept="application/pdf,.pdf"
              disabled={disabled}
              inputProps={{ 'aria-label': `Archivo de ${name}`, 'aria-describedby': choice.errorId }}
            >
              {(props) => (
                <Button
                  {...props}
                  size="xs"
                  variant={has ? 'default' : 'light'}
                  aria-label={has ? `Reemplazar ${name}` : `Subir PDF: ${name}`}
                >
                  {has ? 'Reemplazar' : 'Subir PDF'}
                </Button>
              )}
            </FileButton>
            {has ? (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                disabled={disabled}
                aria-label={`Quitar ${name}`}
                onClick={choice.clear}
              >
                Quitar
              </Button>
            ) : null}
          </Group>
        </Group>
      </Paper>
    </FileFieldFrame>
  );
}
