/**
 * What the shipments', receipts' and claims' suites (decisions 0125 and 0127) share: a client with a buyer, an approver and two
 * products, orders approved through the real approval and shipped through the operator's route, and the
 * photos a buyer uploads (a JPEG, a PNG, a HEIC made by hand, and files that only pretend to be photos).
 */
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { orderLines, orders, products, webhookEvents } from '../db/schema/index.ts';
import { postForm } from './admin-fixtures.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
  uniq,
} from './factories.ts';
import { fixture } from './fixture-files.ts';
import { ApiClient, type TestApp } from './harness.ts';

/** A HEIC file's first box (`ftyp`, major brand `heic`) and some bytes after it: what a phone writes. */
export function heicPhoto(): Buffer {
  const ftyp = Buffer.alloc(24);
  ftyp.writeUInt32BE(24, 0);
  ftyp.write('ftypheic', 4, 'latin1');
  ftyp.writeUInt32BE(0, 12);
  ftyp.write('mif1heic', 16, 'latin1');
  return Buffer.concat([ftyp, Buffer.from('\0\0\0\x10metadatos-de-prueba', 'latin1')]);
}

export const PHOTOS = {
  jpeg: () => ({ filename: 'caja.jpg', data: fixture('green-40x30.jpg'), contentType: 'image/jpeg' }),
  png: () => ({ filename: 'etiqueta.png', data: fixture('red-40x30.png'), contentType: 'image/png' }),
  heic: () => ({ filename: 'IMG_0001.HEIC', data: heicPhoto(), contentType: 'image/heic' }),
  /** Text named .jpg (and declared as one): refused by its content. */
  text: () => ({ filename: 'foto.jpg', data: Buffer.from('no soy una foto\n'), contentType: 'image/jpeg' }),
  /** A JPEG's first bytes and then 10 MB more: refused by its size. */
  big: () => ({
    filename: 'grande.jpg',
    data: Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(10 * 1024 * 1024)]),
    contentType: 'image/jpeg',
  }),
};

/**
 * A client (one approval level, regular budget unless asked) with a buyer, a second buyer, an approver, a
 * tóner (100.00, 20 in stock, the lead time asked) and hojas (25.50, unknown stock), and the calls the suites
 * make.
 */
