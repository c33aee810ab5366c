import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeClient, makeUser, TEST_PASSWORD } from '../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';

interface Cookie {
  name: string;
  value: string;
  secure?: boolean;
  path?: string;
  domain?: string;
  httpOnly?: boolean;
}
const cookiesOf = (res: LightMyRequestResponse) => res.cookies as Cookie[];

/** Cookie attributes by deployment, and a new session at every password change (finding L5). */
describe.each(DB_KINDS)('cookies and session rotation (%s)', (kind) => {
  let https: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    [https, plain] = await Promise.all([
      createTestApp(kind, { env: { PUBLIC_URL: 'https://compras.example.com' } }),
      createTestApp(kind),
    ]);
  });
  afterAll(async () => {
    await Promise.all([https?.close(), plain?.close()]);
  });

  it('published over HTTPS: a __Host- session cookie, Secure, for the whole site, no Domain; the XSRF cookie Secure', async () => {
    const client = await makeClient(https.database.db);
    const user = await makeUser(https.database.db, { rol: 2, idCliente: client.id });
    const c = new ApiClient(https.app, '10.60.0.1');
    await c.csrf();
    const login = await c.login(user.usuario, TEST_PASSWORD);
    expect(login.statusCode).toBe(200);
    const set = cookiesOf(login);
    const session = set.find((k) => k.name === '__Host-portal_session');
    expect(session).toMatchObject({ secure: true, path: '/', httpOnly: true });
    expect(session?.domain).toBeUndefined();
    expect(set.find((k) => k.name === 'portal_session')).toBeUndefined();
    expect(set.find((k) => k.name === 'XSRF-TOKEN')).toMatchObject({ secure: true, path: '/' });
    // The browser sends it back under that name, and only that name opens the session.
    expect((await c.get('/api/sesion')).statusCode).toBe(200);
    const renamed = await https.app.inject({
      method: 'GET',
      url: '/api/sesion',
      headers: { cookie: `portal_session=${c.cookies.get('__Host-portal_session')}` },
    });
    expect(renamed.statusCode).toBe(401);
    // Sign-out clears it under the same name and attributes.
    const out = await c.get('/api/logout');
    const cleared = cookiesOf(out).find((k) => k.name === '__Host-portal_session');
    expect(cleared).toMatchObject({ secure: true, path: '/', value: '' });
  });

  it('over plain HTTP (a laptop): the session cookie keeps its plain name and is not Secure', async () => {
    const res = await plain.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    const session = cookiesOf(res).find((k) => k.name === 'portal_session');
    expect(session?.secure).toBeFalsy();
  });

  it('a password change rotates the session id and the XSRF token; the old pair opens nothing', async () => {
    const client = await makeClient(plain.database.db);
    const user = await makeUser(plain.database.db, { rol: 2, idCliente: client.id });
    const c = await new ApiClient(plain.app, '10.60.0.2').loginOk(user.usuario, TEST_PASSWORD);
    const oldSession = c.cookies.get('portal_session')!;
    const oldXsrf = c.xsrf!;
    const changed = await c.post('/api/repassword', {
      password: TEST_PASSWORD,
      newPass: 'Cambiada#2026',
      confirmPass: 'Cambiada#2026',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(c.cookies.get('portal_session')).not.toBe(oldSession);
    expect(c.xsrf).not.toBe(oldXsrf);
    // This browser goes on in the new session.
    expect((await c.get('/api/sesion')).statusCode).toBe(200);
    // Whoever holds the old cookie and token is out.
    const stale = await plain.app.inject({
      method: 'GET',
      url: '/api/sesion',
      headers: { cookie: `portal_session=${oldSession}` },
    });
    expect(stale.statusCode).toBe(401);
  });
});
