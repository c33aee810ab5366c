import type { OrderStatus } from '@portal/shared/domain/order-workflow';

/**
 * What approving the selected rows does: a pendiente row of a two-level client goes to espera, the rest are
 * approved (a delegate may hold rows of both levels).
 */
export function bulkOutcome(rows: readonly { status: OrderStatus }[], levels: number): string {
  const toEspera = levels > 1 && rows.some((r) => r.status === 'pendiente');
  const toAprobado = levels <= 1 || rows.some((r) => r.status === 'espera');
  if (toEspera && toAprobado)
    return 'Los pendientes quedarán en espera de la aprobación final del Super Autorizador; los que estaban en espera quedarán aprobados y se avisará a cada usuario por correo.';
  if (toEspera) return 'Quedarán en espera de la aprobación final del Super Autorizador.';
  return 'Quedarán aprobados y se avisará a cada usuario por correo.';
}
