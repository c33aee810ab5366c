import { WELCOME_LINK_TTL_MS } from '@portal/shared/limits';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  emailOutbox,
  passwordTokens,
  sessions,
  systemLogs,
  userCategoryBudgets,
  users,
} from '../../db/schema/index.ts';
import { hashToken } from '../../lib/tokens.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeCategory, makeClient, makeUser, TEST_PASSWORD, uniq } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { expectLinkLive, expectLinkRefused, linkIn, plantLinks } from '../../test/links.ts';
import { startSmtp } from '../../test/smtp.ts';

describe.each(DB_KINDS)('administration: users and password resets (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let admin: ApiClient;
  let adminUser: Awaited<ReturnType<typeof signedInAdmin>>['user'];
  const logLines: string[] = [];
  const secrets: string[] = [];
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url }, logLines });
    const a = await signedInAdmin(t.app, t.database.db);
    admin = a.api;
    adminUser = a.user;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;

  function body(idCliente: number, extra: Record<string, unknown> = {}) {
    const usuario = uniq('usr');
    return {
      id_cliente: idCliente,
      usuario,
      user_id: `${usuario}@example.test`,
      nombre: 'Lucía Pérez',
      rol: 1,
      direccion_entrega: 'Av. Reforma 100',
      colonia: 'Centro',
      ciudad: 'CDMX',
      cp: '06000',
      estado: 'Ciudad de México',
      area: 'Compras',
      localidad: 'Oficina central',
      region: 'Centro',
      coordinacion: 'Norte',
      calle: 'Reforma',
      active_week: 2,
      entrega_week: 3,
      activo: 1,
      ...extra,
    };
  }

  async function logsFor(eventType: string, idUsuario: number) {
    const rows = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, eventType))
      .orderBy(systemLogs.id);
    return rows.filter((r) => (r.metadata as { id_usuario?: number }).id_usuario === idUsuario);
  }

  it('creates a user with no password and e-mails a single-use welcome link (72 h) that sets it', async () => {
    const client = await makeClient(db(), { presupuestoDefault: 250050, limiteDeCompras: 6 });
    const data = body(client.id, { nombre: 'Óscar Núñez' });
    const res = await admin.post('/api/usuarios', data);
    expect(res.statusCode, res.body).toBe(201);
    const { usuario } = res.json();
    expect(res.json()).toMatchObject({ status: 'ok', msg: MSG.creadoCorrectamente });
    expect(usuario).toMatchObject({
      usuario: data.usuario,
      user_id: data.user_id,
      nombre: 'Óscar Núñez',
      rol: 1,
      direccion_entrega: 'Av. Reforma 100',
      colonia: 'Centro',
      ciudad: 'CDMX',
      cp: '06000',
      estado: 'Ciudad de México',
      area: 'Compras',
      localidad: 'Oficina central',
      region: 'Centro',
      coordinacion: 'Norte',
      calle: 'Reforma',
      active_week: 2,
      entrega_week: 3,
      activo: true,
      // Defaults from the client.
      presupuesto_default: 2500.5,
      limite_de_compras: 6,
      categorias: '[]',
      id_cliente: client.id,
      cliente: { id: client.id, nombre: client.nombre },
      asignados: 0,
      productos: [],
      historial: [],
    });
    const [row] = await db().select().from(users).where(eq(users.id, usuario.id));
    expect(row!.passwordHash).toBeNull();
    expect(row!.presupuestoDefault).toBe(250050);
    // No password: signing in is refused until the link is used.
    expect((await new ApiClient(t.app).login(data.usuario, TEST_PASSWORD)).statusCode).toBe(401);

    const mail = await smtp.waitFor((m) => m.to.includes(data.user_id));
    expect(mail.subject).toBe('Bienvenido al Portal de Compras');
    expect(mail.text).toContain(data.usuario);
    const token = mail.text.match(/http:\/\/portal\.test\/restablecer\/([\w-]+)/)![1]!;
    const [stored] = await db().select().from(passwordTokens).where(eq(passwordTokens.userId, usuario.id));
    expect(stored).toMatchObject({ purpose: 'bienvenida', tokenHash: hashToken(token), usedAt: null });
    const ttl = stored!.expiresAt.getTime() - stored!.createdAt.getTime();
    expect(ttl).toBeGreaterThan(WELCOME_LINK_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(WELCOME_LINK_TTL_MS + 60_000);

    const c = new ApiClient(t.app);
    const check = await c.post('/api/restablecer/verificar', { token });
    expect(check.json()).toMatchObject({ usuario: data.usuario, proposito: 'bienvenida' });
    const set = await c.post('/api/restablecer-password', {
      token,
      newPass: 'Bienvenida#1',
      confirmPass: 'Bienvenida#1',
    });
    expect(set.statusCode, set.body).toBe(200);
    const signed = await new ApiClient(t.app).login(data.usuario, 'Bienvenida#1');
    expect(signed.statusCode).toBe(200);
    expect(signed.json().user.debe_cambiar_password).toBe(false);
    const again = await c.post('/api/restablecer-password', {
      token,
      newPass: 'Otra#123456',
      confirmPass: 'Otra#123456',
    });
    expect(again.statusCode).toBe(400);

    const [log] = await logsFor('usuario_creado', usuario.id);
    expect(log).toMatchObject({ userId: adminUser.id });
    expect(log!.metadata).toMatchObject({ id_usuario: usuario.id, id_cliente: client.id, rol: 1 });
    expect(JSON.stringify(log!.metadata)).not.toContain(token);
    secrets.push(token, 'Bienvenida#1');
  });

  it('refuses every invalid field with its Spanish message', async () => {
    const client = await makeClient(db(), { cantidadAutorizadores: 1 });
    const required = [
      'usuario',
      'user_id',
      'nombre',
      'direccion_entrega',
      'rol',
      'active_week',
      'entrega_week',
    ];
    for (const field of required) {
      for (const value of [undefined, '', null]) {
        const b = body(client.id) as Record<string, unknown>;
        if (value === undefined) delete b[field];
        else b[field] = value;
        const res = await admin.post('/api/usuarios', b);
        expect(res.statusCode, `${field}=${value}`).toBe(400);
        expect(res.json().msg, `${field}=${value}`).toBe(MSG.camposObligatoriosUsuario);
      }
    }
    const cases: [Record<string, unknown>, string, number?][] = [
      [{ active_week: 0 }, MSG.semanasUsuarioInvalidas],
      [{ entrega_week: '5' }, MSG.semanasUsuarioInvalidas],
      [{ active_week: 1.5 }, MSG.semanasUsuarioInvalidas],
      [{ rol: 4 }, MSG.rolInvalido],
      [{ rol: 0 }, MSG.rolInvalido],
      [{ rol: 3 }, MSG.rolSuperNoDisponible],
      [{ user_id: 'no-es-correo' }, MSG.correoInvalido],
      [{ usuario: 'con espacio' }, MSG.usuarioConEspacios],
      [{ presupuesto_default: 0.5 }, MSG.presupuestoUsuarioMinimo],
      [{ presupuesto_default: '10.001' }, MSG.importeDecimales],
      [{ presupuesto_default: -5 }, MSG.presupuestoUsuarioMinimo],
      [{ limite_de_compras: -2 }, MSG.limiteComprasInvalido],
      [{ id_cliente: undefined }, MSG.debesSeleccionarCliente],
      [{ id_cliente: 99999999 }, MSG.clienteNoEncontrado, 404],
      [{ nombre: 'x'.repeat(201) }, MSG.textoDemasiadoLargo],
    ];
    for (const [extra, msg, status] of cases) {
      const res = await admin.post('/api/usuarios', body(client.id, extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(status ?? 400);
      expect(res.json().msg, JSON.stringify(extra)).toBe(msg);
    }
    // A client whose default budget is 0 needs an explicit one in regular mode.
    const poor = await makeClient(db(), { presupuestoDefault: 0 });
    const none = await admin.post('/api/usuarios', body(poor.id));
    expect(none.json().msg).toBe(MSG.presupuestoUsuarioMinimo);
    const given = await admin.post('/api/usuarios', body(poor.id, { presupuesto_default: '1' }));
    expect(given.statusCode, given.body).toBe(201);
    expect(given.json().usuario.presupuesto_default).toBe(1);
    // Strings from an HTML form are accepted.
    const form = await admin.post(
      '/api/usuarios',
      body(client.id, {
        rol: '2',
        active_week: '4',
        entrega_week: '1',
        limite_de_compras: '-1',
        activo: '0',
      }),
    );
    expect(form.statusCode, form.body).toBe(201);
    expect(form.json().usuario).toMatchObject({
      rol: 2,
      active_week: 4,
      limite_de_compras: -1,
      activo: false,
    });
  });

  it('rol 3 only for clients with two authorizers; duplicate usernames (any case) are 409', async () => {
    const client = await makeClient(db(), { cantidadAutorizadores: 2 });
    const first = await admin.post('/api/usuarios', body(client.id, { rol: 3 }));
    expect(first.statusCode, first.body).toBe(201);
    const dup = await admin.post(
      '/api/usuarios',
      body(client.id, { usuario: first.json().usuario.usuario.toUpperCase() }),
    );
    expect(dup.statusCode).toBe(409);
    expect(dup.json().msg).toBe(MSG.usuarioDuplicado);
    // Also against a user of another client and an administrator.
    const adminDup = await admin.post('/api/usuarios', body(client.id, { usuario: adminUser.usuario }));
    expect(adminDup.statusCode).toBe(409);
  });

  it('category mode: budgets above 0 are stored, the total is their sum, categories must be the client’s', async () => {
    const client = await makeClient(db(), { modoPresupuesto: 'categoria' });
    const a = await makeCategory(db(), client.id);
    const b = await makeCategory(db(), client.id);
    const c = await makeCategory(db(), client.id);
    const foreign = await makeCategory(db(), (await makeClient(db())).id);
    const categorias = JSON.stringify([
      { id: a.id, presupuesto: 1200.25 },
      { id: b.id, presupuesto: 0 },
      { id: c.id, presupuesto: '300' },
    ]);
    const res = await admin.post('/api/usuarios', body(client.id, { categorias, presupuesto_default: 5 }));
    expect(res.statusCode, res.body).toBe(201);
    const u = res.json().usuario;
    expect(u.presupuesto_default).toBe(1500.25);
    expect(JSON.parse(u.categorias)).toEqual(
      [
        { id: a.id, presupuesto: 1200.25 },
        { id: c.id, presupuesto: 300 },
      ].sort((x, y) => x.id - y.id),
    );
    const rows = await db().select().from(userCategoryBudgets).where(eq(userCategoryBudgets.userId, u.id));
    expect(rows.map((r) => r.presupuesto).sort()).toEqual([120025, 30000].sort());
    // The list reads them with its page.
    const listed = (await admin.get(`/api/usuarios?id_cliente=${client.id}&q=${u.usuario}`)).json();
    expect(listed.usuarios.map((x: { id: number }) => x.id)).toEqual([u.id]);
    expect(listed.usuarios[0].categorias).toBe(u.categorias);

    const bad: [string, string][] = [
      [JSON.stringify([{ id: foreign.id, presupuesto: 10 }]), MSG.categoriaAjena],
      ['esto no es json', MSG.categoriasInvalidas],
      [JSON.stringify({ id: a.id }), MSG.categoriasInvalidas],
      [
        JSON.stringify([
          { id: a.id, presupuesto: 1 },
          { id: a.id, presupuesto: 2 },
        ]),
        MSG.categoriaRepetida,
      ],
      [JSON.stringify([{ id: a.id, presupuesto: -1 }]), MSG.presupuestoCategoriaInvalido],
      [JSON.stringify([{ id: a.id, presupuesto: 1.999 }]), MSG.importeDecimales],
    ];
    for (const [value, msg] of bad) {
      const r = await admin.post('/api/usuarios', body(client.id, { categorias: value }));
      expect(r.statusCode, value).toBe(400);
      expect(r.json().msg, value).toBe(msg);
    }
    // An array (not text) is accepted too; a foreign category with 0 is simply dropped.
    const arr = await admin.post(
      '/api/usuarios',
      body(client.id, {
        categorias: [
          { id: b.id, presupuesto: 50 },
          { id: foreign.id, presupuesto: 0 },
        ],
      }),
    );
    expect(arr.statusCode, arr.body).toBe(201);
    expect(arr.json().usuario.presupuesto_default).toBe(50);

    // Update replaces the set; absent categorias keep it.
    const put = await admin.put(
      `/api/usuarios/${u.id}`,
      body(client.id, {
        usuario: u.usuario,
        categorias: JSON.stringify([{ id: b.id, presupuesto: 99.99 }]),
      }),
    );
    expect(put.statusCode, put.body).toBe(200);
    expect(put.json().usuario.categorias).toBe(JSON.stringify([{ id: b.id, presupuesto: 99.99 }]));
    expect(put.json().usuario.presupuesto_default).toBe(99.99);
    const keep = await admin.put(`/api/usuarios/${u.id}`, body(client.id, { usuario: u.usuario }));
    expect(keep.json().usuario.presupuesto_default).toBe(99.99);
    expect(JSON.parse(keep.json().usuario.categorias)).toHaveLength(1);
  });

  it('lists users of a client 10 per page, searchable, never administrators; GET one; only rol 4', async () => {
    const client = await makeClient(db());
    const tag = uniq('busca');
    for (let i = 0; i < 11; i++) {
      await makeUser(db(), {
        rol: 1 + (i % 2),
        idCliente: client.id,
        usuario: `${tag}_${String(i).padStart(2, '0')}`,
        nombre: i === 3 ? 'Ramón Íñiguez' : 'Persona',
        email: i === 4 ? `unico-${tag}@empresa.test` : '',
      });
    }
    const otherAdmin = await makeUser(db(), { rol: 4, idCliente: null, usuario: `${tag}_admin` });
    const page1 = (await admin.get(`/api/usuarios?id_cliente=${client.id}`)).json();
    expect(page1).toMatchObject({ total: 11, page: 1, per_page: 10 });
    expect(page1.usuarios).toHaveLength(10);
    expect(page1.usuarios[0]).toMatchObject({
      usuario: `${tag}_00`,
      cliente: { id: client.id, nombre: client.nombre },
    });
    const page2 = (await admin.get(`/api/usuarios?id_cliente=${client.id}&page=2`)).json();
    expect(page2.usuarios.map((u: { usuario: string }) => u.usuario)).toEqual([`${tag}_10`]);
    // Search across clients by username, name (accents ignored) and e-mail; administrators never appear.
    const all = (await admin.get(`/api/usuarios?q=${tag}`)).json();
    expect(all.total).toBe(11);
    expect(all.usuarios.map((u: { id: number }) => u.id)).not.toContain(otherAdmin.id);
    const byName = (await admin.get(`/api/usuarios?id_cliente=${client.id}&q=ramon iniguez`)).json();
    expect(byName.usuarios.map((u: { usuario: string }) => u.usuario)).toEqual([`${tag}_03`]);
    const byMail = (await admin.get(`/api/usuarios?q=unico-${tag}`)).json();
    expect(byMail.usuarios.map((u: { usuario: string }) => u.usuario)).toEqual([`${tag}_04`]);
    const everyone = (await admin.get('/api/usuarios?page=1')).json();
    expect(everyone.usuarios.every((u: { rol: number }) => u.rol !== 4)).toBe(true);

    const one = await admin.get(`/api/usuarios/${page1.usuarios[1].id}`);
    expect(one.statusCode).toBe(200);
    expect(Object.keys(one.json().usuario).sort()).toEqual(
      [
        'id',
        'usuario',
        'user_id',
        'nombre',
        'rol',
        'direccion_entrega',
        'area',
        'localidad',
        'region',
        'coordinacion',
        'calle',
        'colonia',
        'ciudad',
        'cp',
        'estado',
        'active_week',
        'entrega_week',
        'activo',
        'limite_de_compras',
        'presupuesto_default',
        'id_area',
        'categorias',
        'id_cliente',
        'cliente',
        'dos_pasos',
        'ultimo_acceso',
        'asignados',
        'productos',
        'historial',
        'created_at',
        'updated_at',
      ].sort(),
    );
    for (const id of [otherAdmin.id, adminUser.id, 99999999]) {
      const res = await admin.get(`/api/usuarios/${id}`);
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe(MSG.usuarioNoEncontrado);
    }
    const target = page1.usuarios[0].id;
    for (const rol of [1, 2, 3]) {
      const u = await makeUser(db(), { rol, idCliente: client.id });
      const api = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
      expect((await api.get('/api/usuarios')).statusCode).toBe(403);
      expect((await api.get(`/api/usuarios/${target}`)).statusCode).toBe(403);
      expect((await api.post('/api/usuarios', body(client.id))).statusCode).toBe(403);
      expect((await api.put(`/api/usuarios/${target}`, body(client.id))).statusCode).toBe(403);
      expect((await api.post(`/api/recuperar/password/${target}`)).statusCode).toBe(403);
      // Even with an invalid body, the role is checked first.
      expect((await api.post('/api/usuarios', {})).statusCode).toBe(403);
    }
    const anon = new ApiClient(t.app);
    expect((await anon.get('/api/usuarios')).statusCode).toBe(401);
    expect((await anon.get(`/api/usuarios/${target}`)).statusCode).toBe(401);
    expect((await anon.post('/api/usuarios', {})).statusCode).toBe(401);
    expect((await anon.put(`/api/usuarios/${target}`, body(client.id))).statusCode).toBe(401);
    expect((await anon.post(`/api/recuperar/password/${target}`)).statusCode).toBe(401);
  });

  it('updates a user: fields change, the client cannot, deactivation ends its sessions at once', async () => {
    const client = await makeClient(db(), { cantidadAutorizadores: 2 });
    const user = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      colonia: 'Roma',
      presupuestoDefault: 100000,
      limiteDeCompras: 2,
    });
    const other = await makeUser(db(), { rol: 1, idCliente: client.id });
    const session = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    const second = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    const data = {
      id: user.id,
      id_cliente: client.id,
      usuario: user.usuario,
      user_id: 'nuevo@example.test',
      nombre: 'Nombre Nuevo',
      rol: 3,
      direccion_entrega: 'Otra dirección',
      active_week: 4,
      entrega_week: 4,
    };
    const res = await admin.put(`/api/usuarios/${user.id}`, data);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      msg: MSG.modificadoCorrectamente,
      page: 1,
      per_page: 10,
    });
    expect(res.json().usuarios.map((u: { id: number }) => u.id)).toContain(user.id);
    expect(res.json().usuario).toMatchObject({
      user_id: 'nuevo@example.test',
      nombre: 'Nombre Nuevo',
      rol: 3,
      active_week: 4,
      // Absent optional fields keep their values.
      colonia: 'Roma',
      presupuesto_default: 1000,
      limite_de_compras: 2,
      activo: true,
    });
    // Still signed in (not deactivated).
    expect((await session.get('/api/sesion')).statusCode).toBe(200);

    const moved = await admin.put(`/api/usuarios/${user.id}`, {
      ...data,
      id_cliente: (await makeClient(db())).id,
    });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().msg).toBe(MSG.cambioClienteNoPermitido);
    const dup = await admin.put(`/api/usuarios/${user.id}`, {
      ...data,
      usuario: other.usuario.toUpperCase(),
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().msg).toBe(MSG.usuarioDuplicado);
    const sameCase = await admin.put(`/api/usuarios/${user.id}`, {
      ...data,
      usuario: user.usuario.toUpperCase(),
    });
    expect(sameCase.statusCode, sameCase.body).toBe(200);
    const missing = await admin.put(`/api/usuarios/${user.id}`, { ...data, nombre: '' });
    expect(missing.json().msg).toBe(MSG.camposObligatoriosUsuario);
    const unknown = await admin.put('/api/usuarios/99999999', data);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe(MSG.usuarioNoEncontrado);
    const adminTarget = await admin.put(`/api/usuarios/${adminUser.id}`, data);
    expect(adminTarget.statusCode).toBe(404);

    const off = await admin.put(`/api/usuarios/${user.id}`, { ...data, usuario: user.usuario, activo: 0 });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().usuario.activo).toBe(false);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);
    expect((await session.get('/api/sesion')).statusCode).toBe(401);
    expect((await second.get('/api/sesion')).statusCode).toBe(401);
    const refused = await new ApiClient(t.app).login(user.usuario, TEST_PASSWORD);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().msg).toBe(MSG.usuarioInactivo);

    const logs = await logsFor('usuario_actualizado', user.id);
    expect(logs.length).toBe(3);
    expect(logs.at(-1)!.description).toContain('desactivado');
    expect(logs[0]!.metadata).toMatchObject({ id_usuario: user.id, id_cliente: client.id });
    expect((logs[0]!.metadata as { campos: string[] }).campos).toEqual(
      expect.arrayContaining(['userId', 'nombre', 'rol']),
    );
  });

  it('admin reset: e-mailed temporary password, forced change at next sign-in, sessions ended', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      email: `${uniq('reset')}@example.test`,
      nombre: 'Tere Temporal',
    });
    const session = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    const res = await admin.post(`/api/recuperar/password/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', msg: MSG.correoPasswordTemporal });
    expect((await session.get('/api/sesion')).statusCode).toBe(401);
    expect(await db().select().from(sessions).where(eq(sessions.userId, user.id))).toEqual([]);

    const mail = await smtp.waitFor((m) => m.to.includes(user.email));
    expect(mail.subject).toBe('Tu contraseña temporal del Portal de Compras');
    const temp = mail.text.match(/Contraseña temporal: (\S+)/)![1]!;
    secrets.push(temp);
    expect(temp).toMatch(/^(?=.*[A-Z])(?=.*\d)(?=.*[^\w\s]).{12}$/);
    expect(mail.text).toContain('http://portal.test/login');

    expect((await new ApiClient(t.app).login(user.usuario, TEST_PASSWORD)).statusCode).toBe(401);
    const c = new ApiClient(t.app);
    const signed = await c.login(user.usuario, temp);
    expect(signed.statusCode).toBe(200);
    expect(signed.json().user).toMatchObject({
      debe_cambiar_password: true,
      motivo_cambio_password: 'temporal',
    });
    const blocked = await c.get('/api/catalogo');
    expect(blocked.statusCode).toBe(403);
    expect(blocked.json().code).toBe('PASSWORD_CHANGE_REQUIRED');
    const changed = await c.post('/api/repassword', {
      password: temp,
      newPass: 'Definitiva#9',
      confirmPass: 'Definitiva#9',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await c.get('/api/catalogo')).statusCode).toBe(200);
    secrets.push('Definitiva#9');

    const [log] = await logsFor('password_reset_admin', user.id);
    expect(log).toMatchObject({ userId: adminUser.id });
    expect(JSON.stringify(log)).not.toContain(temp);

    // Without an e-mail address (no Email and a username that is not an address): 422.
    const mute = await makeUser(db(), {
      rol: 2,
      idCliente: client.id,
      email: '',
      usuario: uniq('sincorreo'),
    });
    const noMail = await admin.post(`/api/recuperar/password/${mute.id}`);
    expect(noMail.statusCode).toBe(422);
    expect(noMail.json().msg).toBe(MSG.usuarioSinCorreo);
    // With only a username that is an address, the e-mail goes there.
    const addressed = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      email: '',
      usuario: `${uniq('dir')}@example.test`,
    });
    expect((await admin.post(`/api/recuperar/password/${addressed.id}`)).statusCode).toBe(200);
    await smtp.waitFor((m) => m.to.includes(addressed.usuario));
    for (const id of [adminUser.id, 99999999]) {
      const r = await admin.post(`/api/recuperar/password/${id}`);
      expect(r.statusCode).toBe(404);
      expect(r.json().msg).toBe(MSG.usuarioNoEncontrado);
    }
    // A pending welcome link stops working once a temporary password is set.
    const fresh = (await admin.post('/api/usuarios', body(client.id))).json().usuario;
    await admin.post(`/api/recuperar/password/${fresh.id}`);
    const live = await db()
      .select()
      .from(passwordTokens)
      .where(and(eq(passwordTokens.userId, fresh.id), eq(passwordTokens.purpose, 'bienvenida')));
    expect(live.every((r) => r.usedAt !== null)).toBe(true);
  });

  it('a changed e-mail, username or active flag retires every pending link of the user; other edits do not', async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 1, idCliente: client.id });
    const detail = (await admin.get(`/api/usuarios/${user.id}`)).json().usuario;
    const data = {
      usuario: detail.usuario,
      user_id: detail.user_id,
      nombre: detail.nombre,
      rol: 1,
      direccion_entrega: 'Calle 1',
      active_week: 1,
      entrega_week: 1,
      activo: true,
    };
    const put = async (changes: Record<string, unknown>) => {
      const res = await admin.put(`/api/usuarios/${user.id}`, { ...data, ...changes });
      expect(res.statusCode, res.body).toBe(200);
      Object.assign(data, changes);
    };
    const kept = await plantLinks(db(), user.id);
    await put({ nombre: 'Otro Nombre', direccion_entrega: 'Calle 2', rol: 2 });
    await expectLinkLive(t.app, kept.bienvenida, 'tras cambiar el nombre');
    await expectLinkLive(t.app, kept.recuperacion, 'tras cambiar el nombre');

    const changes: [string, Record<string, unknown>][] = [
      ['correo', { user_id: `${uniq('corregido')}@example.test` }],
      ['usuario', { usuario: uniq('renombrado') }],
      ['desactivar', { activo: false }],
      ['activar', { activo: true }],
    ];
    for (const [what, change] of changes) {
      const links = await plantLinks(db(), user.id);
      await put(change);
      await expectLinkRefused(t.app, links.bienvenida, `bienvenida (${what})`);
      await expectLinkRefused(t.app, links.recuperacion, `recuperación (${what})`);
    }
    await expectLinkRefused(t.app, kept.bienvenida, 'el primero');
    // The user has a password: no new welcome e-mail.
    expect(smtp.received.filter((m) => m.to.includes(data.user_id as string))).toEqual([]);
  });

  it('a welcome link sent to a mistyped address dies when the address is corrected; the right one gets a new link', async () => {
    const client = await makeClient(db());
    const data = body(client.id, { user_id: `${uniq('errata')}@example.test` });
    const created = await admin.post('/api/usuarios', data);
    expect(created.statusCode, created.body).toBe(201);
    const id = created.json().usuario.id;
    const stolen = linkIn((await smtp.waitFor((m) => m.to.includes(data.user_id))).text);
    await expectLinkLive(t.app, stolen, 'antes de corregir');

    const right = `${uniq('correcto')}@example.test`;
    const fixed = await admin.put(`/api/usuarios/${id}`, { ...data, user_id: right });
    expect(fixed.statusCode, fixed.body).toBe(200);
    await expectLinkRefused(t.app, stolen, 'el enlace de la dirección equivocada');
    const mail = await smtp.waitFor((m) => m.to.includes(right));
    expect(mail.subject).toBe('Bienvenido al Portal de Compras');
    const token = linkIn(mail.text);
    const [log] = (await logsFor('usuario_actualizado', id)).slice(-1);
    expect(log!.metadata).toMatchObject({ correo_bienvenida: true });
    const set = await new ApiClient(t.app, '10.60.0.1').post('/api/restablecer-password', {
      token,
      newPass: 'Correcta#2026',
      confirmPass: 'Correcta#2026',
    });
    expect(set.statusCode, set.body).toBe(200);
    secrets.push('Correcta#2026');
    expect((await new ApiClient(t.app, '10.60.0.2').login(data.usuario, 'Correcta#2026')).statusCode).toBe(
      200,
    );
    // Deactivated in the same edit: the links die and no new one is sent.
    const quiet = (await admin.post('/api/usuarios', body(client.id))).json().usuario;
    const elsewhere = `${uniq('otro')}@example.test`;
    const off = await admin.put(`/api/usuarios/${quiet.id}`, {
      ...body(client.id, { usuario: quiet.usuario }),
      user_id: elsewhere,
      activo: 0,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(await db().select().from(emailOutbox).where(eq(emailOutbox.to, elsewhere))).toEqual([]);
    const live = await db()
      .select()
      .from(passwordTokens)
      .where(and(eq(passwordTokens.userId, quiet.id), isNull(passwordTokens.usedAt)));
    expect(live).toEqual([]);
  });

  it("an administrator's reset retires every pending link of the user, whatever its purpose", async () => {
    const client = await makeClient(db());
    const user = await makeUser(db(), { rol: 2, idCliente: client.id });
    const links = await plantLinks(db(), user.id);
    await expectLinkLive(t.app, links.recuperacion);
    const res = await admin.post(`/api/recuperar/password/${user.id}`);
    expect(res.statusCode, res.body).toBe(200);
    await expectLinkRefused(t.app, links.bienvenida, 'bienvenida');
    await expectLinkRefused(t.app, links.recuperacion, 'recuperación');
    const mail = await smtp.waitFor((m) => m.to.includes(user.email) && m.subject.includes('temporal'));
    secrets.push(mail.text.match(/Contraseña temporal: (\S+)/)![1]!);
  });

  it('no password or link token reaches the log; only the reset e-mail carries a password', async () => {
    await t.app.mailer.flush();
    const all = logLines.join('\n');
    expect(logLines.length).toBeGreaterThan(10);
    expect(secrets.length).toBeGreaterThanOrEqual(3);
    for (const secret of secrets) expect(all).not.toContain(secret);
    const logs = await db().select().from(systemLogs);
    for (const secret of secrets) expect(JSON.stringify(logs)).not.toContain(secret);
    const outbox = await db().select().from(emailOutbox);
    for (const m of outbox) {
      if (m.subject.includes('temporal')) continue;
      expect(m.text).not.toMatch(/Contraseña temporal/);
    }
  });
});
