import type { SessionResponse } from '@portal/shared/schemas/auth';
import { api, markCsrfStale, refreshCsrfCookie } from '../../../lib/api';

export interface Credentials {
  usuario: string;
  password: string;
}

/**
 * Signs in with the sealed envelope `{data, hmac}` bound to the current XSRF token; the server replaces
 * the session (and its token), so the cookie is checked again before the next state-changing call.
 */
export async function login(credentials: Credentials): Promise<SessionResponse> {
  // A fresh token right before sealing: the envelope is bound to it (a 419 re-seals with the new one).
  // The cipher code is only needed here, so the sign-in screen loads it on submit, with the token.
  const [{ sealLogin }] = await Promise.all([
    import('@portal/shared/domain/login-envelope'),
    refreshCsrfCookie(),
  ]);
  try {
    return await api.post<SessionResponse>('/api/login', undefined, {
      bodyFromToken: (token) => sealLogin(credentials, token),
      skipUnauthorizedHandler: true,
    });
  } finally {
    markCsrfStale();
  }
}
