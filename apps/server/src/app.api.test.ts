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
      expect(res.json()).toEqual({
        code: 'UNAVAILABLE',
        msg: MSG.servicioNoDisponible,
        soporte: res.headers['x-request-id'],
      });
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
    expect(boom.json()).toEqual({
      code: 'INTERNAL',
      msg: MSG.errorInterno,
      soporte: boom.headers['x-request-id'],
    });
  });

  it('a server error names its request: the same id in X-Request-Id, the body and every log line of it', async () => {
    const lines: string[] = [];
    const logged = await createTestApp(kind, {
      logLines: lines,
      extend: (app) => {
        app.get('/api/test/explota', async (request) => {
          request.log.info('antes de fallar');
          throw new Error('detalle interno secreto');
        });
      },
    });
    try {
      // A caller's own valid id is kept; an invalid one is replaced by a new one.
      const given = 'soporte-prueba-38';
      const res = await logged.app.inject({
        method: 'GET',
        url: '/api/test/explota',
        headers: { 'x-request-id': given },
      });
      expect(res.statusCode).toBe(500);
      expect(res.headers['x-request-id']).toBe(given);
      expect(res.json().soporte).toBe(given);
      const own = lines
        .map((l) => JSON.parse(l) as { reqId?: string; msg?: string })
        .filter((l) => l.reqId === given);
      expect(own.map((l) => l.msg)).toEqual(
        expect.arrayContaining(['antes de fallar', 'error no controlado']),
      );
      const bad = await logged.app.inject({
        method: 'GET',
        url: '/api/test/explota',
        headers: { 'x-request-id': 'mal id!' },
      });
      expect(bad.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(bad.json().soporte).toBe(bad.headers['x-request-id']);
    } finally {
      await logged.close();
    }
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

  it('the document names every status an API route may answer (issue 38, finding 10)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json() as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    const missing: string[] = [];
    for (const [url, operations] of Object.entries(doc.paths)) {
      // Routes of this file's own (extend) are not the product's.
      if (!url.startsWith('/api/') || url.startsWith('/api/test/')) continue;
      for (const [method, operation] of Object.entries(operations)) {
        const codes = Object.keys(operation.responses ?? {});
        const changes = method !== 'get' && method !== 'head';
        const expected = ['400', '401', '403', '404', '414', '503'];
        if (changes) expected.push('413', '415');
        if (changes && !url.startsWith('/api/v1/')) expected.push('419');
        for (const code of expected) if (!codes.includes(code)) missing.push(`${method} ${url} ${code}`);
        // A success: an answer (2xx), or a browser's navigation sent on (a 3xx, single sign-on's).
        if (!codes.some((c) => c.startsWith('2') || c.startsWith('3'))) missing.push(`${method} ${url} 2xx`);
      }
    }
    expect(missing).toEqual([]);
    // A route that sends a file says so.
    const pdf = doc.paths['/api/pedidos/{id}/pdf']!.get!.responses!['200'] as { content: object };
    expect(Object.keys(pdf.content)).toEqual(['application/octet-stream']);
    // A redirect is not a file.
    expect(Object.keys(doc.paths['/api/sso/retorno']!.get!.responses!)).not.toContain('200');
    expect(Object.keys(doc.paths['/api/sso/retorno']!.get!.responses!)).toContain('302');
  });
});
