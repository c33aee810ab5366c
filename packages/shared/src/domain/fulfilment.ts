/**
 * Fulfilment of approved orders (docs/domain.md "Fulfilment", decision 0058): a second state beside the
 * approval status, `por_surtir → en_surtido → enviado → entregado`, moved forward only. The operator
 * (rol 4) may skip ahead (por_surtir → enviado); the buyer only confirms receipt of a shipped order.
 */
export const FULFILMENT_STATES = ['por_surtir', 'en_surtido', 'enviado', 'entregado'] as const;
export type FulfilmentState = (typeof FULFILMENT_STATES)[number];

/** The state an order takes in the transaction that makes it aprobado. */
export const FULFILMENT_START: FulfilmentState = 'por_surtir';

/** Carrier and tracking reference: at most this many characters. */
export const GUIA_MAX = 60;
/** The buyer's note on receipt and the operator's comment on a move: at most this many characters. */
export const FULFILMENT_NOTE_MAX = 500;
/** Orders in one export. */
export const EXPORT_ORDERS_MAX = 200;

export const FULFILMENT_LABELS: Record<FulfilmentState, string> = {
  por_surtir: 'Por surtir',
  en_surtido: 'En surtido',
  enviado: 'Enviado',
  entregado: 'Entregado',
};

/** Mantine palette names, like the order statuses' colours. */
export const FULFILMENT_COLORS: Record<FulfilmentState, string> = {
  por_surtir: 'gray',
  en_surtido: 'yellow',
  enviado: 'blue',
  entregado: 'teal',
};

/** Whether `to` lies after `from` (a forward move; skipping ahead is one). */
export function isForwardMove(from: FulfilmentState, to: FulfilmentState): boolean {
  return FULFILMENT_STATES.indexOf(to) > FULFILMENT_STATES.indexOf(from);
}

/** The states an operator may move an order in `from` to. */
export function nextFulfilmentStates(from: FulfilmentState): FulfilmentState[] {
  return FULFILMENT_STATES.filter((s) => isForwardMove(from, s));
}

/** The buyer confirms receipt ("Recibido") only of a shipped order. */
export function canConfirmReceipt(state: FulfilmentState | null | undefined): boolean {
  return state === 'enviado';
}
