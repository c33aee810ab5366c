import { CLAIM_MSG, CLAIM_PHOTO_MAX_BYTES } from '@portal/shared/domain/claims';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orderPhotos, orderReceipts, systemLogs } from '../../db/schema/index.ts';
import { sizeMessage } from '../../lib/files.ts';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeOrder, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { PHOTOS, shippingWorld } from '../../test/shipping-fixtures.ts';
import { startSmtp } from '../../test/smtp.ts';

/**
 * The buyer's receipt of each shipment and the photos of receipts and claims (issue 41 item 4, decision
 * 0127), through the real approval, the operator's shipments and the buyer's routes.
 */
describe.each(DB_KINDS)('receipts per shipment and photos (%s)', (kind) => {
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

  it('receives a whole shipment: every unit, the last one moves an enviado order to entregado', async () => {
    const w = await world();
    await w.hook(['pedido.surtido']);
    const o = await w.shipped();
    const res = await w.receive(o.id, 1, { nota: 'Todo en orden' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      msg: MSG.recepcionRegistrada(1),
      reclamo: null,
      pedido: { id: o.id, surtido: 'entregado' },
    });
    const detail = await w.detail(o.id);
    expect(detail.surtido).toBe('entregado');
    expect(detail.envios[0]).toMatchObject({
      numero: 1,
      reposicion: false,
      recepcion: {
        id: res.json().recepcion.id,
        nota: 'Todo en orden',
        por: w.buyer.nombre,
        lineas: [
          { id_linea: o.toner, recibido: 5, motivo: null },
          { id_linea: o.hojas, recibido: 2, motivo: null },
        ],
        fotos: [],
      },
    });
    expect(detail.reclamos).toEqual([]);
    const tipos = detail.eventos.map((e: { tipo: string }) => e.tipo);
    expect(tipos.slice(-2)).toEqual(['recepcion', 'surtido']);
    expect(detail.eventos.at(-1)).toMatchObject({ de: 'enviado', a: 'entregado' });
    const moved = await w.events(o.id, 'pedido.surtido');
    expect(moved.at(-1).pedido.surtido).toBe('entregado');
    expect(moved.at(-1).pedido.envios[0].recepcion.lineas).toHaveLength(2);
    const logs = await db()
      .select({ eventType: systemLogs.eventType })
      .from(systemLogs)
      .where(eq(systemLogs.idPedido, o.id));
    expect(logs.map((l) => l.eventType)).toEqual(
      expect.arrayContaining(['pedido_recepcion', 'pedido_surtido']),
    );
    // A shipment is received once.
    const again = await w.receive(o.id, 1, {});
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'RECEIPT_EXISTS', msg: MSG.recepcionExiste });
    // The note, without a claim, reaches the operators as the whole order's note does.
    await smtp.waitFor((m) => m.to.includes(operatorEmail) && m.text.includes('Todo en orden'));
  });

  it('a receipt with differences opens a claim in the same change; the order stays parcial until the last shipment', async () => {
    const w = await world();
    await w.hook(['reclamo.abierto']);
    const o = await w.approved(5, 2);
    await w.ship(o.id, [{ id: o.toner, cantidad: 3 }]);
    const foto = await w.photoId(o.id);
    const res = await w.receive(o.id, 1, {
      lineas: [{ id: o.toner, recibido: 2, motivo: 'danado' }],
      nota: 'Una caja llegó aplastada',
      fotos: [foto],
      resolucion: 'reposicion',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      msg: MSG.recepcionConReclamo(1, 1),
      reclamo: { numero: 1 },
      pedido: { surtido: 'parcial' },
    });
    const [toner] = await w.lines(o.id);
    expect([toner!.enviado, toner!.reclamado, toner!.acreditado]).toEqual([3, 1, 0]);
    const detail = await w.detail(o.id);
    expect(detail.lineas[0]).toMatchObject({ enviado: 3, reclamado: 1, acreditado: 0 });
    expect(detail.envios[0].recepcion.lineas).toEqual([{ id_linea: o.toner, recibido: 2, motivo: 'danado' }]);
    expect(detail.envios[0].recepcion.fotos).toEqual([{ id: foto, nombre: 'caja.jpg', tipo: 'image/jpeg' }]);
    expect(detail.reclamos).toHaveLength(1);
    expect(detail.reclamos[0]).toMatchObject({
      id: res.json().reclamo.id,
      numero: 1,
      estado: 'abierto',
      resolucion_solicitada: 'reposicion',
      resolucion: null,
      nota: 'Una caja llegó aplastada',
      credito: 0,
      envio: 1,
      envio_reposicion: null,
      autor: w.buyer.nombre,
      lineas: [{ id_linea: o.toner, nombre: w.toner.nombre, cantidad: 1, motivo: 'danado' }],
      fotos: [{ id: foto, nombre: 'caja.jpg', tipo: 'image/jpeg' }],
    });
    const tipos = detail.eventos.map((e: { tipo: string }) => e.tipo);
    expect(tipos.slice(-2)).toEqual(['recepcion', 'reclamo']);
    const [opened] = await w.events(o.id, 'reclamo.abierto');
    expect(opened.reclamo).toMatchObject({ numero: 1, estado: 'abierto', envio: 1, credito_centavos: 0 });
    expect(opened.pedido.reclamos).toHaveLength(1);
    const mail = await smtp.waitFor(
      (m) =>
        m.to.includes(operatorEmail) &&
        m.subject.includes(`reclamo 1 abierto`) &&
        m.text.includes(w.toner.nombre),
    );
    expect(mail.text).toContain(`1 × ${w.toner.nombre} (Dañado)`);
    expect(mail.text).toContain('Solicita: Reposición.');
    // The rest ships: the order is enviado until its last shipment is received.
    await w.ship(o.id, [
      { id: o.toner, cantidad: 2 },
      { id: o.hojas, cantidad: 2 },
    ]);
    expect((await w.order(o.id)).surtidoEstatus).toBe('enviado');
    const last = await w.receive(o.id, 2, {});
    expect(last.statusCode, last.body).toBe(200);
    expect(last.json().pedido.surtido).toBe('entregado');
  });

  it('refuses what is not a receipt of this shipment with a Spanish 4xx', async () => {
    const w = await world();
    const notShipped = await w.approved();
    const early = await w.receive(notShipped.id, 1, {});
    expect(early.statusCode).toBe(409);
    expect(early.json()).toMatchObject({ code: 'ORDER_NOT_SHIPPED', msg: MSG.recepcionNoEnviado });
    const o = await w.approved(5, 2);
    await w.ship(o.id, [{ id: o.toner, cantidad: 3 }]);
    const cases: [Record<string, unknown>, number, string][] = [
      [{ lineas: [{ id: o.hojas, recibido: 0, motivo: 'faltante' }] }, 400, MSG.recepcionLineaNoEnEnvio],
      [{ lineas: [{ id: o.toner, recibido: 4 }] }, 400, MSG.recepcionExcede(3, w.toner.nombre)],
      [
        { lineas: [{ id: o.toner, recibido: 1 }], resolucion: 'credito' },
        400,
        MSG.recepcionMotivo(w.toner.nombre),
      ],
      [{ lineas: [{ id: o.toner, recibido: 1, motivo: 'faltante' }] }, 400, CLAIM_MSG.reclamoResolucion],
      [{ lineas: [{ id: o.toner, recibido: -1 }] }, 400, CLAIM_MSG.recepcionCantidad],
      [{ lineas: [{ id: o.toner, recibido: 1, motivo: 'no_solicitado' }] }, 400, CLAIM_MSG.reclamoMotivo],
      [
        {
          lineas: [
            { id: o.toner, recibido: 1, motivo: 'danado' },
            { id: o.toner, recibido: 1, motivo: 'danado' },
          ],
        },
        400,
        MSG.envioLinea,
      ],
      [{ nota: 'x'.repeat(1001) }, 400, CLAIM_MSG.reclamoNotaLarga],
      [{ fotos: [1, 1] }, 400, CLAIM_MSG.reclamoFotos],
    ];
    for (const [body, status, msg] of cases) {
      const res = await w.receive(o.id, 1, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(status);
      expect(res.json().msg, JSON.stringify(body)).toBe(msg);
    }
    const missing = await w.receive(o.id, 2, {});
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe(MSG.remisionNoEncontrada);
    // Another buyer of the client, another client's buyer: like a missing order. Other roles: 403.
    expect((await w.receive(o.id, 1, {}, w.otherBuyerApi)).statusCode).toBe(404);
    const stranger = await makeUser(db(), { rol: 1, idCliente: (await world()).client.id });
    const strangerApi = await new ApiClient(t.app).loginOk(stranger.usuario, TEST_PASSWORD);
    expect((await w.receive(o.id, 1, {}, strangerApi)).statusCode).toBe(404);
    expect((await w.receive(o.id, 1, {}, w.r2)).statusCode).toBe(403);
    expect((await w.receive(o.id, 1, {}, operator)).statusCode).toBe(403);
    // Nothing was written by the refusals.
    expect(await db().select().from(orderReceipts).where(eq(orderReceipts.orderId, o.id))).toEqual([]);
  });

  it('two receipts of one shipment at once: one is written, the other gets 409', async () => {
    const w = await world();
    const o = await w.shipped();
    const results = await Promise.all([
      w.receive(o.id, 1, {}),
      w.receive(o.id, 1, {
        lineas: [{ id: o.toner, recibido: 4, motivo: 'faltante' }],
        resolucion: 'credito',
      }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.statusCode === 409)!.json().code).toBe('RECEIPT_EXISTS');
    expect(await db().select().from(orderReceipts).where(eq(orderReceipts.orderId, o.id))).toHaveLength(1);
  });

  it('«Recibido» of the whole order receives in full every shipment still without a receipt', async () => {
    const w = await world();
    const o = await w.approved(5, 2);
    await w.ship(o.id, [{ id: o.toner, cantidad: 2 }]);
    expect((await w.receive(o.id, 1, {})).json().pedido.surtido).toBe('parcial');
    await w.ship(o.id, [
      { id: o.toner, cantidad: 3 },
      { id: o.hojas, cantidad: 2 },
    ]);
    const res = await w.buyerApi.post(`/api/historial/${o.id}/recibido`, { nota: 'Recibido por almacén' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().pedido).toMatchObject({ surtido: 'entregado', nota_recepcion: 'Recibido por almacén' });
    const detail = await w.detail(o.id);
    expect(detail.envios.map((e: { recepcion: { nota: string | null } }) => e.recepcion.nota)).toEqual([
      null,
      'Recibido por almacén',
    ]);
    expect(detail.envios[1].recepcion.lineas).toEqual([
      { id_linea: o.toner, recibido: 3, motivo: null },
      { id_linea: o.hojas, recibido: 2, motivo: null },
    ]);
  });

  it('photos: JPEG, PNG and HEIC by content, each served only to who may see the order', async () => {
    const w = await world();
    const o = await w.shipped();
    const other = await w.shipped();
    for (const [file, tipo] of [
      [PHOTOS.jpeg(), 'image/jpeg'],
      [PHOTOS.png(), 'image/png'],
      [PHOTOS.heic(), 'image/heic'],
    ] as const) {
      const res = await w.upload(o.id, file);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ id: expect.any(Number), nombre: file.filename, tipo });
    }
    const text = await w.upload(o.id, PHOTOS.text());
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({ code: 'FILE_TYPE', msg: MSG.soloFotos });
    const big = await w.upload(o.id, PHOTOS.big());
    expect(big.statusCode).toBe(400);
    expect(big.json()).toMatchObject({ code: 'FILE_SIZE', msg: sizeMessage(CLAIM_PHOTO_MAX_BYTES) });
    const none = await w.buyerApi.post(`/api/historial/${o.id}/fotos`, {});
    expect(none.statusCode).toBe(415);
    // Another buyer's order: 404; an order not approved yet: 409; another role: 403.
    expect((await w.upload(o.id, PHOTOS.jpeg(), w.otherBuyerApi)).statusCode).toBe(404);
    expect((await w.upload(o.id, PHOTOS.jpeg(), w.r2)).statusCode).toBe(403);
    const pending = await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      lines: [{ productId: w.toner.id, precio: 100, cantidad: 1, idCategoria: w.category.id }],
    });
    const early = await w.upload(pending.id, PHOTOS.jpeg());
    expect(early.statusCode).toBe(409);
    expect(early.json().msg).toBe(MSG.fotoPedidoNoAprobado);
    const photos = await db()
      .select({ id: orderPhotos.id, tipo: orderPhotos.tipo, fileId: orderPhotos.fileId })
      .from(orderPhotos)
      .where(eq(orderPhotos.orderId, o.id))
      .orderBy(orderPhotos.id);
    expect(photos.map((p) => p.tipo)).toEqual(['image/jpeg', 'image/png', 'image/heic']);
    const [jpeg, , heic] = photos as [(typeof photos)[0], (typeof photos)[0], (typeof photos)[0]];

    const asBuyer = await w.buyerApi.get(`/api/historial/${o.id}/fotos/${jpeg.id}`);
    expect(asBuyer.statusCode).toBe(200);
    expect(asBuyer.headers['content-type']).toBe('image/jpeg');
    expect(asBuyer.headers['x-content-type-options']).toBe('nosniff');
    expect(asBuyer.headers['content-disposition']).toBe(`inline; filename="foto-${jpeg.id}.jpg"`);
    expect(asBuyer.rawPayload.equals(PHOTOS.jpeg().data)).toBe(true);
    const heicRes = await w.r2.get(`/api/pedidos/${o.id}/fotos/${heic.id}`);
    expect(heicRes.statusCode).toBe(200);
    expect(heicRes.headers['content-disposition']).toBe(`attachment; filename="foto-${heic.id}.heic"`);
    expect((await operator.get(`/api/surtido/${o.id}/fotos/${heic.id}`)).statusCode).toBe(200);
    // A photo of another order, another buyer, another client's approver: 404 alike.
    const notFound = (res: { statusCode: number; json: () => { msg: string } }) => {
      expect(res.statusCode).toBe(404);
      expect(res.json().msg).toBe(MSG.fotoNoEncontrada);
    };
    notFound(await w.buyerApi.get(`/api/historial/${other.id}/fotos/${jpeg.id}`));
    notFound(await operator.get(`/api/surtido/${other.id}/fotos/${jpeg.id}`));
    notFound(await w.otherBuyerApi.get(`/api/historial/${o.id}/fotos/${jpeg.id}`));
    const stranger = await world();
    notFound(await stranger.r2.get(`/api/pedidos/${o.id}/fotos/${jpeg.id}`));
    // Never a public image by its content name.
    expect((await t.app.inject({ method: 'GET', url: `/api/img/${jpeg.fileId}` })).statusCode).toBe(404);

    // A body names only the buyer's own loose photos of the same order.
    const foreign = await w.photoId(other.id);
    const refused = await w.receive(o.id, 1, { fotos: [foreign] });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe(CLAIM_MSG.reclamoFotos);
    expect((await w.receive(o.id, 1, { fotos: [jpeg.id, heic.id] })).statusCode).toBe(200);
    const twice = await w.receive(other.id, 1, { fotos: [jpeg.id] });
    expect(twice.statusCode).toBe(400);
    expect((await w.detail(o.id)).envios[0].recepcion.fotos.map((f: { id: number }) => f.id)).toEqual([
      jpeg.id,
      heic.id,
    ]);
    const events = await db()
      .select({ tipo: orderEvents.tipo })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, other.id), eq(orderEvents.tipo, 'recepcion')));
    expect(events).toEqual([]);
  });
});
