import { sealLogin } from '@portal/shared/domain/login-envelope';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  apiTokens,
  emailOutbox,
  passwordTokens,
  sessions,
  systemLogs,
  twoFactorBackupCodes,
  users,
  webhookEndpoints,
} from '../db/schema/index.ts';
import { DELIVERED_BODY } from '../lib/mailer.ts';
import { codeAt, stepAt, TOTP_PERIOD_SECONDS } from '../lib/totp.ts';
import { makeClient, makeUser, TEST_PASSWORD } from '../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';
import { type ReceivedMail, startSmtp } from '../test/smtp.ts';

/** Values a failing statement carries as parameters: none may reach the log. */
const QUERY_SECRETS = ['SECRETO-123', 'SECRETO-456'];

/** Routes of the test only, whose statements fail in the database with a secret among their parameters. */
function failingRoutes(app: FastifyInstance) {
  // A check constraint: the row (and so the secret) is in Drizzle's message, its params and PostgreSQL's detail.
  app.get('/api/prueba/error-bd/restriccion', async () => {
    await app.db.insert(users).values({
      usuario: `${QUERY_SECRETS[0]}-usuario`,
      email: `${QUERY_SECRETS[0]}@example.test`,
      nombre: 'Nombre',
      rol: 9,
      idCliente: null,
      passwordHash: `${QUERY_SECRETS[0]}-hash`,
    });
    return { ok: true };
  });
  // A cast: PostgreSQL's own message quotes the value ('invalid input syntax for type integer: "…"').
  app.get('/api/prueba/error-bd/conversion', async () => {
    await app.db.execute(sql`select ${QUERY_SECRETS[1]}::int as n`);
    return { ok: true };
  });
}

/**
 * No password, token, single-use link or second-factor secret or code in the log, the audit trail or an
 * e-mail — except the one exception of docs/domain.md: the administrator's reset e-mails the temporary
 * password to its owner. Every flow that handles a secret runs here against a real SMTP server with the
 * log captured at debug level.
 */

/** A 6-digit code is found only as a number of its own (not inside a longer one, like a timestamp). */
function holds(text: string, value: string): boolean {
  return /^\d{6}$/.test(value) ? new RegExp(`(?<!\\d)${value}(?!\\d)`).test(text) : text.includes(value);
}

