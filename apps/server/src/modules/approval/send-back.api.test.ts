/**
 * Sending an order back to level 1 (issue 43, item 4; decision 0111): the Super Autorizador returns an order
 * that waits for the final approval to `pendiente` with a required comment; level 1 is told, the budget
 * stays reserved, and the transition is conditional like every other.
 */
import { businessDate } from '@portal/shared/domain/time';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emailOutbox, orderComments, orderEvents, orders, systemLogs, users } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
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

describe.each(DB_KINDS)('sending an order back to level 1 (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  /** A two-level client: a buyer, two rol 2 (one gives level 1), two rol 3, signed in; one product. */
  async function world(levels = 2) {
    const tag = uniq('dv');
    const client = await makeClient(db(), { cantidadAutorizadores: levels, limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const person = (rol: number, name: string) =>
      makeUser(db(), {
        rol,
        idCliente: client.id,
        limiteDeCompras: -1,
        email: `${tag}-${name}@example.test`,
      });
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      presupuestoDefault: 100000,
      limiteDeCompras: -1,
      nombre: 'Beto Comprador',
      email: `${tag}-comprador@example.test`,
    });
    const ana = await person(2, 'ana');
    const otro = await person(2, 'otro');
    const sofia = await person(3, 'sofia');
    const ruth = await person(3, 'ruth');
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
      impuesto: true,
      nombre: 'Tóner',
    });
    await assign(db(), buyer.id, product.id, 5);
    const login = (u: { usuario: string }) => new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
    const api = {
      buyer: await login(buyer),
      ana: await login(ana),
      otro: await login(otro),
      sofia: await login(sofia),
      ruth: await login(ruth),
    };
    /** The buyer places an order of `cantidad` toners; Ana gives level 1 when `toLevelTwo`. */
    const order = async (cantidad = 2, toLevelTwo = true) => {
      expect(
        (await api.buyer.post('/api/carrito/nuevo_item', { item: { id: product.id, cantidad } })).statusCode,
      ).toBe(200);
      const placed = await api.buyer.post('/api/compra', {
        orden: [{ id: product.id, cantidad }],
        fecha: businessDate(new Date()),
      });
      expect(placed.statusCode, placed.body).toBe(201);
      const id = placed.json().pedido.id as number;
      if (toLevelTwo) {
        const first = await api.ana.post('/api/update/compra', { id, orden: [{ id: product.id, cantidad }] });
        expect(first.json(), first.body).toMatchObject({ nuevo_estatus: 'espera' });
      }
      return id;
    };
    return { tag, client, buyer, ana, otro, sofia, ruth, product, api, order };
  }

  const statusOf = async (id: number) =>
    (await db().select({ status: orders.status }).from(orders).where(eq(orders.id, id)))[0]!.status;
  const subjectOf = (id: number) => `Pedido #${String(id).padStart(5, '0')} devuelto al primer nivel`;
  const mailsOf = (id: number) =>
    db()
      .select({ to: emailOutbox.to, text: emailOutbox.text })
      .from(emailOutbox)
      .where(eq(emailOutbox.subject, subjectOf(id)));

  it('returns an espera order to pendiente with its comment; level 1 is told and approves it again', async () => {
    const w = await world();
    const id = await w.order(2);
    const before = (await w.api.sofia.get(`/api/pedidos/${id}`)).json();
    expect(before.acciones).toEqual({ aprobar: true, cancelar: true, editar: false, devolver: true });
    // Level 1 never sends back.
    expect((await w.api.ana.get(`/api/pedidos/${id}`)).json().acciones.devolver).toBe(false);

    const res = await w.api.sofia.post(`/api/pedidos/${id}/devolver`, {
      comentario: '  Son dos tóner de más; deja uno.  ',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', msg: MSG.pedidoDevuelto, nuevo_estatus: 'pendiente' });
    expect(await statusOf(id)).toBe('pendiente');

    // The comment joins the order's thread (trimmed), and the event and log entry name it.
    const comments = await db().select().from(orderComments).where(eq(orderComments.orderId, id));
    expect(comments.map((c) => [c.authorId, c.texto])).toEqual([
      [w.sofia.id, 'Son dos tóner de más; deja uno.'],
    ]);
    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, id));
    expect(events.at(-1)).toMatchObject({
      tipo: 'devuelto',
      actorId: w.sofia.id,
      fromStatus: 'espera',
      toStatus: 'pendiente',
      reason: 'Son dos tóner de más; deja uno.',
      changes: { id_comentario: comments[0]!.id },
    });
    const logs = await db()
      .select()
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'pedido_devuelto'), eq(systemLogs.idPedido, id)));
    expect(logs).toHaveLength(1);
    expect(logs[0]).toMatchObject({
      userId: w.sofia.id,
      description: `Pedido #${String(id).padStart(5, '0')} devuelto al primer nivel`,
    });

    // Only Ana, who gave level 1, is e-mailed, with the comment and a link to the order.
    const mails = await mailsOf(id);
    expect(mails.map((m) => m.to)).toEqual([w.ana.email]);
    expect(mails[0]!.text).toContain('Comentario: Son dos tóner de más; deja uno.');
    expect(mails[0]!.text).toContain(`/autorizador/orden/${id}`);

    // The buyer's timeline shows it; the budget stays reserved: 1,000.00 less its 232.00 remains after it
    // (the review's figures count the order apart from the rest of the month, none here).
    const detail = (await w.api.buyer.get(`/api/historial/${id}`)).json().pedido;
    expect(detail.status).toBe('pendiente');
    expect(detail.eventos.map((e: { tipo: string }) => e.tipo)).toEqual(['creado', 'aprobado', 'devuelto']);
    const view = (await w.api.ana.get(`/api/pedidos/${id}`)).json();
    expect(view.presupuesto).toMatchObject({ utilizado: 0, restante: 1000 - 232 });
    expect(view.acciones).toEqual({ aprobar: true, cancelar: true, editar: true, devolver: false });

    // Ana corrects it (one toner) and it goes to level 2 again, where Sofía approves it.
    const again = await w.api.ana.post('/api/update/compra', {
      id,
      orden: [{ id: w.product.id, cantidad: 1 }],
    });
    expect(again.json(), again.body).toMatchObject({ nuevo_estatus: 'espera' });
    const final = await w.api.sofia.post('/api/update/compra', {
      id,
      orden: [{ id: w.product.id, cantidad: 1 }],
    });
    expect(final.json(), final.body).toMatchObject({ nuevo_estatus: 'aprobado' });
    const [row] = await db().select().from(orders).where(eq(orders.id, id));
    expect(row).toMatchObject({ status: 'aprobado', total: 11600 });
  });

  it('refusals: no comment, the wrong level or status, own orders, other clients, buyers; nothing changes', async () => {
    const w = await world();
    const id = await w.order(1);
    const eventsBefore = await db().select().from(orderEvents).where(eq(orderEvents.orderId, id));

    for (const body of [{}, { comentario: '' }, { comentario: '   ' }, { comentario: 'x'.repeat(1001) }]) {
      const res = await w.api.sofia.post(`/api/pedidos/${id}/devolver`, body);
      expect(res.statusCode, res.body).toBe(400);
    }
    const empty = await w.api.sofia.post(`/api/pedidos/${id}/devolver`, { comentario: ' ' });
    expect(empty.json().msg).toBe(MSG.comentarioVacio);
    // Level 1 (403), a buyer (403), another client's Super Autorizador (404, like a missing order).
    const byAna = await w.api.ana.post(`/api/pedidos/${id}/devolver`, { comentario: 'Revisa' });
    expect(byAna.statusCode, byAna.body).toBe(403);
    expect((await w.api.buyer.post(`/api/pedidos/${id}/devolver`, { comentario: 'Revisa' })).statusCode).toBe(
      403,
    );
    const other = await world();
    const foreign = await other.api.sofia.post(`/api/pedidos/${id}/devolver`, { comentario: 'Revisa' });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json().msg).toBe(MSG.pedidoNoEncontrado);
    expect(
      (await w.api.sofia.post('/api/pedidos/99999999/devolver', { comentario: 'Revisa' })).statusCode,
    ).toBe(404);
    expect(await statusOf(id)).toBe('espera');
    expect(await db().select().from(orderEvents).where(eq(orderEvents.orderId, id))).toEqual(eventsBefore);
    expect(await db().select().from(orderComments).where(eq(orderComments.orderId, id))).toEqual([]);

    // Not at level 2 (pendiente, aprobado): 409.
    const waiting = await w.order(1, false);
    const early = await w.api.sofia.post(`/api/pedidos/${waiting}/devolver`, { comentario: 'Revisa' });
    expect(early.statusCode, early.body).toBe(409);
    expect(early.json().msg).toBe(MSG.pedidoYaProcesado);
    expect(
      (await w.api.ruth.post('/api/update/compra', { id, orden: [{ id: w.product.id, cantidad: 1 }] }))
        .statusCode,
    ).toBe(200);
    expect((await w.api.sofia.post(`/api/pedidos/${id}/devolver`, { comentario: 'Revisa' })).statusCode).toBe(
      409,
    );

    // A client with one level has no second level to send back from.
    const single = await world(1);
    const one = await single.order(1, false);
    expect(
      (await single.api.sofia.post(`/api/pedidos/${one}/devolver`, { comentario: 'Revisa' })).statusCode,
    ).toBe(403);
  });

  it('two at once: of two returns, or a return and an approval, one wins and the other gets 409', async () => {
    const w = await world();
    const id = await w.order(1);
    const both = await Promise.all([
      w.api.sofia.post(`/api/pedidos/${id}/devolver`, { comentario: 'Primero' }),
      w.api.ruth.post(`/api/pedidos/${id}/devolver`, { comentario: 'Segundo' }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(both.find((r) => r.statusCode === 409)!.json().msg).toBe(MSG.pedidoYaProcesado);
    let events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, id));
    expect(events.filter((e) => e.tipo === 'devuelto')).toHaveLength(1);
    // The loser's comment rolled back with it.
    expect(await db().select().from(orderComments).where(eq(orderComments.orderId, id))).toHaveLength(1);

    const next = await w.order(1);
    const raced = await Promise.all([
      w.api.sofia.post(`/api/pedidos/${next}/devolver`, { comentario: 'Corrige' }),
      w.api.ruth.post('/api/update/compra', { id: next, orden: [{ id: w.product.id, cantidad: 1 }] }),
    ]);
    expect(raced.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, next));
    const won = raced[0]!.statusCode === 200 ? 'pendiente' : 'aprobado';
    expect(await statusOf(next)).toBe(won);
    expect(events.filter((e) => e.tipo === 'devuelto' || e.toStatus === 'aprobado')).toHaveLength(1);
  });

  it('when who gave level 1 is gone, every active Autorizador of the client is told', async () => {
    const w = await world();
    const id = await w.order(1);
    await db().update(users).set({ activo: false }).where(eq(users.id, w.ana.id));
    const res = await w.api.sofia.post(`/api/pedidos/${id}/devolver`, {
      comentario: 'Falta el centro de costos',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await mailsOf(id)).map((m) => m.to)).toEqual([w.otro.email]);
  });
});
