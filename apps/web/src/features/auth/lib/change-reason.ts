import { MSG } from '@portal/shared/messages';
import type { PasswordChangeReason } from '@portal/shared/schemas/auth';

/** Why the forced change comes first, as a sentence: a temporary password, or one 6 months old or more. */
export function changeReasonText(reason: PasswordChangeReason | null): string {
  if (reason === 'temporal') return MSG.cambioPasswordTemporal;
  if (reason === 'caducada') return MSG.cambioPasswordCaducada;
  return MSG.cambioPasswordRequerido;
}
