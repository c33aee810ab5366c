import type { SsoDiscoverResponse } from '@portal/shared/schemas/sso';
import { api } from '../../../lib/api';
import { SIGN_IN_CLEARS_CACHE } from './login';

/** POST /api/sso/descubrir: does this e-mail's company sign in with its own account (decision 0120)? */
export function discoverSso(correo: string, signal?: AbortSignal): Promise<SsoDiscoverResponse> {
  return api.post<SsoDiscoverResponse>(
    '/api/sso/descubrir',
    { correo },
    { signal, skipUnauthorizedHandler: true },
  );
}

/**
 * Leaves for the company's provider: GET /api/sso/iniciar redirects there, and the provider back to
 * /api/sso/retorno, which signs in and opens the portal (or /login?sso=<code>). As at every sign-in, the
 * one private answer the service worker keeps goes first (login.ts).
 */
export async function startSso(correo: string): Promise<void> {
  if (typeof caches !== 'undefined') await caches.delete(SIGN_IN_CLEARS_CACHE).catch(() => false);
  window.location.assign(`/api/sso/iniciar?correo=${encodeURIComponent(correo)}`);
}
