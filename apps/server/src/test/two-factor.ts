import { expect } from 'vitest';
import { codeAt, stepAt } from '../lib/totp.ts';
import { TEST_PASSWORD } from './factories.ts';
import type { ApiClient } from './harness.ts';

/** The base32 secret of an otpauth:// URL (what the web shows as the manual key). */
export function secretOf(otpauthUrl: string): string {
  const secret = new URL(otpauthUrl).searchParams.get('secret');
  if (!secret) throw new Error(`sin secreto: ${otpauthUrl}`);
  return secret;
}

/** The code the authenticator app shows now (or `offset` steps away). */
export const codeNow = (secret: string, offset = 0) => codeAt(secret, stepAt(Date.now()) + offset);

/**
 * Enrols the signed-in client (its password is TEST_PASSWORD) in two-factor sign-in through the real
 * endpoints: iniciar, then activar with the app's code.
 */
export async function enrolTwoFactor(api: ApiClient): Promise<{ secret: string; codes: string[] }> {
  const started = await api.post('/api/2fa/iniciar', { password: TEST_PASSWORD });
  expect(started.statusCode, started.body).toBe(200);
  const secret = secretOf(started.json().otpauth_url);
  const activated = await api.post('/api/2fa/activar', { codigo: codeNow(secret), password: TEST_PASSWORD });
  expect(activated.statusCode, activated.body).toBe(200);
  return { secret, codes: activated.json().codigos_respaldo as string[] };
}
