import { sealLogin } from '@portal/shared/domain/login-envelope';
import { count, eq, inArray } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { describe, expect, it } from 'vitest';
import { sessions, systemLogs } from '../db/schema/index.ts';
import { hashToken } from '../lib/tokens.ts';
import { MSG } from '../messages.ts';
import { multipart } from '../test/admin-fixtures.ts';
import { makeClient, makeUser, TEST_PASSWORD, uniq } from '../test/factories.ts';
import { ApiClient, DB_KINDS } from '../test/harness.ts';
import { REQUESTS, send } from './route-table.ts';
import { describeRefusal, type RouteKey, useWorld } from './world.ts';

interface Cookie {
  name: string;
  value: string;
  httpOnly?: boolean;
  sameSite?: string;
  secure?: boolean;
  path?: string;
  maxAge?: number;
  expires?: Date;
}
const cookiesOf = (res: LightMyRequestResponse) => res.cookies as Cookie[];

/** Sessions, CSRF, throttling: the cross-cutting rules of decision 0004 and docs/domain.md "Accounts". */
describe.each(DB_KINDS)('sessions, CSRF and throttling (%s)', (kind) => {
  const w = useWorld(kind);
  const db = () => w.db;
  const logCount = async () => (await db().select({ n: count() }).from(systemLogs))[0]!.n;

  it('every state-changing route refuses a call without, with a wrong or with another session’s X-XSRF-TOKEN (419), and changes nothing', async () => {
    // The integration API (/api/v1) and SCIM (/scim/v2) read no cookie, so they have no XSRF to check: a
    // bearer token or 401.
    const mutating = [...w.routes.keys].filter(
      (k) =>
        !k.startsWith('GET ') && !k.startsWith('HEAD ') && !k.includes(' /api/v1/') && !k.includes(' /scim/'),
    );
    expect(mutating.length).toBeGreaterThan(30);
    const otherXsrf = w.api.u2b.xsrf!;
    const logsBefore = await logCount();
    const failures: string[] = [];
    for (const key of mutating) {
      const recipe = REQUESTS[key as RouteKey];
      if (!recipe) {
        failures.push(`${key}: sin receta`);
        continue;
      }
      // compra's recipe fills the cart first (a real, allowed call); the purchase itself must not happen.
      const req = await recipe.req(w, recipe.caller);
      for (const [what, xsrf] of [
        ['sin encabezado', null],
        ['token incorrecto', 'x'.repeat(43)],
        ['token de otra sesión', otherXsrf],
      ] as const) {
        const res = await send(w, recipe.caller, req, { xsrf });
        if (res.statusCode !== 419) failures.push(`${key} ${what}: ${res.statusCode}`);
        else if (res.json().code !== 'CSRF' || res.json().msg !== MSG.csrfInvalido)
          failures.push(`${key} ${what}: ${res.body}`);
      }
    }
    expect(failures).toEqual([]);
    // Nothing was written: no audit entry, no order.
    expect(await logCount()).toBe(logsBefore);
  });

  it('percent-encoded paths (/%61pi/…) get the same session, XSRF check and no-store as /api/…', async () => {
    const mutating = [...w.routes.keys].filter(
      (k) =>
        k.includes(' /api/') && !k.includes(' /api/v1/') && !k.startsWith('GET ') && !k.startsWith('HEAD '),
    );
    const failures: string[] = [];
    for (const key of mutating) {
      const recipe = REQUESTS[key as RouteKey]!;
      const req = await recipe.req(w, recipe.caller);
      for (const encoded of ['/%61pi/', '/ap%69/', '/%61%70%69/']) {
        const url = req.url.replace('/api/', encoded);
        const res = await send(w, recipe.caller, { ...req, url }, { xsrf: null });
        if (res.statusCode !== 419) failures.push(`${key} ${url}: ${res.statusCode}`);
      }
    }
    expect(failures).toEqual([]);
    // A read through an encoded path is the signed-in user's, and is not cached.
    for (const encoded of ['/%61pi/sesion', '/ap%69/sesion']) {
      const res = await w.api.u2.get(encoded);
      expect(res.statusCode, encoded).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('a cross-site request carries no session: the header alone, or a GET-only cookie jar, gets 419', async () => {
    const victim = await new ApiClient(w.t.app, '10.30.0.1').loginOk(w.users.u2.usuario, TEST_PASSWORD);
    // What a forged form post looks like to the server: the cookie (if the browser sent it) and no header.
    const forged = await w.t.app.inject({
      method: 'POST',
      url: `/api/cancelar/compra/${w.orders.view.id}`,
      headers: {
        cookie: `portal_session=${victim.cookies.get('portal_session')}`,
        'content-type': 'application/x-www-form-urlencoded',
        origin: 'https://atacante.example',
      },
      payload: 'motivo=x',
    });
    expect(forged.statusCode).toBe(419);
    // The token alone, without the cookie (what a page elsewhere could guess at best), is refused too.
    const headerOnly = await w.t.app.inject({
      method: 'POST',
      url: `/api/cancelar/compra/${w.orders.view.id}`,
      headers: { 'x-xsrf-token': victim.xsrf!, 'content-type': 'application/json' },
      payload: '{}',
    });
    expect(headerOnly.statusCode).toBe(419);
    // No CORS: a foreign origin is never allowed to read answers.
    const cors = await w.t.app.inject({
      method: 'GET',
      url: '/api/sesion',
      headers: {
        origin: 'https://atacante.example',
        cookie: `portal_session=${victim.cookies.get('portal_session')}`,
      },
    });
    expect(cors.headers['access-control-allow-origin']).toBeUndefined();
    expect(cors.headers['access-control-allow-credentials']).toBeUndefined();
    const preflight = await w.t.app.inject({
      method: 'OPTIONS',
      url: '/api/cancelar/compra/1',
      headers: { origin: 'https://atacante.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('cookies: the session is HttpOnly and SameSite, the XSRF token readable by the page; both for the whole site', async () => {
    const anon = await w.t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    const c = new ApiClient(w.t.app, '10.30.0.2');
    await c.csrf();
    const login = await c.post(
      '/api/login',
      sealLogin({ usuario: w.users.u3.usuario, password: TEST_PASSWORD }, c.xsrf!),
    );
    expect(login.statusCode).toBe(200);
    for (const res of [anon, login]) {
      const session = cookiesOf(res).find((k) => k.name === 'portal_session');
      const xsrf = cookiesOf(res).find((k) => k.name === 'XSRF-TOKEN');
      expect(session, 'portal_session').toBeDefined();
      expect(session!.httpOnly).toBe(true);
      // Lax (or Strict): a cross-site POST, fetch or frame never carries the session.
      expect(['Lax', 'Strict']).toContain(session!.sameSite);
      expect(session!.path).toBe('/');
      expect(session!.value.length).toBeGreaterThanOrEqual(43);
      expect(xsrf!.httpOnly).toBeFalsy();
      expect(['Lax', 'Strict']).toContain(xsrf!.sameSite);
      expect(xsrf!.value).not.toBe(session!.value);
      // Plain HTTP without a trusted proxy: Secure would make the browser drop the cookie.
      expect(session!.secure).toBeFalsy();
    }
  });

  it('session fixation: a session planted before sign-in is worthless after it; a made-up cookie is never adopted', async () => {
    const user = await makeUser(db(), { rol: 2, idCliente: w.a.client.id });
    const attacker = new ApiClient(w.t.app, '10.30.0.3');
    await attacker.csrf();
    const planted = attacker.cookies.get('portal_session')!;
    const plantedXsrf = attacker.xsrf!;
    // The victim's browser carries the attacker's cookies and signs in.
    const victim = new ApiClient(w.t.app, '10.30.0.4');
    victim.cookies.set('portal_session', planted);
    victim.cookies.set('XSRF-TOKEN', plantedXsrf);
    await victim.loginOk(user.usuario, TEST_PASSWORD);
    expect(victim.cookies.get('portal_session')).not.toBe(planted);
    expect(victim.xsrf).not.toBe(plantedXsrf);
    expect((await victim.get('/api/sesion')).statusCode).toBe(200);
    // The attacker's copy opens nothing of the victim's: it stays what it was, an anonymous form session
    // (signed, never stored: see the check below), good only for the public forms anyone can open.
    expect((await attacker.get('/api/sesion')).statusCode).toBe(401);
    expect(planted.startsWith('a.')).toBe(true);
    expect(
      await db()
        .select()
        .from(sessions)
        .where(eq(sessions.id, hashToken(planted))),
    ).toHaveLength(0);

    // A cookie value the server never issued is ignored, and a fresh one is issued instead.
    const chosen = 'a'.repeat(43);
    const res = await w.t.app.inject({
      method: 'GET',
      url: '/sanctum/csrf-cookie',
      headers: { cookie: `portal_session=${chosen}` },
    });
    const issued = cookiesOf(res).find((k) => k.name === 'portal_session');
    expect(issued?.value).toBeDefined();
    expect(issued!.value).not.toBe(chosen);
    expect(
      await db()
        .select()
        .from(sessions)
        .where(eq(sessions.id, hashToken(chosen))),
    ).toHaveLength(0);
  });

  it('sign-out destroys the session: the old cookie and token open nothing, and the cookies are cleared', async () => {
    const user = await makeUser(db(), { rol: 1, idCliente: w.a.client.id });
    const c = await new ApiClient(w.t.app, '10.30.0.5').loginOk(user.usuario, TEST_PASSWORD);
    const cookie = c.cookies.get('portal_session')!;
    const xsrf = c.xsrf!;
    const out = await c.get('/api/logout');
    expect(out.statusCode).toBe(200);
    const cleared = cookiesOf(out).filter((k) => ['portal_session', 'XSRF-TOKEN'].includes(k.name));
    expect(cleared).toHaveLength(2);
    for (const k of cleared)
      expect(k.value === '' || (k.expires && k.expires.getTime() < Date.now())).toBe(true);
    expect(
      await db()
        .select()
        .from(sessions)
        .where(eq(sessions.id, hashToken(cookie))),
    ).toHaveLength(0);
    const replay = { cookie: `portal_session=${cookie}; XSRF-TOKEN=${xsrf}` };
    expect((await w.t.app.inject({ method: 'GET', url: '/api/carrito', headers: replay })).statusCode).toBe(
      401,
    );
    const post = await w.t.app.inject({
      method: 'POST',
      url: '/api/carrito/vaciar_carrito',
      headers: { ...replay, 'x-xsrf-token': xsrf },
    });
    expect(post.statusCode).toBe(419);
  });

  it('deactivating a user or a client through the administration ends their live sessions at once', async () => {
    const client = await makeClient(db(), { cantidadAutorizadores: 2 });
    const [buyer, auth2, auth3, other] = await Promise.all(
      [1, 2, 3, 1].map((rol) => makeUser(db(), { rol, idCliente: client.id })),
    );
    const open = async (u: typeof buyer) =>
      new ApiClient(w.t.app, `10.31.0.${u!.id % 250}`).loginOk(u!.usuario, TEST_PASSWORD);
    const [cBuyer, c2, c3, cOther] = await Promise.all([buyer, auth2, auth3, other].map(open));
    const sessionsOf = async (ids: number[]) =>
      (await db().select().from(sessions).where(inArray(sessions.userId, ids))).length;

    // The user: PUT /api/usuarios/{id} with activo false.
    const detail = (await w.api.adm.get(`/api/usuarios/${buyer!.id}`)).json().usuario;
    const put = await w.api.adm.put(`/api/usuarios/${buyer!.id}`, {
      usuario: detail.usuario,
      user_id: detail.user_id,
      nombre: detail.nombre,
      direccion_entrega: 'Calle 2',
      rol: 1,
      active_week: 1,
      entrega_week: 1,
      activo: false,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(await sessionsOf([buyer!.id])).toBe(0);
    expect(await sessionsOf([other!.id])).toBe(1);
    const refused = await cBuyer!.get('/api/carrito');
    expect(refused.statusCode).toBe(401);
    expect(describeRefusal(refused)).toBeNull();
    expect((await cOther!.get('/api/carrito')).statusCode).toBe(200);

    // The client: POST /api/clientes/update/{id} with activo 0 ends every session of its users.
    const { body, headers } = multipart({
      nombre: client.nombre,
      presupuesto_default: 5000,
      limite_de_compras: 4,
      cantidad_autorizadores: 2,
      activo: 0,
    });
    const upd = await w.api.adm.post(`/api/clientes/update/${client.id}`, body, { headers });
    expect(upd.statusCode, upd.body).toBe(200);
    expect(await sessionsOf([auth2!.id, auth3!.id, other!.id])).toBe(0);
    for (const c of [c2, c3, cOther]) {
      const res = await c!.get('/api/sesion');
      expect(res.statusCode).toBe(401);
    }
    // And nobody of that client can sign in again.
    const again = await new ApiClient(w.t.app, '10.31.1.1').login(auth2!.usuario, TEST_PASSWORD);
    expect(again.statusCode).toBe(403);
    expect(again.json().msg).toBe(MSG.clienteInactivo);
  });

  it('sign-in throttling: 429 after 5 failures, even with the right password, whatever the case or spacing of the name or a forged X-Forwarded-For', async () => {
    const user = await makeUser(db(), { rol: 2, idCliente: w.a.client.id, usuario: uniq('Throttle') });
    const ip = '10.32.0.1';
    const variants = [
      user.usuario,
      user.usuario.toUpperCase(),
      ` ${user.usuario} `,
      user.usuario.toLowerCase(),
      user.usuario,
    ];
    for (const [i, name] of variants.entries()) {
      const c = new ApiClient(w.t.app, ip);
      const res = await c.login(name, `Mala#${i}xxxx`);
      expect(res.statusCode, name).toBe(401);
    }
    for (const forwarded of [undefined, '203.0.113.9']) {
      const c = new ApiClient(w.t.app, ip);
      await c.csrf();
      const res = await c.post(
        '/api/login',
        sealLogin({ usuario: user.usuario, password: TEST_PASSWORD }, c.xsrf!),
        forwarded ? { headers: { 'x-forwarded-for': forwarded } } : undefined,
      );
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'LOGIN_THROTTLED', msg: MSG.demasiadosIntentos });
    }
    // Another address (another office) is not blocked.
    expect((await new ApiClient(w.t.app, '10.32.0.2').login(user.usuario, TEST_PASSWORD)).statusCode).toBe(
      200,
    );
  });

  it('recovery throttling: 429 after 3 requests per name and address, whatever the case; 20 per address in all', async () => {
    const user = await makeUser(db(), { rol: 1, idCliente: w.a.client.id, usuario: uniq('Recupera') });
    const c = new ApiClient(w.t.app, '10.33.0.1');
    for (const name of [user.usuario, user.usuario.toUpperCase(), ` ${user.usuario}`])
      expect((await c.post('/api/recuperar-password', { usuario: name })).statusCode).toBe(200);
    const limited = await c.post(
      '/api/recuperar-password',
      { usuario: user.usuario.toLowerCase() },
      {
        headers: { 'x-forwarded-for': '203.0.113.10' },
      },
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.json().msg).toBe(MSG.demasiadasSolicitudes);
    // One address asking for many names (unknown ones included) is stopped too.
    const d = new ApiClient(w.t.app, '10.33.0.2');
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++)
      statuses.push((await d.post('/api/recuperar-password', { usuario: `nadie${i}` })).statusCode);
    expect(statuses.slice(0, 20).every((s) => s === 404)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
