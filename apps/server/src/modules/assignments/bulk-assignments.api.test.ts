import { MSG } from '@portal/shared/messages';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cartItems, systemLogs, userProducts, users } from '../../db/schema/index.ts';
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

/** Copy of assignments between users and assignment in bulk (decision 0061). */
describe.each(DB_KINDS)('administration: assignments in bulk (%s)', (kind) => {
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

  /** A client with two categories (3 + 2 products), three buyers, an approver, and another client. */
  async function world() {
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
  type World = Awaited<ReturnType<typeof world>>;

  /** product id → [asignado, cantidad_limite] of a user's rows. */
  async function assignments(userId: number) {
    const rows = await db().select().from(userProducts).where(eq(userProducts.userId, userId));
    return Object.fromEntries(rows.map((r) => [r.productId, [r.asignado, r.cantidadLimite]]));
  }
  async function snapshot(w: World) {
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
    const w = await world();
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
    const w = await world();
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
    const w = await world();
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
    const w = await world();
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

  it('asignar_lote refusals: another client’s user, product or category 404 and nothing changes; rol 2 422; bad bodies 400', async () => {
    const w = await world();
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

  it('500 users × a category in one call', async () => {
    const w = await world();
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
    const w = await world();
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
    const w = await world();
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