export async function shippingWorld(
  t: TestApp,
  operator: ApiClient,
  opts: { modo?: 'categoria'; diasEntrega?: number } = {},
) {
  const db = t.database.db;
  const tag = uniq('reclamos');
  const client = await makeClient(db, {
    nombre: `Cliente ${tag}`,
    cantidadAutorizadores: 1,
    limiteDeCompras: -1,
    ...(opts.modo ? { modoPresupuesto: opts.modo } : {}),
  });
  const category = await makeCategory(db, client.id, 'Papelería');
  const toner = await makeProduct(db, {
    idCliente: client.id,
    idCategoria: category.id,
    precio: 10_000,
    nombre: `Tóner ${tag}`,
    existencia: 20,
    ...(opts.diasEntrega ? { diasEntrega: opts.diasEntrega } : {}),
  });
  const hojas = await makeProduct(db, {
    idCliente: client.id,
    idCategoria: category.id,
    precio: 2_550,
    nombre: `Hojas ${tag}`,
    existencia: null,
  });
  const buyer = await makeUser(db, {
    rol: 1,
    idCliente: client.id,
    email: `${tag}-comprador@example.test`,
    presupuestoDefault: 10_000_000,
    limiteDeCompras: -1,
  });
  const otherBuyer = await makeUser(db, { rol: 1, idCliente: client.id, limiteDeCompras: -1 });
  for (const p of [toner, hojas]) await assign(db, buyer.id, p.id, 100);
  const approver = await makeUser(db, {
    rol: 2,
    idCliente: client.id,
    email: `${tag}-autorizador@example.test`,
  });
  const r2 = await new ApiClient(t.app).loginOk(approver.usuario, TEST_PASSWORD);
  const buyerApi = await new ApiClient(t.app).loginOk(buyer.usuario, TEST_PASSWORD);
  const otherBuyerApi = await new ApiClient(t.app).loginOk(otherBuyer.usuario, TEST_PASSWORD);

  /** An order of `toners` tóner and `hojasN` hojas, approved by the approver (reservations, promises). */
  const approved = async (toners = 5, hojasN = 2) => {
    const o = await makeOrder(db, {
      idUser: buyer.id,
      idCliente: client.id,
      lines: [
        {
          productId: toner.id,
          nombre: toner.nombre,
          precio: toner.precio,
          cantidad: toners,
          idCategoria: category.id,
        },
        {
          productId: hojas.id,
          nombre: hojas.nombre,
          precio: hojas.precio,
          cantidad: hojasN,
          idCategoria: category.id,
        },
      ],
    });
    const res = await r2.post('/api/update/compra', {
      id: o.id,
      orden: [
        { id: toner.id, cantidad: toners },
        { id: hojas.id, cantidad: hojasN },
      ],
    });
    expect(res.statusCode, res.body).toBe(200);
    const [a, b] = o.lineIds as [number, number];
    return { id: o.id, toner: a, hojas: b };
  };
  /** The operator ships units of lines (a shipment numbered by the order). */
  const ship = async (id: number, lineas: { id: number; cantidad: number }[]) => {
    const res = await operator.post(`/api/surtido/${id}/envios`, { lineas, guia: 'GUIA-1' });
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { envio: { id: number; numero: number }; pedido: { surtido: string } };
  };
  /** An approved order with every unit shipped in one shipment (enviado). */
  const shipped = async (toners = 5, hojasN = 2) => {
    const o = await approved(toners, hojasN);
    await ship(o.id, [
      { id: o.toner, cantidad: toners },
      { id: o.hojas, cantidad: hojasN },
    ]);
    return o;
  };
  const lines = (orderId: number) =>
    db.select().from(orderLines).where(eq(orderLines.orderId, orderId)).orderBy(orderLines.id);
  const order = async (id: number) => (await db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const stock = async () =>
    (await db.select({ existencia: products.existencia }).from(products).where(eq(products.id, toner.id)))[0]!
      .existencia;
  const detail = async (id: number) => (await buyerApi.get(`/api/historial/${id}`)).json().pedido;
  /** The buyer uploads a photo of an order; answers the response. */
  const upload = (id: number, file: ReturnType<(typeof PHOTOS)[keyof typeof PHOTOS]>, api = buyerApi) =>
    postForm(api, `/api/historial/${id}/fotos`, {}, { archivo: file });
  const photoId = async (id: number, file = PHOTOS.jpeg()) => {
    const res = await upload(id, file);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().id as number;
  };
  const receive = (id: number, numero: number, body: Record<string, unknown> = {}, api = buyerApi) =>
    api.post(`/api/historial/${id}/envios/${numero}/recepcion`, body);
  const claim = (id: number, body: Record<string, unknown>, api = buyerApi) =>
    api.post(`/api/historial/${id}/reclamos`, body);
  const decide = (claimId: number, body: Record<string, unknown>) =>
    operator.post(`/api/surtido/reclamos/${claimId}`, body);
  /** A webhook endpoint of this client for these events (nothing is delivered to it in a test). */
  const hook = async (eventos: string[]) => {
    const res = await operator.post('/api/integracion/webhooks', {
      url: 'https://8.8.8.8/reclamos',
      id_cliente: client.id,
      eventos,
    });
    expect(res.statusCode, res.body).toBe(201);
  };
  /** The bodies of the webhook events recorded for an order, of one type. */
  const events = async (orderId: number, tipo: string) =>
    (
      await db
        .select({ cuerpo: webhookEvents.cuerpo })
        .from(webhookEvents)
        .where(and(eq(webhookEvents.orderId, orderId), eq(webhookEvents.tipo, tipo)))
        .orderBy(webhookEvents.createdAt)
    ).map((e) => JSON.parse(e.cuerpo));
  return {
    tag,
    client,
    category,
    toner,
    hojas,
    buyer,
    buyerApi,
    otherBuyerApi,
    r2,
    approved,
    ship,
    shipped,
    lines,
    order,
    stock,
    detail,
    upload,
    photoId,
    receive,
    claim,
    decide,
    hook,
    events,
  };
}
