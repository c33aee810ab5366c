// @vitest-environment jsdom
/**
 * The web's HTTP client against a small in-test server. The client calls fetch() with same-origin paths
 * and relies on the browser to store the XSRF-TOKEN cookie the server sets; Node's fetch does neither
 * (no relative URLs, no cookie jar), so fetch is replaced by a function that plays the server: it records
 * every request and, like a browser receiving Set-Cookie, writes the cookie into document.cookie.
 * Each test loads a fresh copy of the module (its token check and handlers are module state).
 */
import { MSG } from '@portal/shared/messages';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

type ApiModule = typeof import('./api');

interface Seen {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: BodyInit | null | undefined;
  credentials: RequestCredentials | undefined;
}

type Route = (req: Seen) => Response | Promise<Response>;

let api: ApiModule;
let seen: Seen[];
let route: Route;
let issued: number;

const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** Stores a cookie as the browser does on Set-Cookie (the client reads document.cookie; jsdom has no Cookie Store). */
function setCookie(cookie: string) {
  // biome-ignore lint/suspicious/noDocumentCookie: the test plays the browser's cookie jar
  document.cookie = cookie;
}

/** What GET /sanctum/csrf-cookie does: a new token in a readable cookie (URL-encoded, as the server sets it). */
function issueToken(): Response {
  issued += 1;
  setCookie(`XSRF-TOKEN=${encodeURIComponent(`tok/${issued}+=`)}; path=/`);
  return new Response(null, { status: 204 });
}

const token = (n: number) => `tok/${n}+=`;

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) setCookie(`${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; path=/`);
  }
}

const apiCalls = () => seen.filter((r) => r.path !== '/sanctum/csrf-cookie');
const cookieCalls = () => seen.filter((r) => r.path === '/sanctum/csrf-cookie');

beforeEach(async () => {
  clearCookies();
  seen = [];
  issued = 0;
  route = () => json(200, { status: 'ok' });
  vi.stubGlobal('fetch', (input: RequestInfo | URL, init: RequestInit = {}) => {
    const req: Seen = {
      method: init.method ?? 'GET',
      path: String(input),
      headers: { ...(init.headers as Record<string, string>) },
      body: init.body,
      credentials: init.credentials,
    };
    seen.push(req);
    // A browser's fetch rejects an aborted call with the page's DOMException. (Here AbortController is
    // Node's and DOMException jsdom's, so the signal's own reason would be of another class.)
    if (init.signal?.aborted)
      return Promise.reject(new DOMException('The operation was aborted.', 'AbortError'));
    if (req.path === '/sanctum/csrf-cookie' && req.method === 'GET') return Promise.resolve(issueToken());
    return Promise.resolve().then(() => route(req));
  });
  vi.resetModules();
  api = await import('./api');
});

afterEach(() => {
  vi.unstubAllGlobals();
  clearCookies();
});

/** The error a call rejects with. */
async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('the call did not fail');
}

