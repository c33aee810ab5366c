import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, clients, systemLogs, userProducts, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
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
      cliente: { id: w.client.id, nombre: w.client.nombre, limite_por_defecto: 1 },
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

  // Copy of assignments between users and assignment in bulk (decision 0061).

  /** A client with two categories (3 + 2 products), three buyers, an approver, and another client. */
  async function bulkWorld() {
    const client = await makeClient(db(), { limiteDeCompras: -1 });
    const pap = await makeCategory(db(), client.id, uniq('Papelería'));
    const lim = await makeCategory(db(), client.id, uniq('Limpieza'));
    const make = (idCategoria: number, nombre: string) =>
      makeProduct(db(), { idCliente: client.id, idCategoria, precio: 1000, nombre });
    const a = await make(pap.id, 'A Lápiz');
    const b = await make(pap.id, 'B Borrador');
    const c = await make(pap.id, 'C Cuaderno');
    const d = await make(lim.id, 'D Jabón');
    const e = await make(lim.id, 'E Cloro');
    const buyer = (nombre: string) =>
      makeUser(db(), {
        rol: 1,
        idCliente: client.id,
        nombre,
        presupuestoDefault: 10_000_000,
        limiteDeCompras: -1,
      });
    const ana = await buyer('Ana');
    const beto = await buyer('Beto');
    const caro = await buyer('Caro');
    const approver = await makeUser(db(), { rol: 2, idCliente: client.id });
    const other = await makeClient(db());
    const otherCat = await makeCategory(db(), other.id);
    const foreign = await makeProduct(db(), { idCliente: other.id, idCategoria: otherCat.id, precio: 500 });
    const foreignBuyer = await makeUser(db(), { rol: 1, idCliente: other.id });
    return {
      client,
      pap,
      lim,
      a,
      b,
      c,
      d,
      e,
      ana,
      beto,
      caro,
      approver,
      other,
      otherCat,
      foreign,
      foreignBuyer,
    };
  }
  type BulkWorld = Awaited<ReturnType<typeof bulkWorld>>;

  /** product id → [asignado, cantidad_limite] of a user's rows. */
  async function assignments(userId: number) {
    const rows = await db().select().from(userProducts).where(eq(userProducts.userId, userId));
    return Object.fromEntries(rows.map((r) => [r.productId, [r.asignado, r.cantidadLimite]]));
  }
  async function snapshot(w: BulkWorld) {
    const rows = await db()
      .select()
      .from(userProducts)
      .where(inArray(userProducts.userId, [w.ana.id, w.beto.id, w.caro.id, w.foreignBuyer.id]));
    return rows
      .map((r) => `${r.userId}:${r.productId}:${r.asignado}:${r.cantidadLimite}:${r.updatedAt.toISOString()}`)
      .sort();
  }
  const logsOf = async (eventType: string) =>
    db().select().from(systemLogs).where(eq(systemLogs.eventType, eventType));

  it('reemplazar: the target’s assignments become the source’s (asignado and limit); agregar only enables what it lacks', async () => {
    const w = await bulkWorld();
    // Ana (source): a on (3), b on (1), c off (7). Beto (target): a on (9), d on (2), c on (4).
    await assign(db(), w.ana.id, w.a.id, 3, true);
    await assign(db(), w.ana.id, w.b.id, 1, true);
    await assign(db(), w.ana.id, w.c.id, 7, false);
    await assign(db(), w.beto.id, w.a.id, 9, true);
    await assign(db(), w.beto.id, w.d.id, 2, true);
    await assign(db(), w.beto.id, w.c.id, 4, true);
    await assign(db(), w.caro.id, w.a.id, 9, true);
    await assign(db(), w.caro.id, w.d.id, 2, true);
    await assign(db(), w.caro.id, w.c.id, 4, false);

    const add = await admin.post(`/api/usuarios/${w.caro.id}/productos/copiar`, {
      desde_usuario_id: w.ana.id,
      modo: 'agregar',
    });
    expect(add.statusCode, add.body).toBe(200);
    // b is new (Ana's limit); a both have enabled: Caro keeps 9; c is off for Ana: untouched; d stays.
    expect(await assignments(w.caro.id)).toEqual({
      [w.a.id]: [true, 9],
      [w.b.id]: [true, 1],
      [w.c.id]: [false, 4],
      [w.d.id]: [true, 2],
    });
    expect(add.json()).toMatchObject({
      status: 'ok',
      actualizados: 1,
      usuario: { id: w.caro.id, asignados: 3 },
      msg: MSG.copiaAgregado(w.ana.usuario, w.caro.usuario, 1),
    });
    // A product enabled for the source and present but disabled for the target is enabled with the source's limit.
    await assign(db(), w.ana.id, w.e.id, 6, true);
    await db()
      .insert(userProducts)
      .values({ userId: w.caro.id, productId: w.e.id, asignado: false, cantidadLimite: 8 });
    const add2 = await admin.post(`/api/usuarios/${w.caro.id}/productos/copiar`, {
      desde_usuario_id: String(w.ana.id),
      modo: 'agregar',
    });
    expect(add2.json()).toMatchObject({ actualizados: 1, usuario: { asignados: 4 } });
    expect((await assignments(w.caro.id))[w.e.id]).toEqual([true, 6]);
    // Again: nothing left to add.
    const add3 = await admin.post(`/api/usuarios/${w.caro.id}/productos/copiar`, {
      desde_usuario_id: w.ana.id,
      modo: 'agregar',
    });
    expect(add3.json()).toMatchObject({ actualizados: 0, usuario: { asignados: 4 } });

    const rep = await admin.post(`/api/usuarios/${w.beto.id}/productos/copiar`, {
      desde_usuario_id: w.ana.id,
      modo: 'reemplazar',
    });
    expect(rep.statusCode, rep.body).toBe(200);
    // d: Ana has none → not enabled, limit 1 (what Ana's list shows for it).
    expect(await assignments(w.beto.id)).toEqual({
      [w.a.id]: [true, 3],
      [w.b.id]: [true, 1],
      [w.c.id]: [false, 7],
      [w.d.id]: [false, 1],
      [w.e.id]: [true, 6],
    });
    expect(rep.json()).toMatchObject({
      usuario: { asignados: 3 },
      msg: MSG.copiaReemplazo(w.ana.usuario, w.beto.usuario, 3),
    });
    // The lists read alike.
    const list = async (id: number) =>
      (await admin.get(`/api/usuarios/${id}/productos?per_page=100`))
        .json()
        .productos.map((p: { id: number; asignado: boolean; cantidad_limite: number }) => [
          p.id,
          p.asignado,
          p.cantidad_limite,
        ]);
    expect(await list(w.beto.id)).toEqual(await list(w.ana.id));
    // Re-running writes nothing.
    const again = await admin.post(`/api/usuarios/${w.beto.id}/productos/copiar`, {
      desde_usuario_id: w.ana.id,
      modo: 'reemplazar',
    });
    expect(again.json()).toMatchObject({ actualizados: 0 });

    const logs = (await logsOf('asignaciones_copiadas')).filter(
      (l) => (l.metadata as { desde_usuario_id?: number }).desde_usuario_id === w.ana.id,
    );
    expect(logs).toHaveLength(5);
    expect(logs.find((l) => (l.metadata as { modo: string }).modo === 'reemplazar')!.metadata).toMatchObject({
      id_usuario: w.beto.id,
      escritos: 5,
      habilitados_antes: 3,
      habilitados_despues: 3,
    });
  });

  it('a product disabled by a copy stays in the cart, as with the single switch, and the purchase refuses it', async () => {
    const w = await bulkWorld();
    await assign(db(), w.beto.id, w.a.id, 5, true);
    const api = await new ApiClient(t.app).loginOk(w.beto.usuario, TEST_PASSWORD);
    expect(
      (await api.post('/api/carrito/nuevo_item', { item: { id: w.a.id, cantidad: 2 } })).statusCode,
    ).toBe(200);
    const rep = await admin.post(`/api/usuarios/${w.beto.id}/productos/copiar`, {
      desde_usuario_id: w.ana.id,
      modo: 'reemplazar',
    });
    expect(rep.json()).toMatchObject({ usuario: { asignados: 0 } });
    const cart = await db().select().from(cartItems).where(eq(cartItems.userId, w.beto.id));
    expect(cart).toHaveLength(1);
    const add = await api.post('/api/carrito/nuevo_item', { item: { id: w.a.id, cantidad: 1 } });
    expect(add.json().msg).toBe(MSG.productoNoAsignado);
  });

  it('copy refusals: same user 400, other client or missing 404, not rol 1 422, bad body 400; nothing changes', async () => {
    const w = await bulkWorld();
    await assign(db(), w.ana.id, w.a.id, 3, true);
    await assign(db(), w.beto.id, w.b.id, 2, true);
    await assign(db(), w.foreignBuyer.id, w.foreign.id, 2, true);
    const before = await snapshot(w);
    const copy = (target: number, body: Record<string, unknown>) =>
      admin.post(`/api/usuarios/${target}/productos/copiar`, body);
    const cases: [number, Record<string, unknown>, number, string][] = [
      [w.beto.id, { desde_usuario_id: w.beto.id, modo: 'reemplazar' }, 400, MSG.copiaMismoUsuario],
      [w.beto.id, { desde_usuario_id: w.ana.id, modo: 'todo' }, 400, MSG.copiaModoInvalido],
      [w.beto.id, { desde_usuario_id: w.ana.id }, 400, MSG.copiaModoInvalido],
      [w.beto.id, { modo: 'agregar' }, 400, MSG.copiaDatos],
      [w.beto.id, { desde_usuario_id: 'x', modo: 'agregar' }, 400, MSG.copiaDatos],
      [w.beto.id, { desde_usuario_id: w.foreignBuyer.id, modo: 'reemplazar' }, 404, MSG.usuarioNoEncontrado],
      [w.foreignBuyer.id, { desde_usuario_id: w.ana.id, modo: 'reemplazar' }, 404, MSG.usuarioNoEncontrado],
      [w.beto.id, { desde_usuario_id: 99_999_999, modo: 'agregar' }, 404, MSG.usuarioNoEncontrado],
      [99_999_999, { desde_usuario_id: w.ana.id, modo: 'agregar' }, 404, MSG.usuarioNoEncontrado],
      [w.approver.id, { desde_usuario_id: w.ana.id, modo: 'reemplazar' }, 422, MSG.asignacionSoloUsuarios],
      [w.beto.id, { desde_usuario_id: w.approver.id, modo: 'reemplazar' }, 422, MSG.asignacionSoloUsuarios],
    ];
    for (const [target, body, status, msg] of cases) {
      const res = await copy(target, body);
      expect(res.statusCode, `${target} ${JSON.stringify(body)} ${res.body}`).toBe(status);
      expect(res.json().msg).toBe(msg);
    }
    // An administrator (no client) answers like a missing user.
    const adminUser = await makeUser(db(), { rol: 4, idCliente: null });
    expect((await copy(w.beto.id, { desde_usuario_id: adminUser.id, modo: 'agregar' })).statusCode).toBe(404);
    expect(await snapshot(w)).toEqual(before);
  });

  it('asignar_lote: users × products or × a category in one statement; the limit is kept when absent', async () => {
    const w = await bulkWorld();
    await assign(db(), w.ana.id, w.a.id, 9, false);
    const res = await admin.post('/api/productos/asignar_lote', {
      usuarios: [w.ana.id, w.beto.id, w.ana.id],
      categoria_id: w.pap.id,
      asignado: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'ok',
      usuarios: 2,
      productos: 3,
      actualizados: 6,
      msg: MSG.loteAsignado(3, 2, true),
    });
    expect(await assignments(w.ana.id)).toEqual({
      [w.a.id]: [true, 9],
      [w.b.id]: [true, 1],
      [w.c.id]: [true, 1],
    });
    expect(await assignments(w.caro.id)).toEqual({});

    const limited = await admin.post('/api/productos/asignar_lote', {
      usuarios: [w.beto.id, w.caro.id],
      productos: [w.a.id, w.d.id],
      asignado: 1,
      cantidad_limite: 4,
    });
    expect(limited.json()).toMatchObject({ usuarios: 2, productos: 2, actualizados: 4 });
    expect(await assignments(w.caro.id)).toEqual({ [w.a.id]: [true, 4], [w.d.id]: [true, 4] });
    expect((await assignments(w.beto.id))[w.a.id]).toEqual([true, 4]);

    const off = await admin.post('/api/productos/asignar_lote', {
      usuarios: [w.beto.id],
      categoria_id: w.pap.id,
      asignado: false,
    });
    expect(off.json()).toMatchObject({ msg: MSG.loteAsignado(3, 1, false) });
    expect(await assignments(w.beto.id)).toEqual({
      [w.a.id]: [false, 4],
      [w.b.id]: [false, 1],
      [w.c.id]: [false, 1],
      [w.d.id]: [true, 4],
    });

    const logs = (await logsOf('asignacion_lote')).filter(
      (l) => (l.metadata as { id_cliente?: number }).id_cliente === w.client.id,
    );
    expect(logs).toHaveLength(3);
    expect(logs[0]!.metadata).toMatchObject({
      usuarios: 2,
      productos: 3,
      escritos: 6,
      asignado: true,
      id_categoria: w.pap.id,
      cantidad_limite: null,
    });
  });

  it('without a limit a new assignment takes the client’s limite_por_defecto; a stored one keeps its own', async () => {
    const w = await bulkWorld();
    await db().update(clients).set({ limitePorDefecto: 3 }).where(eq(clients.id, w.client.id));
    await assign(db(), w.ana.id, w.a.id, 9, false);
    // The category enable and the bulk dialog both go through asignar_lote.
    const res = await admin.post('/api/productos/asignar_lote', {
      usuarios: [w.ana.id],
      categoria_id: w.pap.id,
      asignado: true,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await assignments(w.ana.id)).toEqual({
      [w.a.id]: [true, 9],
      [w.b.id]: [true, 3],
      [w.c.id]: [true, 3],
    });
    // One product at a time and "all of them" too.
    const one = await admin.post('/api/productos/asignar', {
      id_producto: w.d.id,
      id_user: w.beto.id,
      status: 1,
    });
    expect(one.json().producto).toEqual({ id: w.d.id, asignado: true, cantidad_limite: 3 });
    await admin.post('/api/productos/asignar_todos', { id_user: w.caro.id, status: 1 });
    expect(Object.values(await assignments(w.caro.id)).every(([, limit]) => limit === 3)).toBe(true);
    // A limit given wins over the default.
    await admin.post('/api/productos/asignar_lote', {
      usuarios: [w.caro.id],
      productos: [w.e.id],
      asignado: true,
      cantidad_limite: 7,
    });
    expect((await assignments(w.caro.id))[w.e.id]).toEqual([true, 7]);
  });

  it('asignar_lote with several categories (or all of them) at once, in one statement', async () => {
    const w = await bulkWorld();
    await assign(db(), w.ana.id, w.d.id, 6, true);
    const res = await admin.post('/api/productos/asignar_lote', {
      usuarios: [w.ana.id, w.beto.id],
      categorias: [w.pap.id, w.lim.id, w.pap.id],
      asignado: true,
      cantidad_limite: 2,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      usuarios: 2,
      productos: 5,
      actualizados: 10,
      msg: MSG.loteAsignado(5, 2, true),
    });
    expect(await assignments(w.ana.id)).toEqual({
      [w.a.id]: [true, 2],
      [w.b.id]: [true, 2],
      [w.c.id]: [true, 2],
      [w.d.id]: [true, 2],
      [w.e.id]: [true, 2],
    });
    const [log] = (await logsOf('asignacion_lote')).filter(
      (l) => (l.metadata as { id_cliente?: number }).id_cliente === w.client.id,
    );
    expect(log!.metadata).toMatchObject({ productos: 5, ids_categorias: [w.pap.id, w.lim.id] });
    expect(log!.description).toContain(`de ${[w.lim.nombre, w.pap.nombre].sort().join(', ')}`);

    // Disabling one category of the two leaves the other alone.
    const off = await admin.post('/api/productos/asignar_lote', {
      usuarios: [w.beto.id],
      categorias: [w.lim.id],
      asignado: false,
    });
    expect(off.json()).toMatchObject({ productos: 2, msg: MSG.loteAsignado(2, 1, false) });
    expect(await assignments(w.beto.id)).toMatchObject({ [w.a.id]: [true, 2], [w.d.id]: [false, 2] });
  });

  it('asignar_lote refusals: another client’s user, product or category 404 and nothing changes; rol 2 422; bad bodies 400', async () => {
    const w = await bulkWorld();
    await assign(db(), w.ana.id, w.a.id, 3, false);
    await assign(db(), w.foreignBuyer.id, w.foreign.id, 2, false);
    const before = await snapshot(w);
    const cases: [Record<string, unknown>, number, string][] = [
      // The foreign user sits in the middle of the batch: the first ones must not be written either.
      [
        { usuarios: [w.ana.id, w.foreignBuyer.id, w.beto.id], categoria_id: w.pap.id, asignado: 1 },
        404,
        MSG.usuarioNoEncontrado,
      ],
      [{ usuarios: [w.ana.id, 99_999_999], productos: [w.a.id], asignado: 1 }, 404, MSG.usuarioNoEncontrado],
      [
        { usuarios: [w.ana.id, w.beto.id], productos: [w.a.id, w.foreign.id, w.b.id], asignado: 1 },
        404,
        MSG.productoNoExiste,
      ],
      [{ usuarios: [w.ana.id], productos: [99_999_999], asignado: 1 }, 404, MSG.productoNoExiste],
      [{ usuarios: [w.ana.id], categoria_id: w.otherCat.id, asignado: 1 }, 404, MSG.invCategoriaInexistente],
      // Several categories: one of another client's among them writes nothing.
      [
        { usuarios: [w.ana.id], categorias: [w.pap.id, w.otherCat.id, w.lim.id], asignado: 1 },
        404,
        MSG.invCategoriaInexistente,
      ],
      [
        { usuarios: [w.ana.id], categorias: [w.pap.id, 99_999_999], asignado: 1 },
        404,
        MSG.invCategoriaInexistente,
      ],
      [{ usuarios: [w.ana.id], categorias: [], asignado: 1 }, 400, MSG.loteCategorias],
      [
        { usuarios: [w.ana.id], categorias: Array.from({ length: 501 }, (_, i) => i + 1), asignado: 1 },
        400,
        MSG.loteCategorias,
      ],
      [
        { usuarios: [w.ana.id], categorias: [w.pap.id], categoria_id: w.pap.id, asignado: 1 },
        400,
        MSG.loteProductos,
      ],
      [
        { usuarios: [w.ana.id], categorias: [w.pap.id], productos: [w.a.id], asignado: 1 },
        400,
        MSG.loteProductos,
      ],
      [
        { usuarios: [w.ana.id, w.approver.id], productos: [w.a.id], asignado: 1 },
        422,
        MSG.asignacionSoloUsuarios,
      ],
      [
        { usuarios: [w.ana.id], productos: [w.a.id], asignado: 1, cantidad_limite: 0 },
        400,
        MSG.cantidadLimiteInvalida,
      ],
      [
        { usuarios: [w.ana.id], productos: [w.a.id], asignado: 1, cantidad_limite: -1 },
        400,
        MSG.cantidadLimiteInvalida,
      ],
      [
        { usuarios: [w.ana.id], productos: [w.a.id], asignado: 1, cantidad_limite: 2.5 },
        400,
        MSG.cantidadLimiteInvalida,
      ],
      [
        { usuarios: [w.ana.id], productos: [w.a.id], asignado: 1, cantidad_limite: 'x' },
        400,
        MSG.cantidadLimiteInvalida,
      ],
      [{ usuarios: [w.ana.id], productos: [w.a.id] }, 400, MSG.estadoAsignacionInvalido],
      [{ usuarios: [], productos: [w.a.id], asignado: 1 }, 400, MSG.loteUsuarios],
      [{ productos: [w.a.id], asignado: 1 }, 400, MSG.loteUsuarios],
      [{ usuarios: [w.ana.id], asignado: 1 }, 400, MSG.loteProductos],
      [
        { usuarios: [w.ana.id], productos: [w.a.id], categoria_id: w.pap.id, asignado: 1 },
        400,
        MSG.loteProductos,
      ],
      [{ usuarios: [w.ana.id], productos: [], asignado: 1 }, 400, MSG.loteProductos],
      [
        { usuarios: Array.from({ length: 501 }, (_, i) => i + 1), productos: [w.a.id], asignado: 1 },
        400,
        MSG.loteUsuarios,
      ],
    ];
    for (const [body, status, msg] of cases) {
      const res = await admin.post('/api/productos/asignar_lote', body);
      expect(res.statusCode, `${JSON.stringify(body).slice(0, 120)} ${res.body}`).toBe(status);
      expect(res.json().msg).toBe(msg);
    }
    expect(await snapshot(w)).toEqual(before);
    expect(
      (await logsOf('asignacion_lote')).filter(
        (l) => (l.metadata as { id_cliente?: number }).id_cliente === w.client.id,
      ),
    ).toEqual([]);
  });

  it('two batches over the same users in opposite orders both answer 200 and one wins for every user', async () => {
    const w = await bulkWorld();
    const ids = [w.ana.id, w.beto.id, w.caro.id];
    const [on, off] = await Promise.all([
      admin.post('/api/productos/asignar_lote', { usuarios: ids, categoria_id: w.pap.id, asignado: 1 }),
      admin.post('/api/productos/asignar_lote', {
        usuarios: [...ids].reverse(),
        categoria_id: w.pap.id,
        asignado: 0,
      }),
    ]);
    expect([on.statusCode, off.statusCode], `${on.body} ${off.body}`).toEqual([200, 200]);
    // The users are locked in id order before anything is written: no deadlock, and no mix of the two.
    const states = new Set<string>();
    for (const id of ids) {
      for (const [asignado] of Object.values(await assignments(id))) states.add(String(asignado));
    }
    expect(states.size).toBe(1);
  });

  it('500 users × a category in one call', async () => {
    const w = await bulkWorld();
    const many = await db()
      .insert(users)
      .values(
        Array.from({ length: 497 }, (_, i) => ({
          usuario: uniq(`lote${i}`),
          nombre: `Comprador ${i}`,
          email: `${uniq('lote')}@example.test`,
          rol: 1,
          idCliente: w.client.id,
          presupuestoDefault: 100_000,
        })),
      )
      .returning({ id: users.id });
    const ids = [w.ana.id, w.beto.id, w.caro.id, ...many.map((u) => u.id)];
    expect(ids).toHaveLength(500);
    const res = await admin.post('/api/productos/asignar_lote', {
      usuarios: ids,
      categoria_id: w.lim.id,
      asignado: true,
      cantidad_limite: 3,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ usuarios: 500, productos: 2, actualizados: 1000 });
    const rows = await db()
      .select()
      .from(userProducts)
      .where(and(inArray(userProducts.userId, ids), eq(userProducts.asignado, true)));
    expect(rows).toHaveLength(1000);
    expect(rows.every((r) => r.cantidadLimite === 3)).toBe(true);
  });

  it('the user’s product list filters by category (another client’s category lists nothing)', async () => {
    const w = await bulkWorld();
    const ids = async (q: string) =>
      (await admin.get(`/api/usuarios/${w.ana.id}/productos?${q}`))
        .json()
        .productos.map((p: { id: number }) => p.id);
    expect(await ids(`categoria=${w.lim.id}`)).toEqual([w.d.id, w.e.id]);
    expect(await ids(`categoria=${w.pap.id}&q=cuaderno`)).toEqual([w.c.id]);
    expect(await ids(`categoria=${w.otherCat.id}`)).toEqual([]);
    expect((await admin.get(`/api/usuarios/${w.ana.id}/productos?categoria=x`)).statusCode).toBe(400);
  });

  it('only administrators: rol 1, 2, 3 get 403, anonymous 401, and a call without the XSRF header 419', async () => {
    const w = await bulkWorld();
    await assign(db(), w.ana.id, w.a.id, 3, true);
    const before = await snapshot(w);
    const copyUrl = `/api/usuarios/${w.beto.id}/productos/copiar`;
    const copyBody = { desde_usuario_id: w.ana.id, modo: 'reemplazar' };
    const lote = { usuarios: [w.beto.id], categoria_id: w.pap.id, asignado: 1 };
    for (const rol of [1, 2, 3]) {
      const u = await makeUser(db(), { rol, idCliente: w.client.id });
      const api = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
      expect((await api.post(copyUrl, copyBody)).statusCode).toBe(403);
      expect((await api.post('/api/productos/asignar_lote', lote)).statusCode).toBe(403);
    }
    const anon = new ApiClient(t.app);
    expect((await anon.post(copyUrl, copyBody)).statusCode).toBe(401);
    expect((await anon.post('/api/productos/asignar_lote', lote)).statusCode).toBe(401);
    // The administrator's session without its XSRF header.
    for (const xsrf of [null, 'x'.repeat(43)]) {
      expect((await admin.post(copyUrl, copyBody, { xsrf })).statusCode).toBe(419);
      expect((await admin.post('/api/productos/asignar_lote', lote, { xsrf })).statusCode).toBe(419);
    }
    expect(await snapshot(w)).toEqual(before);
  });
});
