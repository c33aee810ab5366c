/**
 * The image-upload widget ('Selecciona una imagen' / 'Cambiar' / 'Eliminar', JPG or PNG only) and its
 * PDF sibling for the client's calendar and manual (upload, replace, remove). Each keeps the choice as a
 * FileChange: a new file, or "remove the stored one", or nothing (keep it). A refused file never
 * replaces the current choice; the reason shows under the widget.
 */
import {
  Anchor,
  Box,
  Button,
  Center,
  FileButton,
  Group,
  Image,
  Input,
  Paper,
  Stack,
  Text,
} from '@mantine/core';
import { IMAGE_MAX_BYTES, PDF_MAX_BYTES } from '@portal/shared/domain/files';
import { MSG } from '@portal/shared/messages';
import {
  IconFileTypePdf,
  IconPhoto,
  IconPhotoOff,
  IconReplace,
  IconTrash,
  IconUpload,
} from '@tabler/icons-react';
import { useEffect, useId, useState } from 'react';
import type { FileChange } from './api';

export const NO_CHANGE: FileChange = { file: null, remove: false };

/** An object URL for a chosen file, released when it changes. */
export function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    if (!file) {
      setUrl(null);
      return;
    }
    const next = URL.createObjectURL(file);
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [file]);
  return url;
}

interface FieldProps {
  label: string;
  description?: string;
  /** The stored file's URL, or null. */
  current: string | null;
  value: FileChange;
  onChange: (value: FileChange) => void;
  disabled?: boolean;
}

export function ImageField({ label, description, current, value, onChange, disabled }: FieldProps) {
  const [error, setError] = useState<string | null>(null);
  const [broken, setBroken] = useState<string | null>(null);
  const id = useId();
  const preview = useObjectUrl(value.file);
  const src = preview ?? (value.remove ? null : current);
  const hasImage = Boolean(src);

  const pick = (file: File | null) => {
    if (!file) return;
    if (file.type !== 'image/png' && file.type !== 'image/jpeg') {
      setError(MSG.soloJpgPng);
      return;
    }
    if (file.size > IMAGE_MAX_BYTES) {
      setError(MSG.imagenPesada);
      return;
    }
    setError(null);
    onChange({ file, remove: false });
  };

  return (
    <Input.Wrapper
      label={label}
      description={description ?? 'JPG o PNG, hasta 5 MB.'}
      error={error}
      id={id}
      labelElement="div"
      inputWrapperOrder={['label', 'description', 'input', 'error']}
    >
      <Group gap="md" wrap="nowrap" align="center" mt={6} role="group" aria-label={label}>
        <Paper withBorder radius="md" w={112} h={80} style={{ overflow: 'hidden', flexShrink: 0 }} bg="white">
          {src && broken !== src ? (
            <Image
              src={src}
              alt={value.file ? `Vista previa de ${value.file.name}` : `${label} actual`}
              fit="contain"
              w="100%"
              h="100%"
              p={6}
              onError={() => setBroken(src)}
            />
          ) : (
            <Center h="100%" c="gray.5" bg="gray.0">
              {src ? (
                <IconPhotoOff size={28} stroke={1.4} aria-hidden />
              ) : (
                <IconPhoto size={28} stroke={1.4} aria-hidden />
              )}
            </Center>
          )}
        </Paper>
        <Stack gap={6} miw={0}>
          <Text size="xs" c="dimmed" truncate>
            {value.file
              ? value.file.name
              : value.remove
                ? 'Se eliminará al guardar'
                : hasImage
                  ? 'Imagen actual'
                  : 'Sin imagen'}
          </Text>
          <Group gap="xs">
            <FileButton
              onChange={pick}
              accept="image/png,image/jpeg"
              disabled={disabled}
              inputProps={{ 'aria-label': `Archivo de ${label.toLowerCase()}` }}
            >
              {(props) => (
                <Button
                  {...props}
                  size="xs"
                  variant={hasImage ? 'default' : 'light'}
                  leftSection={
                    hasImage ? <IconReplace size={14} aria-hidden /> : <IconUpload size={14} aria-hidden />
                  }
                >
                  {hasImage ? 'Cambiar' : 'Selecciona una imagen'}
                </Button>
              )}
            </FileButton>
            {hasImage ? (
              <Button
                size="xs"
                variant="subtle"
                color="red"
                disabled={disabled}
                leftSection={<IconTrash size={14} aria-hidden />}
                onClick={() => {
                  setError(null);
                  onChange({ file: null, remove: Boolean(current) });
                }}
              >
                Eliminar
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Group>
    </Input.Wrapper>
  );
}

function formatSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

export function PdfField({ label, description, current, value, onChange, disabled }: FieldProps) {
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  const stored = current && !value.remove ? current : null;
  const has = Boolean(value.file || stored);

  const pick = (file: File | null) => {
    if (!file) return;
    const isPdf = file.type === 'application/pdf' || /\.pdf$/i.test(file.name);
    if (!isPdf) {
      setError('Solo se permiten archivos PDF.');
      return;
    }
    if (file.size > PDF_MAX_BYTES) {
      setError(MSG.pdfPesado);
      return;
    }
    setError(null);
    onChange({ file, remove: false });
  };

  return (
    <Input.Wrapper
      label={label}
      description={description ?? 'PDF, hasta 20 MB.'}
      error={error}
      id={id}
      labelElement="div"
      inputWrapperOrder={['label', 'description', 'input', 'error']}
    >
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
              onChange={pick}
              accept="application/pdf,.pdf"
              disabled={disabled}
              inputProps={{ 'aria-label': `Archivo de ${label.toLowerCase()}` }}
            >
              {(props) => (
                <Button
                  {...props}
                  size="xs"
                  variant={has ? 'default' : 'light'}
                  aria-label={has ? `Reemplazar ${label.toLowerCase()}` : `Subir PDF: ${label.toLowerCase()}`}
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
                aria-label={`Quitar ${label.toLowerCase()}`}
                onClick={() => {
                  setError(null);
                  onChange({ file: null, remove: Boolean(current) });
                }}
              >
                Quitar
              </Button>
            ) : null}
          </Group>
        </Group>
      </Paper>
    </Input.Wrapper>
  );
}
