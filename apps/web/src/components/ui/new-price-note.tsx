/**
 * «Precio nuevo desde el 01/01/2027: $X» (decision 0132): a product's pending price change, under its
 * current price in the catalogue, the cart, a saved list and the approvers' order screen. Nothing without one.
 */
import { Text, type TextProps } from '@mantine/core';
import { MSG } from '@portal/shared/messages';
import type { PendingPriceDto } from '@portal/shared/schemas/pending-price';
import { formatIsoDate, formatMXN } from '../../lib/format';

export function NewPriceNote({
  pending,
  ...props
}: { pending: PendingPriceDto | null | undefined } & TextProps) {
  if (!pending) return null;
  return (
    <Text size="xs" fw={600} c="indigo.9" data-testid="precio-nuevo" {...props}>
      {MSG.precioNuevoDesde(formatIsoDate(pending.vigente_desde), formatMXN(pending.precio))}
    </Text>
  );
}
