import { CLAIM_MSG } from '@portal/shared/domain/claims';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { moveOrderTotals } from '../../db/order-totals.ts';
import {
  areas,
  budgetAdjustments,
  orderShipments,
  orders,
  systemLogs,
  users,
} from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { integrationToken, signedInAdmin } from '../../test/admin-fixtures.ts';
import { monthsBack } from '../../test/calendar.ts';
import { makeCategory, makeOrder, makeProduct, uniq } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { pdfText } from '../../test/pdf-text.ts';
import { shippingWorld } from '../../test/shipping-fixtures.ts';
import { startSmtp } from '../../test/smtp.ts';

/**
 * Claims on shipped units (issue 41 item 5, decision 0127): opened by hand, decided by the operator
 * (replacement, credit in the order's month or in the current one, refusal, return), the races, the
 * documents and the integrations' view.
 */
describe.each(DB_KINDS)('claims (%s)', (kind) => {
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
  const world = () => shippingWorld(t, operator);
  const tonerClaim = (id: number, cantidad: number, resolucion = 'reposicion') => ({
    lineas: [{ id, cantidad, motivo: 'danado' }],
    resolucion,
  });
  /** The buyer's budget figures as the budget cards read them (pesos). */
  const budget = async (api: ApiClient) => (await api.get('/api/carrito')).json().presupuesto;
  const subject = (id: number, rest: string) => `Pedido #${String(id).padStart(5, '0')}: ${rest}`;

  it('opens claims by hand on shipped units, numbered per order, and refuses the rest in Spanish', async () => {
    const w = await world();
    const o = await w.approved(5, 2);
    await w.ship(o.id, [{ id: o.toner, cantidad: 3 }]);
    const first = await w.claim(o.id, { ...tonerClaim(o.toner, 2), nota: 'Golpeados' });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ msg: MSG.reclamoAbierto(1), reclamo: { numero: 1 } });
    // Only 1 shipped unit of the tóner is left to claim; the hojas have none shipped.
    const over = await w.claim(o.id, tonerClaim(o.toner, 2));
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'CLAIM_EXCEEDS', msg: MSG.reclamoExcede(w.toner.nombre, 1) });
    const hojas = await w.claim(o.id, {
      lineas: [{ id: o.hojas, cantidad: 1, motivo: 'faltante' }],
      resolucion: 'credito',
    });
    expect(hojas.statusCode).toBe(409);
    expect(hojas.json().msg).toBe(MSG.reclamoExcede(w.hojas.nombre, 0));
    const second = await w.claim(o.id, {
      lineas: [{ id: o.toner, cantidad: 1, motivo: 'no_solicitado' }],
      resolucion: 'credito',
    });
    expect(second.json().reclamo.numero).toBe(2);
    expect((await w.lines(o.id))[0]!.reclamado).toBe(3);
    const detail = await w.detail(o.id);
    expect(detail.reclamos.map((r: { numero: number; envio: number | null }) => [r.numero, r.envio])).toEqual(
      [
        [1, null],
        [2, null],
      ],
    );
    expect(detail.eventos.filter((e: { tipo: string }) => e.tipo === 'reclamo')).toHaveLength(2);
    await smtp.waitFor(
      (m) => m.to.includes(operatorEmail) && m.subject === subject(o.id, 'reclamo 2 abierto'),
    );
    const logs = await db()
      .select({ eventType: systemLogs.eventType })
      .from(systemLogs)
      .where(and(eq(systemLogs.idPedido, o.id), eq(systemLogs.eventType, 'reclamo_abierto')));
    expect(logs).toHaveLength(2);

    const other = await w.approved();
    const cases: [Record<string, unknown>, number, string][] = [
      [{ ...tonerClaim(other.toner, 1) }, 400, MSG.lineaNoEncontrada],
      [{ ...tonerClaim(o.toner, 0) }, 400, CLAIM_MSG.reclamoCantidad],
      [{ lineas: [], resolucion: 'credito' }, 400, MSG.envioLinea],
      [
        { lineas: [{ id: o.toner, cantidad: 1, motivo: 'roto' }], resolucion: 'credito' },
        400,
        CLAIM_MSG.reclamoMotivo,
      ],
      [{ lineas: [{ id: o.toner, cantidad: 1, motivo: 'danado' }] }, 400, CLAIM_MSG.reclamoResolucion],
    ];
    for (const [body, status, msg] of cases) {
      const res = await w.claim(o.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().msg, JSON.stringify(body)).toBe(msg);
    }
    // Photos that are not the buyer's own loose photos of this order: 400, nothing written.
    const fresh = await w.shipped();
    const foreignPhoto = await w.photoId(o.id);
    const photos = await w.claim(fresh.id, { ...tonerClaim(fresh.toner, 1), fotos: [foreignPhoto] });
    expect(photos.statusCode).toBe(400);
    expect(photos.json().msg).toBe(CLAIM_MSG.reclamoFotos);
    expect((await w.lines(fresh.id))[0]!.reclamado).toBe(0);
    // An order not approved: 409; another buyer's or client's order: 404; another role: 403.
    const pending = await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      lines: [{ productId: w.toner.id, precio: 100, cantidad: 1, idCategoria: w.category.id }],
    });
    const notApproved = await w.claim(pending.id, tonerClaim(pending.lineIds[0]!, 1));
    expect(notApproved.statusCode).toBe(409);
    expect((await w.claim(o.id, tonerClaim(o.toner, 1), w.otherBuyerApi)).statusCode).toBe(404);
    const stranger = await world();
    expect((await stranger.claim(o.id, tonerClaim(o.toner, 1))).statusCode).toBe(404);
    expect((await w.claim(o.id, tonerClaim(o.toner, 1), w.r2)).statusCode).toBe(403);
    expect((await w.claim(o.id, tonerClaim(o.toner, 1), operator)).statusCode).toBe(403);
    expect((await w.lines(o.id))[0]!.reclamado).toBe(3);
  });

  it('concurrent claims on one line never exceed its shipped units', async () => {
    const w = await world();
    const o = await w.shipped(5, 1);
    const results = await Promise.all(Array.from({ length: 8 }, () => w.claim(o.id, tonerClaim(o.toner, 1))));
    const codes = results.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(5);
    expect(codes.filter((c) => c === 409)).toHaveLength(3);
    expect((await w.lines(o.id))[0]!.reclamado).toBe(5);
    expect((await w.detail(o.id)).reclamos.map((r: { numero: number }) => r.numero)).toEqual([1, 2, 3, 4, 5]);
  });

  it('the operator’s queue, a refusal (units back, buyer told, reclamo.rechazado) and a second decision’s 409', async () => {
    const w = await world();
    await w.hook(['reclamo.rechazado', 'reclamo.devolucion']);
    const o = await w.shipped();
    const id = (await w.claim(o.id, { ...tonerClaim(o.toner, 2), nota: 'Cajas mojadas' })).json().reclamo.id;
    const queue = (await operator.get('/api/surtido/reclamos')).json();
    expect(queue.per_page).toBe(50);
    const row = queue.items.find((r: { id: number }) => r.id === id);
    expect(row).toMatchObject({
      id_pedido: o.id,
      cliente: w.client.nombre,
      comprador: w.buyer.nombre,
      estado: 'abierto',
      nota: 'Cajas mojadas',
    });
    expect(queue.items[0].id).toBe(id);
    expect((await w.r2.get('/api/surtido/reclamos')).statusCode).toBe(403);

    const missingReason = await w.decide(id, { accion: 'rechazar', motivo: ' ' });
    expect(missingReason.statusCode).toBe(400);
    expect(missingReason.json().msg).toBe(CLAIM_MSG.reclamoMotivoRechazo);
    expect((await w.decide(id, { accion: 'regalar' })).json().msg).toBe(CLAIM_MSG.reclamoAccion);
    const back = await w.decide(id, { accion: 'devolucion', guia: '7701', paqueteria: 'estafeta' });
    expect(back.statusCode, back.body).toBe(200);
    expect(back.json()).toMatchObject({ reclamo: { id, estado: 'devolucion' }, envio: null, credito: 0 });
    const again = await w.decide(id, { accion: 'devolucion', guia: '7702' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'CLAIM_ALREADY_DECIDED',
      msg: MSG.reclamoYaDecidido('Devolución solicitada'),
    });
    await smtp.waitFor(
      (m) =>
        m.to.includes(`${w.tag}-comprador`) &&
        m.subject === subject(o.id, 'reclamo 1 devolución solicitada') &&
        m.text.includes('Estafeta 7701'),
    );
    const refused = await w.decide(id, { accion: 'rechazar', motivo: 'La mercancía llegó completa' });
    expect(refused.statusCode, refused.body).toBe(200);
    expect(refused.json()).toMatchObject({ msg: MSG.reclamoRechazado, reclamo: { estado: 'rechazado' } });
    expect((await w.lines(o.id))[0]!.reclamado).toBe(0);
    const claimNow = (await w.detail(o.id)).reclamos[0];
    expect(claimNow).toMatchObject({
      estado: 'rechazado',
      respuesta: 'La mercancía llegó completa',
      guia_devolucion: '7701',
      paqueteria_devolucion: 'Estafeta',
    });
    const late = await w.decide(id, { accion: 'aceptar', resolucion: 'credito' });
    expect(late.statusCode).toBe(409);
    expect(late.json().msg).toBe(MSG.reclamoYaDecidido('Rechazado'));
    expect((await w.decide(2_000_000_000, { accion: 'rechazar', motivo: 'x' })).statusCode).toBe(404);
    const mail = await smtp.waitFor(
      (m) => m.to.includes(`${w.tag}-comprador`) && m.subject === subject(o.id, 'reclamo 1 rechazado'),
    );
    expect(mail.text).toContain('Motivo: La mercancía llegó completa');
    expect(mail.text).toContain(`/usuario/historial/${o.id}`);
    const [hook] = await w.events(o.id, 'reclamo.rechazado');
    expect(hook.reclamo).toMatchObject({ id, estado: 'rechazado' });
    expect(await w.events(o.id, 'reclamo.devolucion')).toHaveLength(1);
    const events = (await w.detail(o.id)).eventos.map((e: { tipo: string }) => e.tipo);
    expect(events.slice(-2)).toEqual(['reclamo_devolucion', 'reclamo_rechazado']);
    // The queue's pending view no longer has it; every state does.
    const pendientes = (await operator.get('/api/surtido/reclamos')).json().items;
    expect(pendientes.some((r: { id: number }) => r.id === id)).toBe(false);
    const rechazados = (await operator.get('/api/surtido/reclamos?estado=rechazado')).json().items;
    expect(rechazados.some((r: { id: number }) => r.id === id)).toBe(true);
  });

  it('two decisions at once: one is written, the other gets 409', async () => {
    const w = await world();
    const o = await w.shipped();
    const id = (await w.claim(o.id, tonerClaim(o.toner, 1, 'credito'))).json().reclamo.id;
    const results = await Promise.all([
      w.decide(id, { accion: 'aceptar', resolucion: 'credito' }),
      w.decide(id, { accion: 'rechazar', motivo: 'No procede' }),
      w.decide(id, { accion: 'aceptar', resolucion: 'reposicion' }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
    for (const r of results.filter((x) => x.statusCode === 409))
      expect(r.json().code).toBe('CLAIM_ALREADY_DECIDED');
    const winner = results.find((r) => r.statusCode === 200)!.json();
    const shipments = await db().select().from(orderShipments).where(eq(orderShipments.orderId, o.id));
    const [toner] = await w.lines(o.id);
    // Exactly the winner's outcome happened, once.
    if (winner.credito > 0) {
      expect([toner!.acreditado, toner!.reclamado, shipments.length]).toEqual([1, 1, 1]);
    } else if (winner.envio) {
      expect([toner!.acreditado, toner!.reclamado, shipments.length]).toEqual([0, 0, 2]);
    } else {
      expect(winner.reclamo.estado).toBe('rechazado');
      expect([toner!.acreditado, toner!.reclamado, shipments.length]).toEqual([0, 0, 1]);
    }
    const decided = (await w.detail(o.id)).eventos.filter((e: { tipo: string }) =>
      ['reclamo_aceptado', 'reclamo_rechazado'].includes(e.tipo),
    );
    expect(decided).toHaveLength(1);
  });

  it('a credit in the order’s month: the units leave cantidad and enviado, the month spend goes down by exactly the credit', async () => {
    const w = await world();
    await w.hook(['reclamo.aceptado']);
    const o = await w.shipped(5, 2);
    // 5 × 100.00 + 2 × 25.50 = 551.00, IVA 88.16 → 639.16
    expect((await w.order(o.id)).total).toBe(63_916);
    const before = await budget(w.buyerApi);
    const id = (
      await w.claim(o.id, {
        lineas: [
          { id: o.toner, cantidad: 1, motivo: 'danado' },
          { id: o.hojas, cantidad: 2, motivo: 'faltante' },
        ],
        resolucion: 'credito',
      })
    ).json().reclamo.id;
    const res = await w.decide(id, { accion: 'aceptar', resolucion: 'credito', nota: 'Sin costo' });
    expect(res.statusCode, res.body).toBe(200);
    // 4 × 100.00 = 400.00, IVA 64.00 → 464.00; the credit is 175.16.
    expect(res.json()).toMatchObject({
      reclamo: { id, estado: 'aceptado' },
      envio: null,
      credito: 175.16,
      msg: MSG.reclamoAceptadoCredito('$175.16 MXN'),
    });
    const after = await budget(w.buyerApi);
    expect(Math.round((before.presupuesto_utilizado - after.presupuesto_utilizado) * 100)).toBe(17_516);
    expect(after.presupuesto_total).toBe(before.presupuesto_total);
    const order = await w.order(o.id);
    expect([order.subtotal, order.iva, order.total, order.surtidoEstatus]).toEqual([
      40_000,
      6_400,
      46_400,
      'enviado',
    ]);
    expect((await w.lines(o.id)).map((l) => [l.cantidad, l.enviado, l.acreditado, l.reclamado])).toEqual([
      [4, 4, 1, 1],
      [0, 0, 2, 2],
    ]);
    // In its own month: no adjustment.
    expect(await db().select().from(budgetAdjustments).where(eq(budgetAdjustments.idReclamo, id))).toEqual(
      [],
    );
    const detail = await w.detail(o.id);
    expect(detail.reclamos[0]).toMatchObject({ estado: 'aceptado', resolucion: 'credito', credito: 175.16 });
    expect(detail.lineas[1]).toMatchObject({ cantidad: 0, acreditado: 2, reclamado: 2 });
    expect(detail.eventos.at(-1)).toMatchObject({
      tipo: 'reclamo_aceptado',
      cambios: { reclamo: 1, resolucion: 'credito', credito: 17_516, total_anterior: 63_916, total: 46_400 },
    });
    const [hook] = await w.events(o.id, 'reclamo.aceptado');
    expect(hook.reclamo).toMatchObject({
      id,
      estado: 'aceptado',
      resolucion: 'credito',
      credito_centavos: 17_516,
    });
    expect(hook.pedido.total_centavos).toBe(46_400);
    expect(hook.pedido.lineas[1]).toMatchObject({ cantidad: 0, acreditado: 2, enviado: 0 });
    const mail = await smtp.waitFor(
      (m) => m.to.includes(`${w.tag}-comprador`) && m.subject === subject(o.id, 'reclamo 1 aceptado'),
    );
    expect(mail.text).toContain('$175.16');
    // The purchase order shows the fully credited line as a fully cancelled one: quantity 0.
    const pdf = await w.buyerApi.get(`/api/historial/${o.id}/pdf`);
    expect(pdf.statusCode).toBe(200);
    const { text } = await pdfText(pdf.rawPayload);
    expect(text).toMatch(/Hojas \S+ Pieza 0 \$25\.50 \$0\.00/);
    expect(text).toContain('464.00');
    // The credited units stay claimed: nothing more of the hojas can be claimed.
    expect(
      (
        await w.claim(o.id, {
          lineas: [{ id: o.hojas, cantidad: 1, motivo: 'faltante' }],
          resolucion: 'credito',
        })
      ).statusCode,
    ).toBe(409);
  });

  it('a credit of an order whose month is over comes back in this month: the buyer’s and the área’s budgets', async () => {
    const w = await world();
    const [area] = await db()
      .insert(areas)
      .values({ idCliente: w.client.id, nombre: uniq('Área'), codigo: uniq('A'), presupuesto: 1_000_000 })
      .returning();
    await db().update(users).set({ idArea: area!.id }).where(eq(users.id, w.buyer.id));
    const past = await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      status: 'aprobado',
      surtido: 'enviado',
      transactionDate: monthsBack(1),
      lines: [
        {
          productId: w.toner.id,
          nombre: w.toner.nombre,
          precio: 10_000,
          cantidad: 3,
          idCategoria: w.category.id,
        },
      ],
    });
    // Charged to the área, as the purchase would have (its month's running totals with it).
    await moveOrderTotals(db(), past.id, -1);
    await db().update(orders).set({ idArea: area!.id }).where(eq(orders.id, past.id));
    await moveOrderTotals(db(), past.id, 1);
    const before = await budget(w.buyerApi);
    const id = (await w.claim(past.id, tonerClaim(past.lineIds[0]!, 1, 'credito'))).json().reclamo.id;
    const res = await w.decide(id, { accion: 'aceptar', resolucion: 'credito' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().credito).toBe(116);
    const rows = await db()
      .select({
        userId: budgetAdjustments.userId,
        idArea: budgetAdjustments.idArea,
        idCategoria: budgetAdjustments.idCategoria,
        importe: budgetAdjustments.importe,
        tipo: budgetAdjustments.tipo,
        mes: budgetAdjustments.mes,
        createdBy: budgetAdjustments.createdBy,
      })
      .from(budgetAdjustments)
      .where(eq(budgetAdjustments.idReclamo, id))
      .orderBy(budgetAdjustments.id);
    const mes = `${before.mes}-01`;
    const operatorId = (
      await db().select({ id: users.id }).from(users).where(eq(users.email, operatorEmail))
    )[0]!.id;
    expect(rows).toEqual([
      {
        userId: w.buyer.id,
        idArea: null,
        idCategoria: 0,
        importe: 11_600,
        tipo: 'credito',
        mes,
        createdBy: operatorId,
      },
      {
        userId: null,
        idArea: area!.id,
        idCategoria: 0,
        importe: 11_600,
        tipo: 'credito',
        mes,
        createdBy: operatorId,
      },
    ]);
    const after = await budget(w.buyerApi);
    expect(Math.round((after.presupuesto_restante - before.presupuesto_restante) * 100)).toBe(11_600);
    expect(Math.round((after.presupuesto_total - before.presupuesto_total) * 100)).toBe(11_600);
    expect(after.presupuesto_utilizado).toBe(before.presupuesto_utilizado);
    expect(Math.round((after.area.presupuesto - before.area.presupuesto) * 100)).toBe(11_600);
  });

  it('in category mode a past month’s credit comes back to each category by what its lines spent', async () => {
    const w = await shippingWorld(t, operator, { modo: 'categoria' });
    const limpieza = await makeCategory(db(), w.client.id, 'Limpieza');
    const jabon = await makeProduct(db(), {
      idCliente: w.client.id,
      idCategoria: limpieza.id,
      precio: 5_000,
    });
    const past = await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      status: 'aprobado',
      surtido: 'enviado',
      transactionDate: monthsBack(2),
      lines: [
        { productId: w.toner.id, precio: 10_000, cantidad: 2, idCategoria: w.category.id },
        { productId: jabon.id, precio: 5_000, cantidad: 1, idCategoria: limpieza.id, impuesto: false },
      ],
    });
    const [toner, soap] = past.lineIds as [number, number];
    const id = (
      await w.claim(past.id, {
        lineas: [
          { id: toner, cantidad: 1, motivo: 'danado' },
          { id: soap, cantidad: 1, motivo: 'equivocado' },
        ],
        resolucion: 'credito',
      })
    ).json().reclamo.id;
    expect((await w.decide(id, { accion: 'aceptar', resolucion: 'credito' })).json().credito).toBe(166);
    const rows = await db()
      .select({ idCategoria: budgetAdjustments.idCategoria, importe: budgetAdjustments.importe })
      .from(budgetAdjustments)
      .where(eq(budgetAdjustments.idReclamo, id))
      .orderBy(budgetAdjustments.idCategoria);
    expect(rows).toEqual(
      [
        { idCategoria: w.category.id, importe: 11_600 },
        { idCategoria: limpieza.id, importe: 5_000 },
      ].sort((a, b) => a.idCategoria - b.idCategoria),
    );
  });

  it('a replacement: a shipment of the claim’s units off the stock, enviado and the state unchanged, its remisión, received like any other', async () => {
    const w = await world();
    const o = await w.shipped(5, 2);
    expect(await w.stock()).toBe(15);
    const id = (await w.claim(o.id, tonerClaim(o.toner, 2))).json().reclamo.id;
    const res = await w.decide(id, { accion: 'aceptar', resolucion: 'reposicion', nota: 'Sale mañana' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      msg: MSG.reclamoAceptadoReposicion(2),
      reclamo: { estado: 'aceptado' },
      envio: { numero: 2 },
      credito: 0,
    });
    expect(await w.stock()).toBe(13);
    expect((await w.lines(o.id)).map((l) => [l.cantidad, l.enviado, l.reclamado])).toEqual([
      [5, 5, 0],
      [2, 2, 0],
    ]);
    expect((await w.order(o.id)).total).toBe(63_916);
    const detail = await w.detail(o.id);
    expect(detail.surtido).toBe('enviado');
    expect(detail.envios[1]).toMatchObject({
      numero: 2,
      reposicion: true,
      recepcion: null,
      lineas: [{ id_linea: o.toner, cantidad: 2 }],
    });
    expect(detail.reclamos[0]).toMatchObject({
      estado: 'aceptado',
      resolucion: 'reposicion',
      envio_reposicion: 2,
      respuesta: 'Sale mañana',
    });
    await smtp.waitFor(
      (m) =>
        m.to.includes(`${w.tag}-comprador`) &&
        m.subject === subject(o.id, 'reclamo 1 aceptado') &&
        m.text.includes('envío 2'),
    );
    for (const [api, url] of [
      [w.buyerApi, `/api/historial/${o.id}/envios/2/remision`],
      [w.r2, `/api/pedidos/${o.id}/envios/2/remision`],
      [operator, `/api/surtido/${o.id}/envios/2/remision`],
    ] as const) {
      const pdf = await api.get(url);
      expect(pdf.statusCode, url).toBe(200);
      const { text } = await pdfText(pdf.rawPayload);
      expect(text).toContain('Reposición del reclamo 1');
      expect(text).toContain('Envío 2 de 2');
    }
    // The replacement's receipt never moves the order; its damaged units can be claimed again.
    const replaced = await w.receive(o.id, 2, {
      lineas: [{ id: o.toner, recibido: 1, motivo: 'danado' }],
      resolucion: 'credito',
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(replaced.json()).toMatchObject({ reclamo: { numero: 2 }, pedido: { surtido: 'enviado' } });
    expect((await w.lines(o.id))[0]!.reclamado).toBe(1);
    const first = await w.receive(o.id, 1, {});
    expect(first.json().pedido.surtido).toBe('entregado');
    // Unknown stock stays unknown.
    const h = await w.claim(o.id, {
      lineas: [{ id: o.hojas, cantidad: 1, motivo: 'faltante' }],
      resolucion: 'reposicion',
    });
    expect(
      (await w.decide(h.json().reclamo.id, { accion: 'aceptar', resolucion: 'reposicion' })).statusCode,
    ).toBe(200);
    expect((await w.detail(o.id)).envios.map((e: { numero: number }) => e.numero)).toEqual([1, 2, 3]);
  });

  it('v1: the order carries its claims and receipts, and GET /api/v1/reclamos lists a token’s client’s claims', async () => {
    const w = await world();
    const stranger = await world();
    const o = await w.shipped();
    await w.receive(o.id, 1, {
      lineas: [{ id: o.toner, recibido: 4, motivo: 'faltante' }],
      resolucion: 'credito',
    });
    const byHand = (await w.claim(o.id, tonerClaim(o.hojas, 1))).json().reclamo.id;
    await w.decide(byHand, { accion: 'rechazar', motivo: 'No procede' });
    const theirs = await stranger.shipped();
    await stranger.claim(theirs.id, tonerClaim(theirs.toner, 1));
    const token = (idCliente: number | null) =>
      integrationToken(operator, { id_cliente: idCliente, permisos: ['pedidos:leer'] });
    const mine = await token(w.client.id);
    const call = (url: string, bearer = mine) =>
      t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${bearer}` } });
    const order = (await call(`/api/v1/pedidos/${o.id}`)).json();
    expect(order.lineas[0]).toMatchObject({ enviado: 5, acreditado: 0, reclamado: 1 });
    expect(order.envios[0]).toMatchObject({
      reposicion: false,
      recepcion: {
        lineas: [
          { id_linea: o.toner, recibido: 4, motivo: 'faltante' },
          { id_linea: o.hojas, recibido: 2, motivo: null },
        ],
      },
    });
    expect(order.reclamos.map((r: { numero: number; estado: string }) => [r.numero, r.estado])).toEqual([
      [1, 'abierto'],
      [2, 'rechazado'],
    ]);
    expect(order.reclamos[0]).toMatchObject({ credito_centavos: 0, envio: 1 });
    expect(order.reclamos[0].credito).toBeUndefined();

    const all = (await call('/api/v1/reclamos')).json();
    expect(all.reclamos.map((r: { id_pedido: number }) => r.id_pedido)).toEqual([o.id, o.id]);
    expect(all.reclamos[0]).toMatchObject({
      numero: 1,
      numero_pedido: String(o.id).padStart(5, '0'),
      cliente: { id: w.client.id, nombre: w.client.nombre },
    });
    expect(all.siguiente).toBeNull();
    const open = (await call('/api/v1/reclamos?estado=abierto')).json();
    expect(open.reclamos.map((r: { numero: number }) => r.numero)).toEqual([1]);
    const paged = (await call('/api/v1/reclamos?limite=1')).json();
    expect(paged.reclamos).toHaveLength(1);
    const next = (await call(`/api/v1/reclamos?limite=1&cursor=${paged.siguiente}`)).json();
    expect(next.reclamos[0].numero).toBe(2);
    expect(next.siguiente).toBeNull();
    const future = (await call('/api/v1/reclamos?desde=2999-01-01')).json();
    expect(future.reclamos).toEqual([]);
    expect((await call('/api/v1/reclamos?desde=ayer')).statusCode).toBe(400);
    // A token of every client sees both clients' claims.
    const everyone = (await call('/api/v1/reclamos?limite=100', await token(null))).json();
    const orderIds = new Set(everyone.reclamos.map((r: { id_pedido: number }) => r.id_pedido));
    expect(orderIds.has(o.id) && orderIds.has(theirs.id)).toBe(true);
    expect((await call(`/api/v1/pedidos/${theirs.id}`)).statusCode).toBe(404);
  });
});
