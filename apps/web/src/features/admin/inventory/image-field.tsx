/**
 * The image-upload widget (spec §2): a preview, 'Selecciona una imagen' when there is none, 'Cambiar' and
 * 'Eliminar' when there is one. JPG and PNG only ('Only JPG and PNG files are allowed.'), at most 5 MB.
 */
import { Box, Button, Center, FileButton, Group, Image, Stack, Text } from '@mantine/core';
import { IMAGE_MAX_BYTES } from '@portal/shared/domain/files';
import { MSG } from '@portal/shared/messages';
import { IconPhoto, IconPhotoEdit, IconPhotoPlus, IconTrash } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';

export interface ImageValue {
  /** A newly chosen file (sent with the form). */
  file: File | null;
  /** The saved image's URL (edit mode), or null. */
  url: string | null;
  /** The saved image was removed in the form. */
  removed: boolean;
}

export const EMPTY_IMAGE: ImageValue = { file: null, url: null, removed: false };

const TYPES = ['image/jpeg', 'image/png'];

interface ImageFieldProps {
  value: ImageValue;
  onChange: (value: ImageValue) => void;
  disabled?: boolean;
  /** A message from the server about the image. */
  error?: string | null;
  label?: string;
}

export function ImageField({ value, onChange, disabled, error, label = 'Imagen' }: ImageFieldProps) {
  const [localError, setLocalError] = useState<string | null>(null);
  const preview = useMemo(() => (value.file ? URL.createObjectURL(value.file) : null), [value.file]);
  useEffect(() => () => (preview ? URL.revokeObjectURL(preview) : undefined), [preview]);
  const shown = preview ?? (value.removed ? null : value.url);
  const message = localError ?? error ?? null;
  const errorId = 'imagen-producto-error';

  function choose(file: File | null) {
    if (!file) return;
    if (!TYPES.includes(file.type)) {
      setLocalError(MSG.soloJpgPng);
      return;
    }
    if (file.size > IMAGE_MAX_BYTES) {
      setLocalError(MSG.imagenPesada);
      return;
    }
    setLocalError(null);
    onChange({ ...value, file, removed: false });
  }

  const inputProps = {
    'aria-label': 'Imagen del producto',
    'aria-describedby': message ? errorId : undefined,
  };

  return (
    <Stack gap={6}>
      <Text size="sm" fw={500} component="span">
        {label}
      </Text>
      <Group gap="md" wrap="wrap" align="center">
        <Box
          w={96}
          h={96}
          style={{
            borderRadius: 'var(--mantine-radius-md)',
            border: `1px ${shown ? 'solid' : 'dashed'} var(--mantine-color-gray-4)`,
            overflow: 'hidden',
            flexShrink: 0,
          }}
          bg="gray.0"
        >
          {shown ? (
            <Image src={shown} alt="Vista previa de la imagen del producto" w={96} h={96} fit="cover" />
          ) : (
            <Center h="100%" c="gray.5" aria-hidden>
              <IconPhoto size={34} stroke={1.3} />
            </Center>
          )}
        </Box>
        <Stack gap={8} style={{ minWidth: 0 }}>
          {shown ? (
            <Group gap={8}>
              <FileButton
                onChange={choose}
                accept="image/png,image/jpeg"
                disabled={disabled}
                inputProps={inputProps}
              >
                {(props) => (
                  <Button
                    {...props}
                    size="xs"
                    variant="light"
                    leftSection={<IconPhotoEdit size={14} />}
                    disabled={disabled}
                  >
                    Cambiar
                  </Button>
                )}
              </FileButton>
              <Button
                size="xs"
                variant="subtle"
                color="red"
                leftSection={<IconTrash size={14} />}
                disabled={disabled}
                onClick={() => {
                  setLocalError(null);
                  onChange({ ...value, file: null, removed: Boolean(value.url) });
                }}
              >
                Eliminar
              </Button>
            </Group>
          ) : (
            <FileButton
              onChange={choose}
              accept="image/png,image/jpeg"
              disabled={disabled}
              inputProps={inputProps}
            >
              {(props) => (
                <Button
                  {...props}
                  size="xs"
                  variant="light"
                  leftSection={<IconPhotoPlus size={14} />}
                  disabled={disabled}
                >
                  Selecciona una imagen
                </Button>
              )}
            </FileButton>
          )}
          <Text size="xs" c="dimmed">
            JPG o PNG, hasta 5 MB.
          </Text>
        </Stack>
      </Group>
      {message ? (
        <Text id={errorId} size="sm" c="red" role="alert">
          {message}
        </Text>
      ) : null}
    </Stack>
  );
}
