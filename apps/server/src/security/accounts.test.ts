import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, sessions, users } from '../db/schema/index.ts';
import { hashPassword } from '../lib/passwords.ts';
import { MSG } from '../messages.ts';
import {
  legacyHash,
  makeClient,
  makeUser,
  TEST_PASSWORD,
  uniq,
  withProductionHashing,
} from '../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';
import { expectLinkLive, expectLinkRefused, linkIn } from '../test/links.ts';

/**
 * Account takeover through what was sent or set for the account as it was: single-use links that outlive
 * a corrected address or a new password, temporary passwords that never expire, weak stored hashes
 * (decision 0035, docs/domain.md "Accounts and passwords").
 */
describe.each(DB_KINDS)('accounts: links, temporary passwords and stored hashes (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  const db = () => t.database.db;

  beforeAll(async () => {
    // No SMTP: the outbox keeps each message, as the mailbox it went to would.
    t = await createTestApp(kind);
    const a = await makeUser(db(), { rol: 4, idCliente: null });
    admin = await new ApiClient(t.app, '10.50.0.1').loginOk(a.usuario, TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  /** The link of the newest message to an address. */
  async function linkSentTo(address: string): Promise<string> {
    const [mail] = await db()
      .select()
      .from(emailOutbox)
      .where(eq(emailOutbox.to, address))
      .orderBy(desc(emailOutbox.id))
      .limit(1);
    expect(mail, `correo a ${address}`).toBeDefined();
    return linkIn(mail!.text);
  }

  it('a welcome link sent to a mistyped address is dead once the address is corrected or the owner sets a password', async () => {
    const client = await makeClient(db());
    const usuario = uniq('errata');
    const wrong = `${usuario}@exmaple.test`;
    const right = `${usuario}@example.test`;
    const form = {
      id_cliente: client.id,
      usuario,
      user_id: wrong,
      nombre: 'Dueña Real',
      rol: 1,
      direccion_entrega: 'Planta 1',
      active_week: 1,
      entrega_week: 1,
    };
    const created = await admin.post('/api/usuarios', form);
    expect(created.statusCode, created.body).toBe(201);
    const id: number = created.json().usuario.id;
    // Whoever reads the mistyped mailbox holds a link to the account.
    const stolen = await linkSentTo(wrong);
    await expectLinkLive(t.app, stolen, 'antes de corregir');

    const fixed = await admin.put(`/api/usuarios/${id}`, { ...form, user_id: right });
    expect(fixed.statusCode, fixed.body).toBe(200);
    await expectLinkRefused(t.app, stolen, 'enlace de la dirección equivocada');

    // The owner gets a new welcome link, asks for a recovery link as well, and sets the password with the
    // first: every other link of the account is dead, and the password is hers alone.
    const welcome = await linkSentTo(right);
    const owner = new ApiClient(t.app, '10.50.0.2');
    expect((await owner.post('/api/recuperar-password', { usuario })).statusCode).toBe(200);
    const recovery = await linkSentTo(right);
    expect(recovery).not.toBe(welcome);
    const set = await owner.post('/api/restablecer-password', {
      token: welcome,
      newPass: 'DeLaDueña#1',
      confirmPass: 'DeLaDueña#1',
    });
    expect(set.statusCode, set.body).toBe(200);
    for (const [what, token] of [
      ['robado', stolen],
      ['bienvenida usada', welcome],
      ['recuperación pendiente', recovery],
    ] as const)
      await expectLinkRefused(t.app, token, what);
    expect((await new ApiClient(t.app, '10.50.0.3').login(usuario, 'DeLaDueña#1')).statusCode).toBe(200);
    expect((await new ApiClient(t.app, '10.50.0.4').login(usuario, 'Tomada#2026')).statusCode).toBe(401);
  });

  it('a temporary password older than 72 hours opens nothing: neither a sign-in nor a session already open', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 2, idCliente: client.id, passwordTemporary: true });
    const setHoursAgo = (hours: number) =>
      db()
        .update(users)
        .set({ passwordChangedAt: sql`now() - make_interval(hours => ${hours})` })
        .where(eq(users.id, user.id));
    await setHoursAgo(71);
    const c = await new ApiClient(t.app, '10.50.1.1').loginOk(user.usuario, TEST_PASSWORD);
    expect((await c.get('/api/sesion')).json().user.debe_cambiar_password).toBe(true);
    await setHoursAgo(73);
    for (const res of [
      await c.get('/api/sesion'),
      await new ApiClient(t.app, '10.50.1.2').login(user.usuario, TEST_PASSWORD),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({
        code: 'TEMPORARY_PASSWORD_EXPIRED',
        msg: MSG.passwordTemporalVencida,
      });
    }
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toHaveLength(0);
  });

  it('stored hashes use scrypt at N = 2^17, r = 8, p = 1; an older hash is upgraded at the next sign-in', () =>
    withProductionHashing(async () => {
      expect(await hashPassword('Cualquiera#1')).toMatch(/^scrypt\$131072\$8\$1\$[\w+/=]{24}\$[\w+/=]{44}$/);
      const client = await makeClient(db());
      const user = await makeUser(db(), {
        rol: 1,
        idCliente: client.id,
        passwordHash: legacyHash(TEST_PASSWORD),
      });
      await new ApiClient(t.app, '10.50.2.1').loginOk(user.usuario, TEST_PASSWORD);
      const [row] = await db().select().from(users).where(eq(users.id, user.id));
      expect(row!.passwordHash).toMatch(/^scrypt\$131072\$8\$1\$/);
      await new ApiClient(t.app, '10.50.2.2').loginOk(user.usuario, TEST_PASSWORD);
    }));
});
