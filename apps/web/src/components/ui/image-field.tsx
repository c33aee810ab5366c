/**
 * The image-upload field: a preview, 'Selecciona una imagen' when there is none, 'Cambiar' and
 * 'Eliminar' when there is one. JPG and PNG only ('Only JPG and PNG files are allowed.'), at most 5 MB.
 * Its value is a FileValue; a message from the server about the image comes in `error`.
 */
import '@mantine/core/styles/Image.css';
import { Button, Center, FileButton, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { IMAGE_MAX_BYTES } from '@portal/shared/domain/files';
import { MSG } from '@portal/shared/messages';
import { IconPhoto, IconPhotoOff, IconReplace, IconTrash, IconUpload } from '@tabler/icons-react';
import { useState } from 'react';
import { FileFieldFrame, type FileFieldProps, useFileChoice, useObjectUrl } from './file-field';

function imageRefusal(file: File): string | null {
  if (file.type !== 'image/png' && file.type !== 'image/jpeg') return MSG.soloJpgPng;
  if (file.size > IMAGE_MAX_BYTES) return MSG.imagenPesada;
  return null;
}

interface ImageFieldProps extends FileFieldProps {
  /** The file input's accessible name; 'Archivo de <label>' by default. */
  inputLabel?: string;
  /** The preview's text alternative; by default the chosen file's name or '<label> actual'. */
  previewAlt?: string;
}

export function ImageField({
  label,
  value,
  onChange,
  disabled,
  error,
  description = 'JPG o PNG, hasta 5 MB.',
  inputLabel = `Archivo de ${label.toLowerCase()}`,
  previewAlt,
}: ImageFieldProps) {
  const choice = useFileChoice(value, onChange, imageRefusal, error);
  const [broken, setBroken] = useState<string | null>(null);
  const preview = useObjectUrl(value.file);
  const src = preview ?? (value.remove ? null : value.currentUrl);
  const hasImage = Boolean(src);

  return (
    <FileFieldFrame id={choice.id} label={label} description={description} message={choice.message}>
      <Group gap="md" wrap="nowrap" align="center" mt={6} role="group" aria-label={label}>
        <Paper withBorder radius="md" w={112} h={80} style={{ overflow: 'hidden', flexShrink: 0 }} bg="white">
          {src && broken !== src ? (
            <Image
              src={src}
              alt={previewAlt ?? (value.file ? `Vista previa de ${value.file.name}` : `${label} actual`)}
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
              onChange={choice.choose}
              accept="image/png,image/jpeg"
              disabled={disabled}
              inputProps={{ 'aria-label': inputLabel, 'aria-describedby': choice.errorId }}
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
                onClick={choice.clear}
              >
                Eliminar
              </Button>
            ) : null}
          </Group>
        </Stack>
      </Group>
    </FileFieldFrame>
  );
}
