/**
 * The order workflow (docs/domain.md "Order workflow"): who may approve or cancel an order in which status,
 * by the client's number of authorizer levels. No one acts on aprobado or cancelado.
 *
 * | levels | rol 2 on pendiente        | rol 3 on espera                                  |
 * | 1      | approve → aprobado; cancel | —                                                |
 * | 2      | approve → espera; cancel   | approve → aprobado; cancel; send back → pendiente |
 *
 * Sending back (`devolver`, decision 0111) returns an order at level 2 to level 1 for a correction, with a
 * required comment: it counts against the budget all along.
 */
export type OrderStatus = 'pendiente' | 'espera' | 'aprobado' | 'cancelado';
export type OrderAction = 'aprobar' | 'cancelar' | 'devolver';

export const ORDER_STATUSES: readonly OrderStatus[] = ['pendiente', 'espera', 'aprobado', 'cancelado'];

/** Colours of the spec (Mantine palette names in the web app). */
export const STATUS_COLORS: Record<OrderStatus, 'warning' | 'info' | 'success' | 'danger'> = {
  pendiente: 'warning',
  espera: 'info',
  aprobado: 'success',
  cancelado: 'danger',
};

/** "pendiente" → "Pendiente". */
export function statusTitle(status: string): string {
  return status.charAt(0).toUpperCase() + status.slice(1);
}

/** The status a role acts on for a client with this many levels, or null when it acts on none. */
export function actionableStatus(rol: number, levels: number): OrderStatus | null {
  if (rol === 2 && (levels === 1 || levels === 2)) return 'pendiente';
  if (rol === 3 && levels === 2) return 'espera';
  return null;
}

export type TransitionResult =
  | { ok: true; from: OrderStatus; to: OrderStatus }
  | { ok: false; reason: 'ROLE' | 'STATUS' };

export function transition(
  rol: number,
  status: OrderStatus,
  levels: number,
  action: OrderAction,
): TransitionResult {
  const acts = actionableStatus(rol, levels);
  if (acts === null) return { ok: false, reason: 'ROLE' };
  // Only the second level sends an order back to the first.
  if (action === 'devolver' && acts !== 'espera') return { ok: false, reason: 'ROLE' };
  if (status !== acts) return { ok: false, reason: 'STATUS' };
  if (action === 'cancelar') return { ok: true, from: status, to: 'cancelado' };
  if (action === 'devolver') return { ok: true, from: status, to: 'pendiente' };
  if (rol === 2 && levels === 2) return { ok: true, from: status, to: 'espera' };
  return { ok: true, from: status, to: 'aprobado' };
}

/** Only rol 2 edits lines, and only while the order is pendiente. */
export function canEditLines(rol: number, status: OrderStatus, levels: number): boolean {
  return rol === 2 && status === 'pendiente' && actionableStatus(rol, levels) === 'pendiente';
}

/** Order numbers: the id padded to 5 digits. */
export function orderNumber(id: number): string {
  return String(id).padStart(5, '0');
}

/**
 * Whom an open order waits for (level 1: rol 2 on pendiente; level 2: rol 3 on espera) and since when: the
 * last event that brought it to its status, else its purchase time. Null for aprobado and cancelado.
 */
export function waitingFor(
  status: OrderStatus,
  events: readonly { a: string | null; fecha: string }[],
  placedAt: string,
): { nivel: 1 | 2; desde: string } | null {
  if (status !== 'pendiente' && status !== 'espera') return null;
  const reached = [...events].reverse().find((e) => e.a === status);
  return { nivel: status === 'pendiente' ? 1 : 2, desde: reached?.fecha ?? placedAt };
}