describe('the XSRF-TOKEN cookie', () => {
  it('is read URL-decoded, by its exact name, among other cookies', () => {
    expect(api.readXsrfToken()).toBeNull();
    setCookie('X-XSRF-TOKEN=wrong; path=/');
    setCookie('XSRF-TOKEN2=wrong; path=/');
    setCookie('tema=oscuro; path=/');
    expect(api.readXsrfToken()).toBeNull();
    setCookie(`XSRF-TOKEN=${encodeURIComponent('a/b+c==')}; path=/`);
    expect(api.readXsrfToken()).toBe('a/b+c==');
  });

  it('keeps an "=" inside the value and a value that is not valid URL encoding as it is', () => {
    setCookie('XSRF-TOKEN=abc=def; path=/');
    expect(api.readXsrfToken()).toBe('abc=def');
    setCookie('XSRF-TOKEN=%E0%A4%A; path=/');
    expect(api.readXsrfToken()).toBe('%E0%A4%A');
  });

  it('is not asked for, nor sent, on a GET', async () => {
    await api.api.get('/api/sesion');
    expect(seen).toEqual([
      {
        method: 'GET',
        path: '/api/sesion',
        headers: { Accept: 'application/json' },
        body: undefined,
        credentials: 'include',
      },
    ]);
  });

  it('is fetched before the first state-changing call and sent decoded in X-XSRF-TOKEN with the JSON body', async () => {
    await api.api.post('/api/carrito', { item: { id: 7, cantidad: 2 } });
    expect(seen.map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /sanctum/csrf-cookie',
      'POST /api/carrito',
    ]);
    expect(seen[1]).toEqual({
      method: 'POST',
      path: '/api/carrito',
      headers: {
        Accept: 'application/json',
        'Content-Type': 'application/json',
        'X-XSRF-TOKEN': token(1),
      },
      body: '{"item":{"id":7,"cantidad":2}}',
      credentials: 'include',
    });
  });

  it('is fetched once and then sent on POST, PUT, PATCH and DELETE alike', async () => {
    await api.api.post('/api/a', {});
    await api.api.put('/api/b', {});
    await api.api.patch('/api/c', {});
    await api.api.delete('/api/d');
    expect(cookieCalls()).toHaveLength(1);
    expect(apiCalls().map((r) => [r.method, r.headers['X-XSRF-TOKEN']])).toEqual([
      ['POST', token(1)],
      ['PUT', token(1)],
      ['PATCH', token(1)],
      ['DELETE', token(1)],
    ]);
    // DELETE has no body, hence no Content-Type.
    expect(apiCalls()[3]?.headers['Content-Type']).toBeUndefined();
  });

  it('is fetched again when the cookie is gone, and after sign-in or sign-out', async () => {
    await api.api.post('/api/a', {});
    clearCookies();
    await api.api.post('/api/b', {});
    expect(cookieCalls()).toHaveLength(2);
    expect(apiCalls()[1]?.headers['X-XSRF-TOKEN']).toBe(token(2));

    api.markCsrfStale();
    await api.api.post('/api/c', {});
    expect(cookieCalls()).toHaveLength(3);
    expect(apiCalls()[2]?.headers['X-XSRF-TOKEN']).toBe(token(3));
  });

  it('is asked for once when several calls start together', async () => {
    await Promise.all([api.api.post('/api/a', {}), api.api.post('/api/b', {}), api.api.delete('/api/c')]);
    expect(cookieCalls()).toHaveLength(1);
    expect(apiCalls().every((r) => r.headers['X-XSRF-TOKEN'] === token(1))).toBe(true);
  });

  it('missing after the server was asked for it: the call is not sent and the page is said to have expired', async () => {
    vi.stubGlobal('fetch', (input: RequestInfo | URL, init: RequestInit = {}) => {
      seen.push({
        method: init.method ?? 'GET',
        path: String(input),
        headers: {},
        body: undefined,
        credentials: undefined,
      });
      return Promise.resolve(new Response(null, { status: 204 }));
    });
    const error = await failure(api.api.post('/api/carrito', {}));
    expect(error).toBeInstanceOf(api.ApiError);
    expect(error).toMatchObject({ status: 419, code: 'CSRF', message: MSG.csrfInvalido });
    expect(apiCalls()).toEqual([]);
  });

  it('not obtainable (server error or no network): the service is unavailable, and the next call tries again', async () => {
    let answer: () => Promise<Response> = () => Promise.resolve(new Response('fallo', { status: 503 }));
    vi.stubGlobal('fetch', (input: RequestInfo | URL) => {
      seen.push({ method: 'GET', path: String(input), headers: {}, body: undefined, credentials: undefined });
      return answer();
    });
    expect(await failure(api.api.post('/api/a', {}))).toMatchObject({
      status: 503,
      message: MSG.servicioNoDisponible,
    });
    answer = () => Promise.reject(new TypeError('Failed to fetch'));
    const offline = await failure(api.api.post('/api/a', {}));
    expect(offline).toBeInstanceOf(api.ApiError);
    expect(offline).toMatchObject({ status: 0, code: 'NETWORK', message: MSG.servicioNoDisponible });
    expect(cookieCalls()).toHaveLength(2);
    expect(apiCalls()).toEqual([]);
  });
});

