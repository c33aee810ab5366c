/**
 * The photos of a shipment's receipt or of a claim (decision 0127): a JPEG or PNG as a small thumbnail that
 * opens the full photo in another tab, a HEIC (which browsers do not show) as a download link. The address
 * is the reader's own (the buyer's historial, the approvers' pedidos, the operator's surtido): the screen
 * passes it.
 */
import { Anchor, Group, Text } from '@mantine/core';
import type { OrderPhotoDto } from '@portal/shared/schemas/claims';
import { IconDownload } from '@tabler/icons-react';

/** A photo's address for the reader, by its id. */
export type PhotoHref = (foto: number) => string;

/** Whether a browser shows the photo inline (JPEG, PNG) rather than only downloading it (HEIC). */
export function showsInline(foto: Pick<OrderPhotoDto, 'tipo' | 'nombre'>): boolean {
  const tipo = foto.tipo.toLowerCase();
  if (tipo) return tipo === 'image/jpeg' || tipo === 'image/png' || tipo === 'jpeg' || tipo === 'png';
  return /\.(jpe?g|png)$/i.test(foto.nombre);
}

export function OrderPhotos({
  fotos,
  href,
  label,
}: {
  fotos: OrderPhotoDto[] | undefined;
  href: PhotoHref | undefined;
  /** The group's accessible name ('Fotos del reclamo 1'). */
  label: string;
}) {
  if (!fotos || fotos.length === 0 || !href) return null;
  return (
    <Group gap="xs" wrap="wrap" role="group" aria-label={label} data-testid="fotos">
      {fotos.map((foto) =>
        showsInline(foto) ? (
          <Anchor
            key={foto.id}
            href={href(foto.id)}
            target="_blank"
            rel="noopener"
            style={{ lineHeight: 0, borderRadius: 6, overflow: 'hidden' }}
            data-testid="foto"
          >
            <img
              src={href(foto.id)}
              alt={`Foto ${foto.nombre} (se abre en otra pestaña)`}
              width={64}
              height={64}
              loading="lazy"
              style={{
                objectFit: 'cover',
                display: 'block',
                border: '1px solid var(--mantine-color-gray-3)',
                borderRadius: 6,
              }}
            />
          </Anchor>
        ) : (
          <Anchor
            key={foto.id}
            href={href(foto.id)}
            download={foto.nombre}
            size="sm"
            data-testid="foto"
            aria-label={`Descargar la foto ${foto.nombre}`}
          >
            <Group gap={4} component="span" wrap="nowrap">
              <IconDownload size={14} aria-hidden />
              <Text span inherit style={{ overflowWrap: 'anywhere' }}>
                {foto.nombre}
              </Text>
            </Group>
          </Anchor>
        ),
      )}
    </Group>
  );
}
