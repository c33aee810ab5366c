import { addDays, businessDate } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { products, savedListItems, savedLists, userProducts } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { type BuyerOptions, cartQuantities, makeBuyer } from '../../test/buyer-fixtures.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeProduct,
  makeUser,
  makeWeek,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('saved lists: /api/listas (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;
  const buyer = (opts?: BuyerOptions) => makeBuyer(t, opts);

  /** A buyer with three assigned products (limits 5). */
  async function stocked(opts?: BuyerOptions) {
    const b = await buyer(opts);
    const a = await b.product(1000, { nombre: 'Lápiz' });
    const c = await b.product(2500, { nombre: 'Cuaderno' });
    const d = await b.product(500, { nombre: 'Clip' });
    for (const p of [a, c, d]) await assign(db(), b.user.id, p.id, 5);
    return { ...b, a, c, d };
  }
  const create = (api: ApiClient, nombre: unknown, items: unknown) =>
    api.post('/api/listas', { nombre, items });
  const cartOf = (userId: number) => cartQuantities(t, userId);

  it('creates, lists, reads with current product data, renames, edits items, deletes', async () => {
    const { api, a, c, d } = await stocked();
    const created = await create(api, '  Papelería mensual ', [
      { id: c.id, cantidad: 2 },
      { id: a.id, cantidad: 3 },
    ]);
    expect(created.statusCode, created.body).toBe(201);
    const lista = created.json().lista;
    expect(created.json().msg).toBe(MSG.listaGuardada);
    expect(lista).toMatchObject({ nombre: 'Papelería mensual' });
    expect(lista.items.map((i: { id: number; cantidad: number }) => [i.id, i.cantidad])).toEqual([
      [c.id, 2],
      [a.id, 3],
    ]);
    expect(lista.items[1]).toMatchObject({
      nombre: 'Lápiz',
      precio: 10,
      cantidad_limite: 5,
      disponible: true,
      motivo: null,
      codigo: null,
    });
    // Prices are never kept: the list shows the current one.
    await db().update(products).set({ precio: 1234 }).where(eq(products.id, a.id));
    const read = (await api.get(`/api/listas/${lista.id}`)).json().lista;
    expect(read.items[1].precio).toBe(12.34);
    const columns = Object.keys((await db().select().from(savedListItems).limit(1))[0]!);
    expect(columns.sort()).toEqual(['cantidad', 'listId', 'posicion', 'productId']);

    await create(api, 'Cafetería', [{ id: d.id, cantidad: 1 }]);
    const all = (await api.get('/api/listas')).json().listas;
    expect(all.map((l: { nombre: string; productos: number }) => [l.nombre, l.productos])).toEqual([
      ['Cafetería', 1],
      ['Papelería mensual', 2],
    ]);

    const renamed = await api.put(`/api/listas/${lista.id}`, { nombre: 'Papelería de marzo' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().lista).toMatchObject({ nombre: 'Papelería de marzo' });
    expect(renamed.json().lista.items).toHaveLength(2);
    const edited = await api.put(`/api/listas/${lista.id}`, {
      items: [
        { id: a.id, cantidad: 4 },
        { id: d.id, cantidad: 1 },
      ],
    });
    expect(
      edited.json().lista.items.map((i: { id: number; cantidad: number }) => [i.id, i.cantidad]),
    ).toEqual([
      [a.id, 4],
      [d.id, 1],
    ]);
    // Renaming to its own name in another case is allowed.
    expect((await api.put(`/api/listas/${lista.id}`, { nombre: 'PAPELERÍA DE MARZO' })).statusCode).toBe(200);

    const deleted = await api.request('DELETE', `/api/listas/${lista.id}`);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json()).toEqual({ status: 'ok', msg: MSG.listaEliminada });
    expect((await api.get(`/api/listas/${lista.id}`)).statusCode).toBe(404);
    expect(await db().select().from(savedListItems).where(eq(savedListItems.listId, lista.id))).toHaveLength(
      0,
    );
    expect((await api.get('/api/listas')).json().listas).toHaveLength(1);
  });

  it('names: 1 to 60 characters, unique per user ignoring case, accents and extra spaces (409)', async () => {
    const { api, a } = await stocked();
    const items = [{ id: a.id, cantidad: 1 }];
    expect((await create(api, 'Limpieza General', items)).statusCode).toBe(201);
    for (const same of ['limpieza general', 'LIMPIEZA  GENERAL', ' Límpieza General ']) {
      const res = await create(api, same, items);
      expect(res.statusCode, same).toBe(409);
      expect(res.json()).toMatchObject({ code: 'LIST_NAME_TAKEN', msg: MSG.listaNombreDuplicado });
    }
    const other = (await create(api, 'Otra', items)).json().lista;
    const clash = await api.put(`/api/listas/${other.id}`, { nombre: 'limpieza general' });
    expect(clash.statusCode).toBe(409);
    for (const [nombre, msg] of [
      ['', MSG.listaNombreRequerido],
      ['   ', MSG.listaNombreRequerido],
      ['x'.repeat(61), MSG.listaNombreLargo],
      [42, MSG.listaNombreRequerido],
      [undefined, MSG.listaNombreRequerido],
    ] as const) {
      const res = await create(api, nombre, items);
      expect(res.statusCode, String(nombre)).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    expect((await create(api, 'x'.repeat(60), items)).statusCode).toBe(201);
    // Another user may use the same name.
    const someoneElse = await stocked();
    expect(
      (await create(someoneElse.api, 'Limpieza General', [{ id: someoneElse.a.id, cantidad: 1 }])).statusCode,
    ).toBe(201);
  });

  it('items: at most 200, quantities whole numbers ≥ 1, each product once, each assigned to the buyer (422 naming it)', async () => {
    const { user, client, category, api, a, c } = await stocked();
    const many = [];
    for (let i = 0; i < 201; i++) {
      const p = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 100 });
      await assign(db(), user.id, p.id, 1);
      many.push({ id: p.id, cantidad: 1 });
    }
    const tooMany = await create(api, 'Grande', many);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json().msg).toBe(MSG.listaDemasiadosProductos);
    const full = await create(api, 'Grande', many.slice(0, 200));
    expect(full.statusCode).toBe(201);
    expect(full.json().lista.items).toHaveLength(200);
    for (const [cantidad, what] of [
      [0, 'cero'],
      [-1, 'negativa'],
      [1.5, 'decimal'],
      ['2', 'texto'],
      [null, 'nula'],
    ] as const) {
      const res = await create(api, `Mala ${what}`, [{ id: a.id, cantidad }]);
      expect(res.statusCode, what).toBe(400);
      expect(res.json().msg, what).toBe(MSG.listaCantidadInvalida);
    }
    const twice = await create(api, 'Doble', [
      { id: a.id, cantidad: 1 },
      { id: a.id, cantidad: 2 },
    ]);
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toBe(MSG.listaProductoRepetido);
    expect((await create(api, 'Tipo', 'nada')).statusCode).toBe(400);
    expect((await create(api, 'Id', [{ id: 'x', cantidad: 1 }])).statusCode).toBe(400);

    const unassigned = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 100,
      nombre: 'Sin asignar',
    });
    const other = await makeClient(db());
    const foreign = await makeProduct(db(), {
      idCliente: other.id,
      idCategoria: (await makeCategory(db(), other.id)).id,
      precio: 100,
      nombre: 'De otro cliente',
    });
    await assign(db(), user.id, foreign.id, 5);
    const refused = await create(api, 'Rechazada', [
      { id: a.id, cantidad: 1 },
      { id: unassigned.id, cantidad: 1 },
    ]);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'NOT_ASSIGNED',
      msg: `Sin asignar: ${MSG.productoNoAsignado}`,
      errors: { 'items.1.id': `Sin asignar: ${MSG.productoNoAsignado}` },
    });
    // Another client's product is named by its id only, exactly like a missing one.
    const foreignRes = await create(api, 'Ajena', [{ id: foreign.id, cantidad: 1 }]);
    expect(foreignRes.statusCode).toBe(422);
    expect(foreignRes.json().msg).toBe(MSG.listaProductoNoExiste(foreign.id));
    expect(foreignRes.body).not.toContain('De otro cliente');
    expect((await create(api, 'Inexistente', [{ id: 2147483646, cantidad: 1 }])).json().msg).toBe(
      MSG.listaProductoNoExiste(2147483646),
    );
    const list = (await create(api, 'Buena', [{ id: c.id, cantidad: 1 }])).json().lista;
    const badEdit = await api.put(`/api/listas/${list.id}`, { items: [{ id: unassigned.id, cantidad: 1 }] });
    expect(badEdit.statusCode).toBe(422);
    expect(
      (await api.get(`/api/listas/${list.id}`)).json().lista.items.map((i: { id: number }) => i.id),
    ).toEqual([c.id]);
    expect((await api.put(`/api/listas/${list.id}`, {})).json().msg).toBe(MSG.listaSinCambios);
    expect(await db().select().from(savedLists).where(eq(savedLists.nombre, 'Rechazada'))).toHaveLength(0);
  });

  it('a product no longer available shows greyed with its reason; al-carrito adds like repetir', async () => {
    const { user, api, a, c, d } = await stocked({ presupuesto: 5000 });
    const list = (
      await create(api, 'Semanal', [
        { id: a.id, cantidad: 2 },
        { id: c.id, cantidad: 1 },
        { id: d.id, cantidad: 9 },
      ])
    ).json().lista;
    await db().update(products).set({ activo: false }).where(eq(products.id, c.id));
    await db().update(userProducts).set({ asignado: false }).where(eq(userProducts.productId, a.id));
    const read = (await api.get(`/api/listas/${list.id}`)).json().lista;
    expect(
      read.items.map((i: { disponible: boolean; motivo: string | null; codigo: string | null }) => [
        i.disponible,
        i.motivo,
        i.codigo,
      ]),
    ).toEqual([
      [false, MSG.productoNoAsignado, 'NOT_ASSIGNED'],
      [false, MSG.productoInactivo, 'INACTIVE_PRODUCT'],
      [true, null, null],
    ]);
    expect(read.items[0].cantidad_limite).toBeNull();

    const res = await api.post(`/api/listas/${list.id}/al-carrito`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    // d asks for 9 and its limit is 5.
    expect(body.agregados).toEqual([{ id: d.id, cantidad: 5 }]);
    expect(body.omitidos).toEqual([
      { id: a.id, nombre: 'Lápiz', motivo: MSG.productoNoAsignado, codigo: 'NOT_ASSIGNED' },
      { id: c.id, nombre: 'Cuaderno', motivo: MSG.productoInactivo, codigo: 'INACTIVE_PRODUCT' },
    ]);
    expect(body.carrito).toHaveLength(1);
    expect(body.presupuesto).toMatchObject({ presupuesto_carrito: 25, productos_totales: 5 });
    expect(await cartOf(user.id)).toEqual({ [d.id]: 5 });
  });

  it('private: another user’s list is 404 like a missing one on every route; other roles 403; outside the week refused; XSRF required', async () => {
    const owner = await stocked();
    const list = (await create(owner.api, 'Privada', [{ id: owner.a.id, cantidad: 1 }])).json().lista;
    const intruder = await stocked();
    const calls = (id: number) =>
      [
        intruder.api.get(`/api/listas/${id}`),
        intruder.api.put(`/api/listas/${id}`, { nombre: 'Mía' }),
        intruder.api.request('DELETE', `/api/listas/${id}`),
        intruder.api.post(`/api/listas/${id}/al-carrito`),
      ] as const;
    const foreign = await Promise.all(calls(list.id));
    const missing = await Promise.all(calls(2147483647));
    foreign.forEach((res, i) => {
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(missing[i]!.json());
      expect(res.json()).toMatchObject({ code: 'LIST_NOT_FOUND', msg: MSG.listaNoEncontrada });
    });
    expect((await intruder.api.get('/api/listas')).json().listas).toEqual([]);
    expect((await owner.api.get(`/api/listas/${list.id}`)).json().lista.nombre).toBe('Privada');
    expect((await owner.api.get('/api/listas/abc')).statusCode).toBe(400);

    const noXsrf = await owner.api.request('POST', '/api/listas', { nombre: 'X', items: [] }, { xsrf: null });
    expect(noXsrf.statusCode).toBe(419);
    expect(
      (await owner.api.request('DELETE', `/api/listas/${list.id}`, undefined, { xsrf: null })).statusCode,
    ).toBe(419);

    const authorizer = await makeUser(db(), { rol: 2, idCliente: owner.client.id });
    const auth = await new ApiClient(t.app).loginOk(authorizer.usuario, TEST_PASSWORD);
    expect((await auth.get('/api/listas')).statusCode).toBe(403);
    expect((await auth.post('/api/listas', { nombre: 'X', items: [] })).statusCode).toBe(403);

    const today = businessDate(new Date());
    await makeWeek(db(), { idCliente: owner.client.id, inicio: addDays(today, 5), fin: addDays(today, 9) });
    const outside = await owner.api.post(`/api/listas/${list.id}/al-carrito`);
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ code: 'OUTSIDE_WEEK', msg: MSG.fueraDeSemana });
  });

  it('concurrency: the same list added to the cart from two tabs at once never passes a limit or the budget', async () => {
    // 120.00 of budget: a x2 (20.00) and c x3 (75.00) fit once; twice would be 190.00.
    const { user, api, a, c } = await stocked({ presupuesto: 12000 });
    const list = (
      await create(api, 'Carrera', [
        { id: a.id, cantidad: 2 },
        { id: c.id, cantidad: 3 },
      ])
    ).json().lista;
    const second = await new ApiClient(t.app, '10.0.0.3').loginOk(user.usuario, TEST_PASSWORD);
    const results = await Promise.all([
      api.post(`/api/listas/${list.id}/al-carrito`),
      second.post(`/api/listas/${list.id}/al-carrito`),
    ]);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const cart = await cartOf(user.id);
    // Whichever runs second finds the first's lines: a 2 more (115.00 in all), c refused by the budget.
    expect(cart).toEqual({ [a.id]: 4, [c.id]: 3 });
    const final = (await api.get('/api/carrito')).json();
    expect(final.presupuesto.presupuesto_restante).toBeGreaterThanOrEqual(0);
    const skipped = results.flatMap((r) => r.json().omitidos as { codigo: string }[]);
    expect(skipped.map((s) => s.codigo)).toEqual(['BUDGET']);
  });

  it('a buyer keeps at most 100 lists', async () => {
    const { user, api, a } = await stocked();
    await db()
      .insert(savedLists)
      .values(
        Array.from({ length: 100 }, (_, i) => ({ userId: user.id, nombre: `L${i}`, nombreClave: `l${i}` })),
      );
    const res = await create(api, 'Una más', [{ id: a.id, cantidad: 1 }]);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'TOO_MANY_LISTS', msg: MSG.listaMaximo });
  });
});
