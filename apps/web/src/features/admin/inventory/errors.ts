import { MSG } from '@portal/shared/messages';
import { isApiError } from '../../../lib/api';

/**
 * A product or category save or toggle failure says 'No se pudo completar el proceso, verifique
 * sus datos.'; when the server refused with a specific message (a duplicated key, a missing category) that
 * message is clearer and is shown instead.
 */
export function processFailure(error: unknown): string {
  if (isApiError(error) && error.status >= 400 && error.status < 500 && error.msg) return error.msg;
  return MSG.procesoFallido;
}
