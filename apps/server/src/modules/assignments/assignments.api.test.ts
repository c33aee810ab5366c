import { MSG } from '@portal/shared/messages';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemLogs, userProducts } from '../../db/schema/index.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('administration: product assignments (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  /** A client with 3 active products and 1 inactive, a signed-in buyer, and another client's product. */
  async function world() {
    const client = await makeClient(db(), { limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id, uniq('Papelería'));
    const make = (nombre: string, activo = true) =>
      makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 1000, nombre, activo });
    const a = await make('A Lápiz');
    const b = await make('B Borrador');
    const c = await make('C Cuaderno');
    const off = await make('D Descontinuado', false);
    const otherClient = await makeClient(db());
    const otherCategory = await makeCategory(db(), otherClient.id);
    const foreign = await makeProduct(db(), {
      idCliente: otherClient.id,
      idCategoria: otherCategory.id,
      precio: 500,
    });
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      presupuestoDefault: 10_000_000,
      limiteDeCompras: -1,
    });
    const api = await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD);
    return { client, category, a, b, c, off, foreign, buyer, api };
  }

  const catalogue = async (api: ApiClient) =>
    (await api.get('/api/catalogo?per_page=100')).json().productos as {
      id: number;
      cantidad_limite: number;
    }[];

  it('lists every product of the user’s client (active or not) with its assignment and limit', async () => {
    const w = await world();
    await assign(db(), w.buyer.id, w.b.id, 7, true);
    const res = await admin.get(`/api/usuarios/${w.buyer.id}/productos`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      total: 4,
      page: 1,
      per_page: 20,
      usuario: { id: w.buyer.id, usuario: w.buyer.usuario, nombre: w.buyer.nombre, asignados: 1 },
      cliente: { id: w.client.id, nombre: w.client.nombre },
    });
    expect(body.productos.map((p: { id: number }) => p.id)).toEqual([w.a.id, w.b.id, w.c.id, w.off.id]);
    expect(body.productos[0]).toMatchObject({
      asignado: false,
      cantidad_limite: 1,
      precio: 10,
      activo: true,
    });
    expect(body.productos[1]).toMatchObject({ asignado: true, cantidad_limite: 7 });
    expect(body.productos[3]).toMatchObject({ activo: false, asignado: false });
    expect(body.productos[0].categoria).toBe(w.category.nombre);

    const searched = (await admin.get(`/api/usuarios/${w.buyer.id}/productos?q=cuaderno`)).json();
    expect(searched.productos.map((p: { id: number }) => p.id)).toEqual([w.c.id]);
    const paged = (await admin.get(`/api/usuarios/${w.buyer.id}/productos?per_page=3&page=2`)).json();
    expect(paged.productos.map((p: { id: number }) => p.id)).toEqual([w.off.id]);

    // Only rol-1 users have assignments; others answer like a missing user.
    const approver = await makeUser(db(), { rol: 2, idCliente: w.client.id });
    const adminUser = await makeUser(db(), { rol: 4, idCliente: null });
    for (const id of [approver.id, adminUser.id, 99999999]) {
      const r = await admin.get(`/api/usuarios/${id}/productos`);
      expect(r.statusCode).toBe(404);
      expect(r.json().msg).toBe(MSG.usuarioNoEncontrado);
    }
  });

  it('enabling a product puts it in the user’s catalogue with its limit; disabling removes it', async () => {
    const w = await world();
    expect(await catalogue(w.api)).toEqual([]);
    const on = await admin.post('/api/productos/asignar', {
      id_producto: w.a.id,
      id_user: w.buyer.id,
      cantidad_limite: 3,
      status: true,
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({
      status: 'ok',
      msg: MSG.productoHabilitado,
      usuario: { id: w.buyer.id, usuario: w.buyer.usuario, asignados: 1 },
      producto: { id: w.a.id, asignado: true, cantidad_limite: 3 },
    });
    expect(await catalogue(w.api)).toEqual([expect.objectContaining({ id: w.a.id, cantidad_limite: 3 })]);
    // The limit is enforced on the cart.
    const over = await w.api.post('/api/carrito/nuevo_item', { item: { id: w.a.id, cantidad: 4 } });
    expect(over.json().msg).toBe(MSG.excedeCantidad(3));
    expect(
      (await w.api.post('/api/carrito/nuevo_item', { item: { id: w.a.id, cantidad: 3 } })).statusCode,
    ).toBe(200);

    // Strings and 1/0 as a form sends them; without cantidad_limite the stored one is kept.
    const off = await admin.post('/api/productos/asignar', {
      id_producto: String(w.a.id),
      id_user: String(w.buyer.id),
      status: 0,
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toMatchObject({
      msg: MSG.productoDeshabilitado,
      producto: { asignado: false, cantidad_limite: 3 },
      usuario: { asignados: 0 },
    });
    expect(await catalogue(w.api)).toEqual([]);
    const cartAdd = await w.api.post('/api/carrito/nuevo_item', { item: { id: w.a.id, cantidad: 1 } });
    expect(cartAdd.json().msg).toBe(MSG.productoNoAsignado);

    // An inactive product may be enabled but does not show until it is active.
    await admin.post('/api/productos/asignar', { id_producto: w.off.id, id_user: w.buyer.id, status: '1' });
    expect(await catalogue(w.api)).toEqual([]);
    const [row] = await db()
      .select()
      .from(userProducts)
      .where(and(eq(userProducts.userId, w.buyer.id), eq(userProducts.productId, w.off.id)));
    expect(row).toMatchObject({ asignado: true, cantidadLimite: 1 });

    const logs = (
      await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'asignacion_actualizada'))
    ).filter((l) => (l.metadata as { id_usuario?: number }).id_usuario === w.buyer.id);
    expect(logs).toHaveLength(3);
    expect(logs[0]!.metadata).toMatchObject({ id_producto: w.a.id, asignado: true, cantidad_limite: 3 });
  });

  it('refuses bad assignments with Spanish messages', async () => {
    const w = await world();
    const cases: [Record<string, unknown>, number, string][] = [
      [
        { id_producto: w.a.id, id_user: w.buyer.id, status: 1, cantidad_limite: 0 },
        400,
        MSG.cantidadLimiteInvalida,
      ],
      [
        { id_producto: w.a.id, id_user: w.buyer.id, status: 1, cantidad_limite: 1.5 },
        400,
        MSG.cantidadLimiteInvalida,
      ],
      [
        { id_producto: w.a.id, id_user: w.buyer.id, status: 1, cantidad_limite: 'x' },
        400,
        MSG.cantidadLimiteInvalida,
      ],
      [{ id_producto: w.a.id, id_user: w.buyer.id }, 400, MSG.estadoAsignacionInvalido],
      [{ id_producto: w.a.id, id_user: w.buyer.id, status: 'tal vez' }, 400, MSG.estadoAsignacionInvalido],
      [{ id_user: w.buyer.id, status: 1 }, 400, MSG.asignacionDatos],
      [{ id_producto: w.foreign.id, id_user: w.buyer.id, status: 1 }, 404, MSG.productoNoExiste],
      [{ id_producto: w.a.id, id_user: 99999999, status: 1 }, 404, MSG.usuarioNoEncontrado],
    ];
    for (const [payload, status, msg] of cases) {
      const res = await admin.post('/api/productos/asignar', payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.json().msg, JSON.stringify(payload)).toBe(msg);
    }
    const approver = await makeUser(db(), { rol: 2, idCliente: w.client.id });
    const r = await admin.post('/api/productos/asignar', {
      id_producto: w.a.id,
      id_user: approver.id,
      status: 1,
    });
    expect(r.statusCode).toBe(404);
    expect(r.json().msg).toBe(MSG.usuarioNoEncontrado);
    expect(await db().select().from(userProducts).where(eq(userProducts.userId, w.buyer.id))).toEqual([]);
  });

  it('assigns or unassigns many at once: all of the client, or only ids (all of them the client’s)', async () => {
    const w = await world();
    await assign(db(), w.buyer.id, w.b.id, 9, false);
    const all = await admin.post('/api/productos/asignar_todos', { id_user: w.buyer.id, status: true });
    expect(all.statusCode, all.body).toBe(200);
    expect(all.json()).toMatchObject({
      status: 'ok',
      actualizados: 4,
      msg: MSG.productosHabilitados(4),
      usuario: { asignados: 4 },
    });
    const cat = await catalogue(w.api);
    expect(cat.map((p) => p.id).sort()).toEqual([w.a.id, w.b.id, w.c.id].sort());
    // The existing limit is kept, new ones get 1.
    expect(cat.find((p) => p.id === w.b.id)!.cantidad_limite).toBe(9);
    expect(cat.find((p) => p.id === w.a.id)!.cantidad_limite).toBe(1);

    const limited = await admin.post('/api/productos/asignar_todos', {
      id_user: w.buyer.id,
      status: 1,
      cantidad_limite: 4,
      ids: [w.a.id, w.c.id, w.a.id],
    });
    expect(limited.json()).toMatchObject({ actualizados: 2 });
    const cat2 = await catalogue(w.api);
    expect(cat2.find((p) => p.id === w.a.id)!.cantidad_limite).toBe(4);
    expect(cat2.find((p) => p.id === w.b.id)!.cantidad_limite).toBe(9);

    const foreign = await admin.post('/api/productos/asignar_todos', {
      id_user: w.buyer.id,
      status: 0,
      ids: [w.a.id, w.foreign.id],
    });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().msg).toBe(MSG.productoNoExiste);
    expect((await catalogue(w.api)).map((p) => p.id)).toContain(w.a.id);

    const some = await admin.post('/api/productos/asignar_todos', {
      id_user: w.buyer.id,
      status: 0,
      ids: [w.a.id],
    });
    expect(some.json()).toMatchObject({ actualizados: 1, usuario: { asignados: 3 } });
    expect((await catalogue(w.api)).map((p) => p.id).sort()).toEqual([w.b.id, w.c.id].sort());
    const none = await admin.post('/api/productos/asignar_todos', { id_user: w.buyer.id, status: false });
    expect(none.json()).toMatchObject({ actualizados: 4, usuario: { asignados: 0 } });
    expect(await catalogue(w.api)).toEqual([]);

    const empty = await admin.post('/api/productos/asignar_todos', {
      id_user: w.buyer.id,
      status: 1,
      ids: [],
    });
    expect(empty.statusCode).toBe(400);
    const badLimit = await admin.post('/api/productos/asignar_todos', {
      id_user: w.buyer.id,
      status: 1,
      cantidad_limite: 0,
    });
    expect(badLimit.json().msg).toBe(MSG.cantidadLimiteInvalida);

    const logs = (
      await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'asignacion_actualizada'))
    ).filter((l) => (l.metadata as { id_usuario?: number }).id_usuario === w.buyer.id);
    expect(logs).toHaveLength(4);
    expect(logs.every((l) => (l.metadata as { masiva?: boolean }).masiva)).toBe(true);
  });

  it('only administrators: rol 1, 2, 3 get 403 and anonymous 401', async () => {
    const w = await world();
    const payload = { id_producto: w.a.id, id_user: w.buyer.id, status: 1, cantidad_limite: 2 };
    for (const rol of [1, 2, 3]) {
      const u = await makeUser(db(), { rol, idCliente: w.client.id });
      const api = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
      expect((await api.get(`/api/usuarios/${w.buyer.id}/productos`)).statusCode).toBe(403);
      expect((await api.post('/api/productos/asignar', payload)).statusCode).toBe(403);
      expect(
        (await api.post('/api/productos/asignar_todos', { id_user: w.buyer.id, status: 1 })).statusCode,
      ).toBe(403);
    }
    const anon = new ApiClient(t.app);
    expect((await anon.get(`/api/usuarios/${w.buyer.id}/productos`)).statusCode).toBe(401);
    expect((await anon.post('/api/productos/asignar', payload)).statusCode).toBe(401);
    expect((await anon.post('/api/productos/asignar_todos', {})).statusCode).toBe(401);
    expect(await catalogue(w.api)).toEqual([]);
  });
});