describe('a 419 (expired token)', () => {
  it('refreshes the cookie once and sends the call again with the new token and a body rebuilt from it', async () => {
    route = (req) =>
      req.headers['X-XSRF-TOKEN'] === token(1)
        ? json(419, { code: 'CSRF', msg: MSG.csrfInvalido })
        : json(200, { status: 'ok', usuario: 'ana' });
    const result = await api.apiRequest('POST', '/api/login', {
      bodyFromToken: (xsrf) => ({ sobre: `sellado con ${xsrf}` }),
    });
    expect(result).toEqual({ status: 'ok', usuario: 'ana' });
    expect(cookieCalls()).toHaveLength(2);
    expect(apiCalls().map((r) => [r.headers['X-XSRF-TOKEN'], r.body])).toEqual([
      [token(1), JSON.stringify({ sobre: `sellado con ${token(1)}` })],
      [token(2), JSON.stringify({ sobre: `sellado con ${token(2)}` })],
    ]);
  });

  it('twice in a row is the caller’s error: no third attempt', async () => {
    route = () => json(419, { code: 'CSRF', msg: MSG.csrfInvalido });
    const error = await failure(api.api.post('/api/carrito', {}));
    expect(error).toMatchObject({ status: 419, code: 'CSRF', message: MSG.csrfInvalido });
    expect(apiCalls()).toHaveLength(2);
    expect(cookieCalls()).toHaveLength(2);
  });

  it('on a GET is not retried', async () => {
    route = () => json(419, { code: 'CSRF', msg: MSG.csrfInvalido });
    expect(await failure(api.api.get('/api/sesion'))).toMatchObject({ status: 419 });
    expect(seen).toHaveLength(1);
  });
});

