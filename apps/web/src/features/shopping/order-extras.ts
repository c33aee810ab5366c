/**
 * Small rules of the buyer's order screens: the note sent with a purchase and the items of a list saved
 * from the cart or from an order.
 */
import { statusAtPurchase } from '@portal/shared/domain/approval-rules';
import { pesosToCentavos } from '@portal/shared/domain/money';

/**
 * Whether the client's rules approve a purchase of this total (pesos, with IVA) at once: no approval
 * levels, or a total up to the automatic amount (the server's own rule, statusAtPurchase; decision 0098).
 */
export function approvedAtPurchase(
  cliente: { cantidad_autorizadores: number; aprobacion_automatica_hasta: number | null } | null,
  total: number,
): boolean {
  if (!cliente) return false;
  const autoHasta =
    cliente.aprobacion_automatica_hasta === null
      ? null
      : pesosToCentavos(cliente.aprobacion_automatica_hasta);
  return (
    statusAtPurchase(cliente.cantidad_autorizadores, pesosToCentavos(total), {
      autoHasta,
      segundoNivelDesde: null,
    }).status === 'aprobado'
  );
}

/** The note as POST /api/compra takes it: trimmed, and left out when empty. */
export function noteForPurchase(text: string): string | undefined {
  const trimmed = text.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** The items of a new list, each product once (its quantities added up), in the order they first appear. */
export function listItemsOf(
  lines: readonly { id: number; cantidad: number }[],
): { id: number; cantidad: number }[] {
  const items = new Map<number, number>();
  for (const line of lines) {
    if (line.cantidad < 1) continue;
    items.set(line.id, (items.get(line.id) ?? 0) + line.cantidad);
  }
  return [...items].map(([id, cantidad]) => ({ id, cantidad }));
}
