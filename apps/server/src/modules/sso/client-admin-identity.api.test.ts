import { randomBytes } from 'node:crypto';
import { MAX_ID } from '@portal/shared/limits';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientSso, type clients, scimTokens, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import {
  CLIENT_NOT_FOUND,
  lacks,
  nextIp,
  clientWithAdmin as signedInClientAdmin,
} from '../../test/client-admin.ts';
import { makeClient, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
/** An issuer the save accepts without a provider (SSO_ALLOW_PRIVATE: the save checks the address only). */
const ISSUER = 'http://127.0.0.1:9/realms/empresa';

/** A fresh e-mail domain (lower case, as the schema keeps them). */
const newDomain = () => `empresa-${randomBytes(4).toString('hex')}.com.mx`;

/**
 * A client administrator (rol 5) on its own client's single sign-on and SCIM token when its client allows
 * `identidad` (decisions 0120, 0121, 0122): the distributor's routes, scoped to its client; refused without
 * the permission; another client's id answered like a missing one; and SCIM never reaches its account.
 */
describe.each(DB_KINDS)('a client administrator’s identity provider (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind, { env: { SSO_ALLOW_PRIVATE: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  /** A client with its administrator signed in, whose e-mail is of a domain of its own. */
  async function clientWithAdmin(values: Partial<typeof clients.$inferInsert> = {}) {
    const a = await signedInClientAdmin(t, values);
    const dominio = newDomain();
    await db()
      .update(users)
      .set({ email: `clara@${dominio}` })
      .where(eq(users.id, a.user.id));
    return { ...a, dominio };
  }

  const body = (dominios: string[], over: Record<string, unknown> = {}) => ({
    emisor: ISSUER,
    id_cliente: 'portal-de-compras',
    secreto: 'secreto-de-la-empresa',
    dominios,
    ...over,
  });

  const logOf = (eventType: string, userId: number) =>
    db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, eventType), eq(systemLogs.userId, userId)));

  async function scim(
    token: string,
    method: 'GET' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    payload?: unknown,
  ) {
    const res = await t.app.inject({
      method,
      url: `/scim/v2${url}`,
      headers: {
        authorization: `Bearer ${token}`,
        ...(payload === undefined ? {} : { 'content-type': 'application/scim+json' }),
      },
      ...(payload === undefined ? {} : { payload: JSON.stringify(payload) }),
    });
    return { status: res.statusCode, json: res.body ? res.json() : null };
  }

  it('with `identidad` it reads, saves and removes its client’s single sign-on; each change is in its log', async () => {
    const { client, user, api, dominio } = await clientWithAdmin({ permisosCliente: ['identidad'] });
    const url = `/api/clients/${client.id}/sso`;
    const none = await api.get(url);
    expect(none.statusCode).toBe(404);
    expect(none.json()).toMatchObject({ code: 'SSO_NOT_CONFIGURED', msg: MSG.ssoNoConfigurado });

    // The domain of its own e-mail: saved, with the switches the distributor has.
    const saved = await api.put(url, body([dominio], { obligatorio: true, alta_automatica: true }));
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json()).toMatchObject({
      emisor: ISSUER,
      tiene_secreto: true,
      dominios: [dominio],
      obligatorio: true,
      alta_automatica: true,
      activo: true,
    });
    expect(saved.body).not.toContain('secreto-de-la-empresa');
    expect((await api.get(url)).json()).toEqual(saved.json());

    // Its client's log has the change, made by it, never the secret; it reads it in its own log.
    const [entry] = await logOf('sso_configurado', user.id);
    expect(entry).toMatchObject({ idCliente: client.id });
    expect(entry!.metadata).toMatchObject({
      id_cliente: client.id,
      dominios: [dominio],
      secreto_nuevo: true,
    });
    expect(JSON.stringify(entry)).not.toContain('secreto-de-la-empresa');
    const own = (await api.get('/api/logs?event_type=sso_configurado')).json().logs;
    expect(own.map((l: { user_id: number }) => l.user_id)).toEqual([user.id]);

    const gone = await api.request('DELETE', url);
    expect(gone.statusCode, gone.body).toBe(200);
    expect(gone.json()).toEqual({ status: 'ok', msg: MSG.ssoEliminado });
    expect((await api.get(url)).statusCode).toBe(404);
    expect(await logOf('sso_eliminado', user.id)).toHaveLength(1);
  });

  it('adds only the domains its client already has or its administrators’ e-mails use; another company’s is the distributor’s', async () => {
    const { client, api, dominio } = await clientWithAdmin({ permisosCliente: ['identidad'] });
    const url = `/api/clients/${client.id}/sso`;
    const ajeno = newDomain();
    const refused = await api.put(url, body([dominio, ajeno]));
    expect(refused.statusCode, refused.body).toBe(400);
    const msg = MSG.ssoDominioNoPermitido([ajeno]);
    expect(refused.json()).toMatchObject({ code: 'SSO_DOMAIN_NOT_ALLOWED', msg, errors: { dominios: msg } });
    expect(await db().select().from(clientSso).where(eq(clientSso.idCliente, client.id))).toEqual([]);

    // A domain the distributor saved for the client stays usable; so does a colleague administrator's.
    const distributorRow = await makeUser(db(), { rol: 4, idCliente: null });
    const distributor = await new ApiClient(t.app, nextIp()).loginOk(distributorRow.usuario, TEST_PASSWORD);
    const byDistributor = await distributor.put(url, body([ajeno]));
    expect(byDistributor.statusCode, byDistributor.body).toBe(200);
    const colega = newDomain();
    await makeUser(db(), { rol: 5, idCliente: client.id, email: `pablo@${colega}` });
    const kept = await api.put(url, body([ajeno, dominio, colega], { secreto: '' }));
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json().dominios).toEqual([ajeno, dominio, colega]);
    // A buyer's e-mail does not vouch for its domain: the client administrator may create buyers.
    const comprador = newDomain();
    await makeUser(db(), { rol: 1, idCliente: client.id, email: `ana@${comprador}` });
    expect((await api.put(url, body([dominio, comprador], { secreto: '' }))).json().code).toBe(
      'SSO_DOMAIN_NOT_ALLOWED',
    );
  });

  it('obligatorio never holds the client’s administrators: they keep their password and second step', async () => {
    const { client, user, api, dominio } = await clientWithAdmin({ permisosCliente: ['identidad'] });
    expect(
      (await api.put(`/api/clients/${client.id}/sso`, body([dominio], { obligatorio: true }))).statusCode,
    ).toBe(200);
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const held = await new ApiClient(t.app, nextIp()).login(buyer.usuario, TEST_PASSWORD);
    expect(held.statusCode).toBe(403);
    expect(held.json()).toMatchObject({ code: 'SSO_REQUIRED', msg: MSG.ssoObligatorio });
    const again = await new ApiClient(t.app, nextIp()).login(user.usuario, TEST_PASSWORD);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().code).not.toBe('SSO_REQUIRED');
  });

  it('with `identidad` it generates, reads and revokes its SCIM token, which provisions its client', async () => {
    const { client, user, api } = await clientWithAdmin({ permisosCliente: ['identidad'] });
    const url = `/api/clients/${client.id}/scim/token`;
    expect((await api.get(url)).json()).toEqual({ url: 'http://portal.test/scim/v2', token: null });
    const created = await api.post(url);
    expect(created.statusCode, created.body).toBe(201);
    const { token, prefijo } = created.json() as { token: string; prefijo: string };
    expect(token).toMatch(/^scim_/);
    expect((await api.get(url)).json().token).toMatchObject({ prefijo });
    const [row] = await db().select().from(scimTokens).where(eq(scimTokens.idCliente, client.id));
    expect(row).toMatchObject({ createdBy: user.id });

    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const list = await scim(token, 'GET', '/Users?count=100');
    expect(list.status).toBe(200);
    expect(list.json.Resources.map((r: { id: string }) => r.id)).toEqual([String(buyer.id)]);

    const [creado] = await logOf('scim_token_creado', user.id);
    expect(creado!.metadata).toMatchObject({ id_cliente: client.id });
    expect(JSON.stringify(creado)).not.toContain(token);

    const revoked = await api.request('DELETE', url);
    expect(revoked.statusCode, revoked.body).toBe(200);
    expect(revoked.json()).toEqual({ status: 'ok', msg: MSG.scimTokenRevocado });
    expect((await scim(token, 'GET', '/Users')).status).toBe(401);
    expect(await logOf('scim_token_revocado', user.id)).toHaveLength(1);
  });

  it('SCIM never reaches a client administrator: its account is a missing id, never deactivated nor promoted', async () => {
    const { client, user, api } = await clientWithAdmin({ permisosCliente: ['identidad', 'usuarios'] });
    const { token } = (await api.post(`/api/clients/${client.id}/scim/token`)).json() as { token: string };
    const id = String(user.id);
    expect((await scim(token, 'GET', `/Users/${id}`)).status).toBe(404);
    const found = await scim(token, 'GET', `/Users?filter=${encodeURIComponent(`id eq "${id}"`)}`);
    expect(found.json.totalResults).toBe(0);
    const off = { schemas: [PATCH], Operations: [{ op: 'replace', path: 'active', value: false }] };
    expect((await scim(token, 'PATCH', `/Users/${id}`, off)).status).toBe(404);
    expect(
      (await scim(token, 'PUT', `/Users/${id}`, { schemas: [USER], userName: 'x', active: false })).status,
    ).toBe(404);
    expect((await scim(token, 'DELETE', `/Users/${id}`)).status).toBe(404);
    const join = { schemas: [PATCH], Operations: [{ op: 'add', path: 'members', value: [{ value: id }] }] };
    expect((await scim(token, 'PATCH', '/Groups/rol-2', join)).status).toBe(400);
    const [after] = await db().select().from(users).where(eq(users.id, user.id));
    expect(after).toMatchObject({ activo: true, rol: 5, usuario: user.usuario });
    // Still signed in: nothing ended its session.
    expect((await api.get('/api/cliente')).statusCode).toBe(200);
  });

  it('without `identidad`: 403 naming the permission; another client’s id: 404 like a missing one', async () => {
    const limited = await clientWithAdmin({ permisosCliente: ['usuarios'] });
    const allowed = await clientWithAdmin({ permisosCliente: ['identidad'] });
    const other = await makeClient(db(), { permisosCliente: ['identidad'] });
    const calls = (id: number) =>
      [
        ['GET', `/api/clients/${id}/sso`],
        ['PUT', `/api/clients/${id}/sso`],
        ['DELETE', `/api/clients/${id}/sso`],
        ['GET', `/api/clients/${id}/scim/token`],
        ['POST', `/api/clients/${id}/scim/token`],
        ['DELETE', `/api/clients/${id}/scim/token`],
      ] as const;
    const send = (api: ApiClient, method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string) =>
      method === 'PUT' ? api.put(url, body([newDomain()])) : api.request(method, url);
    for (const [method, url] of calls(limited.client.id)) {
      const res = await send(limited.api, method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json()).toMatchObject(lacks('identidad'));
    }
    for (const [i, [method, url]] of calls(other.id).entries()) {
      const res = await send(allowed.api, method, url);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json()).toMatchObject(CLIENT_NOT_FOUND);
      const [, missing] = calls(MAX_ID)[i]!;
      expect((await send(allowed.api, method, missing)).body).toBe(res.body);
    }
    // Nothing was written for the other client.
    expect(await db().select().from(scimTokens).where(eq(scimTokens.idCliente, other.id))).toEqual([]);
    expect(await db().select().from(clientSso).where(eq(clientSso.idCliente, other.id))).toEqual([]);
  });
});
