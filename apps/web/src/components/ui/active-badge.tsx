import { Badge } from '@mantine/core';

/** 'Activo' or 'Inactivo' of a client, user or product; `filled` over a picture. */
export function ActiveBadge({
  activo,
  variant = 'light',
}: {
  activo: boolean;
  variant?: 'light' | 'filled';
}) {
  return (
    <Badge color={activo ? 'teal' : 'gray'} variant={variant} radius="sm" style={{ minWidth: 'max-content' }}>
      {activo ? 'Activo' : 'Inactivo'}
    </Badge>
  );
}
