import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  areas,
  clientSso,
  emailOutbox,
  orderEvents,
  orders,
  systemLogs,
  users,
} from '../../db/schema/index.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

const USER = 'urn:ietf:params:scim:schemas:core:2.0:User';
const PATCH = 'urn:ietf:params:scim:api:messages:2.0:PatchOp';
const ERROR = 'urn:ietf:params:scim:api:messages:2.0:Error';
const LIST = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';

/**
 * SCIM 2.0 provisioning (decision 0121): the administrator's token routes and the /scim/v2 endpoints, as a
 * conformance suite built from RFC 7644's own request and response examples (§3.3, §3.4.2, §3.4.2.4,
 * §3.5.2, §3.12) and Microsoft Entra ID's PATCH shapes; tenancy, the leaver and the groups as roles.
 */
describe.each(DB_KINDS)('SCIM provisioning (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  const db = () => t.database.db;
  let clientA: Awaited<ReturnType<typeof makeClient>>;
  let clientB: Awaited<ReturnType<typeof makeClient>>;
  let tokenA: string;
  let tokenB: string;
  let product: { id: number; idCategoria: number };

  // biome-ignore lint/suspicious/noExplicitAny: SCIM answers are read field by field, as the RFC shows them
  type Json = Record<string, any>;
  async function scim(
    token: string | null,
    method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    contentType = 'application/scim+json',
  ) {
    const headers: Record<string, string> = token === null ? {} : { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = contentType;
    const res = await t.app.inject({
      method,
      url: `/scim/v2${url}`,
      headers,
      ...(body === undefined ? {} : { payload: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    return { status: res.statusCode, headers: res.headers, json: (res.body ? res.json() : null) as Json };
  }
  const patchOp = (...ops: unknown[]) => ({ schemas: [PATCH], Operations: ops });
  const q = (filter: string) => `/Users?filter=${encodeURIComponent(filter)}`;

  async function newScimToken(idCliente: number) {
    const res = await admin.post(`/api/clients/${idCliente}/scim/token`);
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { token: string; prefijo: string; creado: string; url: string };
  }

  async function createUser(token: string, body: Json) {
    const res = await scim(token, 'POST', '/Users', { schemas: [USER], ...body });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json;
  }

  async function orderOf(idUser: number, status: 'pendiente' | 'espera' | 'aprobado') {
    const o = await makeOrder(db(), {
      idUser,
      idCliente: clientA.id,
      status,
      lines: [{ productId: product.id, precio: 10_000, cantidad: 1, idCategoria: product.idCategoria }],
    });
    return o.id as number;
  }

  function expectScimError(res: { status: number; json: Json }, status: number, scimType?: string) {
    expect(res.status, JSON.stringify(res.json)).toBe(status);
    expect(res.json.schemas).toEqual([ERROR]);
    expect(res.json.status).toBe(String(status));
    expect(typeof res.json.detail).toBe('string');
    if (scimType) expect(res.json.scimType).toBe(scimType);
  }

  beforeAll(async () => {
    t = await createTestApp(kind);
    const adminRow = await makeUser(db(), { rol: 4, idCliente: null });
    admin = await new ApiClient(t.app).loginOk(adminRow.usuario, TEST_PASSWORD);
    clientA = await makeClient(db(), { nombre: 'Cliente SCIM A', cantidadAutorizadores: 2 });
    clientB = await makeClient(db(), { nombre: 'Cliente SCIM B', cantidadAutorizadores: 1 });
    const cat = await makeCategory(db(), clientA.id);
    const p = await makeProduct(db(), { idCliente: clientA.id, idCategoria: cat.id, precio: 10_000 });
    product = { id: p.id, idCategoria: cat.id };
    tokenA = (await newScimToken(clientA.id)).token;
    tokenB = (await newScimToken(clientB.id)).token;
  });
  afterAll(async () => t?.close());

  describe('the token (rol 4)', () => {
    it('is shown once, replaces the previous one, is revoked, and never reaches the log', async () => {
      const c = await makeClient(db(), { nombre: 'Cliente SCIM token' });
      const none = await admin.get(`/api/clients/${c.id}/scim/token`);
      expect(none.statusCode).toBe(200);
      expect(none.json()).toEqual({ url: 'http://portal.test/scim/v2', token: null });

      const first = await newScimToken(c.id);
      expect(first.token).toMatch(/^scim_[A-Za-z0-9_-]{43}$/);
      expect(first.prefijo).toBe(first.token.slice(0, 12));
      expect(first.url).toBe('http://portal.test/scim/v2');
      expect((await scim(first.token, 'GET', '/Users')).status).toBe(200);
      const shown = (await admin.get(`/api/clients/${c.id}/scim/token`)).json();
      expect(shown.token.prefijo).toBe(first.prefijo);
      expect(shown.token.ultimo_uso).not.toBeNull();
      expect(JSON.stringify(shown)).not.toContain(first.token);

      const second = await newScimToken(c.id);
      expectScimError(await scim(first.token, 'GET', '/Users'), 401);
      expect((await scim(second.token, 'GET', '/Users')).status).toBe(200);

      expect((await admin.request('DELETE', `/api/clients/${c.id}/scim/token`)).statusCode).toBe(200);
      expectScimError(await scim(second.token, 'GET', '/Users'), 401);
      expect((await admin.get(`/api/clients/${c.id}/scim/token`)).json().token).toBeNull();
      expect((await admin.request('DELETE', `/api/clients/${c.id}/scim/token`)).statusCode).toBe(404);
      expect((await admin.post('/api/clients/99999999/scim/token')).statusCode).toBe(404);

      const logs = await db().select().from(systemLogs);
      const text = JSON.stringify(logs);
      expect(text).not.toContain(first.token);
      expect(text).not.toContain(second.token);
      expect(logs.filter((l) => l.eventType === 'scim_token_creado').length).toBeGreaterThanOrEqual(2);
      expect(logs.some((l) => l.eventType === 'scim_token_revocado')).toBe(true);
    });

    it('a missing, malformed or wrong token is a 401 SCIM error with WWW-Authenticate', async () => {
      for (const token of [null, 'no-es-un-token', `scim_${'x'.repeat(43)}`]) {
        const res = await scim(token, 'GET', '/Users');
        expectScimError(res, 401);
        expect(res.headers['www-authenticate']).toContain('Bearer');
      }
      // The session cookie of an administrator is not a credential here.
      const res = await admin.get('/scim/v2/Users');
      expect(res.statusCode).toBe(401);
    });
  });

  describe('discovery (RFC 7643 §5–7)', () => {
    it('ServiceProviderConfig, ResourceTypes and Schemas', async () => {
      const spc = await scim(tokenA, 'GET', '/ServiceProviderConfig');
      expect(spc.status).toBe(200);
      expect(spc.headers['content-type']).toContain('application/scim+json');
      expect(spc.json.schemas).toEqual(['urn:ietf:params:scim:schemas:core:2.0:ServiceProviderConfig']);
      expect(spc.json.patch.supported).toBe(true);
      expect(spc.json.filter).toEqual({ supported: true, maxResults: 200 });
      for (const f of ['bulk', 'sort', 'etag', 'changePassword']) expect(spc.json[f].supported).toBe(false);
      expect(spc.json.authenticationSchemes[0].type).toBe('oauthbearertoken');

      const types = await scim(tokenA, 'GET', '/ResourceTypes');
      expect(types.json.schemas).toEqual([LIST]);
      expect(types.json.Resources.map((r: Json) => r.endpoint)).toEqual(['/Users', '/Groups']);
      const schemas = await scim(tokenA, 'GET', '/Schemas');
      expect(schemas.json.Resources.map((r: Json) => r.id)).toEqual([
        USER,
        'urn:ietf:params:scim:schemas:core:2.0:Group',
      ]);
    });
  });

  describe('RFC 7644 §3.3: creating a resource', () => {
    it("the RFC's bjensen answers 201 with Location and meta; the same userName again is 409 uniqueness", async () => {
      const res = await scim(tokenA, 'POST', '/Users', {
        schemas: [USER],
        userName: 'bjensen',
        externalId: 'bjensen',
        name: { formatted: 'Ms. Barbara J Jensen III', familyName: 'Jensen', givenName: 'Barbara' },
      });
      expect(res.status, JSON.stringify(res.json)).toBe(201);
      expect(res.headers['content-type']).toContain('application/scim+json');
      expect(res.json.schemas).toEqual([USER]);
      expect(res.json.id).toMatch(/^\d+$/);
      expect(res.json.userName).toBe('bjensen');
      expect(res.json.externalId).toBe('bjensen');
      expect(res.json.name.formatted).toBe('Ms. Barbara J Jensen III');
      expect(res.json.active).toBe(true);
      expect(res.json.groups).toEqual([expect.objectContaining({ value: 'rol-1', display: 'Usuario' })]);
      expect(res.json.meta.resourceType).toBe('User');
      expect(res.json.meta.location).toBe(`http://portal.test/scim/v2/Users/${res.json.id}`);
      expect(res.headers.location).toBe(res.json.meta.location);

      // The client's defaults, as every account made by the users module gets them.
      const [row] = await db()
        .select()
        .from(users)
        .where(eq(users.id, Number(res.json.id)));
      expect(row).toMatchObject({
        idCliente: clientA.id,
        rol: 1,
        limiteDeCompras: clientA.limiteDeCompras,
        presupuestoDefault: clientA.presupuestoDefault,
        passwordHash: null,
        scimExternalId: 'bjensen',
      });

      expectScimError(
        await scim(tokenA, 'POST', '/Users', { schemas: [USER], userName: 'BJensen' }),
        409,
        'uniqueness',
      );
      expectScimError(
        await scim(tokenA, 'POST', '/Users', { schemas: [USER], userName: 'otra', externalId: 'bjensen' }),
        409,
        'uniqueness',
      );
      expectScimError(await scim(tokenA, 'POST', '/Users', { schemas: [USER] }), 400, 'invalidValue');
      expectScimError(
        await scim(tokenA, 'POST', '/Users', '{"userName":', 'application/scim+json'),
        400,
        'invalidSyntax',
      );
      expectScimError(await scim(tokenA, 'POST', '/Users', 'userName=x', 'text/plain'), 415);
    });

    it('a joiner with an e-mail gets the welcome link; with single sign-on, or inactive, none', async () => {
      const withMail = await createUser(tokenA, {
        userName: 'joiner.mail',
        emails: [
          { value: 'otro@example.test', type: 'home' },
          { value: 'Joiner@Example.test', type: 'work', primary: true },
        ],
        name: { givenName: 'Juana', familyName: 'Pérez' },
      });
      expect(withMail.emails).toEqual([{ value: 'joiner@example.test', type: 'work', primary: true }]);
      expect(withMail.name.formatted).toBe('Juana Pérez');
      const mails = await db()
        .select()
        .from(emailOutbox)
        .where(eq(emailOutbox.userId, Number(withMail.id)));
      expect(mails.length).toBe(1);

      // With a charset, as Microsoft Entra ID sends it.
      const charset = await scim(
        tokenA,
        'POST',
        '/Users',
        { schemas: [USER], userName: 'joiner.charset', active: true },
        'application/scim+json; charset=utf-8',
      );
      expect(charset.status).toBe(201);
      // application/json is read too.
      const inactive = await scim(
        tokenA,
        'POST',
        '/Users',
        { userName: 'joiner.inactive', active: false, emails: [{ value: 'inactivo@example.test' }] },
        'application/json',
      );
      expect(inactive.status).toBe(201);
      expect(inactive.json.active).toBe(false);
      expect(
        await db()
          .select()
          .from(emailOutbox)
          .where(eq(emailOutbox.userId, Number(inactive.json.id))),
      ).toEqual([]);

      await db()
        .insert(clientSso)
        .values({
          idCliente: clientB.id,
          emisor: 'https://idp.example.test',
          idClienteOidc: 'portal',
          secretoCifrado: 'sellado',
          dominios: ['b.example.test'],
        });
      const sso = await createUser(tokenB, {
        userName: 'joiner.sso',
        emails: [{ value: 'sso@b.example.test' }],
      });
      expect(
        await db()
          .select()
          .from(emailOutbox)
          .where(eq(emailOutbox.userId, Number(sso.id))),
      ).toEqual([]);
    });
  });

  describe('RFC 7644 §3.4.2: filtering, and §3.4.2.4: pagination', () => {
    let ids: string[];
    beforeAll(async () => {
      ids = [];
      for (const n of [1, 2, 3, 4, 5])
        ids.push(
          (
            await createUser(tokenA, {
              userName: `pagina${n}`,
              externalId: `ext-pagina${n}`,
              emails: [{ value: `pagina${n}@example.test`, type: 'work' }],
              active: n !== 5,
            })
          ).id,
        );
    });

    it('userName eq (case-insensitive), emails, externalId, active, and/or, parentheses', async () => {
      const one = await scim(tokenA, 'GET', q('userName eq "Pagina2"'));
      expect(one.json).toMatchObject({ schemas: [LIST], totalResults: 1, itemsPerPage: 1, startIndex: 1 });
      expect(one.json.Resources[0].id).toBe(ids[1]);
      const byEmail = await scim(tokenA, 'GET', q('emails[type eq "work"].value eq "pagina3@example.test"'));
      expect(byEmail.json.Resources.map((r: Json) => r.id)).toEqual([ids[2]]);
      expect((await scim(tokenA, 'GET', q('emails.value eq "PAGINA3@example.test"'))).json.totalResults).toBe(
        1,
      );
      expect(
        (await scim(tokenA, 'GET', q('emails[type eq "home"].value eq "pagina3@example.test"'))).json
          .totalResults,
      ).toBe(0);
      expect((await scim(tokenA, 'GET', q('externalId eq "ext-pagina4"'))).json.Resources[0].id).toBe(ids[3]);
      // externalId is caseExact (RFC 7643 §3.1).
      expect((await scim(tokenA, 'GET', q('externalId eq "EXT-PAGINA4"'))).json.totalResults).toBe(0);
      const both = await scim(tokenA, 'GET', q('userName eq "pagina1" or userName eq "pagina2"'));
      expect(both.json.Resources.map((r: Json) => r.id)).toEqual([ids[0], ids[1]]);
      const grouped = await scim(
        tokenA,
        'GET',
        q('(userName eq "pagina4" or userName eq "pagina5") and active eq false'),
      );
      expect(grouped.json.Resources.map((r: Json) => r.id)).toEqual([ids[4]]);
      const urn = await scim(tokenA, 'GET', q(`${USER}:userName eq "pagina1"`));
      expect(urn.json.totalResults).toBe(1);
      // Another client's token filters its own users only.
      expect((await scim(tokenB, 'GET', q('userName eq "pagina1"'))).json.totalResults).toBe(0);
    });

    it('what the portal does not support is 400 invalidFilter', async () => {
      for (const filter of [
        'userName sw "J"',
        'title pr',
        'meta.lastModified gt "2011-05-13T04:42:34Z"',
        'not (userName eq "x")',
        'userName eq',
        'userName eq "x" and',
        '(userName eq "x"',
        'emails[type eq "work" and value co "@example.com"]',
        'active eq "quizá"',
      ]) {
        const res = await scim(tokenA, 'GET', q(filter));
        expectScimError(res, 400, 'invalidFilter');
      }
    });

    it('startIndex is 1-based and count caps the page; count=0 only counts', async () => {
      const all = await scim(
        tokenA,
        'GET',
        q(
          'userName eq "pagina1" or userName eq "pagina2" or userName eq "pagina3" or userName eq "pagina4" or userName eq "pagina5"',
        ),
      );
      expect(all.json.totalResults).toBe(5);
      const base = encodeURIComponent(
        'userName eq "pagina1" or userName eq "pagina2" or userName eq "pagina3" or userName eq "pagina4" or userName eq "pagina5"',
      );
      const page2 = await scim(tokenA, 'GET', `/Users?filter=${base}&startIndex=3&count=2`);
      expect(page2.json).toMatchObject({ totalResults: 5, itemsPerPage: 2, startIndex: 3 });
      expect(page2.json.Resources.map((r: Json) => r.id)).toEqual([ids[2], ids[3]]);
      const last = await scim(tokenA, 'GET', `/Users?filter=${base}&startIndex=5&count=2`);
      expect(last.json.Resources.map((r: Json) => r.id)).toEqual([ids[4]]);
      const beyond = await scim(tokenA, 'GET', `/Users?filter=${base}&startIndex=9&count=2`);
      expect(beyond.json).toMatchObject({ totalResults: 5, itemsPerPage: 0, Resources: [] });
      const zero = await scim(tokenA, 'GET', `/Users?filter=${base}&count=0`);
      expect(zero.json).toMatchObject({ totalResults: 5, itemsPerPage: 0, startIndex: 1 });
      const below = await scim(tokenA, 'GET', `/Users?filter=${base}&startIndex=0&count=1`);
      expect(below.json).toMatchObject({ startIndex: 1, itemsPerPage: 1 });
      const capped = await scim(tokenA, 'GET', '/Users?count=100000');
      expect(capped.json.itemsPerPage).toBeLessThanOrEqual(200);
    });
  });

  describe('RFC 7644 §3.5.2: modifying with PATCH', () => {
    it('add, replace and remove, with and without path', async () => {
      const u = await createUser(tokenA, {
        userName: 'parchado',
        externalId: 'ext-parchado',
        name: { givenName: 'Barbara', familyName: 'Jensen' },
      });
      // §3.5.2.1: add with a path, and add without a path (nickName is not stored: ignored).
      let res = await scim(
        tokenA,
        'PATCH',
        `/Users/${u.id}`,
        patchOp({ op: 'add', path: 'emails', value: [{ value: 'babs@jensen.org', type: 'home' }] }),
      );
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.emails[0].value).toBe('babs@jensen.org');
      res = await scim(
        tokenA,
        'PATCH',
        `/Users/${u.id}`,
        patchOp({
          op: 'add',
          value: { emails: [{ value: 'barbara@jensen.org', type: 'work' }], nickName: 'Babs' },
        }),
      );
      expect(res.json.emails[0].value).toBe('barbara@jensen.org');
      // §3.5.2.3: replace a sub-attribute.
      res = await scim(
        tokenA,
        'PATCH',
        `/Users/${u.id}`,
        patchOp({ op: 'replace', path: 'name.familyName', value: 'Smith' }),
      );
      expect(res.json.name.formatted).toBe('Barbara Smith');
      // §3.5.2.2: remove a single-valued attribute.
      res = await scim(tokenA, 'PATCH', `/Users/${u.id}`, patchOp({ op: 'remove', path: 'externalId' }));
      expect(res.json.externalId).toBeUndefined();
      // Replace without a path.
      res = await scim(
        tokenA,
        'PATCH',
        `/Users/${u.id}`,
        patchOp({
          op: 'replace',
          value: { userName: 'parchado2', externalId: 'ext-2', name: { formatted: 'Barbara J.' } },
        }),
      );
      expect(res.json).toMatchObject({
        userName: 'parchado2',
        externalId: 'ext-2',
        name: { formatted: 'Barbara J.' },
      });
      expect(res.json.meta.lastModified).toBeDefined();
    });

    it("Microsoft Entra ID's shapes: capitalised ops, string booleans, filtered e-mail paths", async () => {
      const u = await createUser(tokenA, { userName: 'entra@contoso.test', externalId: 'e-1' });
      const res = await scim(
        tokenA,
        'PATCH',
        `/Users/${u.id}`,
        patchOp(
          { op: 'Replace', path: 'userName', value: 'entra2@contoso.test' },
          { op: 'Replace', path: 'name.givenName', value: 'Ana' },
          { op: 'Add', path: 'emails[type eq "work"].value', value: 'Ana@Contoso.test' },
          { op: 'Add', path: 'title', value: 'Compras' },
          {
            op: 'Add',
            path: 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User:department',
            value: 'Finanzas',
          },
          { op: 'Replace', path: 'displayName', value: 'Ana López' },
        ),
      );
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json).toMatchObject({ userName: 'entra2@contoso.test', displayName: 'Ana López' });
      expect(res.json.emails[0].value).toBe('ana@contoso.test');
      const off = await scim(
        tokenA,
        'PATCH',
        `/Users/${u.id}`,
        patchOp({ op: 'Replace', path: 'active', value: 'False' }),
      );
      expect(off.json.active).toBe(false);
      const on = await scim(
        tokenA,
        'PATCH',
        `/Users/${u.id}`,
        patchOp({ op: 'replace', value: { active: 'True' } }),
      );
      expect(on.json.active).toBe(true);
    });

    it('errors: invalidSyntax, invalidPath, noTarget, invalidValue, mutability', async () => {
      const u = await createUser(tokenA, { userName: 'errores' });
      const url = `/Users/${u.id}`;
      expectScimError(
        await scim(tokenA, 'PATCH', url, patchOp({ op: 'move', path: 'userName', value: 'x' })),
        400,
        'invalidSyntax',
      );
      expectScimError(
        await scim(tokenA, 'PATCH', url, { schemas: [PATCH], Operations: [] }),
        400,
        'invalidSyntax',
      );
      expectScimError(
        await scim(tokenA, 'PATCH', url, patchOp({ op: 'replace', path: 'favoriteColor', value: 'x' })),
        400,
        'invalidPath',
      );
      expectScimError(await scim(tokenA, 'PATCH', url, patchOp({ op: 'remove' })), 400, 'noTarget');
      expectScimError(
        await scim(tokenA, 'PATCH', url, patchOp({ op: 'replace', path: 'active', value: 'quizá' })),
        400,
        'invalidValue',
      );
      expectScimError(
        await scim(tokenA, 'PATCH', url, patchOp({ op: 'add', path: 'groups', value: [{ value: 'rol-2' }] })),
        400,
        'mutability',
      );
      // Taking another user's userName.
      expectScimError(
        await scim(tokenA, 'PATCH', url, patchOp({ op: 'replace', path: 'userName', value: 'bjensen' })),
        409,
        'uniqueness',
      );
      // Nothing changed.
      expect((await scim(tokenA, 'GET', url)).json.userName).toBe('errores');
    });

    it('PUT replaces the resource', async () => {
      const u = await createUser(tokenA, {
        userName: 'reemplazo',
        externalId: 'r-1',
        emails: [{ value: 'r@example.test' }],
      });
      const res = await scim(tokenA, 'PUT', `/Users/${u.id}`, {
        schemas: [USER],
        userName: 'reemplazo',
        name: { formatted: 'Nombre Nuevo' },
        emails: [{ value: 'nuevo@example.test', primary: true }],
        active: true,
      });
      expect(res.status).toBe(200);
      expect(res.json).toMatchObject({
        userName: 'reemplazo',
        name: { formatted: 'Nombre Nuevo' },
        active: true,
      });
      expect(res.json.externalId).toBeUndefined();
      expect(res.json.emails[0].value).toBe('nuevo@example.test');
    });
  });

  describe('RFC 7644 §3.12: errors, and tenancy', () => {
    it('a missing id, an id of another client and an administrator are the same 404', async () => {
      const a = await createUser(tokenA, { userName: 'de.cliente.a' });
      const adminRow = await makeUser(db(), { rol: 4, idCliente: null });
      for (const [token, id] of [
        [tokenA, '99999999'],
        [tokenA, 'no-numerico'],
        [tokenB, a.id],
        [tokenA, String(adminRow.id)],
      ] as const) {
        expectScimError(await scim(token, 'GET', `/Users/${id}`), 404);
        expectScimError(
          await scim(
            token,
            'PATCH',
            `/Users/${id}`,
            patchOp({ op: 'replace', path: 'active', value: false }),
          ),
          404,
        );
        expectScimError(await scim(token, 'PUT', `/Users/${id}`, { schemas: [USER], userName: 'x' }), 404);
        expectScimError(await scim(token, 'DELETE', `/Users/${id}`), 404);
      }
      expect((await scim(tokenA, 'GET', `/Users/${a.id}`)).json.active).toBe(true);
      const listB = await scim(tokenB, 'GET', '/Users?count=200');
      expect(listB.json.Resources.some((r: Json) => r.id === a.id)).toBe(false);
      const listA = await scim(tokenA, 'GET', '/Users?count=200');
      expect(listA.json.Resources.some((r: Json) => r.id === String(adminRow.id))).toBe(false);
    });
  });

  describe('the leaver', () => {
    it('deactivated by PATCH: every session ends, pending orders are withdrawn through the seam, approved ones stay', async () => {
      const leaver = await makeUser(db(), { rol: 1, idCliente: clientA.id });
      const session = await new ApiClient(t.app).loginOk(leaver.usuario, TEST_PASSWORD);
      expect((await session.get('/api/sesion')).statusCode).toBe(200);
      const pending = await orderOf(leaver.id, 'pendiente');
      const waiting = await orderOf(leaver.id, 'espera');
      const approved = await orderOf(leaver.id, 'aprobado');

      const res = await scim(
        tokenA,
        'PATCH',
        `/Users/${leaver.id}`,
        patchOp({ op: 'Replace', path: 'active', value: 'False' }),
      );
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.active).toBe(false);
      expect((await session.get('/api/sesion')).statusCode).toBe(401);

      for (const id of [pending, waiting]) {
        const [o] = await db().select().from(orders).where(eq(orders.id, id));
        expect(o).toMatchObject({ status: 'cancelado', cancelReason: 'Usuario dado de baja' });
        const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, id));
        expect(events.filter((e) => e.tipo === 'retirado')).toEqual([
          expect.objectContaining({
            toStatus: 'cancelado',
            reason: 'Usuario dado de baja',
            changes: { baja: true },
          }),
        ]);
      }
      const [a] = await db().select().from(orders).where(eq(orders.id, approved));
      expect(a!.status).toBe('aprobado');
      const logs = await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'usuario_baja_scim'));
      expect(logs.some((l) => JSON.stringify(l.metadata).includes(String(pending)))).toBe(true);
    });

    it('two concurrent deactivations withdraw each order once', async () => {
      const leaver = await makeUser(db(), { rol: 1, idCliente: clientA.id });
      const o1 = await orderOf(leaver.id, 'pendiente');
      const o2 = await orderOf(leaver.id, 'espera');
      const [first, second] = await Promise.all([
        scim(tokenA, 'DELETE', `/Users/${leaver.id}`),
        scim(
          tokenA,
          'PATCH',
          `/Users/${leaver.id}`,
          patchOp({ op: 'replace', path: 'active', value: false }),
        ),
      ]);
      expect(first.status).toBe(204);
      expect(second.status).toBe(200);
      for (const id of [o1, o2]) {
        const events = await db()
          .select()
          .from(orderEvents)
          .where(and(eq(orderEvents.orderId, id), eq(orderEvents.tipo, 'retirado')));
        expect(events.length).toBe(1);
      }
      const logs = await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'usuario_baja_scim'));
      expect(logs.filter((l) => (l.metadata as Json).id_usuario === leaver.id).length).toBe(1);
    });

    it('DELETE deactivates (204) and never deletes', async () => {
      const u = await createUser(tokenA, { userName: 'borrado' });
      const res = await scim(tokenA, 'DELETE', `/Users/${u.id}`);
      expect(res.status).toBe(204);
      const [row] = await db()
        .select()
        .from(users)
        .where(eq(users.id, Number(u.id)));
      expect(row!.activo).toBe(false);
      expect((await scim(tokenA, 'GET', `/Users/${u.id}`)).json.active).toBe(false);
    });
  });

  describe('groups are the roles 1–3', () => {
    it('lists and filters the three fixed groups', async () => {
      const res = await scim(tokenA, 'GET', '/Groups?excludedAttributes=members');
      expect(res.json).toMatchObject({ schemas: [LIST], totalResults: 3 });
      expect(res.json.Resources.map((g: Json) => [g.id, g.displayName])).toEqual([
        ['rol-1', 'Usuario'],
        ['rol-2', 'Autorizador'],
        ['rol-3', 'Super Autorizador'],
      ]);
      expect(res.json.Resources[0].members).toBeUndefined();
      const one = await scim(
        tokenA,
        'GET',
        `/Groups?filter=${encodeURIComponent('displayName eq "autorizador"')}`,
      );
      expect(one.json.Resources.map((g: Json) => g.id)).toEqual(['rol-2']);
      expectScimError(
        await scim(tokenA, 'GET', `/Groups?filter=${encodeURIComponent('displayName co "a"')}`),
        400,
        'invalidFilter',
      );
      expectScimError(await scim(tokenA, 'GET', '/Groups/rol-4'), 404);
      expectScimError(await scim(tokenA, 'POST', '/Groups', { displayName: 'Compras' }), 405, 'mutability');
      expectScimError(await scim(tokenA, 'DELETE', '/Groups/rol-2'), 405, 'mutability');
    });

    it('adding a member sets the role; removing puts it back to rol 1; PUT replaces the membership', async () => {
      const u = await createUser(tokenA, { userName: 'ascendido' });
      const v = await createUser(tokenA, { userName: 'ascendido2' });
      const other = await createUser(tokenB, { userName: 'de.otro.cliente' });
      // Entra ID: Add with path members.
      let res = await scim(
        tokenA,
        'PATCH',
        '/Groups/rol-2',
        patchOp({ op: 'Add', path: 'members', value: [{ value: u.id }] }),
      );
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.members.map((m: Json) => m.value)).toContain(u.id);
      expect((await scim(tokenA, 'GET', `/Users/${u.id}`)).json.groups[0].value).toBe('rol-2');
      // RFC 7644 §3.5.2.2: remove members[value eq "…"].
      res = await scim(
        tokenA,
        'PATCH',
        '/Groups/rol-2',
        patchOp({ op: 'remove', path: `members[value eq "${u.id}"]` }),
      );
      expect(res.json.members.map((m: Json) => m.value)).not.toContain(u.id);
      expect((await scim(tokenA, 'GET', `/Users/${u.id}`)).json.groups[0].value).toBe('rol-1');
      // Add without path, then Entra ID's Remove with a value list.
      await scim(
        tokenA,
        'PATCH',
        '/Groups/rol-3',
        patchOp({ op: 'add', value: { members: [{ value: u.id }, { value: v.id }] } }),
      );
      expect((await scim(tokenA, 'GET', `/Users/${v.id}`)).json.groups[0].value).toBe('rol-3');
      await scim(
        tokenA,
        'PATCH',
        '/Groups/rol-3',
        patchOp({ op: 'Remove', path: 'members', value: [{ value: v.id }] }),
      );
      expect((await scim(tokenA, 'GET', `/Users/${v.id}`)).json.groups[0].value).toBe('rol-1');
      // PUT: the whole membership.
      res = await scim(tokenA, 'PUT', '/Groups/rol-3', {
        displayName: 'Super Autorizador',
        members: [{ value: v.id }],
      });
      expect(res.json.members.map((m: Json) => m.value)).toEqual([v.id]);
      expect((await scim(tokenA, 'GET', `/Users/${u.id}`)).json.groups[0].value).toBe('rol-1');
      const [row] = await db()
        .select()
        .from(users)
        .where(eq(users.id, Number(v.id)));
      expect(row!.rol).toBe(3);
      // Another client's user is not a member here; the name of a group is fixed.
      expectScimError(
        await scim(
          tokenA,
          'PATCH',
          '/Groups/rol-2',
          patchOp({ op: 'add', path: 'members', value: [{ value: other.id }] }),
        ),
        400,
        'invalidValue',
      );
      expectScimError(
        await scim(
          tokenA,
          'PATCH',
          '/Groups/rol-2',
          patchOp({ op: 'replace', path: 'displayName', value: 'Jefes' }),
        ),
        400,
        'mutability',
      );
      // Client B has one level of approval: no Super Autorizador.
      expectScimError(
        await scim(
          tokenB,
          'PATCH',
          '/Groups/rol-3',
          patchOp({ op: 'add', path: 'members', value: [{ value: other.id }] }),
        ),
        400,
        'invalidValue',
      );
      const [o] = await db()
        .select()
        .from(users)
        .where(eq(users.id, Number(other.id)));
      expect(o!.rol).toBe(1);
    });

    it('the client’s áreas are groups too: membership is the área (decision 0123)', async () => {
      const [mant] = await db()
        .insert(areas)
        .values({ idCliente: clientA.id, nombre: 'Mantenimiento', codigo: 'MANT', presupuesto: 100_000 })
        .returning();
      const [alm] = await db()
        .insert(areas)
        .values({ idCliente: clientA.id, nombre: 'Almacén', codigo: 'ALM', presupuesto: 100_000 })
        .returning();
      const [ajena] = await db()
        .insert(areas)
        .values({ idCliente: clientB.id, nombre: 'Ajena', codigo: 'AJ', presupuesto: 1 })
        .returning();
      const u = await createUser(tokenA, { userName: 'en.area' });
      const v = await createUser(tokenA, { userName: 'en.area2' });
      const listed = await scim(tokenA, 'GET', '/Groups?excludedAttributes=members');
      expect(listed.json.Resources.map((g: Json) => [g.id, g.displayName]).slice(3)).toEqual([
        [`area-${mant!.id}`, 'Mantenimiento'],
        [`area-${alm!.id}`, 'Almacén'],
      ]);
      const byName = await scim(
        tokenA,
        'GET',
        `/Groups?filter=${encodeURIComponent('displayName eq "almacén"')}`,
      );
      expect(byName.json.Resources.map((g: Json) => g.id)).toEqual([`area-${alm!.id}`]);
      // Another client's área is a missing group.
      expectScimError(await scim(tokenA, 'GET', `/Groups/area-${ajena!.id}`), 404);
      const areaOf = async (id: string) =>
        (
          await db()
            .select({ a: users.idArea })
            .from(users)
            .where(eq(users.id, Number(id)))
        )[0]!.a;
      let res = await scim(
        tokenA,
        'PATCH',
        `/Groups/area-${mant!.id}`,
        patchOp({ op: 'Add', path: 'members', value: [{ value: u.id }, { value: v.id }] }),
      );
      expect(res.status, JSON.stringify(res.json)).toBe(200);
      expect(res.json.members.map((m: Json) => m.value).sort()).toEqual([u.id, v.id].sort());
      expect(await areaOf(u.id)).toBe(mant!.id);
      // Joining another área moves the user (one área at most).
      await scim(
        tokenA,
        'PATCH',
        `/Groups/area-${alm!.id}`,
        patchOp({ op: 'add', value: { members: [{ value: u.id }] } }),
      );
      expect(await areaOf(u.id)).toBe(alm!.id);
      // Removing from an área the user is not in changes nothing; from theirs, leaves none.
      await scim(
        tokenA,
        'PATCH',
        `/Groups/area-${mant!.id}`,
        patchOp({ op: 'remove', path: `members[value eq "${u.id}"]` }),
      );
      expect(await areaOf(u.id)).toBe(alm!.id);
      // PUT replaces the membership: v leaves Mantenimiento.
      res = await scim(tokenA, 'PUT', `/Groups/area-${mant!.id}`, {
        displayName: 'Mantenimiento',
        members: [],
      });
      expect(res.json.members).toEqual([]);
      expect(await areaOf(v.id)).toBeNull();
      // Its own name again is accepted (nothing changes); renaming is refused: the name comes from the portal.
      const same = await scim(
        tokenA,
        'PATCH',
        `/Groups/area-${alm!.id}`,
        patchOp({ op: 'replace', path: 'displayName', value: 'almacén' }),
      );
      expect(same.status, JSON.stringify(same.json)).toBe(200);
      expectScimError(
        await scim(
          tokenA,
          'PATCH',
          `/Groups/area-${alm!.id}`,
          patchOp({ op: 'replace', path: 'displayName', value: 'Otra' }),
        ),
        400,
        'mutability',
      );
    });
  });
});
