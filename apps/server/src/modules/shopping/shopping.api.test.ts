import { addDays, businessDate } from '@portal/shared/domain/time';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveOrderTotals } from '../../db/order-totals.ts';
import {
  cartItems,
  clients,
  orderLines,
  orders,
  products,
  userCategoryBudgets,
  users,
  weeks,
} from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { type BuyerOptions, makeBuyer } from '../../test/buyer-fixtures.ts';
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

describe.each(DB_KINDS)('shopping: catalogue, cart, purchase, history (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;

  /** A client, a rol-1 user signed in, and a category. */
  const buyer = (opts?: BuyerOptions) => makeBuyer(t, opts);

  const add = (api: ApiClient, id: number, cantidad: number) =>
    api.post('/api/carrito/nuevo_item', { item: { id, cantidad } });
  const orden = async (api: ApiClient) => {
    const cart = (await api.get('/api/carrito')).json();
    return (cart.carrito ?? []).map((i: { id: number; cantidad: number }) => ({
      id: i.id,
      cantidad: i.cantidad,
    }));
  };
  const buy = async (api: ApiClient) =>
    api.post('/api/compra', { orden: await orden(api), fecha: businessDate(new Date()) });

  it('the catalogue lists only assigned, active products of the user client, searchable without accents', async () => {
    const { user, client, category, api } = await buyer();
    const lapiz = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 1890,
      nombre: 'Lápiz Azul',
      claveInterna: 'LAP-01',
      claveCliente: 'CLI-77',
    });
    const cafe = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 12550,
      nombre: 'Café molido',
    });
    const inactive = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 100,
      activo: false,
    });
    const notAssigned = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 100,
    });
    const disabled = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 100 });
    const other = await makeClient(db());
    const otherCat = await makeCategory(db(), other.id);
    const foreign = await makeProduct(db(), { idCliente: other.id, idCategoria: otherCat.id, precio: 100 });
    await assign(db(), user.id, lapiz.id, 3);
    await assign(db(), user.id, cafe.id);
    await assign(db(), user.id, inactive.id);
    await assign(db(), user.id, disabled.id, 1, false);
    await assign(db(), user.id, foreign.id); // even if assigned by mistake, another client's product never shows
    void notAssigned;
    const all = (await api.get('/api/catalogo')).json();
    expect(all.productos.map((p: { id: number }) => p.id).sort()).toEqual([lapiz.id, cafe.id].sort());
    expect(all.total).toBe(2);
    const p = all.productos.find((x: { id: number }) => x.id === lapiz.id);
    expect(p).toMatchObject({
      precio: 18.9,
      clave_interna: 'LAP-01',
      categoria: 'Papelería',
      cantidad_limite: 3,
    });
    for (const q of ['lapiz', 'LÁPIZ', 'lap-01', 'cli-77', '18.9', '$18.90']) {
      const res = (await api.get(`/api/catalogo?q=${encodeURIComponent(q)}`)).json();
      expect(
        res.productos.map((x: { id: number }) => x.id),
        q,
      ).toEqual([lapiz.id]);
    }
    expect((await api.get('/api/catalogo?q=cafe')).json().productos[0].id).toBe(cafe.id);
    expect((await api.get('/api/catalogo?q=%25')).json().total).toBe(0);
    // The stored search text (decision 0077) follows an edit at once, and no term matches across two of its
    // fields: the end of the clave interna and the start of the clave del cliente, typed together or with a
    // line break between them (control characters are dropped from a term).
    const found = async (q: string) =>
      (await api.get(`/api/catalogo?q=${encodeURIComponent(q)}`))
        .json()
        .productos.map((x: { id: number }) => x.id);
    expect(await found('01cli')).toEqual([]);
    expect(await found('01\ncli')).toEqual([]);
    const nombreLapiz = lapiz.nombre;
    await db().update(products).set({ nombre: 'Portaminas Ñandú 0.5' }).where(eq(products.id, lapiz.id));
    expect(await found('nandu')).toEqual([lapiz.id]);
    expect(await found('lapiz')).toEqual([]);
    await db().update(products).set({ nombre: nombreLapiz }).where(eq(products.id, lapiz.id));
    expect(await found('lapiz')).toEqual([lapiz.id]);
    const paged = (await api.get('/api/catalogo?per_page=1&page=2')).json();
    expect(paged.productos).toHaveLength(1);
    expect(paged.total).toBe(2);
    // A page past the end is empty and still knows the total; a search narrows it.
    const past = (await api.get('/api/catalogo?per_page=1&page=5')).json();
    expect(past).toMatchObject({ productos: [], total: 2, page: 5 });
    expect((await api.get('/api/catalogo?q=lapiz&per_page=1&page=3')).json().total).toBe(1);
    // By category: the sidebar's filter, alone, with a search, and past its end.
    const cafeteria = await makeCategory(db(), client.id, 'Cafetería');
    await db().update(products).set({ idCategoria: cafeteria.id }).where(eq(products.id, cafe.id));
    const byCategory = (await api.get(`/api/catalogo?categoria=${cafeteria.id}`)).json();
    expect(byCategory.productos.map((x: { id: number }) => x.id)).toEqual([cafe.id]);
    expect(byCategory.total).toBe(1);
    expect((await api.get(`/api/catalogo?categoria=${category.id}&q=cafe`)).json().total).toBe(0);
    expect((await api.get(`/api/catalogo?categoria=${cafeteria.id}&q=12`)).json().total).toBe(1);
    expect((await api.get(`/api/catalogo?categoria=${category.id}&per_page=1&page=4`)).json()).toMatchObject({
      productos: [],
      total: 1,
    });
    expect((await api.get(`/api/catalogo?categoria=${otherCat.id}`)).json().total).toBe(0);
  });

  it('refuses: other client product (404), not assigned, inactive, quantity 0 / 1.5 / over the limit', async () => {
    const { user, client, category, api } = await buyer();
    const ok = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 1000 });
    const unassigned = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 1000,
    });
    const inactive = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 1000,
      activo: false,
    });
    const other = await makeClient(db());
    const foreign = await makeProduct(db(), {
      idCliente: other.id,
      idCategoria: (await makeCategory(db(), other.id)).id,
      precio: 1000,
    });
    await assign(db(), user.id, ok.id, 2);
    await assign(db(), user.id, inactive.id);
    await assign(db(), user.id, unassigned.id, 1, false);
    await assign(db(), user.id, foreign.id);

    const cases: [number, number, number, string][] = [
      [foreign.id, 1, 404, MSG.productoNoExiste],
      [999999, 1, 404, MSG.productoNoExiste],
      [unassigned.id, 1, 422, MSG.productoNoAsignado],
      [inactive.id, 1, 422, MSG.productoInactivo],
      [ok.id, 0, 422, MSG.cantidadInvalida],
      [ok.id, 1.5, 422, MSG.cantidadInvalida],
      [ok.id, 3, 422, MSG.excedeCantidad(2)],
    ];
    for (const [id, cantidad, status, msg] of cases) {
      const res = await add(api, id, cantidad);
      expect(res.statusCode, `${id} x ${cantidad}`).toBe(status);
      expect(res.json().msg).toBe(msg);
    }
    expect(MSG.excedeCantidad(2)).toBe('No puedes exceder la cantidad de 2 articulos!');
    expect((await add(api, ok.id, 'dos' as unknown as number)).statusCode).toBe(400);
    expect(await db().select().from(cartItems).where(eq(cartItems.userId, user.id))).toHaveLength(0);
    const added = await add(api, ok.id, 2);
    expect(added.statusCode).toBe(200);
    expect(added.json()).toMatchObject({
      msg: MSG.productoAgregado,
      carrito: [{ id: ok.id, cantidad: 2, costo: 10 }],
    });
  });

  it('add, update, remove with 0, remove and empty the cart; the cart survives a new sign-in', async () => {
    const { user, client, category, api } = await buyer();
    const a = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
      impuesto: true,
    });
    const b = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 5050,
      impuesto: false,
    });
    await assign(db(), user.id, a.id, 5);
    await assign(db(), user.id, b.id, 5);
    await add(api, a.id, 1);
    const updated = await add(api, a.id, 3);
    expect(updated.json().msg).toBe(MSG.carritoActualizado);
    await add(api, b.id, 2);
    const again = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    const session = (await again.get('/api/sesion')).json();
    expect(
      session.comprador.carrito.map((i: { id: number; cantidad: number }) => [i.id, i.cantidad]),
    ).toEqual([
      [a.id, 3],
      [b.id, 2],
    ]);
    // 300.00 taxable + 101.00 exempt; IVA 48.00
    expect(session.comprador.totales).toEqual({ subtotal: 401, iva: 48, total: 449 });
    expect(session.comprador.presupuesto).toMatchObject({
      presupuesto_total: 5000,
      presupuesto_utilizado: 0,
      presupuesto_restante: 4551,
      productos_totales: 5,
    });
    const removedByZero = await add(api, b.id, 0);
    expect(removedByZero.json().msg).toBe(MSG.productoEliminadoCarrito);
    expect(removedByZero.json().carrito).toHaveLength(1);
    const notIn = await api.post('/api/carrito/eliminar_item', { item_id: b.id });
    expect(notIn.statusCode).toBe(404);
    expect(notIn.json().msg).toBe(MSG.productoNoEnCarrito);
    const removed = await api.post('/api/carrito/eliminar_item', { item_id: a.id });
    expect(removed.json().carrito).toEqual([]);
    await add(api, a.id, 1);
    const emptied = await api.post('/api/carrito/vaciar_carrito');
    expect(emptied.json().carrito).toEqual([]);
  });

  it('regular budget: a cart that fits exactly is accepted, one centavo short is refused (add and update)', async () => {
    const exact = await buyer({ presupuesto: 11600 });
    const p = await makeProduct(db(), {
      idCliente: exact.client.id,
      idCategoria: exact.category.id,
      precio: 10000,
      impuesto: true,
    });
    const cent = await makeProduct(db(), {
      idCliente: exact.client.id,
      idCategoria: exact.category.id,
      precio: 1,
      impuesto: true,
    });
    await assign(db(), exact.user.id, p.id, 2);
    await assign(db(), exact.user.id, cent.id);
    const fits = await add(exact.api, p.id, 1);
    expect(fits.statusCode).toBe(200);
    expect(fits.json().presupuesto.presupuesto_restante).toBe(0);
    const over = await add(exact.api, cent.id, 1);
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({ code: 'BUDGET', msg: MSG.presupuestoAgregar });
    const update = await add(exact.api, p.id, 2);
    expect(update.statusCode).toBe(422);
    expect(update.json().msg).toBe(MSG.presupuestoActualizar);

    const short = await buyer({ presupuesto: 11599 });
    const q = await makeProduct(db(), {
      idCliente: short.client.id,
      idCategoria: short.category.id,
      precio: 10000,
      impuesto: true,
    });
    await assign(db(), short.user.id, q.id);
    const refused = await add(short.api, q.id, 1);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().msg).toBe(MSG.presupuestoAgregar);
  });

  it('category budget: per category, with the category name and what is available', async () => {
    const { user, client, category, api } = await buyer({ client: { modoPresupuesto: 'categoria' } });
    const limpieza = await makeCategory(db(), client.id, 'Limpieza');
    await db()
      .insert(userCategoryBudgets)
      .values({ userId: user.id, categoryId: category.id, presupuesto: 10000 });
    const a = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 6000,
      impuesto: false,
    });
    const b = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 5000,
      impuesto: false,
    });
    const c = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: limpieza.id,
      precio: 100,
      impuesto: false,
    });
    for (const p of [a, b, c]) await assign(db(), user.id, p.id, 5);
    expect((await add(api, a.id, 1)).statusCode).toBe(200);
    const refused = await add(api, b.id, 1);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().msg).toBe(
      'Presupuesto insuficiente para la categoria Papelería, disponible: $40.00',
    );
    const noBudget = await add(api, c.id, 1);
    expect(noBudget.json().msg).toBe(
      'Presupuesto insuficiente para la categoria Limpieza, disponible: $0.00',
    );
    const session = (await api.get('/api/sesion')).json();
    expect(session.comprador.presupuesto).toMatchObject({
      tipo_presupuesto: 'categoria',
      presupuesto_total: 100,
      presupuesto_restante: 40,
    });
    const cat = session.comprador.categorias.find((x: { id: number }) => x.id === category.id);
    expect(cat).toMatchObject({
      nombre: 'Papelería',
      presupuesto: 100,
      utilizado: 0,
      restante: 40,
      productos: 2,
    });
    const res = await buy(api);
    expect(res.statusCode).toBe(201);
    expect(res.json().set_categorias).toBe(true);
    expect(res.json().categorias.find((x: { id: number }) => x.id === category.id)).toMatchObject({
      utilizado: 60,
      restante: 40,
    });
  });

  it('purchase limit per month: reached refuses the add; -1 is unlimited; cancelled orders stop counting', async () => {
    const limited = await buyer({ limite: 1 });
    const p = await makeProduct(db(), {
      idCliente: limited.client.id,
      idCategoria: limited.category.id,
      precio: 1000,
    });
    await assign(db(), limited.user.id, p.id);
    await add(limited.api, p.id, 1);
    const first = await buy(limited.api);
    expect(first.statusCode).toBe(201);
    expect(first.json().presupuesto.cantidad_de_compras).toBe(1);
    const refused = await add(limited.api, p.id, 1);
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({ code: 'PURCHASE_LIMIT', msg: MSG.limiteDeCompras });
    // Cancelled as every path that changes orders does it: out of the running month in the same transaction.
    await db().transaction(async (tx) => {
      await moveOrderTotals(tx, first.json().pedido.id, -1);
      await tx.update(orders).set({ status: 'cancelado' }).where(eq(orders.id, first.json().pedido.id));
    });
    const freed = await add(limited.api, p.id, 1);
    expect(freed.statusCode).toBe(200);
    expect(freed.json().presupuesto).toMatchObject({ cantidad_de_compras: 0, presupuesto_utilizado: 0 });

    const unlimited = await buyer({ limite: -1 });
    const q = await makeProduct(db(), {
      idCliente: unlimited.client.id,
      idCategoria: unlimited.category.id,
      precio: 1000,
    });
    await assign(db(), unlimited.user.id, q.id);
    for (let i = 0; i < 3; i++) {
      await add(unlimited.api, q.id, 1);
      expect((await buy(unlimited.api)).statusCode).toBe(201);
    }
  });

  it('purchase: snapshot lines, totals with IVA once, status by authorizer levels, cart emptied, prices current', async () => {
    const { user, client, category, api } = await buyer({
      presupuesto: 100000,
      client: { cantidadAutorizadores: 0 },
    });
    const a = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 3,
      impuesto: true,
      nombre: 'Clip',
    });
    const b = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
      impuesto: true,
      nombre: 'Tóner',
    });
    await assign(db(), user.id, a.id, 5);
    await assign(db(), user.id, b.id, 5);
    await add(api, a.id, 3);
    await add(api, b.id, 1);
    // The price changes between add and purchase: the order uses the new price.
    await db().update(products).set({ precio: 12000 }).where(eq(products.id, b.id));
    const res = await buy(api);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.msg).toBe(MSG.compraEnviada);
    expect(body.pedido).toMatchObject({ status: 'aprobado', productos: 2, total: 139.3 });
    expect(body.transacciones.pedidos[0].id).toBe(body.pedido.id);
    const [order] = await db().select().from(orders).where(eq(orders.id, body.pedido.id));
    // subtotal 120.09; IVA once: 19.2144 -> 19.21 (per line it would be 0.00 + 19.20)
    expect(order).toMatchObject({ subtotal: 12009, iva: 1921, total: 13930, status: 'aprobado' });
    const lines = await db().select().from(orderLines).where(eq(orderLines.orderId, order!.id));
    expect(lines.find((l) => l.productId === b.id)).toMatchObject({
      precio: 12000,
      nombre: 'Tóner',
      cantidad: 1,
      categoria: 'Papelería',
    });
    expect(await db().select().from(cartItems).where(eq(cartItems.userId, user.id))).toHaveLength(0);
    // Later product edits never change an existing order.
    await db().update(products).set({ nombre: 'Tóner nuevo', precio: 99999 }).where(eq(products.id, b.id));
    const detail = (await api.get(`/api/historial/${order!.id}`)).json().pedido;
    expect(detail).toMatchObject({ subtotal: 120.09, iva: 19.21, total: 139.3, status: 'aprobado' });
    expect(detail.lineas.find((l: { id_producto: number }) => l.id_producto === b.id)).toMatchObject({
      nombre: 'Tóner',
      costo: 120,
    });
    expect(detail.eventos[0]).toMatchObject({ tipo: 'creado', a: 'aprobado' });

    const pending = await buyer({ client: { cantidadAutorizadores: 1 } });
    const c = await makeProduct(db(), {
      idCliente: pending.client.id,
      idCategoria: pending.category.id,
      precio: 500,
    });
    await assign(db(), pending.user.id, c.id);
    await add(pending.api, c.id, 1);
    expect((await buy(pending.api)).json().pedido.status).toBe('pendiente');
  });

  it('purchase refused when a price rise goes over budget, or the cart changed elsewhere (409); nothing created', async () => {
    const { user, client, category, api } = await buyer({ presupuesto: 20000 });
    const p = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
      impuesto: false,
    });
    await assign(db(), user.id, p.id, 3);
    await add(api, p.id, 2);
    const stale = [{ id: p.id, cantidad: 1 }];
    const changed = await api.post('/api/compra', { orden: stale, fecha: '2026-01-01' });
    expect(changed.statusCode).toBe(409);
    expect(changed.json()).toMatchObject({ code: 'CART_CHANGED', msg: MSG.carritoCambio });
    await db().update(products).set({ precio: 10001 }).where(eq(products.id, p.id));
    const over = await buy(api);
    expect(over.statusCode).toBe(422);
    expect(over.json().msg).toBe(MSG.presupuestoInsuficienteCompra);
    expect(await db().select().from(orders).where(eq(orders.idUser, user.id))).toHaveLength(0);
    expect(await db().select().from(cartItems).where(eq(cartItems.userId, user.id))).toHaveLength(1);
    const empty = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    await empty.post('/api/carrito/vaciar_carrito');
    const none = await empty.post('/api/compra', { orden: [] });
    expect(none.statusCode).toBe(409);
    expect(none.json().msg).toBe(MSG.carritoVacio);
  });

  it('outside the access week, or deactivated, a session cannot add or buy; other roles cannot use the cart', async () => {
    const today = businessDate(new Date());
    const { user, client, category, api } = await buyer();
    const week = await makeWeek(db(), {
      idCliente: client.id,
      inicio: addDays(today, -1),
      fin: addDays(today, 3),
    });
    const p = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 1000 });
    await assign(db(), user.id, p.id);
    expect((await add(api, p.id, 1)).statusCode).toBe(200);
    await db().update(weeks).set({ activo: false }).where(eq(weeks.id, week.id));
    const outside = await add(api, p.id, 1);
    expect(outside.statusCode).toBe(403);
    expect(outside.json().code).toBe('OUTSIDE_WEEK');
    await db().update(weeks).set({ activo: true }).where(eq(weeks.id, week.id));
    const back = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    await db().update(users).set({ activo: false }).where(eq(users.id, user.id));
    const inactive = await back.post('/api/compra', { orden: [{ id: p.id, cantidad: 1 }] });
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json().code).toBe('USER_INACTIVE');
    await db().update(users).set({ activo: true }).where(eq(users.id, user.id));
    const again = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
    await db().update(clients).set({ activo: false }).where(eq(clients.id, client.id));
    expect((await add(again, p.id, 1)).json().code).toBe('CLIENT_INACTIVE');

    const c2 = await makeClient(db());
    const authorizer = await makeUser(db(), { rol: 2, idCliente: c2.id });
    const auth = await new ApiClient(t.app).loginOk(authorizer.usuario, TEST_PASSWORD);
    expect((await auth.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } })).statusCode).toBe(
      403,
    );
    expect((await auth.get('/api/historial')).statusCode).toBe(403);
  });

  it('history: newest first, 10 per page from the server; another user order is 404', async () => {
    const { user, client, category, api } = await buyer();
    const p = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 100 });
    await assign(db(), user.id, p.id);
    const ids: number[] = [];
    for (let i = 0; i < 12; i++) {
      await add(api, p.id, 1);
      ids.push((await buy(api)).json().pedido.id);
    }
    const page1 = (await api.get('/api/historial?page=1')).json();
    expect(page1).toMatchObject({ total: 12, page: 1, per_page: 10 });
    expect(page1.pedidos.map((o: { id: number }) => o.id)).toEqual([...ids].reverse().slice(0, 10));
    expect(page1.pedidos[0]).toMatchObject({ productos: 1, total: 1.16, status: 'pendiente' });
    const page2 = (await api.get('/api/historial?page=2')).json();
    expect(page2.pedidos.map((o: { id: number }) => o.id)).toEqual([ids[1], ids[0]]);
    const other = await buyer();
    const foreign = await other.api.get(`/api/historial/${ids[0]}`);
    expect(foreign.statusCode).toBe(404);
    expect((await api.get('/api/historial/999999')).statusCode).toBe(404);
    expect((await api.get('/api/historial/abc')).statusCode).toBe(400);
  });

  it('concurrency: 20 simultaneous adds of different products never exceed the budget', async () => {
    const { user, client, category, api } = await buyer({ presupuesto: 100000 });
    const list = [];
    for (let i = 0; i < 20; i++) {
      const p = await makeProduct(db(), {
        idCliente: client.id,
        idCategoria: category.id,
        precio: 10000,
        impuesto: false,
      });
      await assign(db(), user.id, p.id);
      list.push(p);
    }
    const results = await Promise.all(list.map((p) => add(api, p.id, 1)));
    const accepted = results.filter((r) => r.statusCode === 200);
    const refused = results.filter((r) => r.statusCode === 422);
    expect(accepted).toHaveLength(10);
    expect(refused).toHaveLength(10);
    for (const r of refused) expect(r.json().msg).toBe(MSG.presupuestoAgregar);
    const cart = await db().select().from(cartItems).where(eq(cartItems.userId, user.id));
    expect(cart).toHaveLength(10);
  });

  it('concurrency: 20 simultaneous purchases of the same cart make exactly one order and an empty cart', async () => {
    const { user, client, category, api } = await buyer();
    const p = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 2500 });
    await assign(db(), user.id, p.id, 5);
    await add(api, p.id, 2);
    const body = { orden: await orden(api), fecha: businessDate(new Date()) };
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post('/api/compra', body)));
    expect(results.filter((r) => r.statusCode === 201)).toHaveLength(1);
    expect(results.filter((r) => r.statusCode === 409)).toHaveLength(19);
    expect(await db().select().from(orders).where(eq(orders.idUser, user.id))).toHaveLength(1);
    expect(
      await db()
        .select()
        .from(cartItems)
        .where(and(eq(cartItems.userId, user.id))),
    ).toHaveLength(0);
  });
});
