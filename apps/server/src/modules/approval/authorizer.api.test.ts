import { businessDate } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orderLines, orders, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { startSmtp } from '../../test/smtp.ts';

/** The rows of a CSV report, without its byte-order mark and final line break. */
const csvRows = (body: string) =>
  body
    .replace(/^\uFEFF/, '')
    .trimEnd()
    .split('\r\n');

describe.each(DB_KINDS)('authorization: orders, workflow, reports, e-mails (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;

  /** A client with buyer, rol 2 and rol 3 signed in, and products assigned to the buyer. */
  async function world(opts: { levels?: number; presupuesto?: number } = {}) {
    const tag = uniq('w');
    const client = await makeClient(db(), { cantidadAutorizadores: opts.levels ?? 2, limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      presupuestoDefault: opts.presupuesto ?? 100000,
      limiteDeCompras: -1,
      nombre: 'Beto Comprador',
      email: `${tag}-comprador@example.test`,
    });
    const auth2 = await makeUser(db(), {
      rol: 2,
      idCliente: client.id,
      email: `${tag}-autorizador@example.test`,
    });
    const auth3 = await makeUser(db(), { rol: 3, idCliente: client.id, email: `${tag}-super@example.test` });
    const a = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
      impuesto: true,
      nombre: 'Tóner',
    });
    const b = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 2500,
      impuesto: false,
      nombre: 'Galletas',
    });
    await assign(db(), buyer.id, a.id, 3);
    await assign(db(), buyer.id, b.id, 5);
    const api = {
      buyer: await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD),
      r2: await new ApiClient(t.app).loginOk(auth2.usuario, TEST_PASSWORD),
      r3: await new ApiClient(t.app).loginOk(auth3.usuario, TEST_PASSWORD),
    };
    return { tag, client, category, buyer, auth2, auth3, a, b, api };
  }

  async function purchase(w: Awaited<ReturnType<typeof world>>, items: [number, number][]) {
    for (const [id, cantidad] of items) {
      const res = await w.api.buyer.post('/api/carrito/nuevo_item', { item: { id, cantidad } });
      expect(res.statusCode, res.body).toBe(200);
    }
    const res = await w.api.buyer.post('/api/compra', {
      orden: items.map(([id, cantidad]) => ({ id, cantidad })),
      fecha: businessDate(new Date()),
    });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().pedido.id as number;
  }

  it('two levels: rol 2 approves with edits → espera, rol 3 approves → aprobado; e-mails at each step', async () => {
    const w = await world();
    const id = await purchase(w, [
      [w.a.id, 2],
      [w.b.id, 2],
    ]);
    await t.app.mailer.flush();
    const arrived = await smtp.waitFor((m) => m.to.includes(`${w.tag}-autorizador@`));
    expect(arrived.subject).toContain(`#${String(id).padStart(5, '0')}`);
    expect(arrived.text).toContain(`http://portal.test/autorizador/orden/${id}`);

    const view = (await w.api.r2.get(`/api/pedidos/${id}`)).json();
    expect(view.acciones).toEqual({ aprobar: true, cancelar: true, editar: true, devolver: false });
    expect(view.usuario).toMatchObject({ nombre: 'Beto Comprador', usuario: w.buyer.usuario });
    expect(view.presupuesto).toMatchObject({
      tipo_presupuesto: 'regular',
      disponible: 1000,
      utilizado: 0,
      restante: 1000 - 282,
      productos: 4,
    });
    expect(view.limites).toEqual({ [String(w.a.id)]: 3, [String(w.b.id)]: 5 });
    expect((await w.api.r3.get(`/api/pedidos/${id}`)).json().acciones).toEqual({
      aprobar: false,
      cancelar: false,
      editar: false,
      devolver: false,
    });

    // rol 2: lower the toner to 1 and remove the cookies.
    const approved = await w.api.r2.post('/api/update/compra', {
      id,
      orden: [{ id: w.a.id, cantidad: 1 }],
      fecha: '2026-01-01',
      total: 1,
    });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ nuevo_estatus: 'espera', msg: MSG.pedidoEnEspera });
    expect(approved.json().pedido).toMatchObject({ subtotal: 100, iva: 16, total: 116 });
    const [row] = await db().select().from(orders).where(eq(orders.id, id));
    expect(row).toMatchObject({ status: 'espera', subtotal: 10000, iva: 1600, total: 11600, lineas: 1 });
    const lines = await db().select().from(orderLines).where(eq(orderLines.orderId, id));
    expect(lines.map((l) => [l.productId, l.cantidad])).toEqual([[w.a.id, 1]]);
    // Both lists count the one line left (the order's stored count).
    const listed = (await w.api.r2.get('/api/pedidos?status=todos')).json().pedidos;
    expect(listed.find((p: { id: number }) => p.id === id)).toMatchObject({ productos: 1 });
    const history = (await w.api.buyer.get('/api/historial')).json().pedidos;
    expect(history.find((p: { id: number }) => p.id === id)).toMatchObject({ productos: 1 });
    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, id));
    const edit = events.find((e) => e.tipo === 'editado');
    expect(edit?.actorId).toBe(w.auth2.id);
    expect(edit?.changes).toMatchObject({
      cantidades: [{ id_producto: w.a.id, antes: 2, despues: 1 }],
      eliminados: [{ id_producto: w.b.id, cantidad: 2 }],
      total: { antes: 28200, despues: 11600 },
    });
    await t.app.mailer.flush();
    await smtp.waitFor((m) => m.to.includes(`${w.tag}-super@`));

    // rol 2 can no longer act; rol 3 cannot edit; rol 3 approves.
    expect(
      (await w.api.r2.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 1 }] })).statusCode,
    ).toBe(409);
    const edits = await w.api.r3.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 2 }] });
    expect(edits.statusCode).toBe(403);
    expect(edits.json().msg).toBe(MSG.soloAutorizadorEdita);
    const final = await w.api.r3.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 1 }] });
    expect(final.json()).toMatchObject({ nuevo_estatus: 'aprobado', msg: MSG.pedidoAprobado });
    expect((await w.api.r3.post(`/api/cancelar/compra/${id}`, {})).statusCode).toBe(409);
    await t.app.mailer.flush();
    const buyerMail = await smtp.waitFor(
      (m) => m.to.includes(`${w.tag}-comprador@`) && m.subject.includes('aprobado'),
    );
    expect(buyerMail.text).toContain(`/usuario/historial/${id}`);

    // The buyer sees the status and the history of events.
    const detail = (await w.api.buyer.get(`/api/historial/${id}`)).json().pedido;
    expect(detail.status).toBe('aprobado');
    expect(detail.eventos.map((e: { tipo: string }) => e.tipo)).toEqual([
      'creado',
      'editado',
      'aprobado',
      'aprobado',
    ]);
    const logs = await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'pedido_aprobado'));
    expect(logs.filter((l) => (l.metadata as { id_pedido?: number }).id_pedido === id)).toHaveLength(2);
  });

  it('one level: rol 2 approves → aprobado; two simultaneous approvals → one 200, one 409, one event', async () => {
    const w = await world({ levels: 1 });
    const other = await makeUser(db(), { rol: 2, idCliente: w.client.id });
    const second = await new ApiClient(t.app).loginOk(other.usuario, TEST_PASSWORD);
    const id = await purchase(w, [[w.a.id, 1]]);
    const body = { id, orden: [{ id: w.a.id, cantidad: 1 }] };
    const results = await Promise.all([
      w.api.r2.post('/api/update/compra', body),
      second.post('/api/update/compra', body),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const loser = results.find((r) => r.statusCode === 409)!;
    expect(loser.json().msg).toBe(MSG.pedidoYaProcesado);
    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, id));
    expect(events.filter((e) => e.tipo === 'aprobado')).toHaveLength(1);
    expect(results.find((r) => r.statusCode === 200)!.json().nuevo_estatus).toBe('aprobado');
  });

  it('edits over cantidad_limite, non-integer, removing every line, or over budget are refused and nothing changes', async () => {
    const w = await world({ presupuesto: 30000 });
    const id = await purchase(w, [
      [w.a.id, 1],
      [w.b.id, 2],
    ]);
    const before = await db().select().from(orderLines).where(eq(orderLines.orderId, id));
    const cases: [unknown[], number, string][] = [
      [
        [
          { id: w.a.id, cantidad: 4 },
          { id: w.b.id, cantidad: 2 },
        ],
        422,
        MSG.excedeCantidad(3),
      ],
      [
        [
          { id: w.a.id, cantidad: 0 },
          { id: w.b.id, cantidad: 2 },
        ],
        422,
        MSG.cantidadAutorizadorInvalida,
      ],
      [
        [
          { id: w.a.id, cantidad: 1.5 },
          { id: w.b.id, cantidad: 2 },
        ],
        422,
        MSG.cantidadAutorizadorInvalida,
      ],
      [[], 422, MSG.pedidoSinLineas],
      [[{ id: 999999, cantidad: 1 }], 422, MSG.lineaNoEnPedido],
      // 3 toners: 348.00 + 50.00 > 300.00
      [
        [
          { id: w.a.id, cantidad: 3 },
          { id: w.b.id, cantidad: 2 },
        ],
        422,
        MSG.presupuestoAutorizador,
      ],
    ];
    for (const [orden, status, msg] of cases) {
      const res = await w.api.r2.post('/api/update/compra', { id, orden });
      expect(res.statusCode, JSON.stringify(orden)).toBe(status);
      expect(res.json().msg).toBe(msg);
    }
    const [row] = await db().select().from(orders).where(eq(orders.id, id));
    expect(row!.status).toBe('pendiente');
    expect(await db().select().from(orderLines).where(eq(orderLines.orderId, id))).toEqual(before);
  });

  it('approval is refused when the buyer month would go over budget because of other orders', async () => {
    const w = await world({ presupuesto: 20000 });
    const first = await purchase(w, [[w.a.id, 1]]); // 116.00
    const second = await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      lines: [{ productId: w.a.id, precio: 10000, cantidad: 1, idCategoria: w.category.id }],
    });
    const view = (await w.api.r2.get(`/api/pedidos/${second.id}`)).json();
    expect(view.presupuesto).toMatchObject({ disponible: 200, utilizado: 116, restante: -32 });
    expect(view.pedidos_del_mes.map((o: { id: number }) => o.id)).toEqual([first]);
    const res = await w.api.r2.post('/api/update/compra', {
      id: second.id,
      orden: [{ id: w.a.id, cantidad: 1 }],
    });
    expect(res.statusCode).toBe(422);
    expect(res.json().msg).toBe(MSG.presupuestoAutorizador);
    // Cancelling the first frees the budget at once.
    const cancel = await w.api.r2.post(`/api/cancelar/compra/${first}`, { motivo: 'Duplicado' });
    expect(cancel.json().nuevo_estatus).toBe('cancelado');
    expect(
      (await w.api.r2.post('/api/update/compra', { id: second.id, orden: [{ id: w.a.id, cantidad: 1 }] }))
        .statusCode,
    ).toBe(200);
  });

  /** A role change (as an administrator would make it), then a fresh sign-in under the new role. */
  async function promote(user: { id: number; usuario: string }, rol: number) {
    await db().update(users).set({ rol }).where(eq(users.id, user.id));
    return new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
  }

  const statusOf = async (id: number) =>
    (await db().select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]!.status;

  it('separation of duties: nobody approves, edits or cancels an order they placed, whatever their role now', async () => {
    const w = await world();
    const id = await purchase(w, [[w.a.id, 2]]);
    const eventsBefore = await db().select().from(orderEvents).where(eq(orderEvents.orderId, id));

    // The buyer becomes an authorizer (rol 2): the order is on their list, but not theirs to review.
    const asRol2 = await promote(w.buyer, 2);
    const view = await asRol2.get(`/api/pedidos/${id}`);
    expect(view.statusCode).toBe(200);
    expect(view.json().acciones).toEqual({ aprobar: false, cancelar: false, editar: false, devolver: false });
    for (const orden of [[{ id: w.a.id, cantidad: 2 }], [{ id: w.a.id, cantidad: 1 }]]) {
      const approve = await asRol2.post('/api/update/compra', { id, orden });
      expect(approve.statusCode, approve.body).toBe(403);
      expect(approve.json()).toMatchObject({ code: 'OWN_ORDER', msg: MSG.pedidoPropio });
    }
    const cancel = await asRol2.post(`/api/cancelar/compra/${id}`, { motivo: 'Ya no' });
    expect(cancel.statusCode, cancel.body).toBe(403);
    expect(cancel.json()).toMatchObject({ code: 'OWN_ORDER', msg: MSG.pedidoPropio });
    expect(await statusOf(id)).toBe('pendiente');
    const lines = await db().select().from(orderLines).where(eq(orderLines.orderId, id));
    expect(lines.map((l) => l.cantidad)).toEqual([2]);
    expect(await db().select().from(orderEvents).where(eq(orderEvents.orderId, id))).toEqual(eventsBefore);

    // Another person gives level 1; promoted again (rol 3), the buyer still cannot give level 2.
    expect(
      (await w.api.r2.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 2 }] })).statusCode,
    ).toBe(200);
    const asRol3 = await promote(w.buyer, 3);
    expect((await asRol3.get(`/api/pedidos/${id}`)).json().acciones).toEqual({
      aprobar: false,
      cancelar: false,
      editar: false,
      devolver: false,
    });
    for (const res of [
      await asRol3.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 2 }] }),
      await asRol3.post(`/api/cancelar/compra/${id}`, {}),
      await asRol3.post(`/api/pedidos/${id}/devolver`, { comentario: 'Corrige la cantidad' }),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(res.json().msg).toBe(MSG.pedidoPropio);
    }
    expect(await statusOf(id)).toBe('espera');

    // Another person can.
    const approved = await w.api.r3.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 2 }] });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(await statusOf(id)).toBe('aprobado');
  });

  it('separation of duties: whoever gave the level-1 approval never gives the level-2 approval', async () => {
    const w = await world();
    const id = await purchase(w, [[w.a.id, 1]]);
    const first = await w.api.r2.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 1 }] });
    expect(first.json()).toMatchObject({ nuevo_estatus: 'espera' });

    // The level-1 approver is made a super-authorizer: the order is on their list at level 2.
    const promoted = await promote(w.auth2, 3);
    const view = (await promoted.get(`/api/pedidos/${id}`)).json();
    expect(view.acciones).toEqual({ aprobar: false, cancelar: true, editar: false, devolver: true });
    const again = await promoted.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 1 }] });
    expect(again.statusCode, again.body).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SAME_APPROVER', msg: MSG.segundaAutorizacionOtraPersona });
    expect(await statusOf(id)).toBe('espera');
    const approvals = await db().select().from(orderEvents).where(eq(orderEvents.orderId, id));
    expect(approvals.filter((e) => e.tipo === 'aprobado').map((e) => e.actorId)).toEqual([w.auth2.id]);

    // Another super-authorizer gives level 2.
    const approved = await w.api.r3.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 1 }] });
    expect(approved.statusCode, approved.body).toBe(200);
    expect(approved.json()).toMatchObject({ nuevo_estatus: 'aprobado' });

    // Stopping an order is not an approval: the level-1 approver may still cancel at level 2.
    const other = await purchase(w, [[w.b.id, 1]]);
    const colleague = await makeUser(db(), { rol: 2, idCliente: w.client.id });
    const asColleague = await new ApiClient(t.app).loginOk(colleague.usuario, TEST_PASSWORD);
    expect(
      (await asColleague.post('/api/update/compra', { id: other, orden: [{ id: w.b.id, cantidad: 1 }] }))
        .statusCode,
    ).toBe(200);
    await promote(colleague, 3);
    const byColleague = await new ApiClient(t.app).loginOk(colleague.usuario, TEST_PASSWORD);
    // (Who gave level 1 of `other` is the colleague; the promoted w.auth2 may act on it in full.)
    expect((await promoted.get(`/api/pedidos/${other}`)).json().acciones.aprobar).toBe(true);
    expect((await byColleague.get(`/api/pedidos/${other}`)).json().acciones).toEqual({
      aprobar: false,
      cancelar: true,
      editar: false,
      devolver: true,
    });
    const cancelled = await byColleague.post(`/api/cancelar/compra/${other}`, { motivo: 'Duplicado' });
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await statusOf(other)).toBe('cancelado');
  });

  it('cancel with a reason: shown to the buyer, e-mailed, frees budget and purchase count at once', async () => {
    const w = await world();
    const id = await purchase(w, [[w.a.id, 2]]);
    const before = (await w.api.buyer.get('/api/carrito')).json().presupuesto;
    expect(before).toMatchObject({ presupuesto_utilizado: 232, cantidad_de_compras: 1 });
    const long = await w.api.r2.post(`/api/cancelar/compra/${id}`, { motivo: 'x'.repeat(256) });
    expect(long.statusCode).toBe(400);
    const res = await w.api.r2.post(`/api/cancelar/compra/${id}`, { motivo: 'Ya se surtió por otro medio' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ nuevo_estatus: 'cancelado', msg: MSG.pedidoCancelado });
    const after = (await w.api.buyer.get('/api/carrito')).json().presupuesto;
    expect(after).toMatchObject({ presupuesto_utilizado: 0, cantidad_de_compras: 0 });
    const detail = (await w.api.buyer.get(`/api/historial/${id}`)).json().pedido;
    expect(detail).toMatchObject({ status: 'cancelado', motivo_cancelacion: 'Ya se surtió por otro medio' });
    expect(detail.eventos.at(-1)).toMatchObject({
      tipo: 'cancelado',
      de: 'pendiente',
      a: 'cancelado',
      motivo: 'Ya se surtió por otro medio',
    });
    await t.app.mailer.flush();
    const mail = await smtp.waitFor(
      (m) => m.to.includes(`${w.tag}-comprador@`) && m.subject.includes('cancelado'),
    );
    expect(mail.text).toContain('Ya se surtió por otro medio');
    expect(
      (await w.api.r2.post('/api/update/compra', { id, orden: [{ id: w.a.id, cantidad: 2 }] })).statusCode,
    ).toBe(409);
  });

  it('tenancy: another client authorizer gets 404 and never sees the orders in lists or reports; buyers get 403', async () => {
    const w = await world();
    const id = await purchase(w, [[w.a.id, 1]]);
    const stranger = await world();
    expect((await stranger.api.r2.get(`/api/pedidos/${id}`)).statusCode).toBe(404);
    expect((await stranger.api.r2.get('/api/pedidos/99999999')).statusCode).toBe(404);
    const approve = await stranger.api.r2.post('/api/update/compra', {
      id,
      orden: [{ id: w.a.id, cantidad: 1 }],
    });
    expect(approve.statusCode).toBe(404);
    expect((await stranger.api.r2.post(`/api/cancelar/compra/${id}`, {})).statusCode).toBe(404);
    const list = (await stranger.api.r2.get('/api/pedidos?status=todos')).json();
    expect(list.pedidos.map((p: { id: number }) => p.id)).not.toContain(id);
    const today = businessDate(new Date());
    const csv = await stranger.api.r2.post('/api/reporte/autorizador', {
      tipo: 'general',
      fecha_inicio: today,
      fecha_fin: today,
    });
    expect(csv.body).not.toContain(String(id).padStart(5, '0'));
    expect((await w.api.buyer.get('/api/pedidos')).statusCode).toBe(403);
    const [row] = await db().select().from(orders).where(eq(orders.id, id));
    expect(row!.status).toBe('pendiente');
  });

  it('the list: 50 per page from the server, newest first, actionable statuses by default, search by number or user', async () => {
    const w = await world();
    const made: number[] = [];
    for (let i = 0; i < 53; i++) {
      const o = await makeOrder(db(), {
        idUser: w.buyer.id,
        idCliente: w.client.id,
        status: i % 2 === 0 ? 'pendiente' : 'espera',
        lines: [{ productId: w.a.id, precio: 100, cantidad: 1, idCategoria: w.category.id }],
      });
      made.push(o.id);
    }
    const all = (await w.api.r2.get('/api/pedidos?status=todos')).json();
    expect(all).toMatchObject({ total: 53, per_page: 50, accionable: 'pendiente' });
    expect(all.pedidos).toHaveLength(50);
    expect(all.pedidos[0].id).toBe(made.at(-1));
    expect((await w.api.r2.get('/api/pedidos?status=todos&page=2')).json().pedidos).toHaveLength(3);
    const mine2 = (await w.api.r2.get('/api/pedidos')).json();
    expect(mine2.total).toBe(27);
    expect(mine2.pedidos.every((p: { status: string }) => p.status === 'pendiente')).toBe(true);
    const mine3 = (await w.api.r3.get('/api/pedidos')).json();
    expect(mine3).toMatchObject({ total: 26, accionable: 'espera' });
    // The search also matches usernames, so the buyer's must hold no digits for the number to be unique.
    const { users } = await import('../../db/schema/index.ts');
    const alias = `comprador_${'abcdefghij'.replace(/./g, () => String.fromCharCode(97 + Math.floor(Math.random() * 26)))}`;
    await db().update(users).set({ usuario: alias }).where(eq(users.id, w.buyer.id));
    const byNumber = (await w.api.r2.get(`/api/pedidos?status=todos&q=${made[5]}`)).json();
    expect(byNumber.pedidos.map((p: { id: number }) => p.id)).toEqual([made[5]]);
    expect((await w.api.r2.get(`/api/pedidos?status=todos&q=${alias}`)).json().total).toBe(53);
    // A status with or without a search, and a searched second page.
    expect((await w.api.r2.get('/api/pedidos?status=espera')).json().total).toBe(26);
    const searched = (await w.api.r2.get(`/api/pedidos?status=pendiente&q=${alias}`)).json();
    expect(searched.total).toBe(27);
    expect(searched.pedidos.every((p: { status: string }) => p.status === 'pendiente')).toBe(true);
    expect((await w.api.r2.get(`/api/pedidos?status=espera&q=${made[5]}`)).json().pedidos).toEqual([
      expect.objectContaining({ id: made[5] }),
    ]);
    expect((await w.api.r2.get(`/api/pedidos?status=pendiente&q=${made[5]}`)).json().total).toBe(0);
    const page2 = (await w.api.r2.get(`/api/pedidos?status=todos&q=${alias}&page=2`)).json();
    expect(page2.pedidos.map((p: { id: number }) => p.id)).toEqual(made.slice(0, 3).reverse());
    expect((await w.api.r2.get('/api/pedidos?status=nada')).statusCode).toBe(400);
  });

  it('next in queue: neighbours under the list filter, the next actionable (wrapping), tenancy and bad input', async () => {
    const w = await world();
    const line = [{ productId: w.a.id, precio: 100, cantidad: 1, idCategoria: w.category.id }];
    const make = async (status: 'pendiente' | 'espera' | 'aprobado') =>
      (await makeOrder(db(), { idUser: w.buyer.id, idCliente: w.client.id, status, lines: line })).id;
    // Newest first, as the list shows them: o5 aprobado, o4 pendiente, o3 pendiente, o2 espera, o1 pendiente.
    const o1 = await make('pendiente');
    const o2 = await make('espera');
    const o3 = await make('pendiente');
    const o4 = await make('pendiente');
    const o5 = await make('aprobado');
    const next = async (api: ApiClient, id: number, query = '') => {
      const res = await api.get(`/api/pedidos/${id}/siguiente${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    // 'Por atender' of rol 2 (pendiente): o4, o3, o1.
    expect(await next(w.api.r2, o4)).toEqual({ anterior: null, siguiente: o3, siguiente_accionable: o3 });
    expect(await next(w.api.r2, o3, '?status=accionables')).toEqual({
      anterior: o4,
      siguiente: o1,
      siguiente_accionable: o1,
    });
    // After the last one, the next to act on is the first of the list.
    expect(await next(w.api.r2, o1)).toEqual({ anterior: o3, siguiente: null, siguiente_accionable: o4 });
    // 'Todos': every row is a neighbour, but only a pendiente one is next to act on for rol 2.
    expect(await next(w.api.r2, o3, '?status=todos')).toEqual({
      anterior: o4,
      siguiente: o2,
      siguiente_accionable: o1,
    });
    expect(await next(w.api.r2, o5, '?status=todos')).toMatchObject({
      anterior: null,
      siguiente_accionable: o4,
    });
    // A status this role does not act on has no next to act on.
    expect(await next(w.api.r2, o4, '?status=aprobado')).toEqual({
      anterior: o5,
      siguiente: null,
      siguiente_accionable: null,
    });
    // Rol 3 acts on espera: o2 only; from a processed order it still finds it.
    expect(await next(w.api.r3, o3)).toEqual({ anterior: null, siguiente: o2, siguiente_accionable: o2 });
    expect(await next(w.api.r3, o2)).toEqual({ anterior: null, siguiente: null, siguiente_accionable: null });
    // A search keeps the filter: the buyer's username matches every order.
    expect(await next(w.api.r2, o4, `?status=todos&q=${encodeURIComponent(w.buyer.usuario)}`)).toMatchObject({
      anterior: o5,
      siguiente: o3,
    });
    // Another client's order answers like a missing one; a buyer is refused; bad input is a Spanish 400.
    const stranger = await world();
    for (const id of [o4, 99999999]) {
      const res = await stranger.api.r2.get(`/api/pedidos/${id}/siguiente`);
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe(MSG.pedidoNoEncontrado);
    }
    expect((await w.api.buyer.get(`/api/pedidos/${o4}/siguiente`)).statusCode).toBe(403);
    for (const url of [
      `/api/pedidos/${o4}/siguiente?status=nada`,
      `/api/pedidos/${o4}/siguiente?q=${'x'.repeat(500)}`,
      '/api/pedidos/abc/siguiente',
      '/api/pedidos/0/siguiente',
    ]) {
      const res = await w.api.r2.get(url);
      expect(res.statusCode, url).toBe(400);
      // Spanish, never zod's English.
      expect(res.json()).toMatchObject({ code: 'VALIDATION', msg: expect.any(String) });
      expect(res.json().msg).not.toMatch(/\b(invalid|expected|required|too big)\b/i);
    }
  });

  it("next in queue follows the list's sort and period, as the approver left it", async () => {
    const w = await world();
    const order = async (precio: number, day: string) =>
      (
        await makeOrder(db(), {
          idUser: w.buyer.id,
          idCliente: w.client.id,
          status: 'pendiente',
          transactionDate: new Date(`${day}T18:00:00Z`),
          lines: [{ productId: w.a.id, precio, cantidad: 1, idCategoria: w.category.id }],
        })
      ).id;
    // By total, cheapest first: cheap (12 March), mid (10 March), dear (11 March); February's is outside.
    const dear = await order(30_000, '2026-03-11');
    const cheap = await order(10_000, '2026-03-12');
    const mid = await order(20_000, '2026-03-10');
    const old = await order(15_000, '2026-02-20');
    const next = async (id: number, query: string) => {
      const res = await w.api.r2.get(`/api/pedidos/${id}/siguiente${query}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    const march = '?status=accionables&orden=total_asc&desde=2026-03-01&hasta=2026-03-31';
    expect(await next(mid, march)).toEqual({ anterior: cheap, siguiente: dear, siguiente_accionable: dear });
    // From the last one of that list the next to act on is its first, never February's order.
    expect(await next(dear, march)).toEqual({ anterior: mid, siguiente: null, siguiente_accionable: cheap });
    // By date, oldest first and without a period, February's order comes first.
    expect(await next(old, '?orden=fecha_asc')).toEqual({
      anterior: null,
      siguiente: mid,
      siguiente_accionable: mid,
    });
    expect(await next(cheap, '?orden=fecha_asc')).toEqual({
      anterior: dear,
      siguiente: null,
      siguiente_accionable: old,
    });
    // A period that ends before it starts is a Spanish 400.
    const bad = await w.api.r2.get(`/api/pedidos/${mid}/siguiente?desde=2026-03-31&hasta=2026-03-01`);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe(MSG.rangoFechasInvalido);
  });

  it('reports: exact rows, BOM, formula-safe, business dates, inclusive range, detail per line', async () => {
    const w = await world();
    await db()
      .update((await import('../../db/schema/index.ts')).users)
      .set({ direccionEntrega: 'Av. Reforma 1, Piso 2', area: 'Compras', region: 'Centro', entregaWeek: 3 })
      .where(eq((await import('../../db/schema/index.ts')).users.id, w.buyer.id));
    // 23:30 on 31 Jan in Mexico City is 05:30 UTC on 1 Feb: it belongs to 31/01.
    const jan31 = await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      status: 'aprobado',
      transactionDate: new Date('2026-02-01T05:30:00Z'),
      lines: [
        {
          productId: w.a.id,
          nombre: '=HYPERLINK("http://x")',
          precio: 10000,
          cantidad: 2,
          idCategoria: w.category.id,
        },
        {
          productId: w.b.id,
          nombre: 'Galletas, surtidas',
          precio: 2550,
          cantidad: 1,
          impuesto: false,
          idCategoria: w.category.id,
        },
      ],
    });
    const feb1 = await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      status: 'cancelado',
      transactionDate: new Date('2026-02-02T05:59:00Z'),
      lines: [{ productId: w.a.id, nombre: 'Tóner', precio: 10000, cantidad: 1, idCategoria: w.category.id }],
    });
    await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      transactionDate: new Date('2026-02-02T06:00:00Z'),
      lines: [{ productId: w.a.id, precio: 100, cantidad: 1, idCategoria: w.category.id }],
    });
    const missing = await w.api.r2.post('/api/reporte/autorizador', {
      tipo: 'general',
      fecha_inicio: '2026-01-31',
    });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe(MSG.fechasRequeridas);
    const noType = await w.api.r2.post('/api/reporte/autorizador', {
      fecha_inicio: '2026-01-31',
      fecha_fin: '2026-02-01',
    });
    expect(noType.json().msg).toBe(MSG.tipoReporteRequerido);
    const reversed = await w.api.r2.post('/api/reporte/autorizador', {
      tipo: 'general',
      fecha_inicio: '2026-02-02',
      fecha_fin: '2026-02-01',
    });
    expect(reversed.json().msg).toBe(MSG.rangoFechasInvalido);

    const general = await w.api.r2.post('/api/reporte/autorizador', {
      tipo: 'general',
      fecha_inicio: '2026-01-31',
      fecha_fin: '2026-02-01',
    });
    expect(general.statusCode).toBe(200);
    expect(general.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(general.headers['content-disposition']).toBe('attachment; filename="reporte.csv"');
    expect(general.rawPayload.subarray(0, 3).toString('hex')).toBe('efbbbf');
    const rows = csvRows(general.body);
    expect(rows).toEqual([
      'Pedido,Fecha,Estatus,Usuario,Nombre,Productos,Subtotal,IVA,Total,Dirección de entrega,Calle,Colonia,Ciudad,CP,Estado,Área,Región,Semana de entrega,Clave de área,Cuenta contable',
      `${String(jan31.id).padStart(5, '0')},31/01/2026,Aprobado,${w.buyer.usuario},Beto Comprador,2,225.50,32.00,257.50,"Av. Reforma 1, Piso 2",,,,,,Compras,Centro,3,,`,
      `${String(feb1.id).padStart(5, '0')},01/02/2026,Cancelado,${w.buyer.usuario},Beto Comprador,1,100.00,16.00,116.00,"Av. Reforma 1, Piso 2",,,,,,Compras,Centro,3,,`,
    ]);
    const detail = await w.api.r2.post('/api/reporte/autorizador/productos/detalle', {
      tipo: 'detalle',
      fecha_inicio: '2026-01-31',
      fecha_fin: '2026-01-31',
    });
    const drows = csvRows(detail.body);
    expect(drows).toEqual([
      'Pedido,Fecha,Estatus,Usuario,Nombre,Clave interna,Clave cliente,Producto,Categoría,Unidad,Cantidad,Precio unitario,IVA,Importe,Clave de área,Cuenta contable',
      `${String(jan31.id).padStart(5, '0')},31/01/2026,Aprobado,${w.buyer.usuario},Beto Comprador,CL-${w.a.id},,"'=HYPERLINK(""http://x"")",Papelería,Pieza,2,100.00,32.00,200.00,,`,
      `${String(jan31.id).padStart(5, '0')},31/01/2026,Aprobado,${w.buyer.usuario},Beto Comprador,CL-${w.b.id},,"Galletas, surtidas",Papelería,Pieza,1,25.50,0.00,25.50,,`,
    ]);
  });

  it('a report longer than one batch and many pieces arrives whole: every order and line once, in order', async () => {
    const w = await world();
    const ids: number[] = [];
    for (let i = 0; i < 260; i++) {
      const o = await makeOrder(db(), {
        idUser: w.buyer.id,
        idCliente: w.client.id,
        status: 'aprobado',
        transactionDate: new Date('2025-06-15T18:00:00Z'),
        lines: [1, 2, 3].map((n) => ({
          productId: w.a.id,
          nombre: `Producto ${i}-${n} con un nombre largo para llenar el renglón`,
          precio: 100 * n,
          cantidad: n,
          idCategoria: w.category.id,
        })),
      });
      ids.push(o.id);
    }
    const detail = await w.api.r2.post('/api/reporte/autorizador/productos/detalle', {
      tipo: 'detalle',
      fecha_inicio: '2025-06-15',
      fecha_fin: '2025-06-15',
    });
    expect(detail.statusCode).toBe(200);
    expect(detail.body.length).toBeGreaterThan(3 * 32_768);
    const lines = csvRows(detail.body).slice(1);
    expect(lines).toHaveLength(260 * 3);
    expect(lines.map((l) => Number(l.slice(0, l.indexOf(','))))).toEqual(ids.flatMap((id) => [id, id, id]));
    lines.forEach((l, k) => {
      expect(l).toContain(`Producto ${Math.floor(k / 3)}-${(k % 3) + 1} con un nombre largo`);
      expect(l.split(',')).toHaveLength(16);
    });
    const general = await w.api.r2.post('/api/reporte/autorizador', {
      tipo: 'general',
      fecha_inicio: '2025-06-15',
      fecha_fin: '2025-06-15',
    });
    const orderRows = csvRows(general.body).slice(1);
    expect(orderRows.map((l) => Number(l.slice(0, l.indexOf(','))))).toEqual(ids);
  });
});
