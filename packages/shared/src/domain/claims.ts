/**
 * Receipts per shipment and claims on shipped units (issue 41 items 4–5, decision 0127, docs/domain.md
 * "Receipts and claims"). A shipment is received once, line by line; a unit received short, damaged or
 * wrong opens a claim; a claim is decided by the operator: accepted (a replacement shipment, or a credit that
 * gives the amount back to the buyer's month), refused with a reason, or first sent back (a return guía).
 */

/** Why units of a line are claimed. A receipt's difference takes one of the first three. */
export const CLAIM_REASONS = ['faltante', 'danado', 'equivocado', 'no_solicitado'] as const;
export type ClaimReason = (typeof CLAIM_REASONS)[number];
/** The reasons a receipt's line may give for units not received in good condition. */
export const RECEIPT_REASONS = ['faltante', 'danado', 'equivocado'] as const;
export type ReceiptReason = (typeof RECEIPT_REASONS)[number];

export const CLAIM_REASON_LABELS: Record<ClaimReason, string> = {
  faltante: 'Faltante',
  danado: 'Dañado',
  equivocado: 'Producto equivocado',
  no_solicitado: 'No solicitado',
};

/** What the buyer asks for and what the operator grants. */
export const CLAIM_RESOLUTIONS = ['reposicion', 'credito'] as const;
export type ClaimResolution = (typeof CLAIM_RESOLUTIONS)[number];
export const CLAIM_RESOLUTION_LABELS: Record<ClaimResolution, string> = {
  reposicion: 'Reposición',
  credito: 'Crédito',
};

/** `abierto → aceptado | rechazado | devolucion`, `devolucion → aceptado | rechazado`. */
export const CLAIM_STATES = ['abierto', 'devolucion', 'aceptado', 'rechazado'] as const;
export type ClaimState = (typeof CLAIM_STATES)[number];
export const CLAIM_STATE_LABELS: Record<ClaimState, string> = {
  abierto: 'Abierto',
  devolucion: 'Devolución solicitada',
  aceptado: 'Aceptado',
  rechazado: 'Rechazado',
};
/** Mantine palette names, like the order statuses' colours. */
export const CLAIM_STATE_COLORS: Record<ClaimState, string> = {
  abierto: 'orange',
  devolucion: 'grape',
  aceptado: 'teal',
  rechazado: 'red',
};
/** The states the operator still has to decide. */
export const CLAIM_OPEN_STATES: readonly ClaimState[] = ['abierto', 'devolucion'];

export type ClaimAction = 'aceptar' | 'rechazar' | 'devolucion';
/** The state a decision leads to, or null when the claim's state does not allow it. */
export function claimNext(from: ClaimState, action: ClaimAction): ClaimState | null {
  if (from !== 'abierto' && from !== 'devolucion') return null;
  if (action === 'aceptar') return 'aceptado';
  if (action === 'rechazar') return 'rechazado';
  return from === 'abierto' ? 'devolucion' : null;
}

/** A receipt's or a claim's note, and the operator's answer: at most this many characters. */
export const CLAIM_NOTE_MAX = 1000;
/** Photos on one receipt or one claim. */
export const CLAIM_PHOTOS_MAX = 10;
/** A photo of a receipt or a claim: JPEG, PNG or HEIC, checked by content, at most 10 MB. */
export const CLAIM_PHOTO_MAX_BYTES = 10 * 1024 * 1024;

/**
 * The Spanish texts of receipts and claims that the shared schemas and the screens show (here, not in the
 * shared catalogue `MSG`: only the order screens load them, never the sign-in page).
 */
export const CLAIM_MSG = {
  recepcionCantidad: 'Indica cuántas unidades recibiste en buen estado (0 o más).',
  reclamoCantidad: 'Indica cuántas unidades reclamas (1 o más).',
  reclamoMotivo: 'Elige el motivo: faltante, dañado, producto equivocado o no solicitado.',
  reclamoResolucion: 'Elige qué solicitas: reposición o crédito.',
  reclamoNotaLarga: 'La nota admite hasta 1000 caracteres.',
  reclamoFotos: 'Adjunta hasta 10 fotos, cada una una sola vez.',
  reclamoMotivoRechazo: 'Escribe el motivo del rechazo (hasta 1000 caracteres).',
  reclamoGuia: 'Escribe la guía de devolución (hasta 60 caracteres).',
  reclamoAccion: 'Elige una acción: aceptar, rechazar o pedir devolución.',
  reclamoEstado: 'Elige un estado de reclamo válido.',
} as const;
