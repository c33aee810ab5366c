import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { makeClient, makeUser, TEST_PASSWORD } from '../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';

/**
 * The screens that come before anything else, in their order: a pending password change first (its own
 * route stays open even when a two-factor enrolment is due too), then the enrolment.
 */
describe.each(DB_KINDS)('auth guard: forced password change, then two-factor enrolment (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a temporary password of an authorizer whose client requires two-factor sign-in', async () => {
    const db = t.database.db;
    const client = await makeClient(db, { requiere2fa: true });
    const user = await makeUser(db, { rol: 2, idCliente: client.id, passwordTemporary: true });
    const api = await new ApiClient(t.app, '10.78.0.1').loginOk(user.usuario, TEST_PASSWORD);
    expect((await api.get('/api/sesion')).json().user).toMatchObject({
      debe_cambiar_password: true,
      debe_activar_2fa: true,
    });

    // The enrolment waits for the password change...
    const early = await api.post('/api/2fa/iniciar', { password: TEST_PASSWORD });
    expect(early.statusCode).toBe(403);
    expect(early.json().code).toBe('PASSWORD_CHANGE_REQUIRED');

    // ...which is not held by the enrolment that is due after it.
    const changed = await api.post('/api/repassword', {
      password: TEST_PASSWORD,
      newPass: 'Cambiada#2026',
      confirmPass: 'Cambiada#2026',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await api.get('/api/sesion')).json().user).toMatchObject({
      debe_cambiar_password: false,
      debe_activar_2fa: true,
    });

    // Now only the enrolment is open.
    const blocked = await api.post('/api/repassword', {
      password: 'Cambiada#2026',
      newPass: 'Otra#Cambiada2026',
      confirmPass: 'Otra#Cambiada2026',
    });
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json()).toEqual({ code: 'TWO_FACTOR_ENROLMENT_REQUIRED', msg: MSG.dosPasosRequerida });
    const started = await api.post('/api/2fa/iniciar', { password: 'Cambiada#2026' });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json().otpauth_url).toMatch(/^otpauth:\/\/totp\//);
  });
});
