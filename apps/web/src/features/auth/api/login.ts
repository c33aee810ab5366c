import type { LoginResponse, SessionResponse } from '@portal/shared/schemas/auth';
import type { SecondStepBody } from '@portal/shared/schemas/two-factor';
import { api, markCsrfStale, refreshCsrfCookie } from '../../../lib/api';

/**
 * The service worker's one cache of a private answer (`DATA_CACHE` of src/service-worker/rules.ts, written
 * out here so the sign-in screen loads none of the worker's code; rules.test.ts checks they agree).
 */
export const SIGN_IN_CLEARS_CACHE = 'compras-datos';

export interface Credentials {
  usuario: string;
  password: string;
}

/**
 * Signs in with the sealed envelope `{data, hmac}` bound to the current XSRF token; the server replaces
 * the session (and its token), so the cookie is checked again before the next state-changing call.
 * With two-factor sign-in active the answer is `{status: '2fa_requerido'}`: the second step comes next.
 */
export async function login(credentials: Credentials): Promise<LoginResponse> {
  // A fresh token right before sealing: the envelope is bound to it (a 419 re-seals with the new one).
  // The cipher code is only needed here, so the sign-in screen loads it on submit, with the token. The one
  // private answer the service worker keeps (the last catalogue page of a session that expired without a
  // sign-out) goes before anyone signs in (decision 0118).
  const [{ sealLogin }] = await Promise.all([
    import('@portal/shared/domain/login-envelope'),
    refreshCsrfCookie(),
    typeof caches === 'undefined' ? undefined : caches.delete(SIGN_IN_CLEARS_CACHE).catch(() => false),
  ]);
  try {
    return await api.post<LoginResponse>('/api/login', undefined, {
      bodyFromToken: (token) => sealLogin(credentials, token),
      skipUnauthorizedHandler: true,
    });
  } finally {
    markCsrfStale();
  }
}

/**
 * The second step: a code of the authenticator app or a backup code. A wrong one is a 401 BAD_CODE the
 * form shows on its field (never a lost session); the session is replaced again when it is right.
 */
export async function verifySecondStep(body: SecondStepBody): Promise<SessionResponse> {
  try {
    return await api.post<SessionResponse>('/api/login/2fa', body, { skipUnauthorizedHandler: true });
  } finally {
    markCsrfStale();
  }
}
