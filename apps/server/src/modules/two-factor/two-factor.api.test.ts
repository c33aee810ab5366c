import { MAX_ID } from '@portal/shared/limits';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authAttempts,
  clients,
  emailOutbox,
  sessions,
  systemLogs,
  twoFactorBackupCodes,
  users,
} from '../../db/schema/index.ts';
import { codeAt, stepAt } from '../../lib/totp.ts';
import { MSG } from '../../messages.ts';
import { postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeClient, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { codeNow, enrolTwoFactor, secretOf } from '../../test/two-factor.ts';
import { BACKUP_CODE_FORMAT } from './backup-codes.ts';
import { twoFactorState } from './two-factor.repository.ts';

type Db = TestApp['database']['db'];

/**
 * A code that has not been used yet: the user's last used step is moved two steps back, as if the last
 * code had been typed a minute ago (each accepted code uses its step up).
 */
async function freshCode(db: Db, userId: number, secret: string): Promise<string> {
  await db
    .update(users)
    .set({ totpLastStep: stepAt(Date.now()) - 2 })
    .where(eq(users.id, userId));
  return codeNow(secret);
}

/** The app's codes of the last and next few minutes (none may appear in a mail or log). */
const recentCodes = (secret: string) =>
  Array.from({ length: 21 }, (_, i) => codeAt(secret, stepAt(Date.now()) - 10 + i));

/** The user's latest sign-in in the system log. */
async function lastLogin(db: Db, userId: number) {
  const [row] = await db
    .select()
    .from(systemLogs)
    .where(and(eq(systemLogs.userId, userId), eq(systemLogs.eventType, 'login')))
    .orderBy(desc(systemLogs.id))
    .limit(1);
  return row;
}

let ipCounter = 1;
/** A new address per client, so the throttle of one test never meets another's attempts. */
const nextIp = () => `10.77.${Math.floor(ipCounter / 250)}.${(ipCounter++ % 250) + 1}`;

async function outboxTo(db: Db, to: string) {
  return db.select().from(emailOutbox).where(eq(emailOutbox.to, to)).orderBy(emailOutbox.id);
}

async function logsOf(db: Db, userId: number) {
  return db.select().from(systemLogs).where(eq(systemLogs.userId, userId)).orderBy(systemLogs.id);
}

describe.each(DB_KINDS)('two-factor sign-in (%s)', (kind) => {
  let t: TestApp;
  let enforced: TestApp;
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestApp(kind);
    enforced = await createTestApp(kind, { env: { ADMIN_2FA_REQUIRED: 'true' } });
  });
  afterAll(async () => {
    await t?.close();
    await enforced?.close();
  });

  async function authorizer(app: TestApp = t, values: { idCliente?: number } = {}) {
    const client = values.idCliente ? { id: values.idCliente } : await makeClient(app.database.db);
    const user = await makeUser(app.database.db, {
      rol: 2,
      idCliente: client.id,
      nombre: 'Rosa Autorizadora',
    });
    const api = await new ApiClient(app.app, nextIp()).loginOk(user.usuario, TEST_PASSWORD);
    return { user, api, idCliente: client.id };
  }

  /** A rol-2 user with two-factor sign-in active, signed in in `api`. */
  async function enrolled() {
    const a = await authorizer();
    return { ...a, ...(await enrolTwoFactor(a.api)) };
  }

  /** Signs in with the password only: the answer asks for the second step. */
  async function passwordStep(app: TestApp, usuario: string, ip = nextIp()) {
    const c = new ApiClient(app.app, ip);
    await c.csrf();
    const before = { session: c.cookies.get('portal_session'), xsrf: c.xsrf };
    const res = await c.login(usuario, TEST_PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: '2fa_requerido' });
    expect(c.cookies.get('portal_session')).not.toBe(before.session);
    expect(c.xsrf).not.toBe(before.xsrf);
    return c;
  }

  const pendingRows = (userId: number) =>
    db()
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), eq(sessions.stage, 'segundo_factor')));

  describe('enrolment', () => {
    it('starts with a pending encrypted secret, confirms it with a code and shows 10 backup codes once', async () => {
      const { user, api } = await authorizer();
      expect((await api.get('/api/2fa')).json()).toEqual({
        activo: false,
        obligatorio: false,
        codigos_restantes: 0,
      });
      const noStart = await api.post('/api/2fa/activar', { codigo: '123456', password: TEST_PASSWORD });
      expect(noStart.statusCode).toBe(409);
      expect(noStart.json().code).toBe('TWO_FACTOR_NOT_STARTED');

      const first = await api.post('/api/2fa/iniciar', { password: TEST_PASSWORD });
      expect(first.statusCode).toBe(200);
      const url = new URL(first.json().otpauth_url);
      expect(url.protocol).toBe('otpauth:');
      expect(url.host).toBe('totp');
      expect(decodeURIComponent(url.pathname)).toBe(`/Portal de Compras:${user.usuario}`);
      expect(url.searchParams.get('issuer')).toBe('Portal de Compras');
      expect(url.searchParams.get('digits')).toBe('6');
      expect(url.searchParams.get('period')).toBe('30');
      expect(url.searchParams.get('algorithm')).toBe('SHA1');
      const oldSecret = secretOf(first.json().otpauth_url);
      expect(oldSecret).toMatch(/^[A-Z2-7]{32}$/);

      // Restarting gives a new secret; the first one no longer confirms anything.
      const second = await api.post('/api/2fa/iniciar', { password: TEST_PASSWORD });
      const secret = secretOf(second.json().otpauth_url);
      expect(secret).not.toBe(oldSecret);
      const [row] = await db().select().from(users).where(eq(users.id, user.id));
      expect(row!.totpPendingSecret).toMatch(/^v1\./);
      expect(row!.totpPendingSecret).not.toContain(secret);
      expect(row!.totpSecret).toBeNull();
      const stale = await api.post('/api/2fa/activar', {
        codigo: codeNow(oldSecret),
        password: TEST_PASSWORD,
      });
      expect(stale.statusCode).toBe(401);
      expect(stale.json()).toEqual({ code: 'BAD_CODE', msg: 'Código incorrecto' });

      const other = new ApiClient(t.app, nextIp());
      await other.loginOk(user.usuario, TEST_PASSWORD);

      const activated = await api.post('/api/2fa/activar', {
        codigo: ` ${codeNow(secret)} `,
        password: TEST_PASSWORD,
      });
      expect(activated.statusCode, activated.body).toBe(200);
      const codes: string[] = activated.json().codigos_respaldo;
      expect(codes).toHaveLength(10);
      expect(new Set(codes).size).toBe(10);
      for (const code of codes) expect(code).toMatch(BACKUP_CODE_FORMAT);

      const [after] = await db().select().from(users).where(eq(users.id, user.id));
      expect(after!.totpSecret).toMatch(/^v1\./);
      expect(after!.totpSecret).not.toContain(secret);
      expect(after!.totpPendingSecret).toBeNull();
      expect(after!.totpEnabledAt).toBeInstanceOf(Date);
      expect(after!.totpLastStep).toBeGreaterThanOrEqual(stepAt(Date.now()) - 1);
      const stored = await db()
        .select()
        .from(twoFactorBackupCodes)
        .where(eq(twoFactorBackupCodes.userId, user.id));
      expect(stored).toHaveLength(10);
      const storedText = JSON.stringify(stored);
      for (const code of codes) expect(storedText).not.toContain(code);

      expect((await api.get('/api/2fa')).json()).toEqual({
        activo: true,
        obligatorio: false,
        codigos_restantes: 10,
      });
      expect((await api.get('/api/sesion')).json().user).toMatchObject({
        dos_pasos: true,
        debe_activar_2fa: false,
      });
      // This browser continues; one signed in elsewhere with the password alone does not.
      expect((await other.get('/api/sesion')).statusCode).toBe(401);

      const again = await api.post('/api/2fa/iniciar', { password: TEST_PASSWORD });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('TWO_FACTOR_ACTIVE');
      expect(
        (await api.post('/api/2fa/activar', { codigo: codeNow(secret, 1), password: TEST_PASSWORD }))
          .statusCode,
      ).toBe(409);

      const events = (await logsOf(db(), user.id)).map((l) => l.eventType);
      expect(events).toEqual(
        expect.arrayContaining(['2fa_iniciada', '2fa_verificacion_fallida', '2fa_activada']),
      );
      const mails = await outboxTo(db(), user.email);
      expect(mails.map((m) => m.subject)).toEqual(['Activaste la verificación en dos pasos']);
    });

    it('starting and confirming the enrolment ask for the current password (a session alone does not suffice)', async () => {
      const { api, user } = await authorizer();
      const missing = await api.post('/api/2fa/iniciar', {});
      expect(missing.statusCode).toBe(400);
      expect(missing.json().msg).toBe(MSG.passwordActualRequerida);
      const wrong = await api.post('/api/2fa/iniciar', { password: 'Otra#2026x' });
      expect(wrong.statusCode).toBe(400);
      expect(wrong.json()).toMatchObject({ code: 'WRONG_PASSWORD', msg: MSG.passwordActualIncorrecta });
      expect((await twoFactorState(db(), user.id))?.totpPendingSecret ?? null).toBeNull();

      const started = await api.post('/api/2fa/iniciar', { password: TEST_PASSWORD });
      expect(started.statusCode).toBe(200);
      const secret = secretOf(started.json().otpauth_url);
      const noPassword = await api.post('/api/2fa/activar', { codigo: codeNow(secret) });
      expect(noPassword.statusCode).toBe(400);
      expect(noPassword.json().msg).toBe(MSG.passwordActualRequerida);
      const badPassword = await api.post('/api/2fa/activar', {
        codigo: codeNow(secret),
        password: 'Otra#2026x',
      });
      expect(badPassword.json()).toMatchObject({ code: 'WRONG_PASSWORD' });
      expect((await twoFactorState(db(), user.id))?.totpSecret ?? null).toBeNull();
      const events = (await logsOf(db(), user.id)).filter((l) => l.eventType === '2fa_verificacion_fallida');
      expect(events.map((l) => (l.metadata as { accion: string; motivo: string }).accion).sort()).toEqual([
        'activar',
        'iniciar',
      ]);
      const activated = await api.post('/api/2fa/activar', {
        codigo: codeNow(secret),
        password: TEST_PASSWORD,
      });
      expect(activated.statusCode, activated.body).toBe(200);
    });

    it('refuses a code of the wrong shape with a Spanish 400, and rol 1 gets 403 on every route', async () => {
      const { api } = await authorizer();
      await api.post('/api/2fa/iniciar', { password: TEST_PASSWORD });
      const bad = await api.post('/api/2fa/activar', { codigo: '12a456', password: TEST_PASSWORD });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().msg).toBe(MSG.codigoFormato);

      const client = await makeClient(db());
      const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
      const b = await new ApiClient(t.app, nextIp()).loginOk(buyer.usuario, TEST_PASSWORD);
      for (const [method, url, body] of [
        ['GET', '/api/2fa', undefined],
        ['POST', '/api/2fa/iniciar', { password: TEST_PASSWORD }],
        ['POST', '/api/2fa/activar', { codigo: '123456', password: TEST_PASSWORD }],
        ['POST', '/api/2fa/codigos-respaldo', { codigo: '123456' }],
        ['POST', '/api/2fa/desactivar', { password: TEST_PASSWORD, codigo: '123456' }],
      ] as const) {
        const res = await b.request(method, url, body);
        expect(res.statusCode, url).toBe(403);
      }
      expect((await b.get('/api/sesion')).json().user).toMatchObject({
        dos_pasos: false,
        debe_activar_2fa: false,
      });
    });

    it('counts wrong codes of a signed-in user: the sixth within 15 minutes is refused with 429', async () => {
      const { api, secret } = await enrolled();
      for (let i = 0; i < 5; i++) {
        const res = await api.post('/api/2fa/codigos-respaldo', { codigo: '000000' });
        expect(res.statusCode).toBe(codeNow(secret) === '000000' ? 200 : 401);
      }
      const res = await api.post('/api/2fa/codigos-respaldo', { codigo: codeNow(secret, 1) });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toMatchObject({ code: 'TWO_FACTOR_THROTTLED', msg: MSG.demasiadosIntentos });
    });
  });

  describe('sign-in with the second step', () => {
    it('the password opens only a 5-minute session that can do nothing but the second step', async () => {
      const { user, secret } = await enrolled();
      const lastAccess = async () =>
        (await db().select({ at: users.ultimoAcceso }).from(users).where(eq(users.id, user.id)))[0]!.at;
      await db().update(users).set({ ultimoAcceso: null }).where(eq(users.id, user.id));
      const c = await passwordStep(t, user.usuario);
      // "Último acceso" is the completed sign-in's: the password alone is not one.
      expect(await lastAccess()).toBeNull();
      const [pending] = await pendingRows(user.id);
      expect(pending).toBeDefined();
      const ttl = pending!.expiresAt.getTime() - Date.now();
      expect(ttl).toBeGreaterThan(4 * 60_000);
      expect(ttl).toBeLessThanOrEqual(5 * 60_000);

      for (const [method, url, body] of [
        ['GET', '/api/sesion', undefined],
        ['GET', '/api/pedidos', undefined],
        ['GET', '/api/2fa', undefined],
        ['POST', '/api/2fa/iniciar', { password: TEST_PASSWORD }],
        [
          'POST',
          '/api/repassword',
          { password: TEST_PASSWORD, newPass: 'Otra#20261', confirmPass: 'Otra#20261' },
        ],
      ] as const) {
        const res = await c.request(method, url, body);
        expect(res.statusCode, url).toBe(401);
        expect(res.json().code).toBe('UNAUTHENTICATED');
      }

      const pendingCookie = c.cookies.get('portal_session');
      const pendingXsrf = c.xsrf;
      const done = await c.post('/api/login/2fa', { codigo: await freshCode(db(), user.id, secret) });
      expect(done.statusCode, done.body).toBe(200);
      expect(done.json()).toMatchObject({
        status: 'ok',
        user: { id: user.id, rol: 2, dos_pasos: true, debe_activar_2fa: false, debe_cambiar_password: false },
      });
      expect(c.cookies.get('portal_session')).not.toBe(pendingCookie);
      expect(c.xsrf).not.toBe(pendingXsrf);
      expect((await c.get('/api/sesion')).statusCode).toBe(200);
      expect((await c.get('/api/pedidos')).statusCode).toBe(200);
      expect(await pendingRows(user.id)).toEqual([]);

      const login = await lastLogin(db(), user.id);
      expect(login!.metadata).toMatchObject({ segundo_factor: 'totp' });
      expect((await logsOf(db(), user.id)).map((l) => l.eventType)).toContain('login_2fa_pendiente');
      // Set with the 'login' entry, in its transaction.
      expect((await lastAccess())?.getTime()).toBe(login!.createdAt.getTime());
    });

    it('never accepts a code twice, even from two sign-ins at the same moment', async () => {
      const { user, secret } = await enrolled();
      const code = await freshCode(db(), user.id, secret);
      const a = await passwordStep(t, user.usuario);
      const b = await passwordStep(t, user.usuario);
      const [ra, rb] = await Promise.all([
        a.post('/api/login/2fa', { codigo: code }),
        b.post('/api/login/2fa', { codigo: code }),
      ]);
      expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 401]);
      const loser = ra.statusCode === 401 ? ra : rb;
      expect(loser.json()).toEqual({ code: 'BAD_CODE', msg: 'Código incorrecto' });

      // The same code in a later sign-in: refused, as is the code of an earlier step.
      const c = await passwordStep(t, user.usuario);
      expect((await c.post('/api/login/2fa', { codigo: code })).statusCode).toBe(401);
      expect((await c.post('/api/login/2fa', { codigo: codeNow(secret, -1) })).statusCode).toBe(401);
      expect((await c.post('/api/login/2fa', { codigo: codeNow(secret, 2) })).statusCode).toBe(401);
    });

    it('a backup code signs in once; written in capitals or without the dash it is the same code', async () => {
      const { user, codes } = await enrolled();
      const c = await passwordStep(t, user.usuario);
      const res = await c.post('/api/login/2fa', {
        codigo_respaldo: codes[0]!.toUpperCase().replace('-', ''),
      });
      expect(res.statusCode, res.body).toBe(200);
      expect((await c.get('/api/2fa')).json().codigos_restantes).toBe(9);

      const d = await passwordStep(t, user.usuario);
      const again = await d.post('/api/login/2fa', { codigo_respaldo: codes[0] });
      expect(again.statusCode).toBe(401);
      expect(again.json()).toEqual({ code: 'BAD_CODE', msg: 'Código incorrecto' });
      expect((await d.post('/api/login/2fa', { codigo_respaldo: codes[1] })).statusCode).toBe(200);

      const [used] = await db()
        .select({ n: sql<number>`count(*)::int` })
        .from(twoFactorBackupCodes)
        .where(
          and(eq(twoFactorBackupCodes.userId, user.id), sql`${twoFactorBackupCodes.usedAt} is not null`),
        );
      expect(used!.n).toBe(2);
      expect((await lastLogin(db(), user.id))!.metadata).toMatchObject({ segundo_factor: 'respaldo' });
    });

    it('takes either an app code or a backup code, not both or neither', async () => {
      const { user, codes, secret } = await enrolled();
      const c = await passwordStep(t, user.usuario);
      for (const body of [
        {},
        { codigo: codeNow(secret, 1), codigo_respaldo: codes[0] },
        { codigo: '12345' },
      ]) {
        const res = await c.post('/api/login/2fa', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().code).toBe('VALIDATION');
      }
      // A malformed body is not a wrong code: the session's count is untouched.
      const [pending] = await pendingRows(user.id);
      expect(pending!.failedCodes).toBe(0);
    });

    it('five wrong codes end the waiting session; they count in the sign-in throttle (then 429)', async () => {
      const { user, secret } = await enrolled();
      const ip = nextIp();
      const c = await passwordStep(t, user.usuario, ip);
      const wrong = codeNow(secret) === '111111' ? '222222' : '111111';
      for (let i = 1; i <= 4; i++) {
        const res = await c.post('/api/login/2fa', { codigo: wrong });
        expect(res.statusCode).toBe(401);
        expect(res.json()).toEqual({ code: 'BAD_CODE', msg: 'Código incorrecto' });
        expect((await pendingRows(user.id))[0]!.failedCodes).toBe(i);
      }
      const fifth = await c.post('/api/login/2fa', { codigo: wrong });
      expect(fifth.statusCode).toBe(401);
      expect(await pendingRows(user.id)).toEqual([]);
      // The right code now finds no waiting session.
      const late = await c.post('/api/login/2fa', { codigo: await freshCode(db(), user.id, secret) });
      expect(late.statusCode).toBe(401);

      // The five failures are the sign-in throttle's five: even the right password now waits.
      const retry = new ApiClient(t.app, ip);
      const blocked = await retry.login(user.usuario, TEST_PASSWORD);
      expect(blocked.statusCode).toBe(429);
      expect(blocked.json()).toEqual({ code: 'LOGIN_THROTTLED', msg: MSG.demasiadosIntentos });
      const failures = (await logsOf(db(), user.id)).filter((l) => l.eventType === 'login_2fa_fallido');
      expect(failures).toHaveLength(5);
      expect(failures[4]!.metadata).toMatchObject({ intentos: 5, cancelado: true });
    });

    it('the second step itself is throttled: wrong codes of two browsers add up to 429', async () => {
      const { user, secret } = await enrolled();
      const ip = nextIp();
      const wrong = codeNow(secret) === '333333' ? '444444' : '333333';
      const a = await passwordStep(t, user.usuario, ip);
      for (let i = 0; i < 3; i++)
        expect((await a.post('/api/login/2fa', { codigo: wrong })).statusCode).toBe(401);
      const b = await passwordStep(t, user.usuario, ip);
      for (let i = 0; i < 2; i++)
        expect((await b.post('/api/login/2fa', { codigo: wrong })).statusCode).toBe(401);
      const res = await a.post('/api/login/2fa', { codigo: await freshCode(db(), user.id, secret) });
      expect(res.statusCode).toBe(429);
      expect(res.json()).toEqual({ code: 'LOGIN_THROTTLED', msg: MSG.demasiadosIntentos });
      // From another address the same user still signs in.
      const c = await passwordStep(t, user.usuario);
      expect((await c.post('/api/login/2fa', { codigo: codeNow(secret) })).statusCode).toBe(200);
    });

    it('a right second step clears the failures of its username and address', async () => {
      const { user, secret } = await enrolled();
      const ip = nextIp();
      const c = await passwordStep(t, user.usuario, ip);
      expect(
        (await c.post('/api/login/2fa', { codigo: '999999' === codeNow(secret) ? '888888' : '999999' }))
          .statusCode,
      ).toBe(401);
      const before = await db().select().from(authAttempts).where(eq(authAttempts.ip, ip));
      expect(before).toHaveLength(1);
      expect(
        (await c.post('/api/login/2fa', { codigo: await freshCode(db(), user.id, secret) })).statusCode,
      ).toBe(200);
      expect(await db().select().from(authAttempts).where(eq(authAttempts.ip, ip))).toEqual([]);
    });

    it('an expired waiting session answers like a wrong code and uses nothing up', async () => {
      const { user, secret } = await enrolled();
      const c = await passwordStep(t, user.usuario);
      await db()
        .update(sessions)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(and(eq(sessions.userId, user.id), eq(sessions.stage, 'segundo_factor')));
      const code = await freshCode(db(), user.id, secret);
      const res = await c.post('/api/login/2fa', { codigo: code });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'BAD_CODE', msg: 'Código incorrecto' });
      // The code was not used up: a new sign-in takes it.
      const d = await passwordStep(t, user.usuario);
      expect((await d.post('/api/login/2fa', { codigo: code })).statusCode).toBe(200);
    });

    it('without a waiting session (signed out, or fully signed in) the answer is the same 401', async () => {
      const anon = new ApiClient(t.app, nextIp());
      await anon.csrf();
      const res = await anon.post('/api/login/2fa', { codigo: '123456' });
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ code: 'BAD_CODE', msg: 'Código incorrecto' });
      const backup = await anon.post('/api/login/2fa', { codigo_respaldo: 'abcd-efgh' });
      expect(backup.json()).toEqual({ code: 'BAD_CODE', msg: 'Código incorrecto' });

      const { api } = await authorizer();
      const signedIn = await api.post('/api/login/2fa', { codigo: '123456' });
      expect(signedIn.statusCode).toBe(401);
      expect(signedIn.json()).toEqual({ code: 'BAD_CODE', msg: 'Código incorrecto' });
      expect((await api.get('/api/sesion')).statusCode).toBe(200);
    });

    it('a user deactivated while the second step waits is refused and the waiting session ends', async () => {
      const { user, secret } = await enrolled();
      const c = await passwordStep(t, user.usuario);
      await db().update(users).set({ activo: false }).where(eq(users.id, user.id));
      const res = await c.post('/api/login/2fa', { codigo: await freshCode(db(), user.id, secret) });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('USER_INACTIVE');
      expect(await pendingRows(user.id)).toEqual([]);
    });

    it('users without two-factor sign-in keep the one-step sign-in', async () => {
      const { user } = await authorizer();
      const c = new ApiClient(t.app, nextIp());
      const res = await c.login(user.usuario, TEST_PASSWORD);
      expect(res.json()).toMatchObject({ status: 'ok', user: { dos_pasos: false, debe_activar_2fa: false } });
    });
  });

  describe('enforcement', () => {
    it('ADMIN_2FA_REQUIRED: an administrator enrols before anything else, then works and cannot turn it off', async () => {
      const edb = enforced.database.db;
      const adminUser = await makeUser(edb, { rol: 4, idCliente: null, nombre: 'Ada Administradora' });
      const api = new ApiClient(enforced.app, nextIp());
      const signed = await api.login(adminUser.usuario, TEST_PASSWORD);
      expect(signed.statusCode).toBe(200);
      expect(signed.json().user).toMatchObject({ dos_pasos: false, debe_activar_2fa: true });

      for (const url of ['/api/clientes', '/api/usuarios', '/api/logs']) {
        const res = await api.get(url);
        expect(res.statusCode, url).toBe(403);
        expect(res.json()).toEqual({ code: 'TWO_FACTOR_ENROLMENT_REQUIRED', msg: MSG.dosPasosRequerida });
      }
      const other = await makeUser(edb, { rol: 4, idCliente: null });
      expect((await api.post(`/api/recuperar/2fa/${other.id}`)).json().code).toBe(
        'TWO_FACTOR_ENROLMENT_REQUIRED',
      );
      expect((await api.post('/api/2fa/codigos-respaldo', { codigo: '123456' })).json().code).toBe(
        'TWO_FACTOR_ENROLMENT_REQUIRED',
      );
      // Still allowed: the session, the state, the enrolment and signing out.
      expect((await api.get('/api/sesion')).statusCode).toBe(200);
      expect((await api.get('/api/2fa')).json()).toEqual({
        activo: false,
        obligatorio: true,
        codigos_restantes: 0,
      });

      const { secret } = await enrolTwoFactor(api);
      expect((await api.get('/api/clientes')).statusCode).toBe(200);
      expect((await api.get('/api/sesion')).json().user).toMatchObject({
        dos_pasos: true,
        debe_activar_2fa: false,
      });

      const off = await api.post('/api/2fa/desactivar', {
        password: TEST_PASSWORD,
        codigo: await freshCode(edb, adminUser.id, secret),
      });
      expect(off.statusCode).toBe(403);
      expect(off.json()).toEqual({ code: 'TWO_FACTOR_REQUIRED', msg: MSG.dosPasosObligatoria });
      expect((await api.get('/api/2fa')).json()).toMatchObject({ activo: true, obligatorio: true });
      expect((await api.get('/api/logout')).statusCode).toBe(200);
    });

    it('the forced password change comes first; buyers and the other app are not concerned', async () => {
      const edb = enforced.database.db;
      const adminUser = await makeUser(edb, { rol: 4, idCliente: null, passwordTemporary: true });
      const api = await new ApiClient(enforced.app, nextIp()).loginOk(adminUser.usuario, TEST_PASSWORD);
      const res = await api.post('/api/2fa/iniciar', { password: TEST_PASSWORD });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('PASSWORD_CHANGE_REQUIRED');
      expect((await api.get('/api/sesion')).json().user).toMatchObject({
        debe_cambiar_password: true,
        debe_activar_2fa: true,
      });

      // Without ADMIN_2FA_REQUIRED administrators are free.
      const { api: admin } = await signedInAdmin(t.app, db());
      expect((await admin.get('/api/clientes')).statusCode).toBe(200);
      expect((await admin.get('/api/2fa')).json()).toMatchObject({ obligatorio: false });
    });

    it("a client's requiere_2fa: saved and read through the client form, enforced on its roles 2 and 3 only", async () => {
      const { api: admin } = await signedInAdmin(t.app, db());
      const created = await postForm(admin, '/api/clientes', {
        nombre: 'Cliente con dos pasos',
        presupuesto_default: 1000,
        limite_de_compras: 3,
        cantidad_autorizadores: 2,
        requiere_2fa: 1,
      });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json().cliente.requiere_2fa).toBe(true);
      const idCliente: number = created.json().cliente.id;
      const plain = await postForm(admin, '/api/clientes', {
        nombre: 'Cliente sin dos pasos',
        presupuesto_default: 1000,
        limite_de_compras: 3,
      });
      expect(plain.json().cliente.requiere_2fa).toBe(false);
      const listed = (await admin.get('/api/clientes?per_page=1000')).json().clientes as {
        id: number;
        requiere_2fa: boolean;
      }[];
      expect(listed.find((c) => c.id === idCliente)?.requiere_2fa).toBe(true);

      const rol2 = await makeUser(db(), { rol: 2, idCliente });
      const rol3 = await makeUser(db(), { rol: 3, idCliente });
      const buyer = await makeUser(db(), { rol: 1, idCliente });
      const a2 = await new ApiClient(t.app, nextIp()).loginOk(rol2.usuario, TEST_PASSWORD);
      const a3 = await new ApiClient(t.app, nextIp()).loginOk(rol3.usuario, TEST_PASSWORD);
      const b1 = await new ApiClient(t.app, nextIp()).loginOk(buyer.usuario, TEST_PASSWORD);
      for (const api of [a2, a3]) {
        const res = await api.get('/api/pedidos');
        expect(res.statusCode).toBe(403);
        expect(res.json().code).toBe('TWO_FACTOR_ENROLMENT_REQUIRED');
        expect((await api.get('/api/sesion')).json().user.debe_activar_2fa).toBe(true);
      }
      expect((await b1.get('/api/catalogo')).statusCode).toBe(200);
      expect((await b1.get('/api/sesion')).json().user.debe_activar_2fa).toBe(false);

      const { secret } = await enrolTwoFactor(a2);
      expect((await a2.get('/api/pedidos')).statusCode).toBe(200);
      const off = await a2.post('/api/2fa/desactivar', {
        password: TEST_PASSWORD,
        codigo: await freshCode(db(), rol2.id, secret),
      });
      expect(off.json().code).toBe('TWO_FACTOR_REQUIRED');

      // Turning the setting off (an update without the field keeps it; 0 turns it off) frees rol 3 at once.
      const kept = await postForm(admin, `/api/clientes/update/${idCliente}`, {
        nombre: 'Cliente con dos pasos',
        presupuesto_default: 1000,
        limite_de_compras: 3,
      });
      expect(kept.json().cliente.requiere_2fa).toBe(true);
      const updated = await postForm(admin, `/api/clientes/update/${idCliente}`, {
        nombre: 'Cliente con dos pasos',
        presupuesto_default: 1000,
        limite_de_compras: 3,
        requiere_2fa: 0,
      });
      expect(updated.statusCode, updated.body).toBe(200);
      expect(updated.json().cliente.requiere_2fa).toBe(false);
      expect((await a3.get('/api/pedidos')).statusCode).toBe(200);
      const [log] = await db()
        .select()
        .from(systemLogs)
        .where(eq(systemLogs.eventType, 'cliente_actualizado'))
        .orderBy(desc(systemLogs.id))
        .limit(1);
      expect((log!.metadata as { campos: string[] }).campos).toContain('requiere2fa');
    });
  });

  describe('deactivation and new backup codes', () => {
    it('needs the password and a current code; then the sign-in is one step again', async () => {
      const { user, api, secret } = await enrolled();
      const wrongPassword = await api.post('/api/2fa/desactivar', {
        password: 'NoEsLaMia#1',
        codigo: await freshCode(db(), user.id, secret),
      });
      expect(wrongPassword.statusCode).toBe(400);
      expect(wrongPassword.json()).toMatchObject({
        code: 'WRONG_PASSWORD',
        errors: { password: MSG.passwordActualIncorrecta },
      });
      const wrongCode = await api.post('/api/2fa/desactivar', {
        password: TEST_PASSWORD,
        codigo: codeNow(secret) === '555555' ? '666666' : '555555',
      });
      expect(wrongCode.statusCode).toBe(401);
      expect(wrongCode.json()).toEqual({ code: 'BAD_CODE', msg: 'Código incorrecto' });
      expect((await api.get('/api/2fa')).json().activo).toBe(true);

      const other = await passwordStep(t, user.usuario);
      expect(
        (await other.post('/api/login/2fa', { codigo: await freshCode(db(), user.id, secret) })).statusCode,
      ).toBe(200);
      const ok = await api.post('/api/2fa/desactivar', {
        password: TEST_PASSWORD,
        codigo: await freshCode(db(), user.id, secret),
      });
      expect(ok.statusCode, ok.body).toBe(200);
      expect(ok.json()).toEqual({ status: 'ok', msg: MSG.dosPasosDesactivada });
      expect((await api.get('/api/2fa')).json()).toEqual({
        activo: false,
        obligatorio: false,
        codigos_restantes: 0,
      });
      const [row] = await db().select().from(users).where(eq(users.id, user.id));
      expect(row).toMatchObject({
        totpSecret: null,
        totpPendingSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
      });
      expect(
        await db().select().from(twoFactorBackupCodes).where(eq(twoFactorBackupCodes.userId, user.id)),
      ).toEqual([]);
      // The other browser's session ends; this one goes on.
      expect((await other.get('/api/sesion')).statusCode).toBe(401);
      expect((await api.get('/api/sesion')).json().user.dos_pasos).toBe(false);
      const plain = await new ApiClient(t.app, nextIp()).login(user.usuario, TEST_PASSWORD);
      expect(plain.json().status).toBe('ok');

      const again = await api.post('/api/2fa/desactivar', { password: TEST_PASSWORD, codigo: '123456' });
      expect(again.statusCode).toBe(409);
      expect(again.json().code).toBe('TWO_FACTOR_INACTIVE');
      expect((await logsOf(db(), user.id)).map((l) => l.eventType)).toContain('2fa_desactivada');
    });

    it('a backup code may stand in for the app code', async () => {
      const { api, codes } = await enrolled();
      const ok = await api.post('/api/2fa/desactivar', { password: TEST_PASSWORD, codigo: codes[3] });
      expect(ok.statusCode, ok.body).toBe(200);
    });

    it('new backup codes need a current app code; the old ones stop working', async () => {
      const { user, api, secret, codes } = await enrolled();
      const refused = await api.post('/api/2fa/codigos-respaldo', {
        codigo: codeNow(secret) === '777777' ? '888888' : '777777',
      });
      expect(refused.statusCode).toBe(401);
      const res = await api.post('/api/2fa/codigos-respaldo', {
        codigo: await freshCode(db(), user.id, secret),
      });
      expect(res.statusCode, res.body).toBe(200);
      const fresh: string[] = res.json().codigos_respaldo;
      expect(fresh).toHaveLength(10);
      expect(fresh.filter((c) => codes.includes(c))).toEqual([]);
      expect((await api.get('/api/2fa')).json().codigos_restantes).toBe(10);

      const c = await passwordStep(t, user.usuario);
      expect((await c.post('/api/login/2fa', { codigo_respaldo: codes[0] })).statusCode).toBe(401);
      expect((await c.post('/api/login/2fa', { codigo_respaldo: fresh[0] })).statusCode).toBe(200);
      expect((await logsOf(db(), user.id)).map((l) => l.eventType)).toContain('2fa_codigos_regenerados');
      const inactive = await authorizer();
      const none = await inactive.api.post('/api/2fa/codigos-respaldo', { codigo: '123456' });
      expect(none.statusCode).toBe(409);
    });
  });

  describe("the administrator's reset", () => {
    it('turns off another user’s second factor, ends their sessions, logs it and tells them by e-mail', async () => {
      const { user: adminUser, api: admin } = await signedInAdmin(t.app, db());
      const { user, api, secret, codes } = await enrolled();

      const detail = await admin.get(`/api/usuarios/${user.id}`);
      expect(detail.json().usuario.dos_pasos).toBe(true);
      const list = await admin.get(`/api/usuarios?id_cliente=${user.idCliente}`);
      expect(list.json().usuarios.find((u: { id: number }) => u.id === user.id).dos_pasos).toBe(true);

      const own = await admin.post(`/api/recuperar/2fa/${adminUser.id}`);
      expect(own.statusCode).toBe(422);
      expect(own.json()).toEqual({ code: 'OWN_TWO_FACTOR', msg: MSG.dosPasosPropia });
      const missing = await admin.post(`/api/recuperar/2fa/${MAX_ID}`);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().code).toBe('USER_NOT_FOUND');
      const notActive = await authorizer();
      const inactive = await admin.post(`/api/recuperar/2fa/${notActive.user.id}`);
      expect(inactive.statusCode).toBe(409);
      expect(inactive.json().code).toBe('TWO_FACTOR_INACTIVE');
      // Only administrators.
      expect((await notActive.api.post(`/api/recuperar/2fa/${user.id}`)).statusCode).toBe(403);

      const res = await admin.post(`/api/recuperar/2fa/${user.id}`);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', msg: MSG.dosPasosRestablecida });
      expect((await api.get('/api/sesion')).statusCode).toBe(401);
      expect((await admin.get(`/api/usuarios/${user.id}`)).json().usuario.dos_pasos).toBe(false);
      const signed = await new ApiClient(t.app, nextIp()).login(user.usuario, TEST_PASSWORD);
      expect(signed.json()).toMatchObject({ status: 'ok', user: { dos_pasos: false } });

      const [log] = await db()
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.eventType, '2fa_restablecida'), eq(systemLogs.userId, adminUser.id)));
      expect(log!.metadata).toMatchObject({ id_usuario: user.id, correo_enviado: true });
      const mails = await outboxTo(db(), user.email);
      const reset = mails.find(
        (m) => m.subject === 'El administrador restableció tu verificación en dos pasos',
      );
      expect(reset).toBeDefined();
      const all = mails.map((m) => `${m.subject}\n${m.text}\n${m.html}`).join('\n');
      expect(all).not.toContain(secret);
      for (const code of codes) expect(all).not.toContain(code);
      for (const code of recentCodes(secret)) expect(all).not.toContain(code);
    });

    it('an administrator may reset another administrator', async () => {
      const { api: admin } = await signedInAdmin(t.app, db());
      const { user: other, api } = await signedInAdmin(t.app, db());
      await enrolTwoFactor(api);
      expect((await admin.post(`/api/recuperar/2fa/${other.id}`)).statusCode).toBe(200);
      expect((await api.get('/api/sesion')).statusCode).toBe(401);
    });
  });

  it('the e-mails of activation, new codes, deactivation and reset say what happened and carry no code', async () => {
    const { user, api, secret, codes } = await enrolled();
    const regenerated = await api.post('/api/2fa/codigos-respaldo', {
      codigo: await freshCode(db(), user.id, secret),
    });
    const fresh: string[] = regenerated.json().codigos_respaldo;
    await api.post('/api/2fa/desactivar', { password: TEST_PASSWORD, codigo: fresh[0] });
    const mails = await outboxTo(db(), user.email);
    expect(mails.map((m) => m.subject)).toEqual([
      'Activaste la verificación en dos pasos',
      'Generaste nuevos códigos de respaldo',
      'Desactivaste la verificación en dos pasos',
    ]);
    expect(mails[0]!.text).toContain('códigos de respaldo');
    expect(mails[1]!.text).toContain('los anteriores ya no sirven');
    expect(mails[2]!.text).toContain('basta tu contraseña');
    for (const m of mails) {
      const whole = `${m.text}\n${m.html}`;
      expect(whole).toContain('Rosa Autorizadora');
      expect(whole).toContain('http://portal.test/login');
      expect(whole).not.toContain(secret);
      for (const code of [...codes, ...fresh]) expect(whole).not.toContain(code);
      for (const code of recentCodes(secret)) expect(whole).not.toContain(code);
    }
    const rows = await db()
      .select({
        eventType: systemLogs.eventType,
        metadata: systemLogs.metadata,
        description: systemLogs.description,
      })
      .from(systemLogs)
      .where(
        and(
          eq(systemLogs.userId, user.id),
          inArray(systemLogs.eventType, ['2fa_activada', '2fa_codigos_regenerados', '2fa_desactivada']),
        ),
      );
    expect(rows).toHaveLength(3);
    const logged = JSON.stringify(rows);
    expect(logged).not.toContain(secret);
    for (const code of [...codes, ...fresh]) expect(logged).not.toContain(code);
    const clientRow = await db().select().from(clients).where(eq(clients.id, user.idCliente!));
    expect(clientRow[0]!.requiere2fa).toBe(false);
  });
});
