import type { ResetBody } from '@portal/shared/schemas/auth';
import type { OkMessage } from '@portal/shared/schemas/common';
import { api } from '../../../lib/api';

export interface TokenCheck {
  status: 'ok';
  usuario: string;
  proposito: 'recuperacion' | 'bienvenida' | (string & {});
}

export function verifyResetToken(token: string): Promise<TokenCheck> {
  return api.post<TokenCheck>('/api/restablecer/verificar', { token });
}

export const resetTokenQuery = (token: string) => ({
  queryKey: ['restablecer', token] as const,
  queryFn: () => verifyResetToken(token),
  retry: false,
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: 0,
});

export function resetPassword(body: ResetBody): Promise<OkMessage> {
  return api.post<OkMessage>('/api/restablecer-password', body);
}