describe('errors', () => {
  it('carry the server’s status, code, Spanish message and field messages (strings only)', async () => {
    route = () =>
      json(422, {
        code: 'BUDGET',
        msg: 'No hay suficiente presupuesto para agregar este producto al carrito.',
        errors: { cantidad: 'La cantidad debe ser mayor que 0.', otro: 5 },
      });
    const error = await failure(api.api.post('/api/carrito', {}));
    expect(error).toBeInstanceOf(api.ApiError);
    expect(api.isApiError(error)).toBe(true);
    expect(error).toMatchObject({
      name: 'ApiError',
      status: 422,
      code: 'BUDGET',
      msg: 'No hay suficiente presupuesto para agregar este producto al carrito.',
      message: 'No hay suficiente presupuesto para agregar este producto al carrito.',
      errors: { cantidad: 'La cantidad debe ser mayor que 0.' },
    });
    expect(api.errorMessage(error, 'otro texto')).toBe(
      'No hay suficiente presupuesto para agregar este producto al carrito.',
    );
  });

  it('without a message from the server say something general, or what the screen prefers', async () => {
    route = () => new Response(null, { status: 404 });
    const error = await failure(api.api.get('/api/pedido/9'));
    expect(error).toMatchObject({ status: 404, code: 'HTTP_404', msg: '', message: MSG.ocurrioUnError });
    expect(api.errorMessage(error)).toBe(MSG.ocurrioUnError);
    expect(api.errorMessage(error, 'No se encontró el pedido.')).toBe('No se encontró el pedido.');
  });

  it('from a proxy page (not JSON) on a 5xx say the error is internal', async () => {
    route = () => new Response('<html>502 Bad Gateway</html>', { status: 502 });
    const error = await failure(api.api.get('/api/sesion'));
    expect(error).toMatchObject({ status: 502, code: 'HTTP_502', msg: '', message: MSG.errorInterno });
    expect(api.errorMessage(error, 'otro texto')).toBe(MSG.errorInterno);
  });

  it('on a server error carry its support code: the body’s, else the X-Request-Id header', async () => {
    route = () =>
      new Response(JSON.stringify({ code: 'INTERNAL', msg: MSG.errorInterno, soporte: 'abc-123' }), {
        status: 500,
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'abc-123' },
      });
    const error = await failure(api.api.get('/api/sesion'));
    expect(error).toMatchObject({ status: 500, soporte: 'abc-123' });
    expect(api.errorMessage(error)).toBe(`${MSG.errorInterno} ${MSG.codigoSoporte('abc-123')}`);
    route = () =>
      new Response('<html>502 Bad Gateway</html>', { status: 502, headers: { 'X-Request-Id': 'xyz-9' } });
    expect(api.errorMessage(await failure(api.api.get('/api/sesion')))).toBe(
      `${MSG.errorInterno} Código de soporte: xyz-9`,
    );
    // A refusal the user can act on carries none.
    route = () =>
      new Response(JSON.stringify({ code: 'BUDGET', msg: 'Sin presupuesto.' }), {
        status: 422,
        headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'r-1' },
      });
    expect(api.errorMessage(await failure(api.api.get('/api/sesion')))).toBe('Sin presupuesto.');
  });

  it('of the network say the service is unavailable', async () => {
    route = () => {
      throw new TypeError('Failed to fetch');
    };
    const error = await failure(api.api.get('/api/sesion'));
    expect(error).toMatchObject({ status: 0, code: 'NETWORK', message: MSG.servicioNoDisponible });
    expect(api.errorMessage(error, 'otro texto')).toBe(MSG.servicioNoDisponible);
  });

  it('an aborted call rejects with the abort, not as an error to show', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(api.api.get('/api/catalogo', { signal: controller.signal }));
    expect(api.isApiError(error)).toBe(false);
    expect(error).toMatchObject({ name: 'AbortError' });
  });

  it('that are not the API’s show the screen’s text or a general one', () => {
    expect(api.errorMessage(new Error('x'), 'No se pudo guardar.')).toBe('No se pudo guardar.');
    expect(api.errorMessage('x')).toBe(MSG.ocurrioUnError);
  });
});

describe('the handlers the app registers', () => {
  function register() {
    const calls: string[] = [];
    api.setApiHandlers({
      onUnauthorized: (e) => calls.push(`401 ${e.code}`),
      onPasswordChangeRequired: (e) => calls.push(`password ${e.code}`),
      onTwoFactorEnrolmentRequired: (e) => calls.push(`2fa ${e.code}`),
    });
    return calls;
  }

  it('hear of a 401 with the error the caller gets', async () => {
    const errors: unknown[] = [];
    api.setApiHandlers({ onUnauthorized: (e) => errors.push(e) });
    route = () => json(401, { code: 'UNAUTHENTICATED', msg: 'Tu sesión expiró.' });
    const error = await failure(api.api.get('/api/carrito'));
    expect(errors).toEqual([error]);
  });

  it('do not hear of a 401 the caller handles itself, always or as it picks', async () => {
    const calls = register();
    let code = 'BAD_CODE';
    route = () => json(401, { code, msg: 'Código incorrecto' });
    await failure(api.api.post('/api/login', {}, { skipUnauthorizedHandler: true }));
    const badCodeOnly = { skipUnauthorizedHandler: (e: { code: string }) => e.code === 'BAD_CODE' };
    await failure(api.api.post('/api/2fa/activar', {}, badCodeOnly));
    expect(calls).toEqual([]);
    code = 'UNAUTHENTICATED';
    await failure(api.api.post('/api/2fa/activar', {}, badCodeOnly));
    expect(calls).toEqual(['401 UNAUTHENTICATED']);
  });

  it('hear of a forced password change and a due two-factor enrolment, and of no other 403', async () => {
    const calls = register();
    let code = 'PASSWORD_CHANGE_REQUIRED';
    route = () => json(403, { code, msg: 'Debes cambiar tu contraseña.' });
    await failure(api.api.get('/api/carrito'));
    code = 'TWO_FACTOR_ENROLMENT_REQUIRED';
    await failure(api.api.get('/api/carrito'));
    code = 'FORBIDDEN';
    const forbidden = await failure(api.api.get('/api/carrito'));
    expect(calls).toEqual(['password PASSWORD_CHANGE_REQUIRED', '2fa TWO_FACTOR_ENROLMENT_REQUIRED']);
    expect(forbidden).toMatchObject({ status: 403, code: 'FORBIDDEN' });
    expect(api.PASSWORD_CHANGE_REQUIRED).toBe('PASSWORD_CHANGE_REQUIRED');
    expect(api.TWO_FACTOR_ENROLMENT_REQUIRED).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
  });

  it('are optional: without them the error is still thrown', async () => {
    route = () => json(401, { code: 'UNAUTHENTICATED' });
    expect(await failure(api.api.get('/api/carrito'))).toMatchObject({ status: 401 });
  });
});

