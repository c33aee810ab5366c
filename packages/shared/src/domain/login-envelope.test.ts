import { describe, expect, it } from 'vitest';
import { ENVELOPE_MAX_AGE_MS, openLogin, sealLogin } from './login-envelope.ts';

describe('login envelope', () => {
  const token = 'xsrf-token-de-la-sesion-uno-0123456789abcdef';

  it('round-trips credentials with the same session token', () => {
    const env = sealLogin({ usuario: 'ana', password: 'Clave#2026ñ' }, token);
    expect(env.data).not.toContain('ana');
    expect(env.hmac).toMatch(/^[0-9a-f]{64}$/);
    expect(openLogin(env, token, Date.now())).toEqual({ usuario: 'ana', password: 'Clave#2026ñ' });
  });

  it('each seal is different (random IV)', () => {
    const a = sealLogin({ usuario: 'ana', password: 'x' }, token);
    const b = sealLogin({ usuario: 'ana', password: 'x' }, token);
    expect(a.data).not.toBe(b.data);
  });

  it('refuses another session, tampering and stale envelopes', () => {
    const env = sealLogin({ usuario: 'ana', password: 'x' }, token);
    expect(openLogin(env, 'otro-token', Date.now())).toBeNull();
    const flipped = `${env.data[0] === 'A' ? 'B' : 'A'}${env.data.slice(1)}`;
    expect(openLogin({ ...env, data: flipped }, token, Date.now())).toBeNull();
    expect(openLogin({ ...env, hmac: '0'.repeat(64) }, token, Date.now())).toBeNull();
    expect(openLogin({ data: 'no-base64!!', hmac: env.hmac }, token, Date.now())).toBeNull();
    const old = sealLogin({ usuario: 'ana', password: 'x' }, token, Date.now() - ENVELOPE_MAX_AGE_MS - 1000);
    expect(openLogin(old, token, Date.now())).toBeNull();
  });
});
