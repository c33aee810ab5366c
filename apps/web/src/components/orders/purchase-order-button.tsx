import { Button, type ButtonProps } from '@mantine/core';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { IconFileTypePdf } from '@tabler/icons-react';

/**
 * 'Descargar orden de compra': a plain link to the order's PDF (same origin, the session cookie goes with
 * it); the server names the file OC-<número>.pdf. Shown for approved orders only (decision 0056).
 */
export function PurchaseOrderButton({
  id,
  href,
  ...props
}: { id: number; href: string } & Pick<ButtonProps, 'size' | 'variant' | 'w'>) {
  return (
    <Button
      component="a"
      href={href}
      download={`OC-${orderNumber(id)}.pdf`}
      variant="default"
      leftSection={<IconFileTypePdf size={16} aria-hidden />}
      data-testid="descargar-orden-compra"
      {...props}
    >
      Descargar orden de compra
    </Button>
  );
}