describe.each(DB_KINDS)('secrets stay secret (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const logLines: string[] = [];
  const secrets = new Map<string, string>();
  const mails: Record<string, ReceivedMail> = {};
  const clientsSeen: ApiClient[] = [];
  /** Second-factor answers read back later (GET /api/2fa, the session, the admin's user pages, errors). */
  const laterReads: string[] = [];
  /** The administrator's integration reads after a token and a webhook were created. */
  const integrationReads: string[] = [];
  const track = (c: ApiClient) => {
    clientsSeen.push(c);
    return c;
  };

  /** Sets a new password through a form of the API and remembers it as a secret. */
  async function setPassword(c: ApiClient, url: string, base: object, name: string, password: string) {
    const res = await c.post(url, { ...base, newPass: password, confirmPass: password });
    expect(res.statusCode, res.body).toBe(200);
    secrets.set(name, password);
  }

  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, {
      env: { SMTP_URL: smtp.url, LOG_LEVEL: 'debug' },
      logLines,
      extend: failingRoutes,
    });
    const db = t.database.db;
    const client = await makeClient(db);
    const admin = await makeUser(db, { rol: 4, idCliente: null });
    const ana = await makeUser(db, { rol: 1, idCliente: client.id, email: 'ana@example.test' });
    const beto = await makeUser(db, { rol: 2, idCliente: client.id, email: 'beto@example.test' });
    const adm = track(await new ApiClient(t.app, '10.40.0.1').loginOk(admin.usuario, TEST_PASSWORD));

    // A failed and a good sign-in (their envelopes carry the passwords, encrypted).
    const a = track(new ApiClient(t.app, '10.40.0.2'));
    await a.csrf();
    const wrong = sealLogin({ usuario: ana.usuario, password: 'Equivocada#77' }, a.xsrf!);
    secrets
      .set('contraseña equivocada', 'Equivocada#77')
      .set('sobre de acceso', wrong.data)
      .set('hmac', wrong.hmac);
    expect((await a.post('/api/login', wrong)).statusCode).toBe(401);
    await a.loginOk(ana.usuario, TEST_PASSWORD);
    secrets.set('contraseña de prueba', TEST_PASSWORD);

    // Own change: the notice e-mail never carries the new password.
    await setPassword(
      a,
      '/api/repassword',
      { password: TEST_PASSWORD },
      'contraseña cambiada',
      'Cambiada#2027',
    );

    // Recovery: the link goes to its owner only; using it sets a password.
    const r = track(new ApiClient(t.app, '10.40.0.3'));
    expect((await r.post('/api/recuperar-password', { usuario: beto.usuario })).statusCode).toBe(200);
    await t.app.mailer.flush();
    mails.recuperacion = await smtp.waitFor((m) => m.to.includes('beto@') && m.subject.includes('Recupera'));
    const link = mails.recuperacion.text.match(/\/restablecer\/([\w-]+)/)![1]!;
    secrets.set('enlace de recuperación', link);
    await setPassword(
      r,
      '/api/restablecer-password',
      { token: link },
      'contraseña recuperada',
      'Recuperada#2027',
    );

    // A new user gets a welcome link.
    const created = await adm.post('/api/usuarios', {
      usuario: 'carla_nueva',
      user_id: 'carla@example.test',
      nombre: 'Carla Nueva',
      direccion_entrega: 'Calle 3',
      rol: 1,
      active_week: 1,
      entrega_week: 1,
      id_cliente: client.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    await t.app.mailer.flush();
    mails.bienvenida = await smtp.waitFor((m) => m.to.includes('carla@'));
    secrets.set('enlace de bienvenida', mails.bienvenida.text.match(/\/restablecer\/([\w-]+)/)![1]!);

    // The administrator's reset: the one e-mail that carries a password.
    expect((await adm.post(`/api/recuperar/password/${ana.id}`)).statusCode).toBe(200);
    await t.app.mailer.flush();
    mails.temporal = await smtp.waitFor((m) => m.to.includes('ana@') && m.subject.includes('temporal'));
    const temp = mails.temporal.text.match(/Contraseña temporal: (\S+)/)![1]!;
    secrets.set('contraseña temporal', temp);
    const b = track(await new ApiClient(t.app, '10.40.0.4').loginOk(ana.usuario, temp));
    await setPassword(b, '/api/repassword', { password: temp }, 'contraseña definitiva', 'Definitiva#2027');
    await b.get('/api/logout');

    // Two-factor sign-in: the secret (in the otpauth URL), the codes of the app and the backup codes.
    const dora = await makeUser(db, { rol: 2, idCliente: client.id, email: 'dora@example.test' });
    const d = track(await new ApiClient(t.app, '10.40.0.5').loginOk(dora.usuario, TEST_PASSWORD));
    const started = await d.post('/api/2fa/iniciar', { password: TEST_PASSWORD });
    const url: string = started.json().otpauth_url;
    const totp = new URL(url).searchParams.get('secret')!;
    secrets.set('URL otpauth', url).set('secreto TOTP', totp);
    // Activation, sign-in and new backup codes take the steps before, at and after one server step (each
    // later than the last used): the three calls must fall in one step, so a step with under 8 s left is
    // waited out (on a busy machine a boundary crossed before the activation refused its code).
    const period = TOTP_PERIOD_SECONDS * 1000;
    const left = period - (Date.now() % period);
    if (left < 8000) await new Promise((resolve) => setTimeout(resolve, left + 50));
    const step = stepAt(Date.now());
    const code = (offset: number) => {
      const value = codeAt(totp, step + offset);
      secrets.set(`código TOTP ${offset}`, value);
      return value;
    };
    const activated = await d.post('/api/2fa/activar', { codigo: code(-1), password: TEST_PASSWORD });
    expect(activated.statusCode, activated.body).toBe(200);
    const backup: string[] = activated.json().codigos_respaldo;
    for (const [i, c] of backup.entries()) secrets.set(`código de respaldo ${i}`, c);
    const second = track(new ApiClient(t.app, '10.40.0.6'));
    expect((await second.login(dora.usuario, TEST_PASSWORD)).json()).toEqual({ status: '2fa_requerido' });
    const wrongCode = codeAt(totp, stepAt(Date.now()) + 5);
    secrets.set('código equivocado', wrongCode);
    const refused = await second.post('/api/login/2fa', { codigo: wrongCode });
    expect(refused.statusCode).toBe(401);
    laterReads.push(refused.body);
    const malformed = await second.post('/api/login/2fa', { codigo: `${wrongCode}x` });
    expect(malformed.statusCode).toBe(400);
    laterReads.push(malformed.body);
    expect((await second.post('/api/login/2fa', { codigo: code(0) })).statusCode).toBe(200);
    const third = track(new ApiClient(t.app, '10.40.0.7'));
    await third.login(dora.usuario, TEST_PASSWORD);
    expect((await third.post('/api/login/2fa', { codigo_respaldo: backup[0] })).statusCode).toBe(200);
    const regenerated = await d.post('/api/2fa/codigos-respaldo', { codigo: code(1) });
    expect(regenerated.statusCode, regenerated.body).toBe(200);
    for (const [i, c] of (regenerated.json().codigos_respaldo as string[]).entries())
      secrets.set(`código nuevo ${i}`, c);
    const reused = await d.post('/api/2fa/desactivar', { password: TEST_PASSWORD, codigo: backup[1] });
    expect(reused.statusCode).toBe(401);
    laterReads.push(reused.body);
    for (const path of ['/api/2fa', '/api/sesion']) laterReads.push((await d.get(path)).body);
    laterReads.push((await adm.get(`/api/usuarios/${dora.id}`)).body);
    laterReads.push((await adm.get(`/api/usuarios?id_cliente=${client.id}`)).body);
    laterReads.push((await adm.get('/api/logs')).body);
    expect((await adm.post(`/api/recuperar/2fa/${dora.id}`)).statusCode).toBe(200);
    await t.app.mailer.flush();
    mails.dosPasos = await smtp.waitFor((m) => m.to.includes('dora@') && m.subject.includes('restableció'));

    // Integration (decisions 0059, 0060): a token's value and a webhook's signing secret, shown once.
    const token = await adm.post('/api/integracion/tokens', {
      nombre: 'ERP',
      id_cliente: client.id,
      permisos: ['pedidos:leer'],
      vigencia_dias: 30,
    });
    expect(token.statusCode, token.body).toBe(201);
    secrets.set('token de integración', token.json().valor);
    const used = await t.app.inject({
      url: '/api/v1/pedidos',
      headers: { authorization: `Bearer ${token.json().valor}` },
    });
    expect(used.statusCode).toBe(200);
    const hook = await adm.post('/api/integracion/webhooks', {
      url: 'https://8.8.8.8/recibir',
      eventos: ['pedido.surtido'],
      id_cliente: null,
    });
    expect(hook.statusCode, hook.body).toBe(201);
    secrets.set('secreto de webhook', hook.json().secreto);
    integrationReads.push(
      (await adm.get('/api/integracion/tokens')).body,
      (await adm.get('/api/integracion/webhooks')).body,
      (await adm.get(`/api/integracion/webhooks/${hook.json().webhook.id}/entregas`)).body,
      (await adm.post(`/api/integracion/tokens/${token.json().token.id}/revocar`)).body,
      (await adm.post(`/api/integracion/webhooks/${hook.json().webhook.id}/desactivar`)).body,
    );

    // Every session and XSRF token handed out.
    for (const c of clientsSeen) {
      for (const [name, value] of c.cookies) secrets.set(`cookie ${name} ${value.slice(0, 6)}`, value);
    }
    for (const s of await db.select().from(sessions)) secrets.set(`xsrf ${s.id.slice(0, 6)}`, s.xsrfToken);
    await t.app.mailer.flush();
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });

  it('the log holds no password, token, envelope or link', () => {
    expect(logLines.length).toBeGreaterThan(30);
    const all = logLines.join('\n');
    expect(secrets.size).toBeGreaterThan(10);
    for (const [name, value] of secrets) expect(holds(all, value), name).toBe(false);
    expect(all).not.toMatch(/restablecer\/[\w-]{20,}/);
    // The requests were logged (at debug, with their URLs), so the checks above looked at something.
    expect(all).toContain('/api/restablecer-password');
    expect(all).toContain('/api/login');
  });

  it('a database error is logged with its statement and code, never with its parameters', async () => {
    const anon = new ApiClient(t.app, '10.40.0.9');
    const before = logLines.length;
    const constraint = await anon.get('/api/prueba/error-bd/restriccion');
    const cast = await anon.get('/api/prueba/error-bd/conversion');
    for (const res of [constraint, cast]) {
      expect(res.statusCode).toBe(500);
      expect(res.json().code).toBe('INTERNAL');
    }
    const logged = logLines.slice(before).filter((l) => l.includes('"err"'));
    expect(logged).toHaveLength(2);
    const all = logLines.join('\n');
    for (const secret of QUERY_SECRETS) expect(all.includes(secret), secret).toBe(false);
    // What is needed to find the fault: the statement and PostgreSQL's error code.
    expect(logged[0]).toContain('insert into \\"users\\"');
    expect(logged[0]).toContain('23514');
    expect(logged[1]).toContain('select $1::int');
    expect(logged[1]).toContain('22P02');
  });

  it('the audit trail (system log metadata) holds no password, token or link', async () => {
    const rows = await t.database.db.select().from(systemLogs);
    const text = JSON.stringify(rows);
    expect(rows.length).toBeGreaterThan(5);
    for (const [name, value] of secrets) expect(holds(text, value), name).toBe(false);
  });

  it('e-mails: no password anywhere except the temporary one, sent only to its owner; links only to their owner', () => {
    const onlyIn: Record<string, ReceivedMail | undefined> = {
      'contraseña temporal': mails.temporal,
      'enlace de recuperación': mails.recuperacion,
      'enlace de bienvenida': mails.bienvenida,
    };
    expect(smtp.received.length).toBeGreaterThanOrEqual(5);
    for (const mail of smtp.received) {
      const body = `${mail.subject}\n${mail.text}\n${mail.html}`;
      for (const [name, value] of secrets) {
        const allowedHere = onlyIn[name] === mail;
        expect(holds(body, value), `${name} en «${mail.subject}» a ${mail.to}`).toBe(allowedHere);
      }
    }
  });

  it('second factor: later API reads and refusals hold no secret or code; the database only their sealed or hashed forms', async () => {
    expect(laterReads.length).toBeGreaterThanOrEqual(8);
    const totpNames = [...secrets.keys()].filter((k) => /TOTP|otpauth|código/.test(k));
    expect(totpNames.length).toBeGreaterThan(20);
    for (const body of laterReads)
      for (const name of totpNames)
        expect(holds(body, secrets.get(name)!), `${name} en ${body.slice(0, 80)}`).toBe(false);
    const stored = JSON.stringify(await t.database.db.select().from(users));
    const codes = JSON.stringify(await t.database.db.select().from(twoFactorBackupCodes));
    for (const name of totpNames) {
      expect(stored.includes(secrets.get(name)!), name).toBe(false);
      expect(codes.includes(secrets.get(name)!), name).toBe(false);
    }
    expect(mails.dosPasos!.text).toContain('desactivó la verificación en dos pasos');
  });

  it('integration: a token value and a webhook secret are in no later read; stored hashed or sealed', async () => {
    const db = t.database.db;
    expect(integrationReads).toHaveLength(5);
    for (const name of ['token de integración', 'secreto de webhook']) {
      const value = secrets.get(name)!;
      for (const body of integrationReads) expect(body.includes(value), name).toBe(false);
    }
    const tokens = JSON.stringify(await db.select().from(apiTokens));
    const hooks = JSON.stringify(await db.select().from(webhookEndpoints));
    expect(tokens.includes(secrets.get('token de integración')!.slice(12))).toBe(false);
    expect(hooks.includes(secrets.get('secreto de webhook')!.slice(6))).toBe(false);
    expect(JSON.parse(hooks)[0].secretoCifrado).toMatch(/^v1\./);
  });

  it('the database keeps only hashes of links, and a delivered e-mail does not keep its body', async () => {
    const db = t.database.db;
    const stored = JSON.stringify(await db.select().from(passwordTokens));
    expect(stored.includes(secrets.get('enlace de recuperación')!)).toBe(false);
    expect(stored.includes(secrets.get('enlace de bienvenida')!)).toBe(false);
    const outbox = await db.select().from(emailOutbox);
    expect(outbox.length).toBeGreaterThanOrEqual(5);
    for (const row of outbox) {
      expect(row.status, row.subject).toBe('enviado');
      expect(row.text).toBe(DELIVERED_BODY);
      expect(row.html).toBeNull();
    }
    const dump = JSON.stringify(outbox);
    for (const [name, value] of secrets) expect(holds(dump, value), name).toBe(false);
    const [one] = await db.select().from(emailOutbox).where(eq(emailOutbox.to, 'ana@example.test'));
    expect(one).toBeDefined();
  });
});
