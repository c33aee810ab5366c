/**
 * The signed-in user's own two-factor sign-in ("Verificación en dos pasos"): its state, enrolment,
 * backup codes and deactivation. Types come from the shared schemas (type-only imports).
 */
import type { OkMessage } from '@portal/shared/schemas/common';
import type {
  BackupCodesResponse,
  TwoFactorDisableBody,
  TwoFactorStartResponse,
  TwoFactorStatus,
} from '@portal/shared/schemas/two-factor';
import { api, isApiError } from '../../../lib/api';

export const BAD_CODE = 'BAD_CODE';

export const twoFactorKeys = {
  status: ['2fa'] as const,
};

export const twoFactorStatusQuery = {
  queryKey: twoFactorKeys.status,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<TwoFactorStatus>('/api/2fa', { signal }),
  staleTime: 0,
};

/**
 * Starts (or restarts) an enrolment with the current password: a new secret, pending until a code of it is
 * confirmed. A wrong password is the form's business (400 WRONG_PASSWORD, on the field).
 */
export function startEnrolment(password: string): Promise<TwoFactorStartResponse> {
  return api.post<TwoFactorStartResponse>('/api/2fa/iniciar', { password });
}

/**
 * The calls that check a code answer 401 BAD_CODE for a wrong one: that is the form's business, not an
 * expired session (any other 401 still is).
 */
const codeChecked = { skipUnauthorizedHandler: isBadCode };

export function isBadCode(error: unknown): boolean {
  return isApiError(error) && error.status === 401 && error.code === BAD_CODE;
}

export function activateTwoFactor(body: { codigo: string; password: string }): Promise<BackupCodesResponse> {
  return api.post<BackupCodesResponse>('/api/2fa/activar', body, codeChecked);
}

export function regenerateBackupCodes(codigo: string): Promise<BackupCodesResponse> {
  return api.post<BackupCodesResponse>('/api/2fa/codigos-respaldo', { codigo }, codeChecked);
}

export function disableTwoFactor(body: TwoFactorDisableBody): Promise<OkMessage> {
  return api.post<OkMessage>('/api/2fa/desactivar', body, codeChecked);
}
