/**
 * Photos of a receipt or a claim (decision 0127): each file chosen is uploaded at once
 * (POST /api/historial/{id}/fotos) and shown as a small card — a preview of a JPEG or PNG, the name, «Subiendo…»
 * or the refusal in Spanish (the server's, or the type or size checked here first) — with «Quitar». The
 * dialog sends the ids of the uploaded ones and waits while any is still uploading.
 */
import '@mantine/core/styles/Image.css';
import { ActionIcon, Button, FileButton, Group, Image, Input, Paper, Stack, Text } from '@mantine/core';
import { CLAIM_MSG, CLAIM_PHOTO_MAX_BYTES, CLAIM_PHOTOS_MAX } from '@portal/shared/domain/claims';
import { IconCamera, IconPhoto, IconX } from '@tabler/icons-react';
import { useEffect, useId, useRef, useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { errorMessage } from '../../../lib/api';
import { type ReceiptRoutes, uploadOrderPhoto } from '../api/claims';

const ACCEPT = 'image/jpeg,image/png,image/heic,image/heif,.heic,.heif';
const PREVIEWABLE = new Set(['image/jpeg', 'image/png']);

/** Why a file cannot be a photo here, or null: its type (by name when the browser gives none) and size. */
export function photoRefusal(file: File): string | null {
  const type = file.type.toLowerCase();
  const ok =
    PREVIEWABLE.has(type) ||
    type === 'image/heic' ||
    type === 'image/heif' ||
    (type === '' && /\.(heic|heif|jpe?g|png)$/i.test(file.name));
  if (!ok) return 'Solo se permiten fotos JPG, PNG o HEIC.';
  if (file.size > CLAIM_PHOTO_MAX_BYTES) return 'La foto pesa más de 10 MB.';
  return null;
}

interface PhotoItem {
  key: number;
  name: string;
  /** A preview's object URL (JPEG and PNG), released when the item goes. */
  preview: string | null;
  state: 'subiendo' | 'lista' | 'error';
  id?: number;
  error?: string;
}

/** The photos chosen for one order's receipt or claim: add (uploads), remove, the ids, any still uploading. */
export function useClaimPhotos(idPedido: number, routes?: ReceiptRoutes) {
  const [items, setItems] = useState<PhotoItem[]>([]);
  const [tooMany, setTooMany] = useState(false);
  const next = useRef(1);
  const previews = useRef(new Set<string>());
  useEffect(() => {
    const urls = previews.current;
    return () => {
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  const update = (key: number, change: Partial<PhotoItem>) =>
    setItems((list) => list.map((item) => (item.key === key ? { ...item, ...change } : item)));

  const add = (files: File[]) => {
    const room = CLAIM_PHOTOS_MAX - items.filter((i) => i.state !== 'error').length;
    setTooMany(files.length > room);
    for (const file of files.slice(0, Math.max(0, room))) {
      const key = next.current++;
      const refusal = photoRefusal(file);
      const preview = !refusal && PREVIEWABLE.has(file.type) ? URL.createObjectURL(file) : null;
      if (preview) previews.current.add(preview);
      const item: PhotoItem = refusal
        ? { key, name: file.name, preview, state: 'error', error: refusal }
        : { key, name: file.name, preview, state: 'subiendo' };
      setItems((list) => [...list, item]);
      if (refusal) continue;
      uploadOrderPhoto(idPedido, file, routes).then(
        (foto) => update(key, { state: 'lista', id: foto.id }),
        (error: unknown) => update(key, { state: 'error', error: errorMessage(error) }),
      );
    }
  };

  const remove = (key: number) => {
    setTooMany(false);
    setItems((list) => {
      const gone = list.find((i) => i.key === key);
      if (gone?.preview) {
        URL.revokeObjectURL(gone.preview);
        previews.current.delete(gone.preview);
      }
      return list.filter((i) => i.key !== key);
    });
  };

  return {
    items,
    add,
    remove,
    tooMany,
    ids: items.flatMap((i) => (i.state === 'lista' && i.id !== undefined ? [i.id] : [])),
    uploading: items.some((i) => i.state === 'subiendo'),
  };
}
export type ClaimPhotos = ReturnType<typeof useClaimPhotos>;

function PhotoCard({ item, onRemove }: { item: PhotoItem; onRemove: () => void }) {
  return (
    <Paper
      component="li"
      withBorder
      radius="sm"
      p={4}
      pr={6}
      maw="100%"
      data-testid="foto-adjunta"
      style={{ borderColor: item.state === 'error' ? 'var(--mantine-color-red-6)' : undefined }}
    >
      <Group gap={8} wrap="nowrap">
        {item.preview ? (
          <Image src={item.preview} alt="" w={40} h={40} radius="xs" fit="cover" />
        ) : (
          <IconPhoto size={24} aria-hidden style={{ flexShrink: 0, margin: 8 }} />
        )}
        <Stack gap={0} miw={0} maw={220}>
          <Text size="xs" fw={600} truncate title={item.name}>
            {item.name}
          </Text>
          {item.state === 'subiendo' ? (
            <Group gap={4} wrap="nowrap">
              <Spinner label={`Subiendo ${item.name}`} size={10} />
              <Text size="xs" c="dimmed">
                Subiendo…
              </Text>
            </Group>
          ) : item.state === 'error' ? (
            <Text size="xs" c="red.9" role="alert">
              {item.error}
            </Text>
          ) : (
            <Text size="xs" c="teal.9">
              Lista
            </Text>
          )}
        </Stack>
        <ActionIcon
          variant="subtle"
          color="gray"
          size="sm"
          onClick={onRemove}
          aria-label={`Quitar ${item.name}`}
        >
          <IconX size={14} aria-hidden />
        </ActionIcon>
      </Group>
    </Paper>
  );
}

/** «Fotos (opcional)»: «Agregar fotos» and the photos chosen. */
export function ClaimPhotosField({ photos, disabled }: { photos: ClaimPhotos; disabled?: boolean }) {
  const id = useId();
  const full = photos.items.filter((i) => i.state !== 'error').length >= CLAIM_PHOTOS_MAX;
  return (
    <Input.Wrapper
      id={id}
      label="Fotos (opcional)"
      description={`JPG, PNG o HEIC, hasta 10 MB cada una; hasta ${CLAIM_PHOTOS_MAX} fotos.`}
      error={photos.tooMany ? CLAIM_MSG.reclamoFotos : undefined}
      labelElement="div"
      inputWrapperOrder={['label', 'description', 'input', 'error']}
    >
      <Stack gap="xs" mt={6}>
        <FileButton
          onChange={(files) => photos.add(files)}
          accept={ACCEPT}
          multiple
          disabled={disabled || full}
          inputProps={{ 'aria-label': 'Archivos de fotos' }}
        >
          {(props) => (
            <Button
              {...props}
              variant="light"
              size="xs"
              w="fit-content"
              leftSection={<IconCamera size={14} aria-hidden />}
            >
              Agregar fotos
            </Button>
          )}
        </FileButton>
        {photos.items.length > 0 ? (
          <Group
            component="ul"
            gap="xs"
            m={0}
            p={0}
            style={{ listStyle: 'none' }}
            aria-label="Fotos adjuntas"
          >
            {photos.items.map((item) => (
              <PhotoCard key={item.key} item={item} onRemove={() => photos.remove(item.key)} />
            ))}
          </Group>
        ) : null}
      </Stack>
    </Input.Wrapper>
  );
}
