import { and, eq, isNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, passwordTokens, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeClient, makeUser, uniq } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { expectLinkLive, expectLinkRefused, linkIn } from '../../test/links.ts';
import { startSmtp } from '../../test/smtp.ts';

/** Decision 0097: the unsent-access banner and "Reenviar acceso". */
describe.each(DB_KINDS)('access e-mails: unsent banner and resending (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: ApiClient;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    admin = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;

  /** A new account through the form: no password, a welcome e-mail in the outbox. */
  async function newUser(idCliente: number) {
    const usuario = uniq('acc');
    const res = await admin.post('/api/usuarios', {
      id_cliente: idCliente,
      usuario,
      user_id: `${usuario}@example.test`,
      nombre: 'Ana Acceso',
      rol: 1,
      direccion_entrega: 'Av. Reforma 100',
      active_week: 1,
      entrega_week: 1,
      activo: 1,
    });
    expect(res.statusCode, res.body).toBe(201);
    const mail = await smtp.waitFor((m) => m.to.includes(`${usuario}@example.test`));
    return { id: res.json().usuario.id as number, usuario, token: linkIn(mail.text) };
  }

  /** The user's access e-mails in the outbox, oldest first. */
  const accessMails = (userId: number) =>
    db()
      .select({ id: emailOutbox.id, status: emailOutbox.status, tipo: emailOutbox.tipo })
      .from(emailOutbox)
      .where(eq(emailOutbox.userId, userId))
      .orderBy(emailOutbox.id);

  it('marks welcome e-mails as access e-mails of their user; the banner counts those unsent after 10 minutes', async () => {
    const client = await makeClient(db());
    const a = await newUser(client.id);
    const b = await newUser(client.id);
    expect(await accessMails(a.id)).toEqual([expect.objectContaining({ tipo: 'acceso', status: 'enviado' })]);
    // Delivered: nothing to show.
    let banner = await admin.get('/api/usuarios/accesos-sin-enviar');
    expect(banner.statusCode, banner.body).toBe(200);
    expect(banner.json()).toEqual({ pendientes: 0, sin_smtp: false, clientes: [] });

    // a's e-mail failed just now, b's 11 minutes ago: only b's counts.
    await db().update(emailOutbox).set({ status: 'fallido' }).where(eq(emailOutbox.userId, a.id));
    await db()
      .update(emailOutbox)
      .set({ status: 'fallido', createdAt: sql`now() - interval '11 minutes'` })
      .where(eq(emailOutbox.userId, b.id));
    banner = await admin.get('/api/usuarios/accesos-sin-enviar');
    expect(banner.json()).toEqual({
      pendientes: 1,
      sin_smtp: false,
      clientes: [{ id: client.id, nombre: client.nombre, pendientes: 1 }],
    });
    // Once the user sets a password, the old e-mail no longer matters.
    await db().update(users).set({ passwordHash: 'x' }).where(eq(users.id, b.id));
    banner = await admin.get('/api/usuarios/accesos-sin-enviar');
    expect(banner.json().pendientes).toBe(0);
  });

  it('without SMTP every unsent access e-mail counts at once, and the answer says no server is configured', async () => {
    const bare = await createTestApp(kind);
    try {
      const a = await signedInAdmin(bare.app, bare.database.db);
      const client = await makeClient(bare.database.db);
      const usuario = uniq('nosmtp');
      const created = await a.api.post('/api/usuarios', {
        id_cliente: client.id,
        usuario,
        user_id: `${usuario}@example.test`,
        nombre: 'Sin Correo Saliente',
        rol: 1,
        direccion_entrega: 'Calle 1',
        active_week: 1,
        entrega_week: 1,
        activo: 1,
      });
      expect(created.statusCode, created.body).toBe(201);
      await bare.app.mailer.flush();
      const banner = await a.api.get('/api/usuarios/accesos-sin-enviar');
      expect(banner.json()).toEqual({
        pendientes: 1,
        sin_smtp: true,
        clientes: [{ id: client.id, nombre: client.nombre, pendientes: 1 }],
      });
      expect(MSG.accesosSinEnviar(banner.json().pendientes)).toBe('1 correo de acceso sin enviar');
    } finally {
      await bare.close();
    }
  });

  it('resends a fresh welcome link to each user without a password; old links die; skipped users have reasons; one log entry', async () => {
    const client = await makeClient(db());
    const a = await newUser(client.id);
    const b = await newUser(client.id);
    const withPassword = await makeUser(db(), { rol: 1, idCliente: client.id });
    const inactive = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      passwordHash: null,
      activo: false,
    });
    const noAddress = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      passwordHash: null,
      usuario: uniq('sindireccion'),
      email: '',
    });
    // a's first e-mail never left; resending replaces it.
    await db().update(emailOutbox).set({ status: 'fallido' }).where(eq(emailOutbox.userId, a.id));
    const ids = [a.id, b.id, withPassword.id, inactive.id, noAddress.id];
    const res = await admin.post('/api/usuarios/reenviar-acceso', { ids: [...ids, a.id] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      status: 'ok',
      msg: 'Se enviaron 2 correos de acceso; se omitieron 3 usuarios.',
      enviados: 2,
      omitidos: 3,
      detalle_omitidos: [
        { id: withPassword.id, usuario: withPassword.usuario, motivo: 'con_contrasena' },
        { id: inactive.id, usuario: inactive.usuario, motivo: 'inactivo' },
        { id: noAddress.id, usuario: noAddress.usuario, motivo: 'sin_correo' },
      ].sort((x, y) => x.id - y.id),
    });
    for (const user of [a, b]) {
      const mail = await smtp.waitFor(
        (m) => m.to.includes(`${user.usuario}@example.test`) && linkIn(m.text) !== user.token,
      );
      expect(mail.subject).toBe('Bienvenido al Portal de Compras');
      await expectLinkRefused(t.app, user.token, `enlace anterior de ${user.usuario}`);
      await expectLinkLive(t.app, linkIn(mail.text), `enlace nuevo de ${user.usuario}`);
      const live = await db()
        .select({ id: passwordTokens.id })
        .from(passwordTokens)
        .where(and(eq(passwordTokens.userId, user.id), isNull(passwordTokens.usedAt)));
      expect(live).toHaveLength(1);
    }
    // The unsent first e-mail of a will never go out with its dead link.
    expect((await accessMails(a.id)).map((m) => m.status)).toEqual(['reemplazado', 'enviado']);
    const logs = await db()
      .select()
      .from(systemLogs)
      .where(
        and(
          eq(systemLogs.eventType, 'accesos_reenviados'),
          sql`${systemLogs.metadata}->>'id_cliente' = ${String(client.id)}`,
        ),
      );
    expect(logs).toHaveLength(1);
    expect(logs[0]!.metadata).toMatchObject({
      id_cliente: client.id,
      enviados: 2,
      omitidos: 3,
      ids_usuarios: [a.id, b.id],
      omitidos_por_motivo: { con_contrasena: 1, inactivo: 1, sin_correo: 1 },
    });
    expect(JSON.stringify(logs[0]!.metadata)).not.toContain(a.token);
  });

  it('refuses an empty or oversized selection (400), and unknown users, administrators or two clients (404)', async () => {
    const one = await makeClient(db());
    const two = await makeClient(db());
    const u1 = await makeUser(db(), { rol: 1, idCliente: one.id, passwordHash: null });
    const u2 = await makeUser(db(), { rol: 1, idCliente: two.id, passwordHash: null });
    const adminRow = await makeUser(db(), { rol: 4, idCliente: null });
    for (const body of [
      {},
      { ids: [] },
      { ids: Array.from({ length: 501 }, (_, i) => i + 1) },
      { ids: ['x'] },
    ]) {
      const res = await admin.post('/api/usuarios/reenviar-acceso', body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().msg).toMatch(/usuarios|válid/);
    }
    expect((await admin.post('/api/usuarios/reenviar-acceso', { ids: [] })).json().msg).toBe(
      MSG.loteUsuarios,
    );
    for (const ids of [[u1.id, u2.id], [u1.id, 99_999_999], [adminRow.id]]) {
      const res = await admin.post('/api/usuarios/reenviar-acceso', { ids });
      expect(res.statusCode, JSON.stringify(ids)).toBe(404);
      expect(res.json()).toMatchObject({ code: 'USER_NOT_FOUND', msg: MSG.usuarioNoEncontrado });
    }
    // Nothing was sent for a refused selection.
    const [tokens] = await db()
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(passwordTokens)
      .where(eq(passwordTokens.userId, u1.id));
    expect(tokens!.n).toBe(0);
  });

  it('two resends of the same users at once end with one live link per user', async () => {
    const client = await makeClient(db());
    const a = await newUser(client.id);
    const b = await newUser(client.id);
    const second = (await signedInAdmin(t.app, db())).api;
    const [r1, r2] = await Promise.all([
      admin.post('/api/usuarios/reenviar-acceso', { ids: [a.id, b.id] }),
      second.post('/api/usuarios/reenviar-acceso', { ids: [b.id, a.id] }),
    ]);
    expect([r1.statusCode, r2.statusCode]).toEqual([200, 200]);
    for (const user of [a, b]) {
      const live = await db()
        .select({ id: passwordTokens.id })
        .from(passwordTokens)
        .where(and(eq(passwordTokens.userId, user.id), isNull(passwordTokens.usedAt)));
      expect(live, user.usuario).toHaveLength(1);
    }
  });
});
