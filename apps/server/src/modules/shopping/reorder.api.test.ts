import { reorderQuantity } from '@portal/shared/domain/reorder';
import { addDays, businessDate } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders, products, userCategoryBudgets, userProducts } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { type BuyerOptions, cartQuantities, makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeUser, makeWeek, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { generator } from '../../test/random.ts';

describe.each(DB_KINDS)('repeat an order: POST /api/historial/{id}/repetir (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;

  const buyer = (opts?: BuyerOptions) => makeBuyer(t, opts);

  const repeat = (api: ApiClient, id: number) => api.post(`/api/historial/${id}/repetir`);
  const cartOf = (userId: number) => cartQuantities(t, userId);

  it('adds every line at the current price, in order, capped by cantidad_limite minus what the cart holds', async () => {
    const { user, api, product, order } = await buyer();
    const a = await product(1000, { nombre: 'Lápiz' });
    const b = await product(2000, { nombre: 'Goma' });
    const c = await product(500, { nombre: 'Clip' });
    await assign(db(), user.id, a.id, 5);
    await assign(db(), user.id, b.id, 3);
    await assign(db(), user.id, c.id, 10);
    const placed = await order([
      [b, 2],
      [a, 4],
      [c, 1],
    ]);
    // The price changed since the order; the cart already holds 2 of b (limit 3).
    await db().update(products).set({ precio: 1500 }).where(eq(products.id, a.id));
    expect((await api.post('/api/carrito/nuevo_item', { item: { id: b.id, cantidad: 2 } })).statusCode).toBe(
      200,
    );

    const res = await repeat(api, placed.id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ok', msg: MSG.productosAgregados(3), omitidos: [] });
    expect(body.agregados).toEqual([
      { id: b.id, cantidad: 1 },
      { id: a.id, cantidad: 4 },
      { id: c.id, cantidad: 1 },
    ]);
    // b asked for 2 and got 1: the cut is reported, never silent.
    expect(body.ajustados).toEqual([
      { id: b.id, pedido: 2, agregado: 1, motivo: MSG.ajustadoPorLimite(2, 1) },
    ]);
    expect(await cartOf(user.id)).toEqual({ [a.id]: 4, [b.id]: 3, [c.id]: 1 });
    // The fresh figures, as every cart call gives them: current prices.
    expect(body.carrito.find((l: { id: number }) => l.id === a.id)).toMatchObject({ costo: 15, cantidad: 4 });
    expect(body.totales).toEqual({ subtotal: 125, iva: 0, total: 125 });
    expect(body.presupuesto).toMatchObject({ presupuesto_carrito: 125, productos_totales: 8 });
    expect(body.categorias).toHaveLength(1);

    // Again: b is at its limit, a has room for 1 of its 4, c for its 1.
    const again = (await repeat(api, placed.id)).json();
    expect(again.agregados).toEqual([
      { id: a.id, cantidad: 1 },
      { id: c.id, cantidad: 1 },
    ]);
    expect(again.ajustados).toEqual([
      { id: a.id, pedido: 4, agregado: 1, motivo: MSG.ajustadoPorLimite(4, 1) },
    ]);
    expect(again.omitidos).toEqual([
      { id: b.id, nombre: b.nombre, motivo: MSG.excedeCantidad(3), codigo: 'OVER_QUANTITY_LIMIT' },
    ]);
    expect(await cartOf(user.id)).toEqual({ [a.id]: 5, [b.id]: 3, [c.id]: 2 });
  });

  it('skips, with the reason, a product no longer assigned, inactive, or with a lowered limit; any status repeats', async () => {
    const { user, api, product, order } = await buyer();
    const gone = await product(1000, { nombre: 'Ya no asignado' });
    const off = await product(1000, { nombre: 'Desactivado' });
    const ok = await product(1000, { nombre: 'Vigente' });
    const lowered = await product(1000, { nombre: 'Límite bajado' });
    for (const p of [gone, off, ok, lowered]) await assign(db(), user.id, p.id, 5);
    const placed = await order(
      [
        [gone, 1],
        [off, 2],
        [ok, 2],
        [lowered, 4],
      ],
      'cancelado',
    );
    await db().update(userProducts).set({ asignado: false }).where(eq(userProducts.productId, gone.id));
    await db().update(products).set({ activo: false }).where(eq(products.id, off.id));
    await db().update(userProducts).set({ cantidadLimite: 2 }).where(eq(userProducts.productId, lowered.id));
    const body = (await repeat(api, placed.id)).json();
    expect(body.agregados).toEqual([
      { id: ok.id, cantidad: 2 },
      { id: lowered.id, cantidad: 2 },
    ]);
    expect(body.omitidos).toEqual([
      { id: gone.id, nombre: 'Ya no asignado', motivo: MSG.productoNoAsignado, codigo: 'NOT_ASSIGNED' },
      { id: off.id, nombre: 'Desactivado', motivo: MSG.productoInactivo, codigo: 'INACTIVE_PRODUCT' },
    ]);
    expect(await cartOf(user.id)).toEqual({ [ok.id]: 2, [lowered.id]: 2 });
  });

  it('once the budget refuses a line, later lines that do not fit are reported whole; those that fit are added', async () => {
    // 100.00 of budget, no IVA.
    const { user, api, product, order } = await buyer({ presupuesto: 10000 });
    const first = await product(6000, { nombre: 'Primero' });
    const big = await product(3000, { nombre: 'Grande' });
    const small = await product(1000, { nombre: 'Chico' });
    const after = await product(4000, { nombre: 'Después' });
    for (const p of [first, big, small, after]) await assign(db(), user.id, p.id, 5);
    // big x2 = 60.00 does not fit in the 40.00 left, though one unit would: never half-added.
    const placed = await order([
      [first, 1],
      [big, 2],
      [small, 3],
      [after, 1],
    ]);
    const body = (await repeat(api, placed.id)).json();
    expect(body.agregados).toEqual([
      { id: first.id, cantidad: 1 },
      { id: small.id, cantidad: 3 },
    ]);
    expect(body.omitidos).toEqual([
      { id: big.id, nombre: 'Grande', motivo: MSG.presupuestoAgregar, codigo: 'BUDGET' },
      { id: after.id, nombre: 'Después', motivo: MSG.presupuestoAgregar, codigo: 'BUDGET' },
    ]);
    expect(body.presupuesto).toMatchObject({ presupuesto_restante: 10, presupuesto_carrito: 90 });
    expect(await cartOf(user.id)).toEqual({ [first.id]: 1, [small.id]: 3 });
  });

  it('category budgets and the purchase limit refuse with the cart’s own messages', async () => {
    const cat = await buyer({ client: { modoPresupuesto: 'categoria' } });
    await db()
      .insert(userCategoryBudgets)
      .values({ userId: cat.user.id, categoryId: cat.category.id, presupuesto: 5000 });
    const p = await cat.product(4000, { nombre: 'Cuaderno' });
    const q = await cat.product(2000, { nombre: 'Carpeta' });
    await assign(db(), cat.user.id, p.id, 5);
    await assign(db(), cat.user.id, q.id, 5);
    const body = (
      await repeat(
        cat.api,
        (
          await cat.order([
            [p, 1],
            [q, 1],
          ])
        ).id,
      )
    ).json();
    expect(body.agregados).toEqual([{ id: p.id, cantidad: 1 }]);
    expect(body.omitidos).toEqual([
      {
        id: q.id,
        nombre: 'Carpeta',
        motivo: 'Presupuesto insuficiente para la categoria Papelería, disponible: $10.00',
        codigo: 'CATEGORY_BUDGET',
      },
    ]);

    const limited = await buyer({ limite: 1 });
    const r = await limited.product(100);
    await assign(db(), limited.user.id, r.id, 5);
    const placed = await limited.order([[r, 1]], 'pendiente', true);
    const refused = (await repeat(limited.api, placed.id)).json();
    expect(refused).toMatchObject({ msg: MSG.productosAgregados(0), agregados: [] });
    expect(refused.omitidos).toEqual([
      { id: r.id, nombre: r.nombre, motivo: MSG.limiteDeCompras, codigo: 'PURCHASE_LIMIT' },
    ]);
    expect(await cartOf(limited.user.id)).toEqual({});
  });

  it('another user’s order is 404 like a missing one; bad ids 400; outside the week or another role refused; XSRF required', async () => {
    const mine = await buyer();
    const p = await mine.product(100);
    await assign(db(), mine.user.id, p.id, 5);
    const placed = await mine.order([[p, 1]]);
    const other = await buyer();
    const foreign = await repeat(other.api, placed.id);
    const missing = await repeat(other.api, 2147483647);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json()).toEqual(missing.json());
    expect(foreign.json()).toMatchObject({ code: 'ORDER_NOT_FOUND', msg: MSG.pedidoNoEncontrado });
    for (const bad of ['abc', '0', '-1', '1.5'])
      expect((await repeat(mine.api, bad as never)).statusCode).toBe(400);
    const noXsrf = await mine.api.request('POST', `/api/historial/${placed.id}/repetir`, undefined, {
      xsrf: null,
    });
    expect(noXsrf.statusCode).toBe(419);

    const authorizer = await makeUser(db(), { rol: 2, idCliente: mine.client.id });
    const auth = await new ApiClient(t.app).loginOk(authorizer.usuario, TEST_PASSWORD);
    expect((await repeat(auth, placed.id)).statusCode).toBe(403);

    const today = businessDate(new Date());
    await makeWeek(db(), { idCliente: mine.client.id, inicio: addDays(today, 5), fin: addDays(today, 9) });
    const outside = await repeat(mine.api, placed.id);
    expect(outside.statusCode).toBe(403);
    expect(outside.json()).toMatchObject({ code: 'OUTSIDE_WEEK', msg: MSG.fueraDeSemana });
    expect(await cartOf(mine.user.id)).toEqual({});
  });

  it('concurrency: a purchase and a repeat at once never pass the purchase limit', async () => {
    for (let round = 0; round < 3; round++) {
      const { user, api, product, order } = await buyer({ limite: 1 });
      const p = await product(100);
      await assign(db(), user.id, p.id, 5);
      const old = await order([[p, 2]]);
      await api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } });
      const [bought, repeated] = await Promise.all([
        api.post('/api/compra', { orden: [{ id: p.id, cantidad: 1 }] }),
        repeat(api, old.id),
      ]);
      expect(repeated.statusCode, repeated.body).toBe(200);
      const placed = (await db().select().from(orders).where(eq(orders.idUser, user.id))).filter(
        (o) => o.id !== old.id,
      );
      if (bought.statusCode === 201) {
        // The purchase went first: the repeat found the limit reached and added nothing.
        expect(placed).toHaveLength(1);
        expect(repeated.json().omitidos.map((o: { codigo: string }) => o.codigo)).toEqual(['PURCHASE_LIMIT']);
        expect(await cartOf(user.id)).toEqual({});
      } else {
        // The repeat went first: the cart changed, so the purchase was refused and nothing was placed.
        expect(bought.statusCode).toBe(409);
        expect(placed).toHaveLength(0);
        expect(await cartOf(user.id)).toEqual({ [p.id]: 3 });
      }
    }
  });

  it('concurrency: two tabs repeating at once never pass a cantidad_limite or the budget', async () => {
    // 100.00 of budget; each repeat asks for 60.00 of a and 3 of b (limit 4).
    const { user, api, product, order } = await buyer({ presupuesto: 10000 });
    const a = await product(6000);
    const b = await product(100);
    await assign(db(), user.id, a.id, 5);
    await assign(db(), user.id, b.id, 4);
    const placed = await order([
      [a, 1],
      [b, 3],
    ]);
    const second = await new ApiClient(t.app, '10.0.0.2').loginOk(user.usuario, TEST_PASSWORD);
    const results = await Promise.all([
      repeat(api, placed.id),
      repeat(second, placed.id),
      repeat(api, placed.id),
    ]);
    for (const r of results) expect(r.statusCode, r.body).toBe(200);
    const cart = await cartOf(user.id);
    expect(cart).toEqual({ [a.id]: 1, [b.id]: 4 });
    const added = results.flatMap((r) => r.json().agregados as { id: number; cantidad: number }[]);
    expect(added.filter((x) => x.id === a.id)).toEqual([{ id: a.id, cantidad: 1 }]);
    expect(added.filter((x) => x.id === b.id).reduce((n, x) => n + x.cantidad, 0)).toBe(4);
  });

  it('random orders: the repeat decides every line as POST /api/carrito/nuevo_item one by one would, and answers a fresh read', async () => {
    // A twin buyer of the same client, cart and budget adds the same lines one request at a time: the repeat
    // (one read, each line decided on the cart the earlier lines left, one write) must end with the same
    // cart and refuse the same lines with the same reasons; its figures must be those GET /api/carrito gives.
    for (let seed = 1; seed <= 8; seed++) {
      const rnd = generator(seed);
      const modo = seed % 3 === 0 ? 'categoria' : 'regular';
      const presupuesto = 30_000 + rnd.int(80_000);
      const limite = seed === 5 ? 0 : -1;
      const b = await buyer({ presupuesto, limite, client: { modoPresupuesto: modo } });
      const twin = await makeUser(db(), {
        rol: 1,
        idCliente: b.client.id,
        presupuestoDefault: presupuesto,
        limiteDeCompras: limite,
      });
      const twinApi = await new ApiClient(t.app, '10.0.0.3').loginOk(twin.usuario, TEST_PASSWORD);
      const porCategoria = 10_000 + rnd.int(30_000);
      if (modo === 'categoria')
        for (const u of [b.user.id, twin.id])
          await db()
            .insert(userCategoryBudgets)
            .values({ userId: u, categoryId: b.category.id, presupuesto: porCategoria });
      const limits = new Map<number, number>();
      const catalogue: (typeof products.$inferSelect)[] = [];
      for (let i = 0; i < 7; i++) {
        const p = await b.product(300 + rnd.int(9_000), { impuesto: rnd.next() < 0.5, activo: i !== 5 });
        catalogue.push(p);
        // One product is not assigned (its limit reads as 1); the others with limits 2 to 6.
        const limit = 2 + rnd.int(5);
        limits.set(p.id, i === 6 ? 1 : limit);
        if (i !== 6) for (const u of [b.user.id, twin.id]) await assign(db(), u, p.id, limit);
      }
      // The same cart for both, through the cart's route.
      for (let i = rnd.int(4); i > 0; i--) {
        const p = rnd.pick(catalogue.slice(0, 5));
        const item = { item: { id: p.id, cantidad: 1 + rnd.int(limits.get(p.id)!) } };
        const [x, y] = [
          await b.api.post('/api/carrito/nuevo_item', item),
          await twinApi.post('/api/carrito/nuevo_item', item),
        ];
        expect(x.statusCode).toBe(y.statusCode);
      }
      // An order of 8 lines, a product possibly twice.
      const lines = Array.from(
        { length: 8 },
        () => [rnd.pick(catalogue), 1 + rnd.int(3)] as [typeof products.$inferSelect, number],
      );
      const placed = await b.order(lines, 'aprobado');

      const res = await repeat(b.api, placed.id);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json();

      const agregados: { id: number; cantidad: number }[] = [];
      const omitidos: { id: number; nombre: string; motivo: string; codigo: string }[] = [];
      for (const [p, cantidad] of lines) {
        const enCarrito = (await cartOf(twin.id))[p.id] ?? 0;
        const wanted = reorderQuantity(cantidad, enCarrito, limits.get(p.id)!);
        const one = await twinApi.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: wanted } });
        if (one.statusCode === 200) agregados.push({ id: p.id, cantidad: wanted - enCarrito });
        else {
          expect([404, 422], one.body).toContain(one.statusCode);
          omitidos.push({ id: p.id, nombre: p.nombre, motivo: one.json().msg, codigo: one.json().code });
        }
      }
      expect({ seed, agregados: body.agregados, omitidos: body.omitidos }).toEqual({
        seed,
        agregados,
        omitidos,
      });
      expect(await cartOf(b.user.id)).toEqual(await cartOf(twin.id));
      const fresh = (await b.api.get('/api/carrito')).json();
      for (const key of ['carrito', 'totales', 'presupuesto', 'categorias'] as const)
        expect({ seed, key, value: body[key] }).toEqual({ seed, key, value: fresh[key] });
    }
  });
});
