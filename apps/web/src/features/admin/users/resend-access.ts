/** The result of "Reenviar acceso" in words: who was skipped and why (decision 0097). */
import { RESEND_ACCESS_SKIP_LABELS, type ResendAccessResponse } from '@portal/shared/schemas/users';

/** "Omitidos: ana (ya estableció su contraseña), luis (está desactivado) y 3 más."; '' when none. */
export function resendAccessDetail(res: Pick<ResendAccessResponse, 'detalle_omitidos'>, shown = 5): string {
  const skipped = res.detalle_omitidos;
  if (skipped.length === 0) return '';
  const named = skipped
    .slice(0, shown)
    .map((s) => `${s.usuario} (${RESEND_ACCESS_SKIP_LABELS[s.motivo]})`)
    .join(', ');
  const rest = skipped.length - shown;
  return `Omitidos: ${named}${rest > 0 ? ` y ${rest} más` : ''}.`;
}
