import { CLIENT_PERMISSIONS } from '@portal/shared/domain/client-admin';
import { MAX_ID } from '@portal/shared/limits';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, systemLogs, userProducts, weeks } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { postForm, signedInAdmin } from '../../test/admin-fixtures.ts';
import {
  CLIENT_NOT_FOUND,
  clientWithAdmin,
  FORBIDDEN,
  lacks,
  nextIp,
  USER_NOT_FOUND,
} from '../../test/client-admin.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  makeWeek,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

type Response = Awaited<ReturnType<ApiClient['get']>>;

const WEEK_NOT_FOUND = { code: 'WEEK_NOT_FOUND', msg: MSG.semanaNoEncontrada };

/** A refusal: its status and body, and the same bytes as the answer for a missing id (when given). */
function refused(res: Response, status: number, body: object, missing?: Response) {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.json()).toEqual(body);
  if (missing) expect(res.body).toBe(missing.body);
}

/**
 * The client administrator (rol 5, decision 0122) on the distributor's other areas: access weeks, product
 * assignments, categories, its client's approval rules and the spend dashboard — its own client only, and
 * changes only where its client allows them.
 */
describe.each(DB_KINDS)('the client administrator’s areas (%s)', (kind) => {
  let t: TestApp;
  let distributor: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    distributor = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;
  const signIn = (u: { usuario: string }) => new ApiClient(t.app, nextIp()).loginOk(u.usuario, TEST_PASSWORD);

  describe('access weeks (/api/calendario_semanas…)', () => {
    /** A rule of four weeks of February 2031 (its Mondays 3, 10, 17 and 24). */
    const rule = (id_cliente: number) => ({
      id_cliente,
      desde: '2031-02-01',
      hasta: '2031-02-28',
      modo: 'semanal',
    });
    const weekRow = async (id: number) => (await db().select().from(weeks).where(eq(weeks.id, id)))[0];
    const weeksOf = (idCliente: number) =>
      db().select().from(weeks).where(eq(weeks.idCliente, idCliente)).orderBy(weeks.id);

    it('with semanas: reads, creates, generates, toggles and deletes its own client’s weeks', async () => {
      const { client, api } = await clientWithAdmin(t, { permisosCliente: ['semanas'] });

      const created = await api.post('/api/calendario_semanas', {
        inicio: '2031-01-06',
        fin: '2031-01-10',
        id_cliente: client.id,
      });
      expect(created.statusCode, created.body).toBe(201);
      const semana = created.json().semana;
      expect(semana).toMatchObject({ id_cliente: client.id, inicio: '2031-01-06', activo: true });

      const list = await api.get(`/api/calendario_semanas?id_cliente=${client.id}`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().semanas.map((w: { id: number }) => w.id)).toEqual([semana.id]);
      const month = await api.get(`/api/calendario_semanas/mes?id_cliente=${client.id}&mes=2031-01`);
      expect(month.statusCode, month.body).toBe(200);
      expect(month.json()).toMatchObject({ mes: '2031-01', semanas: [{ id: semana.id }] });

      const preview = await api.post('/api/calendario_semanas/generar/vista_previa', rule(client.id));
      expect(preview.statusCode, preview.body).toBe(200);
      expect(preview.json()).toMatchObject({ nuevas: 4, omitidas: 0 });
      const generated = await api.post('/api/calendario_semanas/generar', rule(client.id));
      expect(generated.statusCode, generated.body).toBe(200);
      expect(generated.json()).toMatchObject({ creadas: 4, omitidas: 0 });
      expect(new Set(generated.json().semanas.map((w: { id_cliente: number }) => w.id_cliente))).toEqual(
        new Set([client.id]),
      );

      const off = await api.put(`/api/calendario_semanas/${semana.id}`, { activo: false });
      expect(off.statusCode, off.body).toBe(200);
      expect((await weekRow(semana.id))?.activo).toBe(false);
      const gone = await api.post(`/api/calendario_semanas/destroy/${semana.id}`);
      expect(gone.statusCode, gone.body).toBe(200);
      expect(await weekRow(semana.id)).toBeUndefined();
      expect(await weeksOf(client.id)).toHaveLength(4);
    });

    it('another client’s id is a missing client, another client’s week a missing week; nothing changes', async () => {
      const { client, api } = await clientWithAdmin(t, { permisosCliente: ['semanas'] });
      const other = await makeClient(db());
      const foreign = await makeWeek(db(), { idCliente: other.id, inicio: '2031-03-03', fin: '2031-03-07' });

      const byClient: [string, (id: number) => Promise<Response>][] = [
        ['list', (id) => api.get(`/api/calendario_semanas?id_cliente=${id}`)],
        ['month', (id) => api.get(`/api/calendario_semanas/mes?id_cliente=${id}&mes=2031-03`)],
        [
          'create',
          (id) =>
            api.post('/api/calendario_semanas', { inicio: '2031-04-07', fin: '2031-04-11', id_cliente: id }),
        ],
        ['preview', (id) => api.post('/api/calendario_semanas/generar/vista_previa', rule(id))],
        ['generate', (id) => api.post('/api/calendario_semanas/generar', rule(id))],
      ];
      for (const [what, call] of byClient) {
        const missing = await call(MAX_ID);
        expect(missing.statusCode, what).toBe(404);
        refused(await call(other.id), 404, CLIENT_NOT_FOUND, missing);
      }

      const byWeek: [string, (id: number) => Promise<Response>][] = [
        ['toggle', (id) => api.put(`/api/calendario_semanas/${id}`, { activo: false })],
        ['destroy', (id) => api.post(`/api/calendario_semanas/destroy/${id}`)],
      ];
      for (const [what, call] of byWeek) {
        const missing = await call(MAX_ID);
        expect(missing.statusCode, what).toBe(404);
        refused(await call(foreign.id), 404, WEEK_NOT_FOUND, missing);
      }
      expect(await weeksOf(other.id)).toEqual([foreign]);
      expect(await weeksOf(client.id)).toEqual([]);
    });

    it('without semanas: reads answer, every change is refused with the permission named', async () => {
      const { client, api } = await clientWithAdmin(t, { permisosCliente: ['usuarios'] });
      const own = await makeWeek(db(), { idCliente: client.id, inicio: '2031-03-03', fin: '2031-03-07' });

      const list = await api.get(`/api/calendario_semanas?id_cliente=${client.id}`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().total).toBe(1);
      const month = await api.get(`/api/calendario_semanas/mes?id_cliente=${client.id}&mes=2031-03`);
      expect(month.statusCode, month.body).toBe(200);

      for (const write of [
        () =>
          api.post('/api/calendario_semanas', {
            inicio: '2031-04-07',
            fin: '2031-04-11',
            id_cliente: client.id,
          }),
        () => api.post('/api/calendario_semanas/generar/vista_previa', rule(client.id)),
        () => api.post('/api/calendario_semanas/generar', rule(client.id)),
        () => api.put(`/api/calendario_semanas/${own.id}`, { activo: false }),
        () => api.post(`/api/calendario_semanas/destroy/${own.id}`),
      ])
        refused(await write(), 403, lacks('semanas'));
      expect(await weeksOf(client.id)).toEqual([own]);
    });
  });

  describe('product assignments (/api/usuarios/{id}/productos…, /api/productos/asignar…)', () => {
    /** A client with two buyers and two products; another client with two buyers and a product. */
    async function world(permisosCliente: string[]) {
      const a = await clientWithAdmin(t, { permisosCliente });
      const b = await makeClient(db());
      const buyer = (idCliente: number) => makeUser(db(), { rol: 1, idCliente });
      const [a1, a2, b1, b2] = [
        await buyer(a.client.id),
        await buyer(a.client.id),
        await buyer(b.id),
        await buyer(b.id),
      ];
      const catA = await makeCategory(db(), a.client.id);
      const catB = await makeCategory(db(), b.id);
      const p1 = await makeProduct(db(), { idCliente: a.client.id, idCategoria: catA.id, precio: 1000 });
      const p2 = await makeProduct(db(), { idCliente: a.client.id, idCategoria: catA.id, precio: 2000 });
      const pb = await makeProduct(db(), { idCliente: b.id, idCategoria: catB.id, precio: 3000 });
      await assign(db(), b1.id, pb.id, 7);
      return { ...a, a1, a2, b1, b2, p1, p2, pb, catA, catB };
    }
    const assignmentsOf = (ids: number[]) =>
      db()
        .select()
        .from(userProducts)
        .where(inArray(userProducts.userId, ids))
        .orderBy(userProducts.userId, userProducts.productId);

    it('with asignaciones: reads and changes its buyers’ assignments', async () => {
      const w = await world(['asignaciones']);
      const list = await w.api.get(`/api/usuarios/${w.a1.id}/productos`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().usuario).toMatchObject({ id: w.a1.id, asignados: 0 });
      expect(
        list
          .json()
          .productos.map((p: { id: number }) => p.id)
          .sort(),
      ).toEqual([w.p1.id, w.p2.id].sort());

      const one = await w.api.post('/api/productos/asignar', {
        id_producto: w.p1.id,
        id_user: w.a1.id,
        cantidad_limite: 3,
        status: true,
      });
      expect(one.statusCode, one.body).toBe(200);
      expect(one.json().producto).toEqual({ id: w.p1.id, asignado: true, cantidad_limite: 3 });
      const all = await w.api.post('/api/productos/asignar_todos', { id_user: w.a1.id, status: true });
      expect(all.statusCode, all.body).toBe(200);
      expect(all.json()).toMatchObject({ actualizados: 2, usuario: { asignados: 2 } });
      const copied = await w.api.post(`/api/usuarios/${w.a2.id}/productos/copiar`, {
        desde_usuario_id: w.a1.id,
        modo: 'reemplazar',
      });
      expect(copied.statusCode, copied.body).toBe(200);
      expect(copied.json().usuario).toMatchObject({ id: w.a2.id, asignados: 2 });
      const batch = await w.api.post('/api/productos/asignar_lote', {
        usuarios: [w.a1.id, w.a2.id],
        productos: [w.p2.id],
        asignado: false,
      });
      expect(batch.statusCode, batch.body).toBe(200);
      expect(batch.json()).toMatchObject({ usuarios: 2, productos: 1, actualizados: 2 });
      const byCategory = await w.api.post('/api/productos/asignar_lote', {
        usuarios: [w.a2.id],
        categoria_id: w.catA.id,
        asignado: true,
      });
      expect(byCategory.statusCode, byCategory.body).toBe(200);

      expect(
        (await assignmentsOf([w.a1.id, w.a2.id])).map((r) => [r.userId, r.productId, r.asignado]),
      ).toEqual([
        [w.a1.id, w.p1.id, true],
        [w.a1.id, w.p2.id, false],
        [w.a2.id, w.p1.id, true],
        [w.a2.id, w.p2.id, true],
      ]);
    });

    it('another client’s buyer is a missing user, alone or among its own; nothing is written', async () => {
      const w = await world(['asignaciones']);
      await assign(db(), w.a1.id, w.p1.id, 2);
      const before = await assignmentsOf([w.a1.id, w.a2.id, w.b1.id, w.b2.id]);

      const read = await w.api.get(`/api/usuarios/${w.b1.id}/productos`);
      refused(read, 404, USER_NOT_FOUND, await w.api.get(`/api/usuarios/${MAX_ID}/productos`));

      const calls: [string, unknown][] = [
        ['/api/productos/asignar', { id_producto: w.pb.id, id_user: w.b1.id, status: false }],
        ['/api/productos/asignar', { id_producto: w.p1.id, id_user: w.b1.id, status: true }],
        ['/api/productos/asignar_todos', { id_user: w.b1.id, status: false }],
        ['/api/productos/asignar_todos', { id_user: w.b1.id, status: true, ids: [w.pb.id] }],
        [`/api/usuarios/${w.b2.id}/productos/copiar`, { desde_usuario_id: w.b1.id, modo: 'reemplazar' }],
        [`/api/usuarios/${w.a2.id}/productos/copiar`, { desde_usuario_id: w.b1.id, modo: 'agregar' }],
        [`/api/usuarios/${w.b2.id}/productos/copiar`, { desde_usuario_id: w.a1.id, modo: 'reemplazar' }],
        ['/api/productos/asignar_lote', { usuarios: [w.b1.id], productos: [w.pb.id], asignado: false }],
        [
          '/api/productos/asignar_lote',
          { usuarios: [w.a1.id, w.b1.id], productos: [w.p2.id], asignado: true },
        ],
        [
          '/api/productos/asignar_lote',
          { usuarios: [w.b2.id, w.a2.id], categoria_id: w.catB.id, asignado: true },
        ],
        ['/api/productos/asignar_lote', { usuarios: [w.b2.id], categoria_id: w.catB.id, asignado: true }],
      ];
      for (const [url, body] of calls) {
        const res = await w.api.post(url, body);
        expect(res.statusCode, `${url} ${JSON.stringify(body)}: ${res.body}`).toBe(404);
        expect(res.json(), url).toEqual(USER_NOT_FOUND);
      }
      expect(await assignmentsOf([w.a1.id, w.a2.id, w.b1.id, w.b2.id])).toEqual(before);
    });

    it('without asignaciones: reads answer, every change is refused with the permission named', async () => {
      const w = await world(['usuarios', 'presupuestos', 'semanas', 'reglas']);
      await assign(db(), w.a1.id, w.p1.id, 2);
      const before = await assignmentsOf([w.a1.id, w.a2.id]);
      const list = await w.api.get(`/api/usuarios/${w.a1.id}/productos`);
      expect(list.statusCode, list.body).toBe(200);
      expect(list.json().usuario.asignados).toBe(1);

      for (const [url, body] of [
        ['/api/productos/asignar', { id_producto: w.p2.id, id_user: w.a1.id, status: true }],
        ['/api/productos/asignar_todos', { id_user: w.a1.id, status: true }],
        [`/api/usuarios/${w.a2.id}/productos/copiar`, { desde_usuario_id: w.a1.id, modo: 'reemplazar' }],
        [
          '/api/productos/asignar_lote',
          { usuarios: [w.a1.id, w.a2.id], productos: [w.p2.id], asignado: true },
        ],
      ] as const)
        refused(await w.api.post(url, body), 403, lacks('asignaciones'));
      expect(await assignmentsOf([w.a1.id, w.a2.id])).toEqual(before);
    });
  });

  describe('categories and the inventory', () => {
    it('GET /api/categorias: its own client’s (named or not), another client’s is 404; the inventory’s changes are 403', async () => {
      const { client, api } = await clientWithAdmin(t, { permisosCliente: [...CLIENT_PERMISSIONS] });
      const own = await makeCategory(db(), client.id, 'Papelería');
      const other = await makeClient(db());
      const foreign = await makeCategory(db(), other.id, 'Limpieza');
      const product = await makeProduct(db(), { idCliente: client.id, idCategoria: own.id, precio: 1000 });

      for (const url of [`/api/categorias?id_cliente=${client.id}`, '/api/categorias']) {
        const res = await api.get(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
        expect(res.json().categorias).toMatchObject([
          { id: own.id, id_cliente: client.id, nombre: 'Papelería', productos: 1 },
        ]);
      }
      // The distributor names a client, as before.
      const unnamed = await distributor.get('/api/categorias');
      expect(unnamed.statusCode).toBe(400);
      expect(unnamed.json()).toMatchObject({ code: 'VALIDATION', msg: MSG.invClienteRequerido });
      refused(
        await api.get(`/api/categorias?id_cliente=${other.id}`),
        404,
        CLIENT_NOT_FOUND,
        await api.get(`/api/categorias?id_cliente=${MAX_ID}`),
      );

      for (const [method, url, body] of [
        ['GET', `/api/productos?id_cliente=${client.id}`, undefined],
        ['POST', '/api/productos', { id_cliente: client.id }],
        ['POST', `/api/productos/actualizar/${product.id}`, { nombre: 'Otro' }],
        ['POST', '/api/productos/activar_lote', { ids: [product.id], activo: false }],
        ['POST', '/api/categorias', { nombre: 'Cafetería', id_cliente: client.id }],
        ['POST', `/api/categorias/update/${own.id}`, { nombre: 'Otra' }],
        ['POST', `/api/categorias/update/${foreign.id}`, { nombre: 'Otra' }],
        ['GET', '/api/iconos', undefined],
      ] as const) {
        const res = await api.request(method, url, body);
        expect(res.statusCode, `${method} ${url}: ${res.body}`).toBe(403);
        expect(res.json(), url).toEqual(FORBIDDEN);
      }
    });
  });

  describe('its client’s approval rules (PUT /api/cliente/reglas)', () => {
    const RULES = {
      cantidad_autorizadores: 2,
      aprobacion_automatica_hasta: 500,
      segundo_nivel_desde: 5000,
      recordatorio_horas: 12,
      ventana_reglas_horas: 48,
      escalar_horas: 72,
    };
    const clientRow = async (id: number) => (await db().select().from(clients).where(eq(clients.id, id)))[0]!;

    it('with reglas: changes its own client, logged; null turns a rule off, absent keeps it', async () => {
      const { client, user, api } = await clientWithAdmin(t, {
        permisosCliente: ['reglas'],
        cantidadAutorizadores: 1,
      });
      const res = await api.put('/api/cliente/reglas', RULES);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({
        status: 'ok',
        msg: MSG.modificadoCorrectamente,
        cliente: { id: client.id, ...RULES },
      });
      const home = await api.get('/api/cliente');
      expect(home.json().cliente).toMatchObject({ id: client.id, ...RULES });
      const logs = await db()
        .select()
        .from(systemLogs)
        .where(and(eq(systemLogs.eventType, 'cliente_actualizado'), eq(systemLogs.userId, user.id)));
      expect(logs).toHaveLength(1);
      expect(logs[0]).toMatchObject({ idCliente: client.id });
      expect(logs[0]!.metadata).toMatchObject({
        id_cliente: client.id,
        campos: [
          'cantidadAutorizadores',
          'aprobacionAutomaticaHasta',
          'segundoNivelDesde',
          'recordatorioHoras',
          'ventanaReglasHoras',
          'escalarHoras',
        ],
      });

      const off = await api.put('/api/cliente/reglas', { aprobacion_automatica_hasta: null });
      expect(off.statusCode, off.body).toBe(200);
      expect(off.json().cliente).toMatchObject({ ...RULES, aprobacion_automatica_hasta: null });
      const both = await api.put('/api/cliente/reglas', {
        cantidad_autorizadores: 1,
        segundo_nivel_desde: null,
      });
      expect(both.statusCode, both.body).toBe(200);
      expect(await clientRow(client.id)).toMatchObject({
        cantidadAutorizadores: 1,
        aprobacionAutomaticaHasta: null,
        segundoNivelDesde: null,
        recordatorioHoras: 12,
      });
    });

    it('the client form’s checks apply: rules that clash, open orders on a level, unknown fields', async () => {
      const { client, api } = await clientWithAdmin(t, {
        permisosCliente: ['reglas'],
        cantidadAutorizadores: 2,
      });
      expect((await api.put('/api/cliente/reglas', RULES)).statusCode).toBe(200);
      const stored = await clientRow(client.id);

      // The same answer as the distributor's client form for the same clash.
      const other = await makeClient(db(), { cantidadAutorizadores: 1 });
      const form = await postForm(distributor, `/api/clientes/update/${other.id}`, {
        nombre: other.nombre,
        presupuesto_default: other.presupuestoDefault / 100,
        limite_de_compras: other.limiteDeCompras,
        segundo_nivel_desde: 1000,
      });
      expect(form.statusCode, form.body).toBe(400);
      expect(form.json().msg).toBe(MSG.reglaSegundoNivelSinNiveles);
      const oneLevel = await api.put('/api/cliente/reglas', { cantidad_autorizadores: 1 });
      expect(oneLevel.statusCode).toBe(400);
      expect(oneLevel.json()).toEqual(form.json());
      const autoAbove = await api.put('/api/cliente/reglas', { aprobacion_automatica_hasta: 6000 });
      expect(autoAbove.statusCode).toBe(400);
      expect(autoAbove.json().msg).toBe(MSG.reglaAutomaticaNoMenor);

      // An order waiting on the second level keeps two levels.
      const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
      const category = await makeCategory(db(), client.id);
      const product = await makeProduct(db(), {
        idCliente: client.id,
        idCategoria: category.id,
        precio: 10_000,
      });
      await makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status: 'espera',
        lines: [{ productId: product.id, precio: 10_000, cantidad: 1, idCategoria: category.id }],
      });
      const lowered = await api.put('/api/cliente/reglas', {
        cantidad_autorizadores: 1,
        segundo_nivel_desde: null,
      });
      refused(lowered, 409, { code: 'OPEN_ORDERS', msg: MSG.autorizadoresConPedidos });

      for (const body of [
        { tope_presupuesto: 1 },
        { permisos_cliente: ['usuarios'] },
        { nombre: 'Otro nombre', recordatorio_horas: 6 },
      ]) {
        const res = await api.put('/api/cliente/reglas', body);
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().msg, JSON.stringify(body)).toBe(MSG.datosInvalidos);
      }
      const bad = await api.put('/api/cliente/reglas', { recordatorio_horas: -1 });
      expect(bad.statusCode).toBe(400);
      expect(bad.json().msg).toBe(MSG.recordatorioHorasInvalido);
      expect(await clientRow(client.id)).toEqual(stored);
    });

    it('without reglas: 403 naming it; the distributor and the client’s other roles: 403', async () => {
      const { client, api } = await clientWithAdmin(t, {
        permisosCliente: CLIENT_PERMISSIONS.filter((p) => p !== 'reglas'),
      });
      const stored = await clientRow(client.id);
      refused(await api.put('/api/cliente/reglas', RULES), 403, lacks('reglas'));

      const others = [distributor];
      for (const rol of [1, 2, 3])
        others.push(await signIn(await makeUser(db(), { rol, idCliente: client.id })));
      for (const caller of others) refused(await caller.put('/api/cliente/reglas', RULES), 403, FORBIDDEN);
      expect(await clientRow(client.id)).toEqual(stored);
    });
  });

  describe('the spend dashboard (GET /api/tablero)', () => {
    it('shows its own client; another client named is a missing one', async () => {
      const { client, api } = await clientWithAdmin(t, { permisosCliente: [] });
      const other = await makeClient(db());
      for (const url of ['/api/tablero', `/api/tablero?cliente=${client.id}`]) {
        const res = await api.get(url);
        expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
        expect(res.json().cliente).toEqual({ id: client.id, nombre: client.nombre });
      }
      refused(
        await api.get(`/api/tablero?cliente=${other.id}`),
        404,
        CLIENT_NOT_FOUND,
        await api.get(`/api/tablero?cliente=${MAX_ID}`),
      );
    });
  });
  describe('reports (/api/reporte/autorizador…)', () => {
    it('its client’s orders only, in both reports; each download logged', async () => {
      const { client, api } = await clientWithAdmin(t, { permisosCliente: ['usuarios'] });
      const other = await makeClient(db());
      const category = await makeCategory(db(), client.id);
      const product = await makeProduct(db(), {
        idCliente: client.id,
        idCategoria: category.id,
        precio: 10_000,
      });
      const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
      const stranger = await makeUser(db(), { rol: 1, idCliente: other.id });
      const at = new Date('2031-03-10T18:00:00Z');
      const line = { productId: product.id, precio: 10_000, cantidad: 2, idCategoria: category.id };
      const mine = await makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status: 'aprobado',
        transactionDate: at,
        lines: [line],
      });
      await makeOrder(db(), {
        idUser: stranger.id,
        idCliente: other.id,
        status: 'aprobado',
        transactionDate: at,
        lines: [line],
      });
      const body = { tipo: 'general', fecha_inicio: '2031-03-01', fecha_fin: '2031-03-31' };
      const general = await api.post('/api/reporte/autorizador', body);
      expect(general.statusCode, general.body).toBe(200);
      const rows = general.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split(/\r?\n/);
      expect(rows.slice(1).map((r) => Number(r.split(',')[0]))).toEqual([mine.id]);
      const detail = await api.post('/api/reporte/autorizador/productos/detalle', body);
      expect(
        detail.body
          .replace(/^\uFEFF/, '')
          .trim()
          .split(/\r?\n/),
      ).toHaveLength(2);
      const logged = await db()
        .select({ t: systemLogs.eventType })
        .from(systemLogs)
        .where(and(eq(systemLogs.idCliente, client.id), eq(systemLogs.eventType, 'reporte_generado')));
      expect(logged).toHaveLength(2);
    });
  });
});
