/**
 * Small rules of the buyer's order screens: the note sent with a purchase and the items of a list saved
 * from the cart or from an order.
 */
import { statusAtPurchase } from '@portal/shared/domain/approval-rules';
import { formatCentavos, pesosToCentavos } from '@portal/shared/domain/money';
import { MSG } from '@portal/shared/messages';
import type { SessionCliente } from '@portal/shared/schemas/auth';

/**
 * What the confirmation before a purchase says of this total (pesos, with IVA): approved at once with no
 * approval levels, or up to the automatic amount (the server's own rule, statusAtPurchase; decision 0098) —
 * with a window, only if the buyer's earlier orders of it do not take the sum over (decision 0100: the
 * server adds them; the screen does not know them); else sent to review.
 */
export function purchaseConfirmation(
  cliente: Pick<
    SessionCliente,
    'cantidad_autorizadores' | 'aprobacion_automatica_hasta' | 'ventana_reglas_horas'
  > | null,
  total: number,
): string {
  if (!cliente) return MSG.confirmarCompra;
  const autoHasta =
    cliente.aprobacion_automatica_hasta === null
      ? null
      : pesosToCentavos(cliente.aprobacion_automatica_hasta);
  const rules = { autoHasta, segundoNivelDesde: null };
  if (statusAtPurchase(cliente.cantidad_autorizadores, pesosToCentavos(total), rules).status !== 'aprobado')
    return MSG.confirmarCompra;
  return cliente.cantidad_autorizadores > 0 && autoHasta !== null && cliente.ventana_reglas_horas > 0
    ? MSG.confirmarCompraAutomaticaVentana(cliente.ventana_reglas_horas, formatCentavos(autoHasta))
    : MSG.confirmarCompraAutomatica;
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
