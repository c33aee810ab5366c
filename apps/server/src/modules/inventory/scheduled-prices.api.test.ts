import { addDays, businessDate, businessDateRange } from '@portal/shared/domain/time';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLines, orders, products, scheduledPrices, systemLogs } from '../../db/schema/index.ts';
import { manualClock } from '../../lib/clock.ts';
import { csvRow } from '../../lib/csv.ts';
import { MSG } from '../../messages.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { pricePreviewWorld } from '../../test/price-preview-fixtures.ts';
import { multipartBody, waitForImport } from '../../test/uploads.ts';
import { applyDuePrices } from './scheduled-prices.service.ts';

/**
 * Scheduled price changes (decision 0132). The server's clock is held one minute before the next business
 * midnight after the machine's own date (the calendar suite moves the machine to the dates that break date
 * arithmetic), so "tomorrow" is the date that begins at that midnight.
 */
describe.each(DB_KINDS)('scheduled price changes (%s)', (kind) => {
  const tz = 'America/Mexico_City';
  const today = businessDate(new Date(), tz);
  const tomorrow = addDays(today, 1);
  const midnight = businessDateRange(tomorrow, tomorrow, tz).start.getTime();
  const clock = manualClock(midnight - 60_000);
  let t: TestApp;
  let admin: ApiClient;
  let adminId: number;
  const db = () => t.database.db;

  beforeAll(async () => {
    t = await createTestApp(kind, { clock, env: { BUSINESS_TZ: tz } });
    const a = await makeUser(db(), { rol: 4, idCliente: null });
    adminId = a.id;
    admin = await new ApiClient(t.app).loginOk(a.usuario, TEST_PASSWORD);
  });
  afterAll(async () => t?.close());

  /** Before each case's own steps: the clock back to a minute before the midnight. */
  const beforeMidnight = () => clock.set(midnight - 60_000);
  const applyNow = () => applyDuePrices(db(), clock.now(), tz);

  async function world(precio = 10000) {
    const client = await makeClient(db(), { limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id);
    const product = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio });
    return { client, category, product };
  }
  const schedule = (id: number, body: Record<string, unknown>) =>
    admin.post(`/api/productos/${id}/precio_programado`, body);
  const pending = (productId: number) =>
    db()
      .select()
      .from(scheduledPrices)
      .where(and(eq(scheduledPrices.productId, productId), isNull(scheduledPrices.appliedAt)));
  const priceOf = async (id: number) =>
    (await db().select({ p: products.precio }).from(products).where(eq(products.id, id)))[0]!.p;

  it('the three routes: anonymous 401, roles 1 and 2 get 403', async () => {
    beforeMidnight();
    const { client, product } = await world();
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const authorizer = await makeUser(db(), { rol: 2, idCliente: client.id });
    const anon = new ApiClient(t.app);
    await anon.csrf();
    const calls: [ApiClient, number][] = [
      [anon, 401],
      [await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD), 403],
      [await new ApiClient(t.app).loginOk(authorizer.usuario, TEST_PASSWORD), 403],
    ];
    for (const [api, status] of calls) {
      const body = { id_cliente: client.id, precio: 1, vigente_desde: addDays(tomorrow, 1) };
      expect((await api.post(`/api/productos/${product.id}/precio_programado`, body)).statusCode).toBe(
        status,
      );
      expect(
        (
          await api.request(
            'DELETE',
            `/api/productos/${product.id}/precio_programado?id_cliente=${client.id}`,
          )
        ).statusCode,
      ).toBe(status);
      expect(
        (
          await api.post('/api/productos/precios/vista_previa', {
            id_cliente: client.id,
            cambios: [{ id: product.id, precio: 1 }],
          })
        ).statusCode,
      ).toBe(status);
    }
    expect(await pending(product.id)).toEqual([]);
  });

  it('the inventory list schedules a price: the current one holds, a new schedule replaces the pending one, cancel removes it', async () => {
    beforeMidnight();
    const { client, product } = await world(10000);
    const res = await schedule(product.id, { id_cliente: client.id, precio: 125.5, vigente_desde: tomorrow });
    expect(res.statusCode, res.body).toBe(200);
    const [y, m, d] = tomorrow.split('-');
    expect(res.json().msg).toBe(MSG.precioProgramado('$125.50 MXN', `${d}/${m}/${y}`));
    expect(res.json().articulo).toMatchObject({
      precio: 100,
      precio_programado: { precio: 125.5, vigente_desde: tomorrow },
    });
    expect(await priceOf(product.id)).toBe(10000);
    // The inventory list shows it on the product's row.
    const list = (await admin.get(`/api/productos?id_cliente=${client.id}`)).json();
    expect(list.productos[0].precio_programado).toEqual({ precio: 125.5, vigente_desde: tomorrow });

    // A second schedule replaces the pending change: still one row, with the new price and date.
    const later = addDays(tomorrow, 10);
    expect(
      (await schedule(product.id, { id_cliente: client.id, precio: 90, vigente_desde: later })).statusCode,
    ).toBe(200);
    const rows = await pending(product.id);
    expect(rows.map((r) => [r.precio, r.vigenteDesde, r.createdBy])).toEqual([[9000, later, adminId]]);
    const logs = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'precio_programado'), eq(systemLogs.idCliente, client.id)));
    expect(logs).toHaveLength(2);
    expect(logs[1]!.metadata).toMatchObject({ id_producto: product.id, precio: 9000, vigente_desde: later });

    const cancel = await admin.request(
      'DELETE',
      `/api/productos/${product.id}/precio_programado?id_cliente=${client.id}`,
    );
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({
      msg: MSG.precioProgramadoCancelado,
      articulo: { precio_programado: null },
    });
    expect(await pending(product.id)).toEqual([]);
    const cancelled = await db()
      .select()
      .from(systemLogs)
      .where(
        and(eq(systemLogs.eventType, 'precio_programado_cancelado'), eq(systemLogs.idCliente, client.id)),
      );
    expect(cancelled).toHaveLength(1);
    // Nothing left to cancel.
    const again = await admin.request(
      'DELETE',
      `/api/productos/${product.id}/precio_programado?id_cliente=${client.id}`,
    );
    expect(again.statusCode).toBe(404);
    expect(again.json().msg).toBe(MSG.precioProgramadoInexistente);
    // The job finds nothing to apply at midnight.
    clock.set(midnight + 30_000);
    await applyNow();
    expect(await priceOf(product.id)).toBe(10000);
  });

  it('refuses a bad or past date, a bad price, and another client’s product like a missing one', async () => {
    beforeMidnight();
    const { client, product } = await world();
    const other = await world();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ precio: 10, vigente_desde: '2027-02-30' }, 400, MSG.fechaInvalida],
      [{ precio: 10, vigente_desde: '01/01/2027' }, 400, MSG.fechaInvalida],
      [{ precio: 10 }, 400, MSG.fechaInvalida],
      [{ precio: 10, vigente_desde: today }, 400, MSG.precioProgramadoFecha],
      [{ precio: 10, vigente_desde: addDays(today, -3) }, 400, MSG.precioProgramadoFecha],
      [{ precio: -1, vigente_desde: tomorrow }, 400, MSG.invPrecioInvalido],
      [{ precio: 10.123, vigente_desde: tomorrow }, 400, MSG.invPrecioInvalido],
      [{ precio: 'diez', vigente_desde: tomorrow }, 400, MSG.invPrecioInvalido],
    ];
    for (const [body, status, msg] of cases) {
      const res = await schedule(product.id, { id_cliente: client.id, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().msg, JSON.stringify(body)).toBe(msg);
    }
    // Another client's product and a missing one: the same 404.
    const foreign = await schedule(other.product.id, {
      id_cliente: client.id,
      precio: 5,
      vigente_desde: tomorrow,
    });
    const missing = await schedule(2_000_000_000, {
      id_cliente: client.id,
      precio: 5,
      vigente_desde: tomorrow,
    });
    for (const res of [foreign, missing]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe(MSG.invProductoInexistente);
    }
    const cancelForeign = await admin.request(
      'DELETE',
      `/api/productos/${other.product.id}/precio_programado?id_cliente=${client.id}`,
    );
    expect(cancelForeign.statusCode).toBe(404);
    expect(cancelForeign.json().msg).toBe(MSG.invProductoInexistente);
    expect(await pending(product.id)).toEqual([]);
    expect(await pending(other.product.id)).toEqual([]);
  });

  it('the preview counts the carts, lists and orders waiting for approval that hold the products, and each buyer’s cart total before and after', async () => {
    beforeMidnight();
    const { client, a, b, c, aAt120bAt40 } = await pricePreviewWorld(db());
    const res = await admin.post('/api/productos/precios/vista_previa', {
      id_cliente: client.id,
      cambios: [
        { id: a.id, precio: 120 },
        { id: b.id, precio: 40 },
        // c keeps its price: it changes nothing.
        { id: c.id, precio: 20 },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(aAt120bAt40);

    // Only the unchanged product: nothing is touched.
    const none = await admin.post('/api/productos/precios/vista_previa', {
      id_cliente: client.id,
      cambios: [{ id: c.id, precio: 20 }],
    });
    expect(none.json()).toMatchObject({
      productos: 0,
      carritos: 0,
      listas: 0,
      pedidos_pendientes: 0,
      compradores: [],
    });

    // A product of another client among them: 404, like a missing one.
    const other = await world();
    for (const id of [other.product.id, 2_000_000_000]) {
      const refused = await admin.post('/api/productos/precios/vista_previa', {
        id_cliente: client.id,
        cambios: [
          { id: a.id, precio: 1 },
          { id, precio: 1 },
        ],
      });
      expect(refused.statusCode).toBe(404);
      expect(refused.json().msg).toBe(MSG.invProductoInexistente);
    }
    const bad = await admin.post('/api/productos/precios/vista_previa', {
      id_cliente: client.id,
      cambios: [{ id: a.id, precio: -5 }],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe(MSG.invPrecioInvalido);
    const empty = await admin.post('/api/productos/precios/vista_previa', {
      id_cliente: client.id,
      cambios: [],
    });
    expect(empty.statusCode).toBe(400);
  });

  it('the job applies exactly the changes due at the business midnight, once, and a missed night’s on the next run', async () => {
    beforeMidnight();
    const { client, category } = await world();
    const p1 = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 1000 });
    const p2 = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 2000 });
    const p3 = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 3000 });
    for (const [p, precio, date] of [
      [p1, 15, tomorrow],
      [p2, 25, addDays(tomorrow, 1)],
      [p3, 35, addDays(tomorrow, 2)],
    ] as const) {
      expect((await schedule(p.id, { id_cliente: client.id, precio, vigente_desde: date })).statusCode).toBe(
        200,
      );
    }
    // A minute before midnight: nothing is due.
    await applyNow();
    expect([await priceOf(p1.id), await priceOf(p2.id), await priceOf(p3.id)]).toEqual([1000, 2000, 3000]);

    // At the midnight that begins `tomorrow`: p1 only.
    clock.set(midnight + 30_000);
    await applyNow();
    expect([await priceOf(p1.id), await priceOf(p2.id), await priceOf(p3.id)]).toEqual([1500, 2000, 3000]);
    const [applied] = await db().select().from(scheduledPrices).where(eq(scheduledPrices.productId, p1.id));
    expect(applied).toMatchObject({ precio: 1500, precioAnterior: 1000 });
    expect(applied!.appliedAt?.getTime()).toBe(midnight + 30_000);
    const logs = await db()
      .select()
      .from(systemLogs)
      .where(
        and(eq(systemLogs.eventType, 'precios_programados_aplicados'), eq(systemLogs.idCliente, client.id)),
      );
    expect(logs).toHaveLength(1);
    expect(logs[0]!.metadata).toMatchObject({
      aplicados: 1,
      cambios: [{ id_producto: p1.id, precio_anterior: 1000, precio: 1500, vigente_desde: tomorrow }],
    });
    // Run again the same night: nothing more.
    await applyNow();
    expect(await priceOf(p1.id)).toBe(1500);
    expect(
      await db()
        .select()
        .from(systemLogs)
        .where(
          and(eq(systemLogs.eventType, 'precios_programados_aplicados'), eq(systemLogs.idCliente, client.id)),
        ),
    ).toHaveLength(1);

    // The next night is missed; the run two nights on applies p2 and p3 (both due by then).
    clock.set(midnight + 2 * 86_400_000 + 3_600_000);
    await applyNow();
    expect([await priceOf(p1.id), await priceOf(p2.id), await priceOf(p3.id)]).toEqual([1500, 2500, 3500]);
    expect(await pending(p2.id)).toEqual([]);
    expect(await pending(p3.id)).toEqual([]);
  });

  it('two runs at once apply each change once', async () => {
    beforeMidnight();
    const { client, category } = await world();
    const list = [];
    for (let i = 0; i < 30; i++) {
      list.push(
        await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 1000 + i }),
      );
    }
    for (const p of list) {
      expect(
        (
          await schedule(p.id, {
            id_cliente: client.id,
            precio: 50 + p.precio / 100,
            vigente_desde: tomorrow,
          })
        ).statusCode,
      ).toBe(200);
    }
    clock.set(midnight + 60_000);
    const [a, b] = await Promise.all([applyNow(), applyNow()]);
    const ids = list.map((p) => p.id);
    const rows = await db()
      .select()
      .from(scheduledPrices)
      .where(inArray(scheduledPrices.productId, ids))
      .orderBy(asc(scheduledPrices.productId));
    // Had a change been applied twice, its previous price would read the new one.
    expect(rows.map((r) => r.precioAnterior)).toEqual(list.map((p) => p.precio));
    expect(rows.every((r) => r.appliedAt !== null)).toBe(true);
    const prices = await db()
      .select({ id: products.id, precio: products.precio })
      .from(products)
      .where(inArray(products.id, ids))
      .orderBy(asc(products.id));
    expect(prices.map((p) => p.precio)).toEqual(list.map((p) => p.precio + 5000));
    const logs = await db()
      .select()
      .from(systemLogs)
      .where(
        and(eq(systemLogs.eventType, 'precios_programados_aplicados'), eq(systemLogs.idCliente, client.id)),
      );
    const logged = logs.reduce((n, l) => n + Number((l.metadata as { aplicados: number }).aplicados), 0);
    expect(logged).toBe(30);
    expect(a + b).toBeGreaterThanOrEqual(30);
  });

  it('an order placed before the date keeps its price; the cart is valued at the new price from the date', async () => {
    beforeMidnight();
    const b = await makeBuyer(t);
    const product = await b.product(10000);
    await assign(db(), b.user.id, product.id, 10);
    expect(
      (await b.api.post('/api/carrito/nuevo_item', { item: { id: product.id, cantidad: 2 } })).statusCode,
    ).toBe(200);
    expect(
      (await schedule(product.id, { id_cliente: b.client.id, precio: 150, vigente_desde: tomorrow }))
        .statusCode,
    ).toBe(200);
    // Before the date: the cart is at the current price, and so is the order placed now.
    expect((await b.api.get('/api/carrito')).json().totales).toEqual({ subtotal: 200, iva: 0, total: 200 });
    const bought = await b.api.post('/api/compra', { orden: [{ id: product.id, cantidad: 2 }] });
    expect(bought.statusCode, bought.body).toBe(201);
    const [order] = await db().select().from(orders).where(eq(orders.idUser, b.user.id));
    expect(order!.total).toBe(20000);
    expect(
      (await b.api.post('/api/carrito/nuevo_item', { item: { id: product.id, cantidad: 3 } })).statusCode,
    ).toBe(200);
    expect((await b.api.get('/api/carrito')).json().totales).toEqual({ subtotal: 300, iva: 0, total: 300 });

    clock.set(midnight + 30_000);
    // Until the job runs, the product's own price holds.
    expect((await b.api.get('/api/carrito')).json().totales.total).toBe(300);
    await applyNow();
    expect((await b.api.get('/api/carrito')).json().totales).toEqual({ subtotal: 450, iva: 0, total: 450 });
    // The order placed before the date keeps its price and its total.
    const lines = await db().select().from(orderLines).where(eq(orderLines.orderId, order!.id));
    expect(lines.map((l) => l.precio)).toEqual([10000]);
    const [after] = await db().select().from(orders).where(eq(orders.id, order!.id));
    expect(after!.total).toBe(20000);

    // An approver's edit after the date recomputes from the order's own price, not the new one.
    const approver = await makeUser(db(), { rol: 2, idCliente: b.client.id });
    const approverApi = await new ApiClient(t.app).loginOk(approver.usuario, TEST_PASSWORD);
    const edited = await approverApi.post('/api/update/compra', {
      id: order!.id,
      orden: [{ id: product.id, cantidad: 1 }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    const [afterEdit] = await db().select().from(orders).where(eq(orders.id, order!.id));
    expect(afterEdit!.total).toBe(10000);
    const editedLines = await db().select().from(orderLines).where(eq(orderLines.orderId, order!.id));
    expect(editedLines.map((l) => [l.precio, l.cantidad])).toEqual([[10000, 1]]);
  });
  it('the products import: a vigente_desde after today schedules the price, today or before changes it now, a bad date is refused on its row', async () => {
    beforeMidnight();
    const { client, category } = await world();
    const make = (clave: string, precio: number) =>
      makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio, claveInterna: clave });
    const later = await make('V-1', 1000);
    const now = await make('V-2', 2000);
    const past = await make('V-3', 3000);
    const blank = await make('V-4', 4000);
    const [y, m, d] = tomorrow.split('-');
    const [py, pm, pd] = addDays(today, -10).split('-');
    const row = (clave: string, precio: string, fecha: string) =>
      csvRow([clave, '', `Producto ${clave}`, '', 'Pieza', precio, '1', '1', category.nombre, fecha]);
    const file =
      'Clave interna,Clave cliente,Nombre,Descripción,Unidad de medida,Precio,Impuesto,Activo,Categoría,Vigente desde\r\n' +
      row('V-1', '12.50', `${d}/${m}/${y}`) +
      row('V-2', '25.00', today.split('-').reverse().join('/')) +
      row('V-3', '35.00', `${pd}/${pm}/${py}`) +
      row('V-4', '45.00', '') +
      row('V-5', '55.00', `${Number(d)}/${Number(m)}/${y}`) +
      row('V-6', '65.00', '31/02/2027') +
      row('V-7', '75.00', 'mañana');
    const { payload, headers } = await multipartBody(
      { id_cliente: client.id },
      { file: { data: file, filename: 'precios.csv', type: 'text/csv' } },
    );
    const res = await admin.post('/api/load/productos', payload, { headers });
    expect(res.statusCode, res.body).toBe(202);
    const job = await waitForImport(db(), res.json().id_importacion);
    expect(job).toMatchObject({ status: 'terminado', okRows: 4, errorRows: 3 });
    expect(job.errors).toEqual([
      { fila: 6, campo: 'vigente_desde', motivo: MSG.impVigenteNuevo, valor: tomorrow },
      { fila: 7, campo: 'vigente_desde', motivo: MSG.impFecha, valor: '31/02/2027' },
      { fila: 8, campo: 'vigente_desde', motivo: MSG.impFecha, valor: 'mañana' },
    ]);
    // V-1 keeps its price until tomorrow; V-2 (today), V-3 (past) and V-4 (blank) change now.
    expect([
      await priceOf(later.id),
      await priceOf(now.id),
      await priceOf(past.id),
      await priceOf(blank.id),
    ]).toEqual([1000, 2500, 3500, 4500]);
    expect((await pending(later.id)).map((r) => [r.precio, r.vigenteDesde, r.createdBy])).toEqual([
      [1250, tomorrow, adminId],
    ]);
    for (const p of [now, past, blank]) expect(await pending(p.id)).toEqual([]);
    const [log] = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'importacion_terminada'), eq(systemLogs.idCliente, client.id)));
    expect(log!.metadata).toMatchObject({ precios_programados: 1 });
    clock.set(midnight + 30_000);
    await applyNow();
    expect(await priceOf(later.id)).toBe(1250);
  });
  it('the catalogue, the cart, a saved list and the approver’s order waiting for approval carry the pending change', async () => {
    beforeMidnight();
    const b = await makeBuyer(t);
    const product = await b.product(10000);
    const plain = await b.product(5000);
    await assign(db(), b.user.id, product.id, 10);
    await assign(db(), b.user.id, plain.id, 10);
    const approver = await makeUser(db(), { rol: 2, idCliente: b.client.id });
    const approverApi = await new ApiClient(t.app).loginOk(approver.usuario, TEST_PASSWORD);
    const placed = await b.order(
      [
        [product, 1],
        [plain, 1],
      ],
      'pendiente',
      true,
    );
    const approved = await b.order([[product, 1]], 'aprobado', true);
    expect(
      (await schedule(product.id, { id_cliente: b.client.id, precio: 150, vigente_desde: tomorrow }))
        .statusCode,
    ).toBe(200);
    const expected = { precio: 150, vigente_desde: tomorrow };

    const catalogue = (await b.api.get('/api/catalogo')).json();
    const byId = (rows: { id: number }[], id: number) =>
      rows.find((r) => r.id === id) as Record<string, unknown>;
    expect(byId(catalogue.productos, product.id)).toMatchObject({ precio: 100, precio_programado: expected });
    expect(byId(catalogue.productos, plain.id).precio_programado).toBeNull();

    await b.api.post('/api/carrito/nuevo_item', { item: { id: product.id, cantidad: 1 } });
    const cart = (await b.api.get('/api/carrito')).json();
    expect(byId(cart.carrito, product.id)).toMatchObject({ costo: 100, precio_programado: expected });

    const list = await b.api.post('/api/listas', {
      nombre: 'Oficina',
      items: [
        { id: product.id, cantidad: 2 },
        { id: plain.id, cantidad: 1 },
      ],
    });
    expect(list.statusCode, list.body).toBe(201);
    const detail = (await b.api.get(`/api/listas/${list.json().lista.id}`)).json();
    const items = detail.lista.items;
    expect(byId(items, product.id)).toMatchObject({ precio: 100, precio_programado: expected });
    expect(byId(items, plain.id).precio_programado).toBeNull();

    // The approver's screen of the order waiting for approval: the order's own price, and the coming one.
    const order = (await approverApi.get(`/api/pedidos/${placed.id}`)).json();
    const line = order.pedido.lineas.find((l: { id_producto: number }) => l.id_producto === product.id);
    expect(line).toMatchObject({ costo: 100, precio_programado: expected });
    // An approved order says nothing of it.
    const done = (await approverApi.get(`/api/pedidos/${approved.id}`)).json();
    expect(done.pedido.lineas[0].precio_programado).toBeNull();
  });
});