describe('answers', () => {
  it('are parsed JSON, and nothing for a 204 or an empty body', async () => {
    route = (req) =>
      req.path === '/api/vacio'
        ? new Response('', { status: 200 })
        : req.path === '/api/nada'
          ? new Response(null, { status: 204 })
          : json(200, { total: 1.16 });
    expect(await api.api.get('/api/total')).toEqual({ total: 1.16 });
    expect(await api.api.get('/api/vacio')).toBeUndefined();
    expect(await api.api.delete('/api/nada')).toBeUndefined();
  });

  it('a file comes back as a Blob with its bytes', async () => {
    route = () =>
      new Response('id,total\r\n7,1.16\r\n', { status: 200, headers: { 'Content-Type': 'text/csv' } });
    const blob = await api.apiBlob('GET', '/api/reporte.csv');
    expect(await blob.text()).toBe('id,total\r\n7,1.16\r\n');
    expect(blob.type).toBe('text/csv');
  });

  it('a file keeps the name the server gives it, else the fallback', async () => {
    route = (req) =>
      new Response('x', {
        status: 200,
        headers:
          req.path === '/api/lote'
            ? { 'Content-Disposition': 'attachment; filename="surtido-lote-7.csv"' }
            : {},
      });
    const named = await api.apiFile('POST', '/api/lote', 'surtido.csv');
    expect(named.filename).toBe('surtido-lote-7.csv');
    expect(await named.blob.text()).toBe('x');
    expect((await api.apiFile('POST', '/api/otro', 'surtido.csv')).filename).toBe('surtido.csv');
  });

  it('an upload goes as the FormData itself, leaving its Content-Type to the browser', async () => {
    const form = new FormData();
    form.set('archivo', new Blob(['a,b'], { type: 'text/csv' }), 'usuarios.csv');
    await api.api.post('/api/usuarios/importar', form);
    const upload = apiCalls()[0];
    expect(upload?.body).toBe(form);
    expect(upload?.headers).toEqual({ Accept: 'application/json', 'X-XSRF-TOKEN': token(1) });
  });
});

describe('the query retry policy', () => {
  it('does not ask again after a 4xx, and asks once more after a 5xx or a network error', async () => {
    const { queryClient } = await import('./query-client');
    const retry = queryClient.getDefaultOptions().queries?.retry;
    if (typeof retry !== 'function') throw new Error('retry is not a function');
    const { ApiError } = api;
    expect(retry(0, new ApiError(404, 'HTTP_404', ''))).toBe(false);
    expect(retry(0, new ApiError(422, 'BUDGET', 'x'))).toBe(false);
    expect(retry(0, new ApiError(503, 'HTTP_503', ''))).toBe(true);
    expect(retry(1, new ApiError(503, 'HTTP_503', ''))).toBe(false);
    expect(retry(0, new ApiError(0, 'NETWORK', ''))).toBe(true);
    expect(retry(0, new TypeError('x'))).toBe(true);
    expect(queryClient.getDefaultOptions().mutations?.retry).toBe(false);
  });
});
