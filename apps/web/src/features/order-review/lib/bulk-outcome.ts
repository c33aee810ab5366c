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

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * The title of a bulk action's summary, in what happened to the orders: approved ones are "aprobados", a
 * first-level approval of a two-level client "pasó a espera del segundo nivel" (decision 0098), cancelled
 * ones "cancelados"; then how many could not be processed.
 */
export function bulkSummaryTitle(
  results: readonly { ok: boolean; estatus?: string | null }[],
  action: 'aprobar' | 'cancelar',
): string {
  const ok = results.filter((r) => r.ok);
  const failed = results.length - ok.length;
  const parts =
    action === 'cancelar'
      ? [ok.length > 0 || failed === 0 ? count(ok.length, 'pedido cancelado', 'pedidos cancelados') : null]
      : [
          ok.some((r) => r.estatus !== 'espera') || results.length === 0
            ? count(ok.filter((r) => r.estatus !== 'espera').length, 'pedido aprobado', 'pedidos aprobados')
            : null,
          ok.some((r) => r.estatus === 'espera')
            ? count(
                ok.filter((r) => r.estatus === 'espera').length,
                'pedido pasó a espera del segundo nivel',
                'pedidos pasaron a espera del segundo nivel',
              )
            : null,
        ];
  if (failed > 0) parts.push(`${failed} ${failed === 1 ? 'no se pudo procesar' : 'no se pudieron procesar'}`);
  return parts.filter(Boolean).join('; ');
}
