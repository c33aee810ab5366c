import { Box, Center } from '@mantine/core';
import { IconPhotoOff } from '@tabler/icons-react';
import { useState } from 'react';

interface ProductThumbProps {
  src: string | null;
  /** Pixel height (the width follows its container, or `size` for a square). */
  height?: number;
  /** A square of this size instead of a full-width band. */
  size?: number;
  radius?: string | number;
  /** Fill the parent box (which sets the size). */
  fill?: boolean;
  /** Above the fold: loaded at once (the page's largest paint is often this picture), not lazily. */
  eager?: boolean;
}

/** A product's picture; without one (or when it fails to load) a quiet placeholder of the same size. */
export function ProductThumb({
  src,
  height = 160,
  size,
  radius = 0,
  fill = false,
  eager = false,
}: ProductThumbProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const w = size ?? '100%';
  const h = fill ? '100%' : (size ?? height);
  if (!src || failed === src) {
    return (
      <Center
        w={w}
        h={h}
        bg="gray.1"
        c="gray.5"
        style={{ borderRadius: radius, flexShrink: 0 }}
        aria-hidden
        data-testid="sin-imagen"
      >
        <IconPhotoOff size={size ? Math.max(16, size * 0.4) : 36} stroke={1.4} />
      </Center>
    );
  }
  return (
    <Box
      component="img"
      src={src}
      alt=""
      loading={eager ? 'eager' : 'lazy'}
      fetchPriority={eager ? 'high' : undefined}
      decoding="async"
      onError={() => setFailed(src)}
      w={w}
      h={h}
      style={{ objectFit: 'cover', display: 'block', borderRadius: radius, flexShrink: 0 }}
      bg="gray.1"
    />
  );
}
