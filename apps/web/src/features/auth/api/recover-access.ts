import type { RecoverBody } from '@portal/shared/schemas/auth';
import type { OkMessage } from '@portal/shared/schemas/common';
import { api } from '../../../lib/api';

/** Sends the recovery e-mail (a link to /restablecer/:token) to the user's registered address. */
export function requestAccessRecovery(body: RecoverBody): Promise<OkMessage> {
  return api.post<OkMessage>('/api/recuperar-password', body);
}
