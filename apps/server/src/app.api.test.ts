import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from './messages.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from './test/harness.ts';

describe.each(DB_KINDS)('operations (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, {
      extend: (app) => {
        app.get('/api/test/explota', async () => {
          throw new Error('detalle interno secreto: select * from users');
        });
        // What the driver throws when the server ended a connection in the middle of a transaction,
        // wrapped as Drizzle wraps it.
        app.get('/api/test/sin-base', async () => {
          throw new Error('Failed query: rollback', {
            cause: new Error('Client has encountered a connection error and is not queryable'),
          });
        });
        app.get('/api/test/base-reiniciando', async () => {
          throw Object.assign(new Error('terminating connection due to administrator command'), {
            code: '57P01',
          });
        });
      },
    });
  });
  afterAll(async () => t?.close());

  it('GET /healthz answers with the database state and whether sessions are kept between requests', async () => {
    // The session cache listens a moment after the start (decision 0071).
    while (!t.app.sessions.caching) await new Promise((r) => setTimeout(r, 10));
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', db: 'ok', cache_sesiones: 'activa' });
  });

  it('a database that does not answer is a 503 in Spanish, never a 500', async () => {
    for (const url of ['/api/test/sin-base', '/api/test/base-reiniciando']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(503);
      expect(res.json()).toEqual({ code: 'UNAVAILABLE', msg: MSG.servicioNoDisponible });
    }
  });

  it('security headers: CSP with frame-ancestors, nosniff, request id', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/healthz' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toBeTruthy();
  });

  it('unknown API routes answer 404 in Spanish; 5xx never leak internals', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/no-existe' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: 'NOT_FOUND', msg: MSG.noEncontrado });
    const boom = await t.app.inject({ method: 'GET', url: '/api/test/explota' });
    expect(boom.statusCode).toBe(500);
    expect(boom.body).not.toContain('secreto');
    expect(boom.json()).toEqual({ code: 'INTERNAL', msg: MSG.errorInterno });
  });

  it('malformed JSON and wrong types are a Spanish 400, never a 500', async () => {
    const c = new ApiClient(t.app);
    await c.csrf();
    const bad = await t.app.inject({
      method: 'POST',
      url: '/api/recuperar-password',
      headers: {
        'content-type': 'application/json',
        cookie: `portal_session=${c.cookies.get('portal_session')}`,
        'x-xsrf-token': c.xsrf!,
      },
      payload: '{"usuario": ',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe(MSG.datosInvalidos);
    const wrongType = await c.post('/api/recuperar-password', { usuario: 12 });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().code).toBe('VALIDATION');
    const huge = await c.post('/api/login', { data: 'x'.repeat(5000), hmac: 'y' });
    expect(huge.statusCode).toBe(400);
  });

  it('a missing asset is a 404, not the page in its place', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/assets/index-viejo.js' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).not.toContain('text/html');
  });

  it('serves the OpenAPI document generated from the route schemas', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(['/api/login', '/api/sesion', '/api/repassword', '/api/recuperar-password']),
    );
    expect(doc.paths['/api/login'].post.requestBody).toBeTruthy();
  });
});
