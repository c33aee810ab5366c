import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders, systemLogs } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import {
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

describe.each(DB_KINDS)('fulfilment: moves, receipt, queue, export (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let operator: ApiClient;
  let operatorEmail: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    operatorEmail = `${uniq('operador')}@example.test`;
    const op = await makeUser(db(), {
      rol: 4,
      idCliente: null,
      nombre: 'Olga Operadora',
      email: operatorEmail,
    });
    operator = await new ApiClient(t.app).loginOk(op.usuario, TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;

  /** A client with one approval level, a buyer, an approver, and orders in the statuses asked. */
  async function world() {
    const tag = uniq('surtido');
    const client = await makeClient(db(), {
      nombre: `Cliente ${tag}`,
      cantidadAutorizadores: 1,
      limiteDeCompras: -1,
    });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 12345,
    });
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      nombre: 'Beatriz Compradora',
      email: `${tag}-comprador@example.test`,
      direccionEntrega: 'Av. Juárez 10, Centro',
      entregaWeek: 2,
    });
    const otherBuyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const r2 = await makeUser(db(), { rol: 2, idCliente: client.id, nombre: 'Rita Autorizadora' });
    const order = (status: 'pendiente' | 'aprobado' = 'aprobado', surtido?: 'enviado' | 'entregado') =>
      makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status,
        surtido,
        lines: [
          {
            productId: product.id,
            precio: product.precio,
            cantidad: 2,
            idCategoria: category.id,
            nombre: '=Tóner',
          },
        ],
      });
    const api = {
      buyer: await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD),
      otherBuyer: await new ApiClient(t.app).loginOk(otherBuyer.usuario, TEST_PASSWORD),
      r2: await new ApiClient(t.app).loginOk(r2.usuario, TEST_PASSWORD),
    };
    return { tag, client, category, product, buyer, r2, order, api };
  }

  const surtidoOf = async (id: number) =>
    (await db().select({ s: orders.surtidoEstatus }).from(orders).where(eq(orders.id, id)))[0]?.s;
  const move = (id: number, body: Record<string, unknown>) =>
    operator.post(`/api/surtido/${id}/estado`, body);

  it('an approval sets por_surtir in its transaction, single and in bulk', async () => {
    const w = await world();
    const one = await w.order('pendiente');
    const two = await w.order('pendiente');
    expect(await surtidoOf(one.id)).toBeNull();
    const single = await w.api.r2.post('/api/update/compra', {
      id: one.id,
      orden: [{ id: w.product.id, cantidad: 2 }],
    });
    expect(single.statusCode, single.body).toBe(200);
    const bulk = await w.api.r2.post('/api/pedidos/aprobar-lote', { ids: [two.id] });
    expect(bulk.json().resultados[0].ok, bulk.body).toBe(true);
    expect([await surtidoOf(one.id), await surtidoOf(two.id)]).toEqual(['por_surtir', 'por_surtir']);
    // The buyer sees the second state in the history list and the detail.
    const list = (await w.api.buyer.get('/api/historial')).json();
    expect(list.pedidos.find((p: { id: number }) => p.id === one.id).surtido).toBe('por_surtir');
    const detail = (await w.api.buyer.get(`/api/historial/${one.id}`)).json();
    expect(detail.pedido.surtido).toBe('por_surtir');
    expect(detail.acciones.recibir).toBe(false);
  });

  it('moves go forward (skipping ahead), with an event, a log entry and the buyer e-mail on enviado', async () => {
    const w = await world();
    const o = await w.order();
    const res = await move(o.id, { estado: 'en_surtido' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().pedido).toEqual({ id: o.id, surtido: 'en_surtido', guia: null, nota_recepcion: null });
    const shipped = await move(o.id, {
      estado: 'enviado',
      guia: 'Estafeta 1234567890',
      comentario: 'Dos cajas',
    });
    expect(shipped.statusCode, shipped.body).toBe(200);
    expect(shipped.json().pedido.guia).toBe('Estafeta 1234567890');
    const events = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, o.id), eq(orderEvents.tipo, 'surtido')))
      .orderBy(orderEvents.id);
    expect(events.map((e) => [e.fromStatus, e.toStatus])).toEqual([
      ['por_surtir', 'en_surtido'],
      ['en_surtido', 'enviado'],
    ]);
    expect(events[1]!.changes).toEqual({ guia: 'Estafeta 1234567890', comentario: 'Dos cajas', envio: 1 });
    const logs = await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'pedido_surtido'));
    expect(logs.filter((l) => (l.metadata as { id_pedido?: number }).id_pedido === o.id)).toHaveLength(2);
    const mail = await smtp.waitFor(
      (m) => m.to.includes(`${w.tag}-comprador`) && m.subject.includes('enviado'),
    );
    expect(mail.subject).toBe(`Pedido #${String(o.id).padStart(5, '0')} enviado`);
    expect(mail.text).toContain('Guía de envío: Estafeta 1234567890');
    // The timeline shows the moves.
    const detail = (await w.api.buyer.get(`/api/historial/${o.id}`)).json();
    expect(detail.pedido.eventos.filter((e: { tipo: string }) => e.tipo === 'surtido')).toHaveLength(2);
    expect(detail.pedido.guia).toBe('Estafeta 1234567890');
    expect(detail.acciones.recibir).toBe(true);
    // Skipping ahead is a forward move.
    const skip = await w.order();
    expect((await move(skip.id, { estado: 'enviado' })).statusCode).toBe(200);
  });

  it('refuses backward and repeated moves (409), orders not approved (409), a long guía (400), missing (404)', async () => {
    const w = await world();
    const o = await w.order('aprobado', 'enviado');
    for (const estado of ['enviado', 'en_surtido', 'por_surtir']) {
      const res = await move(o.id, { estado });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'FULFILMENT_ALREADY', msg: MSG.surtidoYaEn('Enviado') });
    }
    const pending = await w.order('pendiente');
    const notApproved = await move(pending.id, { estado: 'en_surtido' });
    expect(notApproved.statusCode).toBe(409);
    expect(notApproved.json()).toMatchObject({ code: 'ORDER_NOT_APPROVED', msg: MSG.surtidoNoAprobado });
    const fresh = await w.order();
    const long = await move(fresh.id, { estado: 'enviado', guia: 'x'.repeat(61) });
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toBe(MSG.surtidoGuiaLarga);
    expect((await move(fresh.id, { estado: 'enviado', guia: 'x'.repeat(60) })).statusCode).toBe(200);
    const bad = await move(fresh.id, { estado: 'perdido' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().msg).toBe(MSG.surtidoEstadoInvalido);
    expect((await move(2_000_000_000, { estado: 'enviado' })).statusCode).toBe(404);
    // Other roles: 403.
    expect((await w.api.r2.post(`/api/surtido/${fresh.id}/estado`, { estado: 'entregado' })).statusCode).toBe(
      403,
    );
    expect(
      (await w.api.buyer.post(`/api/surtido/${fresh.id}/estado`, { estado: 'entregado' })).statusCode,
    ).toBe(403);
    expect(await surtidoOf(fresh.id)).toBe('enviado');
  });

  it('of two moves at once, exactly one wins and the other gets 409 naming where it is', async () => {
    const w = await world();
    const o = await w.order();
    const second = await new ApiClient(t.app).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    const results = await Promise.all([
      operator.post(`/api/surtido/${o.id}/estado`, { estado: 'en_surtido' }),
      second.post(`/api/surtido/${o.id}/estado`, { estado: 'en_surtido' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().msg).toBe(MSG.surtidoYaEn('En surtido'));
    const events = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, o.id), eq(orderEvents.tipo, 'surtido')));
    expect(events).toHaveLength(1);
  });

  it('the buyer confirms receipt of an own shipped order with a note the operator sees and is e-mailed', async () => {
    const w = await world();
    const o = await w.order('aprobado', 'enviado');
    const early = await w.order();
    const refused = await w.api.buyer.post(`/api/historial/${early.id}/recibido`, {});
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(MSG.surtidoNoEnviado);
    // Another buyer's order (same client) and another client's order answer like missing ones.
    expect((await w.api.otherBuyer.post(`/api/historial/${o.id}/recibido`, {})).statusCode).toBe(404);
    const stranger = await world();
    expect((await stranger.api.buyer.post(`/api/historial/${o.id}/recibido`, {})).statusCode).toBe(404);
    expect((await w.api.buyer.post('/api/historial/2000000000/recibido', {})).statusCode).toBe(404);
    const tooLong = await w.api.buyer.post(`/api/historial/${o.id}/recibido`, { nota: 'x'.repeat(501) });
    expect(tooLong.statusCode).toBe(400);
    const nota = 'Faltó una caja de tóner; otra llegó golpeada.';
    const ok = await w.api.buyer.post(`/api/historial/${o.id}/recibido`, { nota });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      msg: MSG.surtidoRecibido,
      pedido: { surtido: 'entregado', nota_recepcion: nota },
    });
    const again = await w.api.buyer.post(`/api/historial/${o.id}/recibido`, {});
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(MSG.surtidoYaEn('Entregado'));
    const mail = await smtp.waitFor((m) => m.to.includes(operatorEmail) && m.text.includes(nota));
    expect(mail.subject).toContain('recibido con una nota');
    const queue = (await operator.get(`/api/surtido?cliente=${w.client.id}&surtido=entregado`)).json();
    expect(
      queue.pedidos.map((p: { id: number; nota_recepcion: string }) => [p.id, p.nota_recepcion]),
    ).toEqual([[o.id, nota]]);
    // Receipt without a note sends no e-mail to the operators.
    const quiet = await w.order('aprobado', 'enviado');
    expect((await w.api.buyer.post(`/api/historial/${quiet.id}/recibido`)).statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 300));
    expect(
      smtp.received.filter(
        (m) => m.text.includes(`#${String(quiet.id).padStart(5, '0')}`) && m.to.includes(operatorEmail),
      ),
    ).toEqual([]);
  });

  it('the queue filters by client, state, exported and dates, 50 a page, approved orders only', async () => {
    const w = await world();
    const a = await w.order();
    const b = await w.order('aprobado', 'enviado');
    await w.order('pendiente');
    const all = (await operator.get(`/api/surtido?cliente=${w.client.id}`)).json();
    expect(all.pedidos.map((p: { id: number }) => p.id)).toEqual([b.id, a.id]);
    expect(all.pedidos[1]).toMatchObject({
      cliente: { id: w.client.id, nombre: w.client.nombre },
      comprador: 'Beatriz Compradora',
      surtido: 'por_surtir',
      productos: 1,
      exportado_at: null,
      lote: null,
    });
    expect(all).toMatchObject({ total: 2, page: 1, per_page: 50 });
    const shipped = (await operator.get(`/api/surtido?cliente=${w.client.id}&surtido=enviado`)).json();
    expect(shipped.pedidos.map((p: { id: number }) => p.id)).toEqual([b.id]);
    await operator.post('/api/surtido/exportar', { ids: [a.id] });
    const exported = (await operator.get(`/api/surtido?cliente=${w.client.id}&exportado=si`)).json();
    expect(exported.pedidos.map((p: { id: number }) => p.id)).toEqual([a.id]);
    const notExported = (await operator.get(`/api/surtido?cliente=${w.client.id}&exportado=no`)).json();
    expect(notExported.pedidos.map((p: { id: number }) => p.id)).toEqual([b.id]);
    const future = (await operator.get(`/api/surtido?cliente=${w.client.id}&desde=2099-01-01`)).json();
    expect(future.total).toBe(0);
    const badRange = await operator.get('/api/surtido?desde=2026-05-02&hasta=2026-05-01');
    expect(badRange.statusCode).toBe(400);
    expect(badRange.json().msg).toBe(MSG.rangoFechasInvalido);
    expect((await operator.get('/api/surtido?surtido=perdido')).statusCode).toBe(400);
    expect((await w.api.r2.get('/api/surtido')).statusCode).toBe(403);
    expect((await w.api.buyer.get('/api/surtido')).statusCode).toBe(403);
  });

  it('exports as CSV or JSON, stamps time, who and a batch; exported ids only with reexportar', async () => {
    const w = await world();
    const a = await w.order();
    const b = await w.order();
    const csv = await operator.post('/api/surtido/exportar', { ids: [a.id, b.id] });
    expect(csv.statusCode, csv.body).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const [header, first] = csv.body.replace(/^\uFEFF/, '').split('\r\n');
    expect(header).toBe(
      'Pedido,Fecha,Estatus,Usuario,Nombre,Clave interna,Clave cliente,Producto,Categoría,Unidad,Cantidad,Precio unitario,IVA,Importe,Cliente,Dirección de entrega,Semana de entrega,Autorizadores,Surtido,Guía,Lote',
    );
    // Formula-safe: the product "=Tóner" is written with an apostrophe.
    expect(first).toContain(",'=Tóner,");
    expect(first).toContain(',2,123.45,39.50,246.90,');
    expect(first).toContain('"Av. Juárez 10, Centro",2,');
    const stamped = await db()
      .select({
        id: orders.id,
        at: orders.exportadoAt,
        por: orders.exportadoPor,
        lote: orders.loteExportacion,
      })
      .from(orders)
      .where(inArray(orders.id, [a.id, b.id]));
    expect(stamped.every((s) => s.at !== null && s.por !== null)).toBe(true);
    const lote = stamped[0]!.lote!;
    expect(stamped[1]!.lote).toBe(lote);
    expect(first!.endsWith(`,${lote}`)).toBe(true);

    const c = await w.order();
    const refused = await operator.post('/api/surtido/exportar', { ids: [c.id, a.id, b.id] });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'ALREADY_EXPORTED',
      msg: MSG.surtidoYaExportados(`#${String(a.id).padStart(5, '0')}, #${String(b.id).padStart(5, '0')}`),
    });
    const [cRow] = await db().select().from(orders).where(eq(orders.id, c.id));
    expect(cRow!.exportadoAt).toBeNull();

    const delegatorUser = await makeUser(db(), { rol: 2, idCliente: w.client.id, nombre: 'Raúl Martínez' });
    await db()
      .insert(orderEvents)
      .values([
        {
          orderId: c.id,
          actorId: w.r2.id,
          onBehalfOfId: delegatorUser.id,
          tipo: 'aprobado',
          toStatus: 'espera',
        },
        { orderId: c.id, actorId: null, tipo: 'aprobado', toStatus: 'aprobado' },
      ]);
    const json = await operator.post(
      '/api/surtido/exportar',
      { ids: [c.id, a.id], reexportar: true },
      { headers: { accept: 'application/json' } },
    );
    expect(json.statusCode, json.body).toBe(200);
    const body = json.json();
    expect(body.lote).toBeGreaterThan(lote);
    expect(body.columnas).toContain('Autorizadores');
    expect(body.filas.map((f: (string | number)[]) => f[0])).toEqual([
      String(c.id).padStart(5, '0'),
      String(a.id).padStart(5, '0'),
    ]);
    expect(body.filas[0][7]).toBe('=Tóner');
    expect(body.filas[0][body.columnas.indexOf('Autorizadores')]).toBe(
      `Rita Autorizadora en nombre de Raúl Martínez / ${MSG.ordenCompraAprobacionAutomatica}`,
    );
  });

  it('export refusals: missing ids 404, not approved 409, empty or repeated 400, other roles 403', async () => {
    const w = await world();
    const a = await w.order();
    const pending = await w.order('pendiente');
    expect((await operator.post('/api/surtido/exportar', { ids: [a.id, 2_000_000_000] })).statusCode).toBe(
      404,
    );
    const notApproved = await operator.post('/api/surtido/exportar', { ids: [a.id, pending.id] });
    expect(notApproved.statusCode).toBe(409);
    expect(notApproved.json().code).toBe('ORDER_NOT_APPROVED');
    const empty = await operator.post('/api/surtido/exportar', { ids: [] });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe(MSG.loteVacio);
    expect((await operator.post('/api/surtido/exportar', { ids: [a.id, a.id] })).json().msg).toBe(
      MSG.loteRepetido,
    );
    expect((await w.api.r2.post('/api/surtido/exportar', { ids: [a.id] })).statusCode).toBe(403);
    const [row] = await db().select().from(orders).where(eq(orders.id, a.id));
    expect(row!.exportadoAt).toBeNull();
  });

  it('the operator downloads the purchase order of an approved order only', async () => {
    const w = await world();
    const a = await w.order();
    const pending = await w.order('pendiente');
    const pdf = await operator.get(`/api/surtido/${a.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    expect(pdf.headers['content-disposition']).toContain(`OC-${String(a.id).padStart(5, '0')}.pdf`);
    expect(pdf.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const refused = await operator.get(`/api/surtido/${pending.id}/pdf`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().msg).toBe(MSG.soloAprobadosOrdenCompra);
    expect((await operator.get('/api/surtido/2000000000/pdf')).statusCode).toBe(404);
    expect((await w.api.r2.get(`/api/surtido/${a.id}/pdf`)).statusCode).toBe(403);
    // The admin's read-only order carries the fulfilment state.
    const admin = (await operator.get(`/api/admin/pedidos/${a.id}`)).json();
    expect(admin.pedido.surtido).toBe('por_surtir');
  });
});
