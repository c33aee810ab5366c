import { sealLogin } from '@portal/shared/domain/login-envelope';
import { addDays, businessDate } from '@portal/shared/domain/time';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  authAttempts,
  emailOutbox,
  passwordTokens,
  sessions,
  systemLogs,
  users,
} from '../../db/schema/index.ts';
import { needsRehash } from '../../lib/passwords.ts';
import { hashToken } from '../../lib/tokens.ts';
import { MSG } from '../../messages.ts';
import { monthsBack } from '../../test/calendar.ts';
import {
  legacyHash,
  makeClient,
  makeUser,
  makeWeek,
  TEST_PASSWORD,
  uniq,
  withProductionHashing,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { expectLinkLive, expectLinkRefused, expireLink, linkIn, plantLinks } from '../../test/links.ts';
import { startSmtp } from '../../test/smtp.ts';

describe.each(DB_KINDS)('sign-in, sessions and passwords (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const logLines: string[] = [];
  const today = businessDate(new Date());

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, {
      env: { SMTP_URL: smtp.url },
      logLines,
      extend: (app) => {
        app.get('/api/test/solo-admin', { preHandler: app.guard({ roles: [4] }) }, async () => ({
          ok: true,
        }));
        app.get('/api/test/solo-usuario', { preHandler: app.guard({ roles: [1] }) }, async () => ({
          ok: true,
        }));
        app.get('/api/test/autorizadores', { preHandler: app.guard({ roles: [2, 3] }) }, async () => ({
          ok: true,
        }));
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  const db = () => t.database.db;

  it('GET /sanctum/csrf-cookie sets a readable XSRF cookie and an httpOnly Lax session cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    expect(res.statusCode).toBe(204);
    const cookies = res.cookies as { name: string; httpOnly?: boolean; sameSite?: string; value: string }[];
    const xsrf = cookies.find((c) => c.name === 'XSRF-TOKEN');
    const session = cookies.find((c) => c.name === 'portal_session');
    expect(xsrf?.httpOnly).toBeFalsy();
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Lax');
    expect(xsrf!.value.length).toBeGreaterThan(30);
    // The form's session is signed, not stored: a burst of anonymous visits writes nothing.
    const stored = async () => (await db().select().from(sessions)).length;
    const before = await stored();
    for (let i = 0; i < 20; i++) await t.app.inject({ method: 'GET', url: '/sanctum/csrf-cookie' });
    expect(await stored()).toBe(before);
    // A forged or altered anonymous cookie is no session: its sign-in is refused as CSRF.
    const altered = `${session!.value.slice(0, -2)}xx`;
    const forged = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { cookie: `portal_session=${altered}`, 'x-xsrf-token': xsrf!.value },
      payload: sealLogin({ usuario: 'nadie', password: 'x' }, xsrf!.value),
    });
    expect(forged.statusCode).toBe(419);
    // A signed-in session is stored, by the hash of its token only.
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 2, idCliente: client.id });
    const c = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    const rows = await db().select().from(sessions).where(eq(sessions.xsrfToken, c.xsrf!));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.id).not.toBe(c.cookies.get('portal_session'));
    expect(rows[0]!.id).toBe(hashToken(c.cookies.get('portal_session')!));
  });

  it('refuses a state-changing call without or with a wrong X-XSRF-TOKEN (419)', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 2, idCliente: client.id });
    const c = new ApiClient(t.app);
    await c.csrf();
    const body = sealLogin({ usuario: user.usuario, password: TEST_PASSWORD }, c.xsrf!);
    const missing = await c.post('/api/login', body, { xsrf: null });
    expect(missing.statusCode).toBe(419);
    expect(missing.json()).toMatchObject({ code: 'CSRF', msg: MSG.csrfInvalido });
    const wrong = await c.post('/api/login', body, { xsrf: 'x'.repeat(43) });
    expect(wrong.statusCode).toBe(419);
    const noSession = await new ApiClient(t.app).post(
      '/api/recuperar-password',
      { usuario: 'x' },
      { xsrf: 'abc' },
    );
    expect(noSession.statusCode).toBe(419);
    expect((await c.post('/api/login', body)).statusCode).toBe(200);
  });

  it('signs in, rotates the session id and XSRF token, and ends the form session', async () => {
    const client = await makeClient(db(), { nombre: 'Acme', color: '#112233', color2: '#445566' });
    const user = await makeUser(db(), { rol: 1, idCliente: client.id, nombre: 'Ana López' });
    const c = new ApiClient(t.app);
    await c.csrf();
    const before = { session: c.cookies.get('portal_session'), xsrf: c.xsrf };
    const res = await c.login(user.usuario.toUpperCase(), TEST_PASSWORD);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      status: 'ok',
      user: {
        id: user.id,
        rol: 1,
        nombre: 'Ana López',
        debe_cambiar_password: false,
        motivo_cambio_password: null,
        cliente: {
          id: client.id,
          nombre: 'Acme',
          color: '#112233',
          color2: '#445566',
          modo_presupuesto: 'regular',
        },
      },
      zona_horaria: 'America/Mexico_City',
    });
    expect(body.user).not.toHaveProperty('passwordHash');
    expect(JSON.stringify(body)).not.toContain('scrypt');
    expect(c.cookies.get('portal_session')).not.toBe(before.session);
    expect(c.xsrf).not.toBe(before.xsrf);
    const old = await t.app.inject({
      method: 'GET',
      url: '/api/sesion',
      headers: { cookie: `portal_session=${before.session}` },
    });
    expect(old.statusCode).toBe(401);
    const sesion = await c.get('/api/sesion');
    expect(sesion.statusCode).toBe(200);
    expect(sesion.json().user.usuario).toBe(user.usuario);
    const logins = await db().select().from(systemLogs).where(eq(systemLogs.userId, user.id));
    expect(logins.map((l) => l.eventType)).toContain('login');
  });

  it('a login body captured in one session is useless in another', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 2, idCliente: client.id });
    const victim = new ApiClient(t.app);
    await victim.csrf();
    const captured = sealLogin({ usuario: user.usuario, password: TEST_PASSWORD }, victim.xsrf!);
    const attacker = new ApiClient(t.app, '10.9.9.9');
    await attacker.csrf();
    const res = await attacker.post('/api/login', captured);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'ENVELOPE', msg: MSG.envelopeInvalido });
    // A tampered envelope is refused too.
    const tampered = { ...captured, data: `${captured.data.slice(0, -4)}AAAA` };
    expect((await victim.post('/api/login', tampered)).statusCode).toBe(400);
  });

  it('wrong password: 401 Credenciales incorrectas; empty fields: 400; 429 after 5 failures per user and address', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 2, idCliente: client.id });
    const c = new ApiClient(t.app, '10.1.1.1');
    const empty = await c.login('', '');
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe(MSG.llenarTodosLosDatos);
    for (let i = 0; i < 5; i++) {
      const res = await c.login(user.usuario, 'Incorrecta#1');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: 'BAD_CREDENTIALS', msg: MSG.credencialesIncorrectas });
    }
    const blocked = await c.login(user.usuario, TEST_PASSWORD);
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().msg).toBe(MSG.demasiadosIntentos);
    // Another office (address) is not blocked for the same user.
    expect((await new ApiClient(t.app, '10.1.1.2').login(user.usuario, TEST_PASSWORD)).statusCode).toBe(200);
    const unknown = await new ApiClient(t.app, '10.1.1.3').login('no-existe', TEST_PASSWORD);
    expect(unknown.statusCode).toBe(401);
    const failures = await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'login_fallido'));
    expect(failures.length).toBeGreaterThanOrEqual(6);
    expect(JSON.stringify(failures.map((f) => f.metadata))).not.toContain('Incorrecta#1');
  });

  it('the per-address ceiling is much higher than the per-user one', async () => {
    const c = new ApiClient(t.app, '10.2.2.2');
    await c.csrf();
    const rows = Array.from({ length: 99 }, (_, i) => ({
      kind: 'login',
      subject: `otro${i}`,
      ip: '10.2.2.2',
    }));
    await db().insert(authAttempts).values(rows);
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 2, idCliente: client.id });
    expect((await c.login(user.usuario, TEST_PASSWORD)).statusCode).toBe(200);
    const d = new ApiClient(t.app, '10.2.2.2');
    expect((await d.login('alguien', 'Mala#1234')).statusCode).toBe(401);
    expect((await d.login(user.usuario, TEST_PASSWORD)).statusCode).toBe(429);
  });

  it('GET /api/sesion without a session is 401; sign-out destroys the session', async () => {
    expect((await new ApiClient(t.app).get('/api/sesion')).statusCode).toBe(401);
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 3, idCliente: client.id });
    const c = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    const token = c.cookies.get('portal_session')!;
    const out = await c.get('/api/logout');
    expect(out.statusCode).toBe(200);
    expect(out.json()).toMatchObject({ status: 'ok' });
    const rows = await db()
      .select()
      .from(sessions)
      .where(eq(sessions.id, hashToken(token)));
    expect(rows).toHaveLength(0);
    const again = await t.app.inject({
      method: 'GET',
      url: '/api/sesion',
      headers: { cookie: `portal_session=${token}` },
    });
    expect(again.statusCode).toBe(401);
  });

  it('the guard lets each role only into its own routes', async () => {
    const client = await makeClient(db());
    const expectations: [number, string, number][] = [];
    for (const rol of [1, 2, 3, 4]) {
      const user = await makeUser(db(), { rol, idCliente: rol === 4 ? null : client.id });
      const c = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
      for (const [route, allowed] of [
        ['/api/test/solo-usuario', [1]],
        ['/api/test/autorizadores', [2, 3]],
        ['/api/test/solo-admin', [4]],
      ] as const) {
        const res = await c.get(route);
        expectations.push([rol, route, res.statusCode]);
        expect(res.statusCode, `${rol} ${route}`).toBe(
          (allowed as readonly number[]).includes(rol) ? 200 : 403,
        );
      }
    }
    expect((await new ApiClient(t.app).get('/api/test/solo-admin')).statusCode).toBe(401);
    expect(expectations).toHaveLength(12);
  });

  it('a temporary or 6-month-old password must be changed before anything else', async () => {
    const client = await makeClient(db());
    const temp = await makeUser(db(), { rol: 1, idCliente: client.id, passwordTemporary: true });
    // Seven calendar months back (the 15th at noon): past six months on any day.
    const aged = await makeUser(db(), { rol: 1, idCliente: client.id, passwordChangedAt: monthsBack(7) });
    for (const [user, reason] of [
      [temp, 'temporal'],
      [aged, 'caducada'],
    ] as const) {
      const c = new ApiClient(t.app);
      const res = await c.login(user.usuario, TEST_PASSWORD);
      expect(res.statusCode).toBe(200);
      expect(res.json().user).toMatchObject({ debe_cambiar_password: true, motivo_cambio_password: reason });
      expect((await c.get('/api/sesion')).json().user).toMatchObject({
        debe_cambiar_password: true,
        motivo_cambio_password: reason,
      });
      const blocked = await c.get('/api/test/solo-usuario');
      expect(blocked.statusCode).toBe(403);
      expect(blocked.json()).toMatchObject({
        code: 'PASSWORD_CHANGE_REQUIRED',
        msg: MSG.cambioPasswordRequerido,
      });
      const changed = await c.post('/api/repassword', {
        password: TEST_PASSWORD,
        newPass: 'Nueva#2027',
        confirmPass: 'Nueva#2027',
      });
      expect(changed.statusCode).toBe(200);
      expect((await c.get('/api/sesion')).json().user).toMatchObject({
        debe_cambiar_password: false,
        motivo_cambio_password: null,
      });
      expect((await c.get('/api/test/solo-usuario')).statusCode).toBe(200);
    }
  });

  it('POST /api/repassword: the spec messages, the current password, other sessions end, a notice e-mail without the password', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 1, idCliente: client.id, email: 'ana.cambio@example.test' });
    const c = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    const other = await new ApiClient(t.app, '10.3.3.3').loginOk(user.usuario, TEST_PASSWORD);
    const cases: [Record<string, string>, string][] = [
      [{ password: TEST_PASSWORD, newPass: '', confirmPass: '' }, MSG.todosLosCampos],
      [{ password: TEST_PASSWORD, newPass: 'corta1#', confirmPass: 'corta1#' }, MSG.passwordPolitica],
      [
        { password: TEST_PASSWORD, newPass: 'sinmayuscula1#', confirmPass: 'sinmayuscula1#' },
        MSG.passwordPolitica,
      ],
      [
        { password: TEST_PASSWORD, newPass: 'SinSimbolo123', confirmPass: 'SinSimbolo123' },
        MSG.passwordPolitica,
      ],
      [
        { password: TEST_PASSWORD, newPass: 'Valida#2027', confirmPass: 'Valida#2028' },
        MSG.passwordsNoCoinciden,
      ],
      [
        { password: 'Otra#2026x', newPass: 'Valida#2027', confirmPass: 'Valida#2027' },
        MSG.passwordActualIncorrecta,
      ],
    ];
    for (const [body, msg] of cases) {
      const res = await c.post('/api/repassword', body);
      expect(res.statusCode, msg).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    const missing = await c.post('/api/repassword', { newPass: 'x' });
    expect(missing.statusCode).toBe(400);
    const ok = await c.post('/api/repassword', {
      password: TEST_PASSWORD,
      newPass: 'Valida#2027',
      confirmPass: 'Valida#2027',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().msg).toBe(MSG.passwordActualizada);
    expect((await c.get('/api/sesion')).statusCode).toBe(200);
    expect((await other.get('/api/sesion')).statusCode).toBe(401);
    expect((await new ApiClient(t.app).login(user.usuario, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await new ApiClient(t.app).login(user.usuario, 'Valida#2027')).statusCode).toBe(200);
    await t.app.mailer.flush();
    const mail = await smtp.waitFor((m) => m.to.includes('ana.cambio@example.test'));
    expect(mail.subject).toContain('contraseña');
    expect(mail.text).not.toContain('Valida#2027');
    expect(mail.html).not.toContain('Valida#2027');
  });

  it('deactivating a user or its client refuses sign-in and ends open sessions at once', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 2, idCliente: client.id });
    const c = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    await db().update(users).set({ activo: false }).where(eq(users.id, user.id));
    const res = await c.get('/api/sesion');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'USER_INACTIVE', msg: MSG.usuarioInactivo });
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
    const login = await new ApiClient(t.app).login(user.usuario, TEST_PASSWORD);
    expect(login.statusCode).toBe(403);
    expect(login.json().msg).toBe(MSG.usuarioInactivo);

    const client2 = await makeClient(db(), { activo: true });
    const buyer = await makeUser(db(), { rol: 1, idCliente: client2.id });
    const b = await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD);
    const { clients } = await import('../../db/schema/index.ts');
    await db().update(clients).set({ activo: false }).where(eq(clients.id, client2.id));
    const refused = await b.get('/api/sesion');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'CLIENT_INACTIVE', msg: MSG.clienteInactivo });
    expect((await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD)).statusCode).toBe(403);
  });

  it('access weeks: a rol-1 user signs in only inside an active week of its client; no weeks means always', async () => {
    const free = await makeClient(db());
    const freeUser = await makeUser(db(), { rol: 1, idCliente: free.id });
    expect((await new ApiClient(t.app).login(freeUser.usuario, TEST_PASSWORD)).statusCode).toBe(200);

    const client = await makeClient(db());
    await makeWeek(db(), { idCliente: client.id, inicio: addDays(today, -20), fin: addDays(today, -16) });
    const week = await makeWeek(db(), {
      idCliente: client.id,
      inicio: today,
      fin: addDays(today, 4),
      activo: false,
    });
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const authorizer = await makeUser(db(), { rol: 2, idCliente: client.id });
    const outside = await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD);
    expect(outside.statusCode).toBe(403);
    // At sign-in the refusal also says when the next week starts; none is active ahead (decision 0097).
    expect(outside.json()).toMatchObject({ code: 'OUTSIDE_WEEK', msg: MSG.fueraDeSemanaProxima(null) });
    expect(MSG.fueraDeSemanaProxima(null)).toContain('ninguna semana de compra programada');
    expect((await new ApiClient(t.app).login(authorizer.usuario, TEST_PASSWORD)).statusCode).toBe(200);

    const { weeks } = await import('../../db/schema/index.ts');
    await db().update(weeks).set({ activo: true }).where(eq(weeks.id, week.id));
    const c = await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD);
    // The week is switched off while the session is open: the next call is refused and the session ends.
    await db().update(weeks).set({ activo: false }).where(eq(weeks.id, week.id));
    expect((await c.get('/api/sesion')).statusCode).toBe(403);
    expect(await db().select().from(sessions).where(eq(sessions.userId, buyer.id))).toHaveLength(0);
  });

  it('recovery: e-mailed single-use link, old password works until used, then only the new one', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      email: 'recupera@example.test',
      nombre: 'Rosa Díaz',
    });
    const c = new ApiClient(t.app, '10.4.4.4');
    const res = await c.post('/api/recuperar-password', { usuario: user.usuario });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', msg: MSG.correoEnviado });
    await t.app.mailer.flush();
    const mail = await smtp.waitFor(
      (m) => m.to.includes('recupera@example.test') && m.subject.includes('Recupera'),
    );
    const link = mail.text.match(/http:\/\/portal\.test\/restablecer\/([\w-]+)/);
    expect(link).not.toBeNull();
    const token = link![1]!;
    expect(mail.text).not.toContain(TEST_PASSWORD);
    // Only the hash is stored.
    const stored = await db().select().from(passwordTokens).where(eq(passwordTokens.userId, user.id));
    expect(stored[0]!.tokenHash).toBe(hashToken(token));
    expect(stored[0]!.expiresAt.getTime() - stored[0]!.createdAt.getTime()).toBeLessThanOrEqual(
      60 * 60_000 + 1000,
    );

    expect((await new ApiClient(t.app).login(user.usuario, TEST_PASSWORD)).statusCode).toBe(200);
    const check = await c.post('/api/restablecer/verificar', { token });
    expect(check.json()).toMatchObject({ status: 'ok', usuario: user.usuario, proposito: 'recuperacion' });
    const weak = await c.post('/api/restablecer-password', { token, newPass: 'debil', confirmPass: 'debil' });
    expect(weak.json().msg).toBe(MSG.passwordPolitica);
    const done = await c.post('/api/restablecer-password', {
      token,
      newPass: 'Recuperada#1',
      confirmPass: 'Recuperada#1',
    });
    expect(done.statusCode).toBe(200);
    expect((await new ApiClient(t.app).login(user.usuario, TEST_PASSWORD)).statusCode).toBe(401);
    expect((await new ApiClient(t.app).login(user.usuario, 'Recuperada#1')).statusCode).toBe(200);
    const reused = await c.post('/api/restablecer-password', {
      token,
      newPass: 'Otra#12345',
      confirmPass: 'Otra#12345',
    });
    expect(reused.statusCode).toBe(400);
    expect(reused.json().msg).toBe(MSG.enlaceInvalido);
    expect((await c.post('/api/restablecer/verificar', { token })).statusCode).toBe(400);
  });

  it('recovery: unknown user is 404 with the spec message, empty is 400, and it is rate limited', async () => {
    const c = new ApiClient(t.app, '10.5.5.5');
    const unknown = await c.post('/api/recuperar-password', { usuario: uniq('nadie') });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe(MSG.usuarioNoEncontradoSistema);
    const empty = await c.post('/api/recuperar-password', { usuario: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe(MSG.llenarTodosLosDatos);
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 1, idCliente: client.id, email: 'limite@example.test' });
    const d = new ApiClient(t.app, '10.5.5.6');
    for (let i = 0; i < 3; i++)
      expect((await d.post('/api/recuperar-password', { usuario: user.usuario })).statusCode).toBe(200);
    const limited = await d.post('/api/recuperar-password', { usuario: user.usuario });
    expect(limited.statusCode).toBe(429);
    // Only the newest link works.
    const live = (await db().select().from(passwordTokens).where(eq(passwordTokens.userId, user.id))).filter(
      (r) => !r.usedAt,
    );
    expect(live).toHaveLength(1);
  });

  it('a password changed by its owner retires every pending link of the account', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 1, idCliente: client.id });
    const links = await plantLinks(db(), user.id);
    await expectLinkLive(t.app, links.bienvenida, 'bienvenida antes');
    await expectLinkLive(t.app, links.recuperacion, 'recuperación antes');
    const c = await new ApiClient(t.app, '10.6.6.1').loginOk(user.usuario, TEST_PASSWORD);
    const changed = await c.post('/api/repassword', {
      password: TEST_PASSWORD,
      newPass: 'Propia#2027',
      confirmPass: 'Propia#2027',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    await expectLinkRefused(t.app, links.bienvenida, 'bienvenida');
    await expectLinkRefused(t.app, links.recuperacion, 'recuperación');
    expect((await new ApiClient(t.app, '10.6.6.2').login(user.usuario, 'Propia#2027')).statusCode).toBe(200);
  });

  it('a password set with a link retires the other links of the account too', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 1, idCliente: client.id, email: 'otros.enlaces@example.test' });
    // A welcome link that was never used and a recovery link of an earlier request.
    const planted = await plantLinks(db(), user.id);
    const c = new ApiClient(t.app, '10.6.6.3');
    expect((await c.post('/api/recuperar-password', { usuario: user.usuario })).statusCode).toBe(200);
    await t.app.mailer.flush();
    const mail = await smtp.waitFor(
      (m) => m.to.includes('otros.enlaces@example.test') && m.subject.includes('Recupera'),
    );
    const token = linkIn(mail.text);
    await expectLinkLive(t.app, planted.bienvenida, 'bienvenida antes');
    const done = await c.post('/api/restablecer-password', {
      token,
      newPass: 'ConEnlace#1',
      confirmPass: 'ConEnlace#1',
    });
    expect(done.statusCode, done.body).toBe(200);
    await expectLinkRefused(t.app, token, 'el enlace usado');
    await expectLinkRefused(t.app, planted.bienvenida, 'bienvenida');
    await expectLinkRefused(t.app, planted.recuperacion, 'recuperación anterior');
    const live = await db()
      .select()
      .from(passwordTokens)
      .where(and(eq(passwordTokens.userId, user.id), sql`${passwordTokens.usedAt} is null`));
    expect(live).toEqual([]);
  });

  it('an expired link is refused, whatever its purpose', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 1, idCliente: client.id });
    const links = await plantLinks(db(), user.id);
    for (const token of [links.bienvenida, links.recuperacion]) {
      await expectLinkLive(t.app, token);
      await expireLink(db(), token);
      await expectLinkRefused(t.app, token, 'vencido');
    }
    expect((await new ApiClient(t.app, '10.6.6.4').login(user.usuario, 'Tomada#2026')).statusCode).toBe(401);
  });

  it('with the production parameters, a hash of older ones is replaced at a successful sign-in, never at a failed one', () =>
    withProductionHashing(async () => {
      const client = await makeClient(db());
      const old = legacyHash(TEST_PASSWORD);
      expect(old).toMatch(/^scrypt\$16384\$8\$1\$/);
      expect(needsRehash(old)).toBe(true);
      const changedAt = new Date(Date.now() - 10 * 86_400_000);
      const user = await makeUser(db(), {
        rol: 2,
        idCliente: client.id,
        passwordHash: old,
        passwordChangedAt: changedAt,
      });
      const stored = async () => (await db().select().from(users).where(eq(users.id, user.id)))[0]!;
      const wrong = await new ApiClient(t.app, '10.7.7.1').login(user.usuario, 'Equivocada#1');
      expect(wrong.statusCode).toBe(401);
      expect((await stored()).passwordHash).toBe(old);

      const ok = await new ApiClient(t.app, '10.7.7.1').login(user.usuario, TEST_PASSWORD);
      expect(ok.statusCode).toBe(200);
      const after = await stored();
      expect(after.passwordHash).not.toBe(old);
      expect(after.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
      expect(needsRehash(after.passwordHash!)).toBe(false);
      // The same password, set at the same time: nothing about the password itself changed.
      expect(after.passwordChangedAt?.getTime()).toBe(changedAt.getTime());
      expect(after.passwordTemporary).toBe(false);
      expect((await new ApiClient(t.app, '10.7.7.2').login(user.usuario, TEST_PASSWORD)).statusCode).toBe(
        200,
      );
      expect((await new ApiClient(t.app, '10.7.7.3').login(user.usuario, 'Equivocada#1')).statusCode).toBe(
        401,
      );
      // A current hash is left alone.
      expect((await stored()).passwordHash).toBe(after.passwordHash);
    }));

  it('a temporary password works for 72 hours: then sign-in and open sessions are refused', async () => {
    const client = await makeClient(db());
    const hoursAgo = (user: { id: number }, hours: number) =>
      db()
        .update(users)
        .set({ passwordChangedAt: sql`now() - make_interval(hours => ${hours})` })
        .where(eq(users.id, user.id));
    const stale = await makeUser(db(), { rol: 1, idCliente: client.id, passwordTemporary: true });
    await hoursAgo(stale, 73);
    const refused = await new ApiClient(t.app, '10.8.8.1').login(stale.usuario, TEST_PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'TEMPORARY_PASSWORD_EXPIRED',
      msg: MSG.passwordTemporalVencida,
    });
    // Without the right password nothing is revealed.
    const wrong = await new ApiClient(t.app, '10.8.8.1').login(stale.usuario, 'Equivocada#1');
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().code).toBe('BAD_CREDENTIALS');
    const rejected = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.userId, stale.id), eq(systemLogs.eventType, 'login_rechazado')));
    expect(rejected).toHaveLength(1);

    const fresh = await makeUser(db(), { rol: 1, idCliente: client.id, passwordTemporary: true });
    await hoursAgo(fresh, 71);
    const c = new ApiClient(t.app, '10.8.8.2');
    const signed = await c.login(fresh.usuario, TEST_PASSWORD);
    expect(signed.statusCode, signed.body).toBe(200);
    expect(signed.json().user.debe_cambiar_password).toBe(true);
    expect((await c.get('/api/sesion')).statusCode).toBe(200);
    // The session outlives the 72 hours: its next call is refused and every session of the user ends.
    await hoursAgo(fresh, 73);
    const late = await c.get('/api/sesion');
    expect(late.statusCode).toBe(403);
    expect(late.json()).toMatchObject({
      code: 'TEMPORARY_PASSWORD_EXPIRED',
      msg: MSG.passwordTemporalVencida,
    });
    expect(await db().select().from(sessions).where(eq(sessions.userId, fresh.id))).toHaveLength(0);
    const change = await c.post('/api/repassword', {
      password: TEST_PASSWORD,
      newPass: 'Tarde#2027',
      confirmPass: 'Tarde#2027',
    });
    expect(change.statusCode).toBe(401);

    // A permanent password set just as long ago is not affected.
    const permanent = await makeUser(db(), { rol: 1, idCliente: client.id });
    await hoursAgo(permanent, 73);
    expect((await new ApiClient(t.app, '10.8.8.3').login(permanent.usuario, TEST_PASSWORD)).statusCode).toBe(
      200,
    );
  });

  it('no password, token or session id reaches the log or the outbox', async () => {
    const all = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(10);
    for (const secret of [
      TEST_PASSWORD,
      'Valida#2027',
      'Recuperada#1',
      'Incorrecta#1',
      'Propia#2027',
      'ConEnlace#1',
    ])
      expect(all).not.toContain(secret);
    const tokens = await db().select().from(sessions);
    for (const s of tokens) expect(all).not.toContain(s.xsrfToken);
    expect(all).not.toMatch(/restablecer\/[\w-]{20,}/);
    const outbox = await db().select().from(emailOutbox);
    for (const m of outbox) expect(`${m.text}${m.html}`).not.toContain(TEST_PASSWORD);
  });
});
