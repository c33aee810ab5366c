import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { SSO_ERROR_MESSAGES } from '@portal/shared/domain/sso';
import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clientSso,
  clients,
  emailOutbox,
  passwordTokens,
  ssoLogins,
  systemLogs,
  users,
} from '../../db/schema/index.ts';
import { clockAt } from '../../lib/clock.ts';
import { openSecret, ssoContext } from '../../lib/secret-box.ts';
import { hashToken } from '../../lib/tokens.ts';
import { newTotpSecret, sealTotpSecret } from '../../lib/totp.ts';
import { MSG } from '../../messages.ts';
import { makeClient, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { startTestProvider, type TestProvider } from '../../test/oidc-provider.ts';
import { issuerRefusal, ProviderUnreachable, providerFetch } from './oidc.ts';

const CLIENT_ID = 'portal-de-compras-pruebas';
const SECRET = 'secreto-del-proveedor-de-pruebas';
const RETURN = 'http://portal.test/api/sso/retorno';

let ipCounter = 1;
const nextIp = () => `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;
/** A fresh e-mail domain (lower case, as the schema keeps them). */
const newDomain = () => `empresa-${randomBytes(4).toString('hex')}.com.mx`;

/** The path and query of a URL, as the test client sends it to the app. */
const pathOf = (url: URL | string) => {
  const u = new URL(url, 'http://portal.test');
  return `${u.pathname}${u.search}`;
};

describe('single sign-on: the provider guard (no database)', () => {
  it('an issuer on a private or loopback address, or plain http, is refused unless SSO_ALLOW_PRIVATE', async () => {
    const closed = { SSO_ALLOW_PRIVATE: false };
    expect(await issuerRefusal('https://127.0.0.1:8443/realms/x', closed)).toBe(MSG.ssoEmisorPrivado);
    expect(await issuerRefusal('https://10.1.2.3', closed)).toBe(MSG.ssoEmisorPrivado);
    expect(await issuerRefusal('https://[::ffff:7f00:1]/', closed)).toBe(MSG.ssoEmisorPrivado);
    expect(await issuerRefusal('http://93.184.216.34/', closed)).toBe(MSG.ssoEmisorHttps);
    expect(await issuerRefusal('https://93.184.216.34/tenant/v2.0', closed)).toBeNull();
    expect(await issuerRefusal('https://usuario:clave@93.184.216.34/', closed)).toBe(MSG.ssoEmisorForma);
    expect(await issuerRefusal('https://93.184.216.34/?x=1', closed)).toBe(MSG.ssoEmisorForma);
    const open = { SSO_ALLOW_PRIVATE: true };
    expect(await issuerRefusal('http://127.0.0.1:9000', open)).toBeNull();
  });

  it('every request to the provider is checked again: a private address is refused before connecting', async () => {
    const fetcher = providerFetch({ allowHttp: true, allowPrivate: false });
    await expect(
      fetcher('http://127.0.0.1:9/.well-known/openid-configuration', {
        method: 'GET',
        headers: {},
        body: undefined,
        redirect: 'manual',
      }),
    ).rejects.toBeInstanceOf(ProviderUnreachable);
  });
});

describe.each(DB_KINDS)('single sign-on (%s)', (kind) => {
  let t: TestApp;
  let provider: TestProvider;
  let admin: ApiClient;
  const logLines: string[] = [];
  const apps: TestApp[] = [];

  beforeAll(async () => {
    provider = await startTestProvider({ clientId: CLIENT_ID, clientSecret: SECRET, redirectUri: RETURN });
    t = await createTestApp(kind, { env: { SSO_ALLOW_PRIVATE: '1' }, logLines });
    const adm = await makeUser(t.database.db, { rol: 4, idCliente: null });
    admin = await new ApiClient(t.app, nextIp()).loginOk(adm.usuario, TEST_PASSWORD);
  });
  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await t?.close();
    await provider?.close();
  });
  const db = () => t.database.db;

  const configBody = (dominios: string[], over: Record<string, unknown> = {}) => ({
    emisor: provider.issuer,
    id_cliente: CLIENT_ID,
    secreto: SECRET,
    dominios,
    ...over,
  });

  /** A client whose provider is the test provider, for a domain of its own. */
  async function world(over: Record<string, unknown> = {}, api = admin) {
    const client = await makeClient(db());
    const dominio = newDomain();
    const res = await api.put(`/api/clients/${client.id}/sso`, configBody([dominio], over));
    expect(res.statusCode, res.body).toBe(200);
    return { client, dominio };
  }

  /** A person of that client known to the provider by their e-mail (verified unless told). */
  async function person(
    w: { client: { id: number }; dominio: string },
    over: { rol?: number; activo?: boolean; claims?: Record<string, unknown> } = {},
  ) {
    const correo = `${randomBytes(3).toString('hex')}.persona@${w.dominio}`;
    const user = await makeUser(db(), {
      rol: over.rol ?? 1,
      idCliente: w.client.id,
      email: correo.toUpperCase(),
      activo: over.activo ?? true,
    });
    provider.setAccount(correo, { email: correo, email_verified: true, name: 'Ana Pérez', ...over.claims });
    return { user, correo };
  }

  /** The browser's trip: the portal sends it to the provider, which signs in and sends it back. */
  async function startAtProvider(api: ApiClient, correo: string, accountId?: string) {
    const start = await api.get(`/api/sso/iniciar?correo=${encodeURIComponent(correo)}`);
    expect(start.statusCode, start.body).toBe(302);
    const location = String(start.headers.location);
    expect(location.startsWith(`${provider.issuer}/`), location).toBe(true);
    const authorization = new URL(location);
    expect(Object.fromEntries(authorization.searchParams)).toMatchObject({
      response_type: 'code',
      client_id: CLIENT_ID,
      redirect_uri: RETURN,
      scope: 'openid email profile',
      code_challenge_method: 'S256',
      login_hint: correo,
    });
    for (const key of ['state', 'nonce', 'code_challenge'])
      expect(authorization.searchParams.get(key)?.length).toBeGreaterThanOrEqual(32);
    return provider.signIn(authorization, accountId);
  }

  async function ssoSignIn(api: ApiClient, correo: string, accountId?: string) {
    const callback = await startAtProvider(api, correo, accountId);
    return api.get(pathOf(callback));
  }

  const expectRefusal = (res: { statusCode: number; headers: Record<string, unknown> }, code: string) => {
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe(`/login?sso=${code}`);
  };

  const lastFailure = async () => {
    const [row] = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, 'login_sso_fallido'))
      .orderBy(desc(systemLogs.id))
      .limit(1);
    return row!;
  };

  it('a successful sign-in: the verified e-mail signs in its account (case-insensitive), and the session works', async () => {
    const w = await world();
    const { user, correo } = await person(w);
    const api = new ApiClient(t.app, nextIp());
    const res = await ssoSignIn(api, correo);
    expect(res.statusCode, res.body).toBe(302);
    expect(res.headers.location).toBe('/');
    const session = await api.get('/api/sesion');
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().user).toMatchObject({
      id: user.id,
      usuario: user.usuario,
      debe_cambiar_password: false,
    });
    // The form's session was replaced (no fixation), the sign-in recorded as one with the company's account.
    const [entry] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'login'), eq(systemLogs.userId, user.id)));
    expect(entry?.description).toBe(`Inicio de sesión con la cuenta de la empresa: ${user.usuario}`);
    expect(entry?.metadata).toMatchObject({ metodo: 'sso' });
    const [row] = await db().select({ at: users.ultimoAcceso }).from(users).where(eq(users.id, user.id));
    expect(row?.at).not.toBeNull();
  });

  it('discovery answers for a configured, active domain only', async () => {
    const w = await world({ obligatorio: true });
    const anon = new ApiClient(t.app, nextIp());
    const ask = async (correo: string) => {
      const res = await anon.post('/api/sso/descubrir', { correo });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(await ask(`alguien@${w.dominio.toUpperCase()}`)).toEqual({ sso: true, obligatorio: true });
    expect(await ask(`alguien@${newDomain()}`)).toEqual({ sso: false, obligatorio: false });
    const bad = await anon.post('/api/sso/descubrir', { correo: 'no es un correo' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe(MSG.ssoCorreoInvalido);
    // An inactive configuration, or an inactive client, offers nothing.
    await db().update(clientSso).set({ activo: false }).where(eq(clientSso.idCliente, w.client.id));
    expect(await ask(`alguien@${w.dominio}`)).toEqual({ sso: false, obligatorio: false });
    const v = await world();
    await db().update(clients).set({ activo: false }).where(eq(clients.id, v.client.id));
    expect(await ask(`alguien@${v.dominio}`)).toEqual({ sso: false, obligatorio: false });
    // Starting a sign-in for a domain without a provider goes back to the sign-in page.
    expectRefusal(await anon.get(`/api/sso/iniciar?correo=alguien@${newDomain()}`), 'no_disponible');
    expectRefusal(await anon.get('/api/sso/iniciar?correo=nada'), 'no_disponible');
  });

  it('a wrong state, or the right one from another browser, signs nobody in and leaves the flow usable', async () => {
    const w = await world();
    const { correo } = await person(w);
    const api = new ApiClient(t.app, nextIp());
    const callback = await startAtProvider(api, correo);
    const wrong = new URL(callback);
    wrong.searchParams.set('state', randomBytes(32).toString('base64url'));
    expectRefusal(await api.get(pathOf(wrong)), 'vencido');
    expect((await api.get('/api/sesion')).statusCode).toBe(401);
    // No state at all.
    const none = new URL(callback);
    none.searchParams.delete('state');
    expectRefusal(await api.get(pathOf(none)), 'vencido');
    // Another browser (another session) with this browser's code and state.
    const stranger = new ApiClient(t.app, nextIp());
    await stranger.csrf();
    expectRefusal(await stranger.get(pathOf(callback)), 'vencido');
    expect((await stranger.get('/api/sesion')).statusCode).toBe(401);
    expect((await lastFailure()).metadata).toMatchObject({ motivo: 'vencido', id_cliente: w.client.id });
    // The right browser still signs in with it.
    const res = await api.get(pathOf(callback));
    expect(res.headers.location).toBe('/');
    expect((await api.get('/api/sesion')).statusCode).toBe(200);
  });

  it('a replayed code: the second callback with the same code and state loses', async () => {
    const w = await world();
    const { correo } = await person(w);
    const api = new ApiClient(t.app, nextIp());
    const callback = await startAtProvider(api, correo);
    // A copy of the browser before the callback (its anonymous session, the one the flow is bound to).
    const copy = new ApiClient(t.app, api.ip);
    for (const [k, v] of api.cookies) copy.cookies.set(k, v);
    const [first, second] = await Promise.all([api.get(pathOf(callback)), copy.get(pathOf(callback))]);
    const locations = [first.headers.location, second.headers.location].sort();
    expect(locations).toEqual(['/', '/login?sso=vencido']);
    // And later again: still refused.
    const third = new ApiClient(t.app, api.ip);
    for (const [k, v] of copy.cookies) third.cookies.set(k, v);
    expectRefusal(await third.get(pathOf(callback)), 'vencido');
    const [flow] = await db()
      .select()
      .from(ssoLogins)
      .where(eq(ssoLogins.stateHash, hashToken(callback.searchParams.get('state')!)));
    expect(flow?.usedAt).not.toBeNull();
  });

  it('an unverified e-mail, or none, is refused', async () => {
    const w = await world();
    const { user, correo } = await person(w, { claims: { email_verified: false } });
    const api = new ApiClient(t.app, nextIp());
    expectRefusal(await ssoSignIn(api, correo), 'no_verificado');
    expect((await api.get('/api/sesion')).statusCode).toBe(401);
    expect(await lastFailure()).toMatchObject({ idCliente: w.client.id, userId: null });
    // Microsoft Entra ID sends no email_verified; its xms_edov (domain verified by the tenant) counts.
    provider.setAccount(correo, { email: correo, xms_edov: true });
    const entra = new ApiClient(t.app, nextIp());
    expect((await ssoSignIn(entra, correo)).headers.location).toBe('/');
    expect((await entra.get('/api/sesion')).json().user.id).toBe(user.id);
    // No e-mail at all.
    provider.setAccount(correo, { name: 'Sin correo' });
    expectRefusal(await ssoSignIn(new ApiClient(t.app, nextIp()), correo), 'no_verificado');
  });

  it('a verified e-mail of another domain is refused, even when an account has it', async () => {
    const w = await world();
    const other = await world();
    const { correo } = await person(w);
    const theirs = await person(other);
    // The typed e-mail is of w's domain; the provider says the person is of another domain.
    provider.setAccount(correo, { email: theirs.correo, email_verified: true });
    expectRefusal(await ssoSignIn(new ApiClient(t.app, nextIp()), correo), 'otro_dominio');
    expect((await lastFailure()).metadata).toMatchObject({ motivo: 'otro_dominio', correo: theirs.correo });
  });

  it('an expired ID token (the portal’s clock past its exp) is refused', async () => {
    const later = await createTestApp(kind, {
      env: { SSO_ALLOW_PRIVATE: '1' },
      clock: clockAt(Date.now() + 2 * 3_600_000),
    });
    apps.push(later);
    const adm = await makeUser(later.database.db, { rol: 4, idCliente: null });
    const laterAdmin = await new ApiClient(later.app, nextIp()).loginOk(adm.usuario, TEST_PASSWORD);
    const client = await makeClient(later.database.db);
    const dominio = newDomain();
    expect((await laterAdmin.put(`/api/clients/${client.id}/sso`, configBody([dominio]))).statusCode).toBe(
      200,
    );
    const correo = `tarde@${dominio}`;
    await makeUser(later.database.db, { rol: 1, idCliente: client.id, email: correo });
    provider.setAccount(correo, { email: correo, email_verified: true });
    const api = new ApiClient(later.app, nextIp());
    const start = await api.get(`/api/sso/iniciar?correo=${correo}`);
    const callback = await provider.signIn(String(start.headers.location));
    expectRefusal(await api.get(pathOf(callback)), 'vencido');
    const [entry] = await later.database.db
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, 'login_sso_fallido'));
    expect(entry?.description).toContain('OAUTH_JWT_TIMESTAMP_CHECK_FAILED');
  });

  it('a provider that is down, or that does not answer, sends back to the sign-in page with a clear reason', async () => {
    // A port nobody listens on.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const down = await world({ emisor: `http://127.0.0.1:${closedPort}` });
    const api = new ApiClient(t.app, nextIp());
    const started = performance.now();
    expectRefusal(await api.get(`/api/sso/iniciar?correo=ana@${down.dominio}`), 'proveedor');
    expect(performance.now() - started).toBeLessThan(3000);
    expect(SSO_ERROR_MESSAGES.proveedor).toBe(MSG.ssoProveedorCaido);
    expect((await lastFailure()).metadata).toMatchObject({ motivo: 'proveedor', id_cliente: down.client.id });

    // A provider that accepts the connection and never answers: given up after 5 seconds.
    const silent = http.createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const hung = await world({ emisor: `http://127.0.0.1:${(silent.address() as AddressInfo).port}` });
      const begun = performance.now();
      expectRefusal(await api.get(`/api/sso/iniciar?correo=ana@${hung.dominio}`), 'proveedor');
      const took = performance.now() - begun;
      expect(took).toBeGreaterThan(4500);
      expect(took).toBeLessThan(8000);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((resolve) => silent.close(() => resolve()));
    }
  }, 30_000);

  it('no account: refused, or created as rol 1 with the client’s defaults when alta_automatica', async () => {
    const closed = await world();
    const nadie = `nadie@${closed.dominio}`;
    provider.setAccount(nadie, { email: nadie, email_verified: true });
    expectRefusal(await ssoSignIn(new ApiClient(t.app, nextIp()), nadie), 'sin_cuenta');

    const open = await world({ alta_automatica: true });
    const existing = await makeUser(db(), {
      rol: 1,
      idCliente: closed.client.id,
      usuario: `maria.lopez${open.client.id}`,
    });
    const correo = `${existing.usuario}@${open.dominio}`;
    provider.setAccount(correo, {
      email: correo,
      email_verified: true,
      given_name: 'María',
      family_name: 'López',
    });
    const api = new ApiClient(t.app, nextIp());
    const res = await ssoSignIn(api, correo);
    expect(res.headers.location).toBe('/');
    const session = await api.get('/api/sesion');
    expect(session.statusCode, session.body).toBe(200);
    const me = session.json().user;
    // A unique username from the e-mail's local part (that one was taken), no password, no change asked.
    expect(me).toMatchObject({ rol: 1, nombre: 'María López', debe_cambiar_password: false });
    expect(me.usuario).not.toBe(existing.usuario);
    expect(me.usuario.startsWith(existing.usuario.toLowerCase())).toBe(true);
    const [row] = await db().select().from(users).where(eq(users.id, me.id));
    expect(row).toMatchObject({
      idCliente: open.client.id,
      email: correo,
      passwordHash: null,
      activo: true,
      limiteDeCompras: open.client.limiteDeCompras,
      presupuestoDefault: open.client.presupuestoDefault,
    });
    // No welcome link nor e-mail: the account signs in with the company's account.
    expect(await db().select().from(passwordTokens).where(eq(passwordTokens.userId, me.id))).toEqual([]);
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.userId, me.id))).toEqual([]);
    const [created] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'usuario_creado'), eq(systemLogs.userId, me.id)));
    expect(created?.metadata).toMatchObject({ origen: 'sso', id_cliente: open.client.id, rol: 1 });
    // The next sign-in finds that account.
    const again = new ApiClient(t.app, nextIp());
    expect((await ssoSignIn(again, correo)).headers.location).toBe('/');
    expect((await again.get('/api/sesion')).json().user.id).toBe(me.id);
  });

  it('the rules of every sign-in hold: a deactivated account is refused (never re-created), and another client’s account is not this client’s', async () => {
    const w = await world({ alta_automatica: true });
    const { user, correo } = await person(w, { activo: false });
    const api = new ApiClient(t.app, nextIp());
    expectRefusal(await ssoSignIn(api, correo), 'usuario_inactivo');
    expect(await lastFailure()).toMatchObject({ userId: user.id });
    expect(
      await db().select({ id: users.id }).from(users).where(sql`lower(${users.email}) = ${correo}`),
    ).toHaveLength(1);
    // An account of another client with that e-mail is not this client's.
    const other = await makeClient(db());
    const elsewhere = `otra@${(await world()).dominio}`;
    await makeUser(db(), { rol: 1, idCliente: other.id, email: elsewhere });
    provider.setAccount(elsewhere, { email: elsewhere, email_verified: true });
    expectRefusal(await ssoSignIn(new ApiClient(t.app, nextIp()), elsewhere), 'sin_cuenta');
    // Two active accounts of the client with the same e-mail: which one is not guessed.
    const twice = await person(w);
    await makeUser(db(), { rol: 2, idCliente: w.client.id, email: twice.correo });
    expectRefusal(await ssoSignIn(new ApiClient(t.app, nextIp()), twice.correo), 'varias_cuentas');
  });

  it('no portal second factor and no password change after it: the company’s provider authenticated the person', async () => {
    const w = await world();
    const { user, correo } = await person(w, { rol: 2 });
    const secret = newTotpSecret();
    await db()
      .update(users)
      .set({
        totpSecret: sealTotpSecret(t.app.keys.encryption, user.id, secret),
        totpEnabledAt: new Date(),
        passwordHash: null,
        passwordChangedAt: null,
      })
      .where(eq(users.id, user.id));
    const api = new ApiClient(t.app, nextIp());
    expect((await ssoSignIn(api, correo)).headers.location).toBe('/');
    const session = await api.get('/api/sesion');
    expect(session.statusCode, session.body).toBe(200);
    expect(session.json().user).toMatchObject({
      id: user.id,
      debe_cambiar_password: false,
      motivo_cambio_password: null,
      dos_pasos: true,
    });
    // A client that requires two-step sign-in does not hold an account without a password at enrolment.
    await db().update(clients).set({ requiere2fa: true }).where(eq(clients.id, w.client.id));
    await db().update(users).set({ totpSecret: null, totpEnabledAt: null }).where(eq(users.id, user.id));
    const fresh = new ApiClient(t.app, nextIp());
    expect((await ssoSignIn(fresh, correo)).headers.location).toBe('/');
    const after = await fresh.get('/api/pedidos');
    expect(after.statusCode, after.body).toBe(200);
    expect((await fresh.get('/api/sesion')).json().user.debe_activar_2fa).toBe(false);
  });

  it('obligatorio refuses password sign-in for roles 1–3 of the client; rol 4 is never held', async () => {
    const w = await world({ obligatorio: true });
    const buyer = await person(w);
    const approver = await person(w, { rol: 2 });
    for (const u of [buyer.user, approver.user]) {
      const res = await new ApiClient(t.app, nextIp()).login(u.usuario, TEST_PASSWORD);
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json()).toMatchObject({ code: 'SSO_REQUIRED', msg: MSG.ssoObligatorio });
    }
    const [entry] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'login_rechazado'), eq(systemLogs.userId, buyer.user.id)));
    expect(entry?.metadata).toMatchObject({ motivo: 'SSO_REQUIRED' });
    // The administrator signs in with the password as always.
    const adm = await makeUser(db(), { rol: 4, idCliente: null });
    expect((await new ApiClient(t.app, nextIp()).login(adm.usuario, TEST_PASSWORD)).statusCode).toBe(200);
    // The company's account still works; without obligatorio the password does again.
    expect((await ssoSignIn(new ApiClient(t.app, nextIp()), buyer.correo)).headers.location).toBe('/');
    await admin.put(
      `/api/clients/${w.client.id}/sso`,
      configBody([w.dominio], { secreto: '', obligatorio: false }),
    );
    expect((await new ApiClient(t.app, nextIp()).login(buyer.user.usuario, TEST_PASSWORD)).statusCode).toBe(
      200,
    );
  });

  it('the administrator’s routes: Spanish 400s, 404s, the secret kept sealed and never returned, a domain of one client only', async () => {
    const client = await makeClient(db());
    const url = `/api/clients/${client.id}/sso`;
    const missing = await admin.get(url);
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ code: 'SSO_NOT_CONFIGURED', msg: MSG.ssoNoConfigurado });
    expect((await admin.get('/api/clients/999999/sso')).json()).toMatchObject({ code: 'CLIENT_NOT_FOUND' });
    expect((await admin.put('/api/clients/999999/sso', configBody([newDomain()]))).statusCode).toBe(404);
    expect((await admin.request('DELETE', url)).statusCode).toBe(404);

    const bad = async (body: Record<string, unknown>, field: string, msg: string) => {
      const res = await admin.put(url, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toBe(msg);
      if (field) expect(res.json().errors?.[field]).toBe(msg);
    };
    const dominio = newDomain();
    await bad(configBody([dominio], { emisor: 'no es una url' }), 'emisor', MSG.ssoEmisorInvalido);
    await bad(configBody([dominio], { emisor: 'ftp://idp.example.com' }), 'emisor', MSG.ssoEmisorInvalido);
    await bad(configBody([dominio], { id_cliente: '' }), 'id_cliente', MSG.ssoIdClienteInvalido);
    await bad(configBody(['no un dominio']), 'dominios', MSG.ssoDominiosInvalidos);
    await bad(configBody([]), 'dominios', MSG.ssoDominiosInvalidos);
    await bad(configBody([dominio], { secreto: undefined }), 'secreto', MSG.ssoSecretoRequerido);
    await bad(configBody([dominio], { secreto: '  ' }), 'secreto', MSG.ssoSecretoRequerido);
    await bad(configBody([dominio], { emisor: `${provider.issuer}/?a=1` }), 'emisor', MSG.ssoEmisorForma);

    // Saved: the view has no secret, and the return address to register.
    const saved = await admin.put(url, {
      ...configBody([], { obligatorio: true }),
      dominios: ` @${dominio.toUpperCase()}, ${dominio}; `,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      emisor: provider.issuer,
      id_cliente: CLIENT_ID,
      tiene_secreto: true,
      dominios: [dominio],
      obligatorio: true,
      alta_automatica: false,
      activo: true,
      url_retorno: RETURN,
    });
    expect(saved.body).not.toContain(SECRET);
    const read = await admin.get(url);
    expect(read.json()).toEqual(saved.json());
    expect(read.body).not.toContain(SECRET);
    const [row] = await db().select().from(clientSso).where(eq(clientSso.idCliente, client.id));
    expect(row!.secretoCifrado).not.toContain(SECRET);
    expect(openSecret(t.app.keys.encryption, row!.secretoCifrado, ssoContext(client.id))).toBe(SECRET);

    // An empty secret keeps the stored one; a new one replaces it.
    await admin.put(url, configBody([dominio], { secreto: '' }));
    const [kept] = await db().select().from(clientSso).where(eq(clientSso.idCliente, client.id));
    expect(kept!.secretoCifrado).toBe(row!.secretoCifrado);
    await admin.put(url, configBody([dominio], { secreto: 'otro-secreto' }));
    const [changed] = await db().select().from(clientSso).where(eq(clientSso.idCliente, client.id));
    expect(openSecret(t.app.keys.encryption, changed!.secretoCifrado, ssoContext(client.id))).toBe(
      'otro-secreto',
    );

    // A domain another client signs in with.
    const other = await makeClient(db());
    const taken = await admin.put(`/api/clients/${other.id}/sso`, configBody([newDomain(), dominio]));
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toMatchObject({ code: 'SSO_DOMAIN_TAKEN', msg: MSG.ssoDominioEnUso });

    // The log says what changed, never the secret.
    const entries = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'sso_configurado'), eq(systemLogs.idCliente, client.id)));
    expect(entries).toHaveLength(3);
    expect(JSON.stringify(entries)).not.toContain(SECRET);
    expect(JSON.stringify(entries)).not.toContain('otro-secreto');

    // Removed: 404 after, the domain free for another client.
    const gone = await admin.request('DELETE', url);
    expect(gone.statusCode).toBe(200);
    expect(gone.json()).toEqual({ status: 'ok', msg: MSG.ssoEliminado });
    expect((await admin.get(url)).statusCode).toBe(404);
    expect((await admin.put(`/api/clients/${other.id}/sso`, configBody([dominio]))).statusCode).toBe(200);

    // Not an administrator: 403; not signed in: 401.
    const w = await world();
    const { user } = await person(w, { rol: 3 });
    const u3 = await new ApiClient(t.app, nextIp()).loginOk(user.usuario, TEST_PASSWORD);
    expect((await u3.get(`/api/clients/${w.client.id}/sso`)).statusCode).toBe(403);
    expect((await new ApiClient(t.app, nextIp()).get(`/api/clients/${w.client.id}/sso`)).statusCode).toBe(
      401,
    );
  });

  it('nothing of the code, the state or the secret reaches the log', async () => {
    const w = await world();
    const { correo } = await person(w);
    const api = new ApiClient(t.app, nextIp());
    const callback = await startAtProvider(api, correo);
    await api.get(pathOf(callback));
    const code = callback.searchParams.get('code')!;
    const state = callback.searchParams.get('state')!;
    const all = logLines.join('\n');
    expect(all).toContain('/api/sso/retorno?[oculto]');
    for (const secret of [code, state, SECRET]) expect(all).not.toContain(secret);
    const entries = JSON.stringify(await db().select().from(systemLogs));
    for (const secret of [code, state, SECRET]) expect(entries).not.toContain(secret);
  });
});
