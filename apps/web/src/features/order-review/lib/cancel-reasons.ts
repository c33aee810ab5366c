/**
 * The reasons the cancel dialog offers (decision 0047). The server keeps a free `motivo` (up to 255
 * characters); the screen offers these presets, and "Otro…" asks for the text.
 */
export const CANCEL_PRESETS = ['Duplicado', 'Excede presupuesto', 'Producto equivocado'] as const;
export const OTHER_REASON = 'otro';
export const OTHER_LABEL = 'Otro…';

export type CancelChoice = (typeof CANCEL_PRESETS)[number] | typeof OTHER_REASON | '';

/** The motivo to send for a choice, or the problem to show on the dialog's field. */
export function cancelReason(
  choice: CancelChoice,
  otherText: string,
): { ok: true; motivo: string } | { ok: false; error: string } {
  if (choice === OTHER_REASON) {
    const text = otherText.trim();
    if (!text) return { ok: false, error: 'Escribe el motivo de la cancelación.' };
    return { ok: true, motivo: text };
  }
  return { ok: true, motivo: choice };
}
