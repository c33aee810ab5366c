import '@mantine/core/styles/Avatar.css';
import { Avatar, type AvatarProps } from '@mantine/core';
import { toSvg } from 'jdenticon';
import { useMemo } from 'react';

interface IdenticonAvatarProps extends Omit<AvatarProps, 'src' | 'children'> {
  /** What the picture is derived from (the username). */
  value: string;
  /** Pixel size of the drawing. */
  px?: number;
}

/** A generated avatar drawn locally (jdenticon), never fetched from an outside service. */
export function IdenticonAvatar({ value, px = 40, ...props }: IdenticonAvatarProps) {
  const src = useMemo(
    () => `data:image/svg+xml;utf8,${encodeURIComponent(toSvg(value, px, { padding: 0.1 }))}`,
    [value, px],
  );
  return (
    <Avatar
      src={src}
      alt=""
      bg="gray.0"
      style={{ border: '1px solid var(--mantine-color-gray-3)' }}
      {...props}
    />
  );
}
