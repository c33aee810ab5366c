/**
 * Áreas (cost centres) and top-ups (decision 0123): an order spends the buyer's budget and the área's; the
 * área is locked after the buyer, so concurrent purchases of two buyers of one área never overspend it; an
 * approval rechecks it; a top-up approved by the área's responsible approver raises that month's budget
 * only; a transfer never leaves an área below what it spent. On both databases.
 */

import { monthName } from '@portal/shared/domain/months';
import { businessMonth } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { areaSpendDrift, spendDrift } from '../../db/order-totals.ts';
import { areas, budgetAdjustments, emailOutbox, orders, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { clientWithAdmin, nextIp } from '../../test/client-admin.ts';
import { assign, makeClient, makeUser, TEST_PASSWORD, uniq } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('áreas and top-ups (%s)', (kind) => {
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

  /**
   * A client (one authorization level) with a buyer (budget $5,000) signed in, an área 'Mantenimiento' of
   * `presupuesto` pesos whose responsible approver is a signed-in rol 2, the buyer in it, and a $100
   * product assigned (up to 50).
   */
  async function world(presupuesto = 300) {
    const b = await makeBuyer(t, { client: { cantidadAutorizadores: 1 } });
    const responsable = await makeUser(db(), { rol: 2, idCliente: b.client.id, nombre: 'Rita Responsable' });
    const r2 = await new ApiClient(t.app, nextIp()).loginOk(responsable.usuario, TEST_PASSWORD);
    const created = await distributor.post('/api/areas', {
      id_cliente: b.client.id,
      nombre: 'Mantenimiento',
      codigo: 'MANT',
      cuenta_contable: '6100-01',
      presupuesto,
      id_responsable: responsable.id,
    });
    expect(created.statusCode, created.body).toBe(201);
    const area = created.json().area as { id: number };
    await db().update(users).set({ idArea: area.id }).where(eq(users.id, b.user.id));
    const product = await b.product(10_000);
    await assign(db(), b.user.id, product.id, 50);
    /** Another buyer of the same área, signed in. */
    const colleague = async () => {
      const u = await makeUser(db(), {
        rol: 1,
        idCliente: b.client.id,
        presupuestoDefault: 500_000,
        idArea: area.id,
      });
      await assign(db(), u.id, product.id, 50);
      const api = await new ApiClient(t.app, nextIp()).loginOk(u.usuario, TEST_PASSWORD);
      return { user: u, api };
    };
    return { ...b, responsable, r2, area, product, colleague };
  }

  const buy = async (api: ApiClient, id: number, cantidad: number) => {
    const add = await api.post('/api/carrito/nuevo_item', { item: { id, cantidad } });
    if (add.statusCode !== 200) return add;
    return api.post('/api/compra', { orden: [{ id, cantidad }] });
  };

  it('the cart shows the área, a cart over it is refused, the purchase charges it', async () => {
    const w = await world(300);
    const cart = await w.api.get('/api/carrito');
    expect(cart.json().presupuesto.area).toEqual({
      id: w.area.id,
      nombre: 'Mantenimiento',
      codigo: 'MANT',
      presupuesto: 300,
      utilizado: 0,
      restante: 300,
    });
    // $400 of the área's $300: refused with what is left.
    const over = await w.api.post('/api/carrito/nuevo_item', { item: { id: w.product.id, cantidad: 4 } });
    expect(over.statusCode).toBe(422);
    expect(over.json()).toMatchObject({
      code: 'AREA_BUDGET',
      msg: MSG.presupuestoAreaCarrito('Mantenimiento', '$300.00'),
    });
    const bought = await buy(w.api, w.product.id, 2);
    expect(bought.statusCode, bought.body).toBe(201);
    expect(bought.json().presupuesto.area).toMatchObject({ utilizado: 200, restante: 100 });
    const [order] = await db().select().from(orders).where(eq(orders.idUser, w.user.id));
    expect(order!.idArea).toBe(w.area.id);
    // A colleague of the área finds $100 left: $200 is refused at purchase even if the cart was accepted
    // before the first purchase.
    const c = await w.colleague();
    expect((await buy(c.api, w.product.id, 2)).json()).toMatchObject({ code: 'AREA_BUDGET' });
    const listed = await distributor.get(`/api/areas?id_cliente=${w.client.id}`);
    expect(listed.json().areas).toEqual([
      expect.objectContaining({
        codigo: 'MANT',
        cuenta_contable: '6100-01',
        responsable: { id: w.responsable.id, nombre: 'Rita Responsable' },
        usuarios: 2,
        presupuesto_mes: 300,
        utilizado: 200,
        restante: 100,
      }),
    ]);
    // A cancellation gives the área its money back at once.
    expect((await w.r2.post(`/api/cancelar/compra/${order!.id}`, {})).statusCode).toBe(200);
    expect((await buy(c.api, w.product.id, 3)).statusCode).toBe(201);
    expect(await areaSpendDrift(db())).toEqual([]);
    expect(await spendDrift(db())).toEqual([]);
  });

  it('the área’s responsible approver is told once when the área reaches a threshold', async () => {
    const w = await world(250);
    const subject = (n: number) =>
      MSG.presupuestoAreaUsado('Mantenimiento', n, monthName(businessMonth(t.app.clock.now()).key));
    const sent = async () =>
      (
        await db()
          .select({ subject: emailOutbox.subject })
          .from(emailOutbox)
          .where(eq(emailOutbox.to, w.responsable.email))
          .orderBy(emailOutbox.id)
      )
        .map((e) => e.subject)
        .filter((x) => x.startsWith('El área'));
    // $200 of $250: 80%.
    expect((await buy(w.api, w.product.id, 2)).statusCode).toBe(201);
    expect(await sent()).toEqual([subject(80)]);
    const c = await w.colleague();
    // The área grows to $300 and a colleague spends $100: 100%, sent once.
    await db().update(areas).set({ presupuesto: 30_000 }).where(eq(areas.id, w.area.id));
    expect((await buy(c.api, w.product.id, 1)).statusCode).toBe(201);
    expect(await sent()).toEqual([subject(80), subject(100)]);
  });

  it('race: buyers of one área buying at once never overspend it', async () => {
    const w = await world(500);
    const buyers = [await w.colleague(), await w.colleague(), await w.colleague(), await w.colleague()];
    // Each cart ($200) fits alone; together they are $800 of $500.
    for (const b of buyers)
      expect(
        (await b.api.post('/api/carrito/nuevo_item', { item: { id: w.product.id, cantidad: 2 } })).statusCode,
      ).toBe(200);
    const results = await Promise.all(
      buyers.map((b) => b.api.post('/api/compra', { orden: [{ id: w.product.id, cantidad: 2 }] })),
    );
    const statuses = results.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([201, 201, 422, 422]);
    for (const r of results.filter((x) => x.statusCode === 422))
      expect(r.json()).toMatchObject({ code: 'AREA_BUDGET' });
    expect(await areaSpendDrift(db())).toEqual([]);
  });

  it('an approval rechecks the área; the review screen shows it', async () => {
    const w = await world(300);
    expect((await buy(w.api, w.product.id, 2)).statusCode).toBe(201);
    const [order] = await db().select().from(orders).where(eq(orders.idUser, w.user.id));
    const view = await w.r2.get(`/api/pedidos/${order!.id}`);
    expect(view.json().presupuesto.area).toMatchObject({ codigo: 'MANT', utilizado: 0, restante: 100 });
    // The área's budget is lowered below the order: the approval is refused, naming the área.
    await db().update(areas).set({ presupuesto: 15_000 }).where(eq(areas.id, w.area.id));
    const refused = await w.r2.post('/api/update/compra', {
      id: order!.id,
      orden: [{ id: w.product.id, cantidad: 2 }],
    });
    expect(refused.statusCode).toBe(422);
    expect(refused.json()).toMatchObject({
      code: 'AREA_BUDGET',
      msg: MSG.presupuestoAreaAutorizador('Mantenimiento'),
    });
    // An edit that fits ($100) is approved.
    const edited = await w.r2.post('/api/update/compra', {
      id: order!.id,
      orden: [{ id: w.product.id, cantidad: 1 }],
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(await areaSpendDrift(db())).toEqual([]);
  });

  it('top-ups: asked from a refusal, decided by the área’s responsible approver, raise that month only', async () => {
    const w = await world(100);
    expect((await buy(w.api, w.product.id, 2)).json()).toMatchObject({ code: 'AREA_BUDGET' });
    const bad = await w.api.post('/api/ampliaciones', { destino: 'area', importe: 0, motivo: '' });
    expect(bad.statusCode).toBe(400);
    const asked = await w.api.post('/api/ampliaciones', {
      destino: 'area',
      importe: 150,
      motivo: 'Refacciones de la bomba',
    });
    expect(asked.statusCode, asked.body).toBe(201);
    const id = asked.json().ampliacion.id as number;
    // The área's responsible approver hears of it.
    const told = await db()
      .select({ subject: emailOutbox.subject, text: emailOutbox.text })
      .from(emailOutbox)
      .where(eq(emailOutbox.to, w.responsable.email));
    expect(told.map((e) => e.subject)).toEqual([MSG.ampliacionPorDecidir(w.user.nombre, '$150.00 MXN')]);
    expect(asked.json().ampliacion).toMatchObject({
      area: { id: w.area.id, codigo: 'MANT' },
      estado: 'pendiente',
      puede_decidir: false,
    });
    // The distributor finds it under its client (`id_cliente`), and on its overview's waiting top-ups.
    const ofClient = await distributor.get(`/api/ampliaciones?estado=pendiente&id_cliente=${w.client.id}`);
    expect(ofClient.json()).toMatchObject({
      total: 1,
      ampliaciones: [expect.objectContaining({ id, puede_decidir: true })],
    });
    const ofAnother = await distributor.get(`/api/ampliaciones?id_cliente=${(await makeClient(db())).id}`);
    expect(ofAnother.json()).toMatchObject({ total: 0, ampliaciones: [] });
    expect((await distributor.get('/api/ampliaciones?id_cliente=cero')).statusCode).toBe(400);
    const waiting = async () => (await distributor.get('/api/admin/resumen')).json().ampliaciones_pendientes;
    expect((await waiting()).clientes).toContainEqual({
      id: w.client.id,
      nombre: w.client.nombre,
      pendientes: 1,
    });
    // One pending request per budget.
    expect(
      (await w.api.post('/api/ampliaciones', { destino: 'area', importe: 10, motivo: 'Otra' })).statusCode,
    ).toBe(409);
    // The buyer cannot decide; an approver who is not responsible for the área does not see it.
    expect((await w.api.post(`/api/ampliaciones/${id}/aprobar`, {})).statusCode).toBe(403);
    const other = await makeUser(db(), { rol: 2, idCliente: w.client.id });
    const o2 = await new ApiClient(t.app, nextIp()).loginOk(other.usuario, TEST_PASSWORD);
    expect((await o2.get('/api/ampliaciones')).json().ampliaciones).toEqual([]);
    expect((await o2.post(`/api/ampliaciones/${id}/aprobar`, {})).statusCode).toBe(404);
    // Another client's administrator: missing.
    const stranger = await clientWithAdmin(t, { permisosCliente: ['presupuestos'] });
    expect((await stranger.api.post(`/api/ampliaciones/${id}/aprobar`, {})).statusCode).toBe(404);
    // The responsible approver sees it and may decide it; two decisions at once: one wins, one is 409.
    const queue = await w.r2.get('/api/ampliaciones?estado=pendiente');
    expect(queue.json().ampliaciones).toEqual([expect.objectContaining({ id, puede_decidir: true })]);
    const [a, b] = await Promise.all([
      w.r2.post(`/api/ampliaciones/${id}/aprobar`, {}),
      w.r2.post(`/api/ampliaciones/${id}/rechazar`, {}),
    ]);
    const statuses = [a.statusCode, b.statusCode].sort();
    expect(statuses).toEqual([200, 409]);
    const approved = a.statusCode === 200;
    const adjustments = await db()
      .select()
      .from(budgetAdjustments)
      .where(eq(budgetAdjustments.idArea, w.area.id));
    expect(adjustments.map((x) => x.importe)).toEqual(approved ? [15_000] : []);
    expect((await waiting()).clientes.map((c: { id: number }) => c.id)).not.toContain(w.client.id);
    const cart = await w.api.get('/api/carrito');
    expect(cart.json().presupuesto.area.presupuesto).toBe(approved ? 250 : 100);
    if (approved) expect((await buy(w.api, w.product.id, 2)).statusCode).toBe(201);
  });

  it('the spend dashboard lists the client’s áreas by name, with the month’s budget and spend', async () => {
    const w = await world(300);
    const second = await distributor.post('/api/areas', {
      id_cliente: w.client.id,
      nombre: 'almacén',
      codigo: 'ALM',
      cuenta_contable: '6100-02',
      presupuesto: 1000,
      id_responsable: w.responsable.id,
    });
    expect(second.statusCode, second.body).toBe(201);
    expect((await buy(w.api, w.product.id, 2)).statusCode).toBe(201);
    const res = await w.r2.get('/api/tablero');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().por_area).toEqual([
      { id: second.json().area.id, nombre: 'almacén', codigo: 'ALM', presupuesto: 1000, utilizado: 0 },
      { id: w.area.id, nombre: 'Mantenimiento', codigo: 'MANT', presupuesto: 300, utilizado: 200 },
    ]);
  });

  it('a top-up of the buyer’s own budget, decided by a super authorizer', async () => {
    const b = await makeBuyer(t, { presupuesto: 10_000, client: { cantidadAutorizadores: 1 } });
    const p = await b.product(10_000);
    await assign(db(), b.user.id, p.id, 5);
    // An área top-up without an área is refused on its field.
    const noArea = await b.api.post('/api/ampliaciones', { destino: 'area', importe: 50, motivo: 'x' });
    expect(noArea.json()).toMatchObject({ msg: MSG.ampliacionSinArea });
    const asked = await b.api.post('/api/ampliaciones', {
      destino: 'usuario',
      importe: 100,
      motivo: 'Papel',
    });
    expect(asked.statusCode).toBe(201);
    const super3 = await makeUser(db(), { rol: 3, idCliente: b.client.id });
    const r3 = await new ApiClient(t.app, nextIp()).loginOk(super3.usuario, TEST_PASSWORD);
    const ok = await r3.post(`/api/ampliaciones/${asked.json().ampliacion.id}/aprobar`, { respuesta: 'Va' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().ampliacion).toMatchObject({ estado: 'aprobada', respuesta: 'Va' });
    const cart = await b.api.get('/api/carrito');
    expect(cart.json().presupuesto).toMatchObject({ presupuesto_total: 200, ampliaciones: 100 });
    const bought = await buy(b.api, p.id, 2);
    expect(bought.statusCode).toBe(201);
    // The approver's list counts the top-up too: the order fits, with nothing left after it.
    const list = await r3.get('/api/pedidos?status=todos&page=1');
    const row = list.json().pedidos.find((o: { id: number }) => o.id === bought.json().pedido.id);
    expect(row).toMatchObject({ excede_presupuesto: false, restante_despues: 0 });
  });

  it('transfers between áreas, and a client administrator’s áreas', async () => {
    const { client, api } = await clientWithAdmin(t, { permisosCliente: ['usuarios', 'presupuestos'] });
    const mk = async (nombre: string, codigo: string, presupuesto: number) => {
      const res = await api.post('/api/areas', { nombre, codigo, presupuesto });
      expect(res.statusCode, res.body).toBe(201);
      return res.json().area.id as number;
    };
    const a = await mk('Almacén', 'ALM', 1000);
    const m = await mk('Mantenimiento', 'MANT', 500);
    // Duplicate code (any case), bad code, missing name, another client's responsible.
    expect((await api.post('/api/areas', { nombre: 'Otra', codigo: 'alm', presupuesto: 1 })).statusCode).toBe(
      409,
    );
    expect(
      (await api.post('/api/areas', { nombre: 'Otra', codigo: 'A B', presupuesto: 1 })).json(),
    ).toMatchObject({
      msg: MSG.areaCodigoInvalido,
    });
    expect((await api.post('/api/areas', { codigo: 'X', presupuesto: 1 })).statusCode).toBe(400);
    const foreign = await makeUser(db(), { rol: 2, idCliente: (await makeClient(db())).id });
    expect(
      (
        await api.post('/api/areas', {
          nombre: 'Otra',
          codigo: 'OT',
          presupuesto: 1,
          id_responsable: foreign.id,
        })
      ).json(),
    ).toMatchObject({ msg: MSG.areaResponsableInvalido });
    // A transfer: never more than the giving área has left; never to itself.
    expect((await api.post('/api/areas/transferencias', { de: a, a: a, importe: 1 })).statusCode).toBe(400);
    const tooMuch = await api.post('/api/areas/transferencias', { de: m, a, importe: 500.01 });
    expect(tooMuch.json()).toMatchObject({
      code: 'TRANSFER_EXCEEDS',
      msg: MSG.transferenciaExcede('Mantenimiento', '$500.00'),
    });
    const moved = await api.post('/api/areas/transferencias', { de: a, a: m, importe: 250, motivo: 'Paro' });
    expect(moved.statusCode, moved.body).toBe(200);
    const byCode = Object.fromEntries(
      (moved.json().areas as { codigo: string; presupuesto_mes: number; ampliaciones: number }[]).map((x) => [
        x.codigo,
        [x.presupuesto_mes, x.ampliaciones],
      ]),
    );
    expect(byCode).toEqual({ ALM: [750, -250], MANT: [750, 250] });
    // Another client's área is missing to this administrator; the distributor reaches it.
    const elsewhere = await distributor.post('/api/areas', {
      id_cliente: (await makeClient(db())).id,
      nombre: 'Ajena',
      codigo: 'AJ',
      presupuesto: 10,
    });
    const ajena = elsewhere.json().area.id as number;
    expect(
      (await api.put(`/api/areas/${ajena}`, { nombre: 'X', codigo: 'X', presupuesto: 1 })).statusCode,
    ).toBe(404);
    expect((await api.post('/api/areas/transferencias', { de: a, a: ajena, importe: 1 })).statusCode).toBe(
      404,
    );
    expect((await api.get(`/api/areas?id_cliente=${(await makeClient(db())).id}`)).statusCode).toBe(404);
    // A user of the client may be put in an área of the client only.
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const put = (id_area: number) =>
      api.put(`/api/usuarios/${buyer.id}`, {
        usuario: buyer.usuario,
        user_id: 'persona@example.test',
        nombre: buyer.nombre,
        rol: 1,
        direccion_entrega: 'Av. Juárez 10',
        active_week: 1,
        entrega_week: 1,
        id_area,
      });
    expect((await put(ajena)).json()).toMatchObject({ msg: MSG.areaInvalida });
    const placed = await put(m);
    expect(placed.statusCode, placed.body).toBe(200);
    expect(placed.json().usuario.id_area).toBe(m);
    // An área with people cannot be removed; an empty one can.
    expect((await api.request('DELETE', `/api/areas/${m}`)).statusCode).toBe(409);
    expect((await api.request('DELETE', `/api/areas/${ajena}`)).statusCode).toBe(404);
    const otro = await mk('Temporal', 'TMP', 0);
    expect((await api.request('DELETE', `/api/areas/${otro}`)).statusCode).toBe(200);
    // Without the budgets permission the client administrator reads áreas but changes none.
    const limited = await clientWithAdmin(t, { permisosCliente: ['usuarios'] });
    expect((await limited.api.get('/api/areas')).statusCode).toBe(200);
    expect(
      (await limited.api.post('/api/areas', { nombre: uniq('A'), codigo: 'A1', presupuesto: 1 })).statusCode,
    ).toBe(403);
  });
});
