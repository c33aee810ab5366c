import { Badge, type BadgeProps } from '@mantine/core';
import { statusTitle } from '@portal/shared/domain/order-workflow';

/** Colours: pendiente warning, espera info, aprobado success, cancelado danger (Mantine palette names). */
export const STATUS_PALETTE: Record<string, string> = {
  pendiente: 'yellow',
  espera: 'cyan',
  aprobado: 'green',
  cancelado: 'red',
};

export function StatusBadge({
  status,
  ...props
}: { status: string } & Omit<BadgeProps, 'color' | 'children'>) {
  return (
    // Never cut to "PENDIE…": a table column sizes to the badge's whole word (miw max-content).
    <Badge color={STATUS_PALETTE[status] ?? 'gray'} variant="light" radius="sm" miw="max-content" {...props}>
      {statusTitle(status)}
    </Badge>
  );
}
