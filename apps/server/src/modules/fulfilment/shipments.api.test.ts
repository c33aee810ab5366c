import { addDays, businessDate } from '@portal/shared/domain/time';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  lateLineDigests,
  orderEvents,
  orderLines,
  orderShipments,
  products,
  systemLogs,
  userMonthSpend,
  webhookEvents,
} from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { integrationToken, signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeClient, uniq } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { shippingWorld } from '../../test/shipping-fixtures.ts';
import { startSmtp } from '../../test/smtp.ts';
import { runLateDigests } from './late-lines.service.ts';

/**
 * Promised dates, partial shipments, lines cancelled as unavailable and the late-lines digest (issue 41 items
 * 2 and 3, decision 0125), through the real approval and the operator's and the integrations' routes.
 */
describe.each(DB_KINDS)('shipments and promised dates (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let operator: ApiClient;
  let operatorEmail: string;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    const admin = await signedInAdmin(t.app, db());
    operator = admin.api;
    operatorEmail = admin.user.email;
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;
  const tz = () => t.app.deps.config.BUSINESS_TZ;
  const today = () => businessDate(t.app.clock.now(), tz());

  /** A client with one level, a buyer with two products (the tóner with a lead time of 7 days), its approver. */
  async function world() {
    const w = await shippingWorld(t, operator, { diasEntrega: 7 });
    const stock = async () =>
      (
        await db()
          .select({ existencia: products.existencia, reservado: products.reservado })
          .from(products)
          .where(eq(products.id, w.toner.id))
      )[0]!;
    const spend = async () =>
      (
        await db()
          .select({ importe: userMonthSpend.importe })
          .from(userMonthSpend)
          .where(and(eq(userMonthSpend.idUser, w.buyer.id), eq(userMonthSpend.idCategoria, 0)))
      ).reduce((s, r) => s + Number(r.importe), 0);
    return { ...w, stock, spend };
  }

  const ship = (id: number, body: Record<string, unknown>) =>
    operator.post(`/api/surtido/${id}/envios`, body);
  const cancelLine = (id: number, linea: number, body: Record<string, unknown>) =>
    operator.post(`/api/surtido/${id}/lineas/${linea}/cancelar`, body);

  it('the final approval promises each line: today + its lead time, or + 3 days without one', async () => {
    const w = await world();
    const o = await w.approved();
    const [toner, hojas] = await w.lines(o.id);
    expect(toner!.fechaPromesa).toBe(addDays(today(), 7));
    expect(hojas!.fechaPromesa).toBe(addDays(today(), 3));
    // The buyer's order shows them per line.
    const detail = (await w.buyerApi.get(`/api/historial/${o.id}`)).json();
    expect(detail.pedido.lineas.map((l: { fecha_promesa: string }) => l.fecha_promesa)).toEqual([
      addDays(today(), 7),
      addDays(today(), 3),
    ]);
    // The operator moves them; a past date is refused, as are lines with nothing left to ship.
    const past = await operator.post(`/api/surtido/${o.id}/promesa`, { fecha: addDays(today(), -1) });
    expect(past.statusCode).toBe(400);
    expect(past.json().msg).toBe(MSG.promesaPasada);
    const set = await operator.post(`/api/surtido/${o.id}/promesa`, {
      fecha: addDays(today(), 10),
      lineas: [o.hojas],
    });
    expect(set.statusCode, set.body).toBe(200);
    expect((await w.lines(o.id)).map((l) => l.fechaPromesa)).toEqual([
      addDays(today(), 7),
      addDays(today(), 10),
    ]);
    expect((await ship(o.id, { lineas: [{ id: o.hojas, cantidad: 2 }] })).statusCode).toBe(200);
    const closed = await operator.post(`/api/surtido/${o.id}/promesa`, {
      fecha: addDays(today(), 12),
      lineas: [o.hojas],
    });
    expect(closed.statusCode).toBe(409);
    expect(closed.json().msg).toBe(MSG.promesaLineasCerradas);
    const events = await db()
      .select({ tipo: orderEvents.tipo })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, o.id), eq(orderEvents.tipo, 'promesa')));
    expect(events).toHaveLength(1);
  });

  it('ships some units (parcial), then the rest (enviado): numbered shipments, stock consumed, buyer e-mails', async () => {
    const w = await world();
    const o = await w.approved();
    expect(await w.stock()).toEqual({ existencia: 20, reservado: 5 });
    const first = await ship(o.id, {
      lineas: [{ id: o.toner, cantidad: 3 }],
      guia: '7701234567',
      paqueteria: 'estafeta',
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ envio: { numero: 1 }, pedido: { id: o.id, surtido: 'parcial' } });
    expect(first.json().msg).toBe(MSG.envioRegistrado(1, 'Envío parcial'));
    expect(await w.stock()).toEqual({ existencia: 17, reservado: 2 });
    expect((await w.lines(o.id)).map((l) => [l.enviado, l.reservado])).toEqual([
      [3, 2],
      [0, 2],
    ]);
    // The pick list of a partly shipped order lists what is left to ship.
    const pick = await operator.post('/api/surtido/lista', { ids: [o.id], formato: 'csv' });
    expect(pick.statusCode, pick.body).toBe(200);
    const row = (name: string) => pick.body.split('\n').find((l) => l.includes(name)) ?? '';
    expect(row(w.toner.nombre)).toContain(',2,');
    expect(row(w.hojas.nombre)).toContain(',2,');
    const mail = await smtp.waitFor(
      (m) => m.to.includes(`${w.tag}-comprador`) && m.subject.includes('envío 1'),
    );
    expect(mail.subject).toBe(`Pedido #${String(o.id).padStart(5, '0')}: envío 1 en camino (parcial)`);
    expect(mail.text).toContain(`3 × ${w.toner.nombre}`);
    expect(mail.text).toContain('Lo demás se enviará después.');
    // More than is left of a line: 409, nothing written.
    const over = await ship(o.id, { lineas: [{ id: o.toner, cantidad: 3 }] });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'SHIPMENT_EXCEEDS', msg: MSG.envioExcede });
    // Another order's line: 409 too (it is not this order's), and the same line twice: 400.
    const other = await w.approved();
    expect((await ship(o.id, { lineas: [{ id: other.toner, cantidad: 1 }] })).statusCode).toBe(409);
    const twice = await ship(o.id, {
      lineas: [
        { id: o.toner, cantidad: 1 },
        { id: o.toner, cantidad: 1 },
      ],
    });
    expect(twice.statusCode).toBe(400);
    expect(twice.json().msg).toBe(MSG.envioLinea);
    const future = await ship(o.id, { lineas: [{ id: o.toner, cantidad: 1 }], fecha: addDays(today(), 1) });
    expect(future.statusCode).toBe(400);
    expect(future.json().msg).toBe(MSG.envioFechaFutura);
    // Only a shipment makes an order parcial.
    const moveParcial = await operator.post(`/api/surtido/${other.id}/estado`, { estado: 'parcial' });
    expect(moveParcial.statusCode).toBe(400);
    expect(moveParcial.json().msg).toBe(MSG.envioParcialNoEsMovimiento);
    const rest = await ship(o.id, {
      lineas: [
        { id: o.toner, cantidad: 2 },
        { id: o.hojas, cantidad: 2 },
      ],
      guia: '7709999999',
    });
    expect(rest.statusCode, rest.body).toBe(200);
    expect(rest.json()).toMatchObject({ envio: { numero: 2 }, pedido: { surtido: 'enviado' } });
    // What the other order reserves is still reserved; this one's is consumed.
    expect(await w.stock()).toEqual({ existencia: 15, reservado: 5 });
    const none = await ship(o.id, { lineas: [{ id: o.toner, cantidad: 1 }] });
    expect(none.statusCode).toBe(409);
    expect(none.json().code).toBe('NOTHING_TO_SHIP');
    // The buyer's order lists both shipments and each line's shipped units; the timeline has them.
    const detail = (await w.buyerApi.get(`/api/historial/${o.id}`)).json().pedido;
    expect(detail.surtido).toBe('enviado');
    expect(detail.guia).toBe('7709999999');
    expect(
      detail.envios.map((e: { numero: number; guia: string | null; paqueteria: string | null }) => [
        e.numero,
        e.guia,
        e.paqueteria,
      ]),
    ).toEqual([
      [1, '7701234567', 'Estafeta'],
      [2, '7709999999', null],
    ]);
    expect(detail.envios[1].lineas).toEqual([
      { id_linea: o.toner, cantidad: 2 },
      { id_linea: o.hojas, cantidad: 2 },
    ]);
    expect(detail.lineas.map((l: { enviado: number }) => l.enviado)).toEqual([5, 2]);
    expect(detail.eventos.filter((e: { tipo: string }) => e.tipo === 'envio')).toHaveLength(2);
    const last = await smtp.waitFor(
      (m) => m.to.includes(`${w.tag}-comprador`) && m.subject.includes('envío 2'),
    );
    expect(last.text).toContain('El último envío de tu pedido');
    // The buyer confirms receipt of the shipped order as before.
    expect((await w.buyerApi.post(`/api/historial/${o.id}/recibido`, {})).statusCode).toBe(200);
  });

  it('moving to enviado ships every unit left in one shipment (after a partial one)', async () => {
    const w = await world();
    const o = await w.approved();
    expect((await ship(o.id, { lineas: [{ id: o.toner, cantidad: 1 }] })).statusCode).toBe(200);
    const moved = await operator.post(`/api/surtido/${o.id}/estado`, { estado: 'enviado', guia: 'DHL 123' });
    expect(moved.statusCode, moved.body).toBe(200);
    expect((await w.lines(o.id)).map((l) => l.enviado)).toEqual([5, 2]);
    const shipments = await db()
      .select({ numero: orderShipments.numero })
      .from(orderShipments)
      .where(eq(orderShipments.orderId, o.id))
      .orderBy(orderShipments.numero);
    expect(shipments.map((s) => s.numero)).toEqual([1, 2]);
    expect(await w.stock()).toEqual({ existencia: 15, reservado: 0 });
  });

  it('10 concurrent shipments of 1 unit of a 5-unit line ship exactly 5 (409 to the rest)', async () => {
    const w = await world();
    const o = await w.approved(5, 1);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => ship(o.id, { lineas: [{ id: o.toner, cantidad: 1 }] })),
    );
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(5);
    const [toner] = await w.lines(o.id);
    expect(toner!.enviado).toBe(5);
    const numbers = await db()
      .select({ numero: orderShipments.numero })
      .from(orderShipments)
      .where(eq(orderShipments.orderId, o.id))
      .orderBy(orderShipments.numero);
    expect(numbers.map((n) => n.numero)).toEqual([1, 2, 3, 4, 5]);
    expect(await w.stock()).toEqual({ existencia: 15, reservado: 0 });
  });

  it('a line cancelled as unavailable leaves the total and the month at once, releases its stock and tells buyer and approver', async () => {
    const w = await world();
    const o = await w.approved();
    const before = await w.order(o.id);
    // 5 × 100.00 + 2 × 25.50 = 551.00, IVA 88.16 → 639.16
    expect(before.total).toBe(63_916);
    const missing = await cancelLine(o.id, o.toner, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().msg).toBe(MSG.lineaMotivoRequerido);
    const over = await cancelLine(o.id, o.toner, { cantidad: 6, motivo: 'Agotado' });
    expect(over.statusCode).toBe(409);
    expect(over.json().msg).toBe(MSG.lineaCancelarExcede);
    const other = await w.approved();
    const notHere = await cancelLine(o.id, other.toner, { motivo: 'Agotado' });
    expect(notHere.statusCode).toBe(404);
    expect(notHere.json().msg).toBe(MSG.lineaNoEncontrada);
    const spentBefore = await w.spend();

    const res = await cancelLine(o.id, o.toner, { cantidad: 2, motivo: 'Agotado con el proveedor' });
    expect(res.statusCode, res.body).toBe(200);
    // 3 × 100.00 + 2 × 25.50 = 351.00, IVA 56.16 → 407.16
    expect(res.json().pedido).toEqual({ id: o.id, surtido: 'por_surtir', total: 407.16 });
    const after = await w.order(o.id);
    expect([after.subtotal, after.iva, after.total]).toEqual([35_100, 5_616, 40_716]);
    expect(spentBefore - (await w.spend())).toBe(63_916 - 40_716);
    const [toner] = await w.lines(o.id);
    expect([toner!.cantidad, toner!.cancelado, toner!.motivoCancelacion, toner!.reservado]).toEqual([
      3,
      2,
      'Agotado con el proveedor',
      3,
    ]);
    // Two orders reserve 5 each; 2 of this one's went back.
    expect(await w.stock()).toEqual({ existencia: 20, reservado: 8 });
    const subject = `Pedido #${String(o.id).padStart(5, '0')}: se canceló un producto sin existencia`;
    const toBuyer = await smtp.waitFor((m) => m.to.includes(`${w.tag}-comprador`) && m.subject === subject);
    expect(toBuyer.text).toContain('Motivo: Agotado con el proveedor');
    expect(toBuyer.text).toContain('$639.16');
    await smtp.waitFor((m) => m.to.includes(`${w.tag}-autorizador`) && m.subject === subject);
    const detail = (await w.buyerApi.get(`/api/historial/${o.id}`)).json().pedido;
    expect(detail.lineas[0]).toMatchObject({
      cantidad: 3,
      cancelado: 2,
      motivo_cancelacion: 'Agotado con el proveedor',
    });
    expect(detail.eventos.find((e: { tipo: string }) => e.tipo === 'linea_cancelada')).toMatchObject({
      motivo: 'Agotado con el proveedor',
      cambios: { cantidad: 2, total_anterior: 63_916, total: 40_716 },
    });

    // Ship what is left of the tóner, cancel the hojas: nothing left, so the order is enviado.
    expect((await ship(o.id, { lineas: [{ id: o.toner, cantidad: 3 }] })).json().pedido.surtido).toBe(
      'parcial',
    );
    const lastLine = await cancelLine(o.id, o.hojas, { motivo: 'Descontinuado' });
    expect(lastLine.statusCode, lastLine.body).toBe(200);
    expect(lastLine.json().pedido.surtido).toBe('enviado');
  });

  it('cancelling every unit of an order that shipped nothing cancels the order, out of the month', async () => {
    const w = await world();
    const spentBefore = await w.spend();
    const o = await w.approved(2, 1);
    expect((await cancelLine(o.id, o.toner, { motivo: 'Sin existencia' })).statusCode).toBe(200);
    const res = await cancelLine(o.id, o.hojas, { motivo: 'Sin existencia' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().pedido.surtido).toBeNull();
    const after = await w.order(o.id);
    expect([after.status, after.cancelReason, after.total]).toEqual(['cancelado', 'Sin existencia', 0]);
    expect(await w.spend()).toBe(spentBefore);
    expect(await w.stock()).toEqual({ existencia: 20, reservado: 0 });
  });

  it('late lines: «Atrasado» in the queue and its filter, and one digest a day to each operator', async () => {
    const w = await world();
    const late = await w.approved();
    const onTime = await w.approved();
    await db()
      .update(orderLines)
      .set({ fechaPromesa: addDays(today(), -2) })
      .where(eq(orderLines.id, late.hojas));
    const queue = (await operator.get(`/api/surtido?cliente=${w.client.id}`)).json();
    const flags = Object.fromEntries(
      queue.pedidos.map((p: { id: number; atrasado: boolean }) => [p.id, p.atrasado]),
    );
    expect(flags).toEqual({ [late.id]: true, [onTime.id]: false });
    const filtered = (await operator.get(`/api/surtido?cliente=${w.client.id}&atrasado=si`)).json();
    expect(filtered.pedidos.map((p: { id: number }) => p.id)).toEqual([late.id]);
    expect(filtered.total).toBe(1);

    const deps = { db: db(), publicUrl: t.app.deps.config.PUBLIC_URL, tz: tz() };
    await db().delete(lateLineDigests);
    expect(await runLateDigests(deps, t.app.clock.now())).toBeGreaterThanOrEqual(1);
    // As the scheduled job does after enqueuing (lib/mail-jobs.ts): the tests' mailer polls once a minute, so
    // without it the digest went out only when an earlier flush was still claiming (failed under load).
    await t.app.mailer.flush();
    const digest = await smtp.waitFor((m) => m.to.includes(operatorEmail) && /atrasada/.test(m.subject));
    expect(digest.text).toContain(`#${String(late.id).padStart(5, '0')}`);
    expect(digest.text).toContain(`2 × ${w.hojas.nombre}`);
    // Once a day, however often it runs.
    expect(await runLateDigests(deps, t.app.clock.now())).toBe(0);
    // Shipped, the line is no longer late.
    expect((await ship(late.id, { lineas: [{ id: late.hojas, cantidad: 2 }] })).statusCode).toBe(200);
    const after = (await operator.get(`/api/surtido?cliente=${w.client.id}&atrasado=si`)).json();
    expect(after.pedidos).toEqual([]);
  });

  it('v1: a token ships with the operator’s rules, once per Idempotency-Key, with a pedido.envio webhook', async () => {
    const w = await world();
    const o = await w.approved();
    const newToken = (idCliente: number | null) =>
      integrationToken(operator, {
        nombre: 'WMS',
        id_cliente: idCliente,
        permisos: ['surtido:escribir', 'pedidos:leer'],
      });
    const mine = await newToken(w.client.id);
    const otherClient = await makeClient(db(), { nombre: uniq('Otro') });
    const theirs = await newToken(otherClient.id);
    const hook = await operator.post('/api/integracion/webhooks', {
      url: 'https://8.8.8.8/envios',
      id_cliente: w.client.id,
      eventos: ['pedido.envio'],
    });
    expect(hook.statusCode, hook.body).toBe(201);
    const call = (token: string, body: unknown, key?: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/pedidos/${o.id}/envios`,
        payload: body as object,
        headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
      });
    const body = { lineas: [{ id: o.toner, cantidad: 2 }], guia: 'FX-1', paqueteria: 'fedex' };
    expect((await call(theirs, body)).statusCode).toBe(404);
    const key = uniq('envio');
    const first = await call(mine, body, key);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ envio: { numero: 1 }, pedido: { surtido: 'parcial' } });
    const replay = await call(mine, body, key);
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotency-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
    expect((await w.lines(o.id))[0]!.enviado).toBe(2);
    const event = await db()
      .select({ cuerpo: webhookEvents.cuerpo })
      .from(webhookEvents)
      .where(and(eq(webhookEvents.orderId, o.id), eq(webhookEvents.tipo, 'pedido.envio')));
    expect(event).toHaveLength(1);
    const payload = JSON.parse(event[0]!.cuerpo);
    expect(payload.envio).toEqual({
      id: first.json().envio.id,
      numero: 1,
      guia: 'FX-1',
      paqueteria: 'FedEx',
      fecha: today(),
      lineas: [{ id_linea: o.toner, cantidad: 2 }],
      reposicion: false,
      recepcion: null,
    });
    expect(payload.pedido.lineas[0]).toMatchObject({
      enviado: 2,
      cancelado: 0,
      fecha_promesa: addDays(today(), 7),
    });
    // The v1 read API has the shipments too.
    const read = await t.app.inject({
      method: 'GET',
      url: `/api/v1/pedidos/${o.id}`,
      headers: { authorization: `Bearer ${mine}` },
    });
    expect(read.json().envios).toHaveLength(1);
    const logs = await db()
      .select({ metadata: systemLogs.metadata })
      .from(systemLogs)
      .where(and(eq(systemLogs.eventType, 'pedido_envio'), eq(systemLogs.idPedido, o.id)));
    expect(logs).toHaveLength(1);
    expect(logs[0]!.metadata).toMatchObject({ envio: 1, id_token: expect.any(Number) });
  });
});
