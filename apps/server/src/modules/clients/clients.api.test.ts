import { randomBytes } from 'node:crypto';
import { and, count, eq, inArray, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, sessions, storedFileParts, storedFiles, systemLogs } from '../../db/schema/index.ts';
import { FILE_PART_BYTES, IMAGE_TYPE_MESSAGE, PDF_TYPE_MESSAGE, sizeMessage } from '../../lib/files.ts';
import { MSG } from '../../messages.ts';
import { bigPng, postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { fixture } from '../../test/fixture-files.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('administration: clients (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let adminId: number;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const a = await signedInAdmin(t.app, t.database.db);
    admin = a.api;
    adminId = a.user.id;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  const valid = (extra: Record<string, string | number | undefined> = {}) => ({
    nombre: uniq('Compañía Ñandú'),
    color: '#112233',
    color2: '#445566',
    presupuesto_default: '1500.50',
    limite_de_compras: '3',
    ...extra,
  });

  async function logsOf(eventType: string, idCliente: number) {
    const rows = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, eventType))
      .orderBy(systemLogs.id);
    return rows.filter((r) => (r.metadata as { id_cliente?: number }).id_cliente === idCliente);
  }

  it('creates a client with logo, calendar and manual; amounts in pesos, centavos in the database', async () => {
    const fields = valid({
      modo_presupuesto: 'categoria',
      cantidad_autorizadores: '2',
      mostrar_presupuesto_a_usuarios: '0',
    });
    const res = await postForm(admin, '/api/clientes', fields, {
      imagen: { filename: 'logo.png', data: fixture('red-40x30.png'), contentType: 'image/png' },
      calendario: {
        filename: 'calendario.pdf',
        data: fixture('calendario.pdf'),
        contentType: 'application/pdf',
      },
      manual: { filename: 'manual.pdf', data: fixture('manual.pdf'), contentType: 'application/pdf' },
    });
    expect(res.statusCode, res.body).toBe(201);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ok', msg: MSG.creadoCorrectamente });
    const c = body.cliente;
    expect(c).toMatchObject({
      nombre: fields.nombre,
      color: '#112233',
      color2: '#445566',
      presupuesto_default: 1500.5,
      limite_de_compras: 3,
      cantidad_autorizadores: 2,
      modo_presupuesto: 'categoria',
      mostrar_presupuesto_a_usuarios: false,
      activo: true,
      recordatorio_horas: 24,
      calendario: `/api/resource/${c.id}/calendario`,
      manual: `/api/resource/${c.id}/manual`,
    });
    expect(c.imagen).toMatch(/^\/api\/img\/[0-9a-f]{64}\.png$/);
    expect(new Date(c.created_at).toISOString()).toBe(c.created_at);
    const [row] = await db().select().from(clients).where(eq(clients.id, c.id));
    expect(row!.presupuestoDefault).toBe(150050);

    const img = await admin.get(c.imagen);
    expect(img.statusCode).toBe(200);
    expect(img.headers['content-type']).toBe('image/png');
    const pdf = await admin.get(c.calendario);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');

    const [log] = await logsOf('cliente_creado', c.id);
    expect(log).toMatchObject({ userId: adminId });
    expect(log!.metadata).toMatchObject({ id_cliente: c.id, imagen: true, calendario: true, manual: true });
    expect(log!.metadata).toHaveProperty('ip');
    expect(log!.metadata).toHaveProperty('user_agent', 'api-test');
  });

  it('applies the defaults: regular mode, one authorizer, budget shown, active, no files', async () => {
    const res = await postForm(admin, '/api/clientes', {
      nombre: uniq('Mínimo'),
      presupuesto_default: '0',
      limite_de_compras: '-1',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().cliente).toMatchObject({
      presupuesto_default: 0,
      limite_de_compras: -1,
      limite_por_defecto: 1,
      modo_presupuesto: 'regular',
      cantidad_autorizadores: 1,
      mostrar_presupuesto_a_usuarios: true,
      activo: true,
      imagen: null,
      calendario: null,
      manual: null,
    });
    expect(res.json().cliente.color).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('refuses every invalid field with its Spanish message', async () => {
    const cases: [Record<string, string | undefined>, string][] = [
      [{ nombre: undefined }, MSG.clienteCamposRequeridos],
      [{ nombre: '   ' }, MSG.clienteCamposRequeridos],
      [{ presupuesto_default: undefined }, MSG.clienteCamposRequeridos],
      [{ limite_de_compras: '' }, MSG.clienteCamposRequeridos],
      [{ presupuesto_default: '-1' }, MSG.presupuestoClienteInvalido],
      [{ presupuesto_default: 'mucho' }, MSG.presupuestoClienteInvalido],
      [{ presupuesto_default: '10.555' }, MSG.importeDecimales],
      [{ limite_de_compras: '-2' }, MSG.limiteComprasInvalido],
      [{ limite_de_compras: '1.5' }, MSG.limiteComprasInvalido],
      [{ cantidad_autorizadores: '3' }, MSG.autorizadoresInvalido],
      [{ cantidad_autorizadores: '-1' }, MSG.autorizadoresInvalido],
      [{ modo_presupuesto: 'mensual' }, MSG.modoPresupuestoInvalido],
      [{ color: 'red' }, MSG.colorInvalido],
      [{ color2: '#12345' }, MSG.colorInvalido],
      [{ mostrar_presupuesto_a_usuarios: 'quizá' }, MSG.valorSiNoInvalido],
      [{ nombre: 'x'.repeat(151) }, MSG.clienteNombreLargo],
      [{ limite_por_defecto: '0' }, MSG.limitePorDefectoInvalido],
      [{ limite_por_defecto: '2.5' }, MSG.limitePorDefectoInvalido],
      [{ limite_por_defecto: 'tres' }, MSG.limitePorDefectoInvalido],
    ];
    for (const [extra, msg] of cases) {
      const res = await postForm(admin, '/api/clientes', valid(extra));
      expect(res.statusCode, JSON.stringify(extra)).toBe(400);
      expect(res.json().msg, JSON.stringify(extra)).toBe(msg);
    }
    const json = await admin.post('/api/clientes', valid());
    expect(json.statusCode).toBe(415);
  });

  it('checks uploads by content and size, not by name', async () => {
    const before = (await admin.get('/api/clientes?per_page=1000')).json().total;
    const refused: [Record<string, { filename: string; data: Buffer; contentType?: string }>, string][] = [
      [
        {
          imagen: {
            filename: 'logo.png',
            data: Buffer.from('hola, no soy una imagen'),
            contentType: 'image/png',
          },
        },
        IMAGE_TYPE_MESSAGE,
      ],
      [
        { imagen: { filename: 'logo.jpg', data: fixture('calendario.pdf'), contentType: 'image/jpeg' } },
        IMAGE_TYPE_MESSAGE,
      ],
      [
        { imagen: { filename: 'logo.png', data: await bigPng(6), contentType: 'image/png' } },
        sizeMessage(5 * 1024 * 1024),
      ],
      [
        {
          calendario: {
            filename: 'calendario.pdf',
            data: fixture('red-40x30.png'),
            contentType: 'application/pdf',
          },
        },
        PDF_TYPE_MESSAGE,
      ],
      [
        { manual: { filename: 'manual.pdf', data: Buffer.from('%PDX-no'), contentType: 'application/pdf' } },
        PDF_TYPE_MESSAGE,
      ],
    ];
    for (const [files, msg] of refused) {
      const res = await postForm(admin, '/api/clientes', valid(), files);
      expect(res.statusCode, Object.keys(files).join()).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    // A PDF over 20 MB.
    const huge = Buffer.concat([fixture('calendario.pdf'), Buffer.alloc(20 * 1024 * 1024 + 10, 0x20)]);
    const big = await postForm(admin, '/api/clientes', valid(), {
      manual: { filename: 'manual.pdf', data: huge, contentType: 'application/pdf' },
    });
    expect(big.statusCode).toBe(400);
    expect(big.json().msg).toBe(sizeMessage(20 * 1024 * 1024));
    // Nothing was created by the refused requests.
    expect((await admin.get('/api/clientes?per_page=1000')).json().total).toBe(before);

    const jpg = await postForm(admin, '/api/clientes', valid(), {
      imagen: { filename: 'foto.jpeg', data: fixture('green-40x30.jpg'), contentType: 'image/jpeg' },
    });
    expect(jpg.statusCode, jpg.body).toBe(201);
    expect(jpg.json().cliente.imagen).toMatch(/\.jpg$/);
  });

  it('a 3 MB calendar arrives in parts and downloads byte for byte; a form refused after its PDF arrived keeps nothing', async () => {
    const pdf = Buffer.concat([fixture('calendario.pdf'), randomBytes(3 * 1024 * 1024)]);
    const part = { filename: 'calendario.pdf', data: pdf, contentType: 'application/pdf' };
    const storedCount = async () => (await db().select({ n: count() }).from(storedFiles))[0]!.n;
    const staged = async () =>
      (await db().select({ n: count() }).from(storedFiles).where(like(storedFiles.id, 'subida-%')))[0]!.n;
    const before = await storedCount();
    // The PDF is in the database before the form's fields are judged: refused, it is removed.
    const refused = await postForm(admin, '/api/clientes', valid({ limite_de_compras: 'muchos' }), {
      calendario: part,
    });
    expect(refused.statusCode).toBe(400);
    // A transaction that fails (a client that does not exist) removes it too.
    const missing = await postForm(admin, '/api/clientes/update/99999999', valid(), { calendario: part });
    expect(missing.statusCode).toBe(404);
    expect(await storedCount()).toBe(before);
    expect(await staged()).toBe(0);

    const res = await postForm(admin, '/api/clientes', valid(), { calendario: part, manual: part });
    expect(res.statusCode, res.body).toBe(201);
    const c = res.json().cliente;
    // The same content twice is one file, in 256 kB parts.
    expect(await storedCount()).toBe(before + 1);
    const [row] = await db().select().from(clients).where(eq(clients.id, c.id));
    expect(row!.manual).toBe(row!.calendario);
    const [parts] = await db()
      .select({ n: count() })
      .from(storedFileParts)
      .where(eq(storedFileParts.fileId, row!.calendario!));
    expect(parts!.n).toBe(Math.ceil(pdf.length / FILE_PART_BYTES));
    for (const url of [c.calendario, c.manual]) {
      const down = await admin.get(url);
      expect(down.statusCode).toBe(200);
      expect(down.headers['content-type']).toBe('application/pdf');
      expect(down.headers['content-length']).toBe(String(pdf.length));
      expect(down.rawPayload.equals(pdf)).toBe(true);
    }
    expect(await staged()).toBe(0);
  });

  it('lists every client paginated (10 by default) with search by name; only administrators', async () => {
    const tag = uniq('Lista');
    for (let i = 0; i < 12; i++) await makeClient(db(), { nombre: `${tag} ${String(i).padStart(2, '0')}` });
    await makeClient(db(), { nombre: `${tag} Inactivo`, activo: false });
    const first = await admin.get(`/api/clientes?q=${encodeURIComponent(tag.toLowerCase())}`);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ total: 13, page: 1, per_page: 10 });
    expect(first.json().clientes).toHaveLength(10);
    expect(first.json().clientes[0].nombre).toBe(`${tag} 00`);
    const second = (await admin.get(`/api/clientes?q=${encodeURIComponent(tag)}&page=2`)).json();
    expect(second.clientes.map((c: { nombre: string }) => c.nombre)).toEqual([
      `${tag} 10`,
      `${tag} 11`,
      `${tag} Inactivo`,
    ]);
    expect(second.clientes[2].activo).toBe(false);
    // Sorted by name descending, and by creation date (equal dates keep the id order); an unknown sort is 400.
    const q = encodeURIComponent(tag);
    const desc = (await admin.get(`/api/clientes?q=${q}&orden=nombre_desc`)).json();
    expect(desc.clientes[0].nombre).toBe(`${tag} Inactivo`);
    expect(desc.clientes[1].nombre).toBe(`${tag} 11`);
    const ids = (body: { clientes: { id: number }[] }) => body.clientes.map((c) => c.id);
    const all = [...ids(first.json()), ...ids(second)];
    const newest = (await admin.get(`/api/clientes?q=${q}&orden=creado_desc&per_page=20`)).json();
    expect(ids(newest)).toEqual([...all].sort((a, b) => b - a));
    const oldest = (await admin.get(`/api/clientes?q=${q}&orden=creado_asc&per_page=20`)).json();
    expect(ids(oldest)).toEqual([...all].sort((a, b) => a - b));
    for (const orden of ['fecha_desc', 'nombre', 'creado_up']) {
      const bad = await admin.get(`/api/clientes?orden=${orden}`);
      expect(bad.statusCode, orden).toBe(400);
      expect(bad.json().msg).toBe(MSG.ordenInvalido);
    }
    // Accent-insensitive.
    const accented = await makeClient(db(), { nombre: uniq('Panadería Ávila') });
    const found = (await admin.get(`/api/clientes?q=${encodeURIComponent('panaderia avila')}`)).json();
    expect(found.clientes.map((c: { id: number }) => c.id)).toContain(accented.id);

    const client = await makeClient(db());
    for (const rol of [1, 2, 3]) {
      const u = await makeUser(db(), { rol, idCliente: client.id });
      const api = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
      expect((await api.get('/api/clientes')).statusCode).toBe(403);
      expect((await postForm(api, '/api/clientes', valid())).statusCode).toBe(403);
      expect((await postForm(api, `/api/clientes/update/${client.id}`, valid())).statusCode).toBe(403);
    }
    const anon = new ApiClient(t.app);
    expect((await anon.get('/api/clientes')).statusCode).toBe(401);
    expect((await postForm(anon, '/api/clientes', valid())).statusCode).toBe(401);
    expect((await postForm(anon, `/api/clientes/update/${client.id}`, valid())).statusCode).toBe(401);
  });

  it('updates a client: a missing file keeps the stored one, eliminar_imagen removes it', async () => {
    const created = (
      await postForm(admin, '/api/clientes', valid(), {
        imagen: { filename: 'logo.png', data: fixture('blue-40x30.png'), contentType: 'image/png' },
        manual: { filename: 'manual.pdf', data: fixture('manual.pdf'), contentType: 'application/pdf' },
      })
    ).json().cliente;
    const nombre = uniq('Renombrado');
    const res = await postForm(admin, `/api/clientes/update/${created.id}`, {
      id: created.id,
      nombre,
      color: '#abcdef',
      presupuesto_default: '2000',
      limite_de_compras: '-1',
      limite_por_defecto: '5',
      cantidad_autorizadores: '0',
      modo_presupuesto: 'regular',
      mostrar_presupuesto_a_usuarios: 'false',
      activo: '1',
      imagen: created.imagen,
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ok', msg: MSG.modificadoCorrectamente, page: 1, per_page: 10 });
    expect(body.clientes.length).toBeGreaterThan(0);
    expect(body.clientes.length).toBeLessThanOrEqual(10);
    expect(body.cliente).toMatchObject({
      id: created.id,
      nombre,
      color: '#abcdef',
      color2: '#445566',
      presupuesto_default: 2000,
      limite_de_compras: -1,
      limite_por_defecto: 5,
      cantidad_autorizadores: 0,
      mostrar_presupuesto_a_usuarios: false,
      imagen: created.imagen,
      manual: created.manual,
      calendario: null,
    });

    const replaced = await postForm(admin, `/api/clientes/update/${created.id}`, valid({ nombre }), {
      imagen: { filename: 'nuevo.jpg', data: fixture('yellow-40x30.jpg'), contentType: 'image/jpeg' },
      calendario: { filename: 'cal.pdf', data: fixture('calendario.pdf'), contentType: 'application/pdf' },
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json().cliente.imagen).toMatch(/\.jpg$/);
    // An absent limite_por_defecto keeps the stored one.
    expect(replaced.json().cliente.limite_por_defecto).toBe(5);
    expect(replaced.json().cliente.calendario).toBe(`/api/resource/${created.id}/calendario`);

    const removed = await postForm(
      admin,
      `/api/clientes/update/${created.id}`,
      valid({ nombre, eliminar_imagen: '1', eliminar_manual: '1' }),
    );
    expect(removed.json().cliente).toMatchObject({ imagen: null, manual: null });
    expect(removed.json().cliente.calendario).not.toBeNull();

    const badImage = await postForm(admin, `/api/clientes/update/${created.id}`, valid({ nombre }), {
      imagen: { filename: 'logo.png', data: Buffer.from('texto'), contentType: 'image/png' },
    });
    expect(badImage.statusCode).toBe(400);
    expect(badImage.json().msg).toBe(IMAGE_TYPE_MESSAGE);

    const missing = await postForm(admin, `/api/clientes/update/${created.id}`, { nombre });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe(MSG.clienteCamposRequeridos);
    const unknown = await postForm(admin, '/api/clientes/update/99999999', valid());
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().msg).toBe(MSG.clienteNoEncontrado);

    const logs = await logsOf('cliente_actualizado', created.id);
    expect(logs.length).toBe(3);
    expect(logs[0]!.metadata).toMatchObject({ id_cliente: created.id, activo: true });
    expect((logs[0]!.metadata as { campos: string[] }).campos).toEqual(
      expect.arrayContaining(['nombre', 'color', 'presupuestoDefault', 'cantidadAutorizadores']),
    );
  });

  it('deactivating a client ends the sessions of all its users at once; reactivating lets them back', async () => {
    const client = await makeClient(db());
    const other = await makeClient(db());
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const approver = await makeUser(db(), { rol: 2, idCliente: client.id });
    const outsider = await makeUser(db(), { rol: 1, idCliente: other.id });
    const apis = await Promise.all(
      [buyer, approver, outsider].map((u) => new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD)),
    );
    const ids = [buyer.id, approver.id];
    expect((await db().select().from(sessions).where(inArray(sessions.userId, ids))).length).toBe(2);

    const form = {
      nombre: client.nombre,
      presupuesto_default: '5000',
      limite_de_compras: '4',
      activo: '0',
    };
    const res = await postForm(admin, `/api/clientes/update/${client.id}`, form);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().cliente.activo).toBe(false);
    expect(await db().select().from(sessions).where(inArray(sessions.userId, ids))).toEqual([]);
    expect((await apis[0]!.get('/api/sesion')).statusCode).toBe(401);
    expect((await apis[1]!.get('/api/sesion')).statusCode).toBe(401);
    expect((await apis[2]!.get('/api/sesion')).statusCode).toBe(200);
    const relogin = await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD);
    expect(relogin.statusCode).toBe(403);
    expect(relogin.json().msg).toBe(MSG.clienteInactivo);
    const [log] = await logsOf('cliente_actualizado', client.id);
    expect(log!.description).toContain('desactivado');

    await postForm(admin, `/api/clientes/update/${client.id}`, { ...form, activo: '1' });
    expect((await new ApiClient(t.app).login(buyer.usuario, TEST_PASSWORD)).statusCode).toBe(200);
  });

  it('GET /api/clientes/{id}/resumen counts the active users and those signed in, for the confirmation', async () => {
    const client = await makeClient(db());
    const other = await makeClient(db());
    const signedIn = await makeUser(db(), { rol: 1, idCliente: client.id });
    const approver = await makeUser(db(), { rol: 2, idCliente: client.id });
    await makeUser(db(), { rol: 1, idCliente: client.id });
    const inactive = await makeUser(db(), { rol: 1, idCliente: client.id, activo: false });
    const outsider = await makeUser(db(), { rol: 1, idCliente: other.id });
    for (const u of [signedIn, approver, outsider])
      await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
    // Two sessions of one user count once.
    await new ApiClient(t.app, '10.9.9.9').loginOk(signedIn.usuario, TEST_PASSWORD);
    expect(inactive.activo).toBe(false);

    const res = await admin.get(`/api/clientes/${client.id}/resumen`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ status: 'ok', usuarios_activos: 3, usuarios_con_sesion: 2 });

    const empty = await makeClient(db());
    expect((await admin.get(`/api/clientes/${empty.id}/resumen`)).json()).toEqual({
      status: 'ok',
      usuarios_activos: 0,
      usuarios_con_sesion: 0,
    });
    const missing = await admin.get('/api/clientes/987654321/resumen');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe(MSG.clienteNoEncontrado);
    expect((await admin.get('/api/clientes/abc/resumen')).statusCode).toBe(400);
    const buyer = await new ApiClient(t.app).loginOk(outsider.usuario, TEST_PASSWORD);
    expect((await buyer.get(`/api/clientes/${other.id}/resumen`)).statusCode).toBe(403);
  });

  it('does not lower the authorizer levels below what open orders need', async () => {
    const client = await makeClient(db(), { cantidadAutorizadores: 2 });
    const category = await makeCategory(db(), client.id);
    const product = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 1000 });
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const order = await makeOrder(db(), {
      idUser: buyer.id,
      idCliente: client.id,
      status: 'espera',
      lines: [{ productId: product.id, precio: 1000, cantidad: 1, idCategoria: category.id }],
    });
    const form = { nombre: client.nombre, presupuesto_default: '5000', limite_de_compras: '4' };
    const refused = await postForm(admin, `/api/clientes/update/${client.id}`, {
      ...form,
      cantidad_autorizadores: '1',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(MSG.autorizadoresConPedidos);
    const [row] = await db().select().from(clients).where(eq(clients.id, client.id));
    expect(row!.cantidadAutorizadores).toBe(2);

    const { orders } = await import('../../db/schema/index.ts');
    await db()
      .update(orders)
      .set({ status: 'aprobado', surtidoEstatus: 'por_surtir' })
      .where(and(eq(orders.id, order.id)));
    const ok = await postForm(admin, `/api/clientes/update/${client.id}`, {
      ...form,
      cantidad_autorizadores: '1',
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().cliente.cantidad_autorizadores).toBe(1);
  });
});
