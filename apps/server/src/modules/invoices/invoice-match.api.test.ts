import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  clients,
  invoices,
  orderEvents,
  orderReceiptLines,
  orderReceipts,
  orderShipmentLines,
  orderShipments,
  systemLogs,
} from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { integrationToken } from '../../test/admin-fixtures.ts';
import { cfdiXml, ISSUER_RFC } from '../../test/cfdi-documents.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { startSmtp } from '../../test/smtp.ts';
import { enrolTwoFactor } from '../../test/two-factor.ts';
import { eventually, startReceiver } from '../../test/webhook-receiver.ts';
import { satVerificationUrl } from './cfdi.ts';

const RFC_A = 'URE180429TM6';
const RFC_B = 'IIA040805DZ4';
/** The test documents' seal (cfdi-documents.ts): the expression keeps its last 8 characters. */
const SELLO_TAIL = 'cHJ1ZWJh';

describe('the SAT verification link (@nodecfdi/cfdi-expresiones)', () => {
  it('is the SAT’s expression for the Anexo 20 example', () => {
    expect(
      satVerificationUrl({
        id: 'CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC',
        re: 'POT9207213D6',
        rr: 'DIM8701081LA',
        tt: '2010.010000',
        fe: 'abcdefghijklmnopqrstuvwxyz/OAgdg==',
      }),
    ).toBe(
      'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=CEE4BE01-ADFA-4DEB-8421-ADD60F0BEDAC&re=POT9207213D6&rr=DIM8701081LA&tt=2010.01&fe=/OAgdg==',
    );
  });

  it('escapes an RFC with an ampersand as XML does, and writes a whole total with one decimal', () => {
    const url = satVerificationUrl({ id: 'X', re: 'M&A010101AAA', rr: 'R', tt: '100', fe: '12345678' });
    expect(url).toContain('re=M&amp;A010101AAA');
    expect(url).toContain('tt=100.0&');
  });
});

/** The three-way match of invoices and the invoice on the order (issue 42 item 3, decision 0133). */
describe.each(DB_KINDS)('Invoice match and the client’s view (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let admin: ApiClient;
  let buyer: ApiClient;
  let otherBuyer: ApiClient;
  let approver: ApiClient;
  let approverB: ApiClient;
  let clientAdmin: ApiClient;
  let buyerId: number;
  let writer: string;
  let clientA: number;
  let product: { id: number; idCategoria: number };
  const db = () => t.database.db;
  const clave = () => `CL-${product.id}`;

  /** An approved order of client A's buyer: 3 units at $100.00 + IVA. */
  async function order() {
    const o = await makeOrder(db(), {
      idUser: buyerId,
      idCliente: clientA,
      status: 'aprobado',
      surtido: 'enviado',
      lines: [{ productId: product.id, precio: 10_000, cantidad: 3, idCategoria: product.idCategoria }],
    });
    return { id: o.id as number, line: o.lineIds[0]! };
  }

  /** Shipment `numero` of `cantidad` units of the line; with `recibido`, its receipt too. */
  async function ship(o: { id: number; line: number }, numero: number, cantidad: number, recibido?: number) {
    const [s] = await db()
      .insert(orderShipments)
      .values({ orderId: o.id, idCliente: clientA, numero, fecha: '2026-12-01' })
      .returning({ id: orderShipments.id });
    await db().insert(orderShipmentLines).values({ shipmentId: s!.id, orderLineId: o.line, cantidad });
    if (recibido !== undefined) {
      const [r] = await db()
        .insert(orderReceipts)
        .values({ orderId: o.id, shipmentId: s!.id, userId: buyerId })
        .returning({ id: orderReceipts.id });
      await db()
        .insert(orderReceiptLines)
        .values({
          receiptId: r!.id,
          lineId: o.line,
          recibido,
          motivo: recibido < cantidad ? 'faltante' : null,
        });
    }
    return s!.id;
  }

  /** An ingreso of `cantidad` units at `precio` pesos (+16 %) of the order's product. */
  function invoiceXml(cantidad: number, precio = 100, noIdentificacion = clave()) {
    const importe = cantidad * precio;
    return cfdiXml({
      receptorRfc: RFC_A,
      subtotal: importe.toFixed(2),
      traslados: (importe * 0.16).toFixed(2),
      total: (importe * 1.16).toFixed(2),
      conceptos: [
        {
          noIdentificacion,
          cantidad: String(cantidad),
          valorUnitario: precio.toFixed(2),
          importe: importe.toFixed(2),
        },
      ],
    });
  }

  const post = (body: object) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/facturas',
      headers: { authorization: `Bearer ${writer}` },
      payload: body,
    });

  async function register(pedido: number, xml: string, envio?: number) {
    const res = await post({ pedido, xml, ...(envio ? { envio } : {}) });
    expect(res.statusCode, res.body).toBe(201);
    return res.json().factura;
  }

  const accept = (pedido: number, uuid: string, body: object = { motivo: 'El cliente se queda la pieza' }) =>
    admin.post(`/api/surtido/${pedido}/facturas/${uuid}/aceptar-diferencia`, body);

  beforeAll(async () => {
    smtp = await startSmtp();
    receiver = await startReceiver();
    t = await createTestApp(kind, {
      env: { SMTP_URL: smtp.url, WEBHOOK_ALLOW_PRIVATE: '1', API_RATE_LIMIT: '1000' },
    });
    admin = await new ApiClient(t.app).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    clientA = (await makeClient(db(), { nombre: 'Cliente Cotejo A', rfc: RFC_A })).id;
    await db()
      .update(clients)
      .set({ correosFacturacion: ['cxp@cotejo-a.test', 'conta@cotejo-a.test'], razonSocial: 'COTEJO A SA' })
      .where(eq(clients.id, clientA));
    const clientB = (await makeClient(db(), { nombre: 'Cliente Cotejo B', rfc: RFC_B })).id;
    const cat = await makeCategory(db(), clientA);
    const p = await makeProduct(db(), { idCliente: clientA, idCategoria: cat.id, precio: 10_000 });
    product = { id: p.id, idCategoria: cat.id };
    const u = await makeUser(db(), { rol: 1, idCliente: clientA });
    buyerId = u.id;
    const login = async (rol: number, idCliente: number, extra: object = {}) =>
      new ApiClient(t.app).loginOk(
        (await makeUser(db(), { rol, idCliente, ...extra })).usuario,
        TEST_PASSWORD,
      );
    buyer = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
    otherBuyer = await login(1, clientA);
    approver = await login(2, clientA);
    approverB = await login(2, clientB);
    await db()
      .update(clients)
      .set({ permisosCliente: ['usuarios', 'fiscales'] })
      .where(eq(clients.id, clientA));
    clientAdmin = await login(5, clientA);
    // Rol 5 signs in with a second factor (decision 0122).
    await enrolTwoFactor(clientAdmin);
    writer = await integrationToken(admin, {
      id_cliente: clientA,
      permisos: ['facturas:escribir', 'facturas:leer'],
    });
    const hook = await admin.post('/api/integracion/webhooks', {
      url: receiver.url('/cotejo'),
      eventos: ['factura.con_diferencias'],
      id_cliente: clientA,
    });
    expect(hook.statusCode, hook.body).toBe(201);
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
    await smtp?.close();
  });

  it('an invoice of what was received at the order’s price is conciliada, with the SAT link and «Factura disponible»', async () => {
    const o = await order();
    await ship(o, 1, 2, 2);
    const { xml, uuid } = invoiceXml(2);
    const factura = await register(o.id, xml);
    expect(factura).toMatchObject({ cotejo: 'conciliada', diferencias: [], exceso_centavos: 0 });
    expect(factura.verificacion_sat).toBe(
      `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=${uuid}&re=${ISSUER_RFC}&rr=${RFC_A}&tt=232.0&fe=${SELLO_TAIL}`,
    );
    // The outbox sends it after the commit; a busy machine (CI runs suites side by side) may take a while.
    const mail = await smtp.waitFor(
      (m) => m.to.includes('cxp@cotejo-a.test') && m.text.includes(uuid),
      30_000,
    );
    expect(mail.subject).toMatch(/^Factura disponible del pedido #\d+$/);
    expect(mail.text).toContain('$232.00');
    expect(mail.text).toContain(factura.verificacion_sat);
    // Nothing that signs anyone in: no token, no session link.
    expect(mail.text).not.toMatch(/token|clave de acceso|\/acceso\//i);
    await smtp.waitFor((m) => m.to.includes('conta@cotejo-a.test') && m.text.includes(uuid), 30_000);
  });

  it('more units than received and another price: con_diferencias, listed, webhook factura.con_diferencias and the order’s event', async () => {
    const o = await order();
    await ship(o, 1, 3, 2);
    const { xml, uuid } = invoiceXml(3, 105);
    const factura = await register(o.id, xml);
    expect(factura.cotejo).toBe('con_diferencias');
    expect(factura.diferencias.map((d: { texto: string }) => d.texto)).toEqual([
      'Factura 3 piezas, recibidas 2',
      'Precio facturado $105.00, pedido $100.00',
    ]);
    // $365.40 billed, 2 × $100.00 + IVA = $232.00 may be.
    expect(factura.exceso_centavos).toBe(13_340);
    const hook = await eventually(
      async () => receiver.at('/cotejo').find((h) => h.body.includes(uuid)),
      20_000,
      'factura.con_diferencias',
    );
    const body = JSON.parse(hook.body);
    expect(body.tipo).toBe('factura.con_diferencias');
    expect(body.factura).toMatchObject({ uuid, cotejo: 'con_diferencias' });
    expect(body.factura.diferencias).toHaveLength(2);
    const [event] = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, o.id), eq(orderEvents.tipo, 'factura')));
    expect(event!.changes).toMatchObject({ uuid, cotejo: 'con_diferencias', diferencias: 2 });
  });

  it('a shipment without receipt counts what was shipped; a second invoice of the same units was already billed', async () => {
    const o = await order();
    await ship(o, 1, 2);
    const first = await register(o.id, invoiceXml(3).xml);
    expect(first.diferencias.map((d: { texto: string }) => d.texto)).toEqual([
      'Factura 3 piezas, enviadas 2',
    ]);
    const second = await register(o.id, invoiceXml(1).xml);
    expect(second.diferencias.map((d: { texto: string }) => d.texto)).toEqual([
      'Factura 1 pieza, enviadas 2, ya facturadas 3',
    ]);
  });

  it('an invoice of one shipment is matched against that shipment: received in one, shipped in the other', async () => {
    const o = await order();
    const s1 = await ship(o, 1, 1, 1);
    const s2 = await ship(o, 2, 2);
    expect((await register(o.id, invoiceXml(1).xml, s1)).cotejo).toBe('conciliada');
    const over = await register(o.id, invoiceXml(2).xml, s1);
    expect(over.diferencias.map((d: { texto: string }) => d.texto)).toEqual([
      'Factura 2 piezas, recibidas 1, ya facturadas 1',
    ]);
    expect((await register(o.id, invoiceXml(2).xml, s2)).cotejo).toBe('conciliada');
  });

  it('a concept of no product of the order is a difference', async () => {
    const o = await order();
    await ship(o, 1, 3, 3);
    const f = await register(o.id, invoiceXml(1, 100, 'FLETE-1').xml);
    expect(f.diferencias).toEqual([
      expect.objectContaining({
        tipo: 'sin_producto',
        texto: 'Concepto 1: la clave FLETE-1 no es de ningún producto del pedido',
      }),
    ]);
  });

  it('the operator accepts a difference with a reason: required (400), once (409), with the order’s event and log', async () => {
    const o = await order();
    await ship(o, 1, 3, 2);
    const { uuid } = await register(o.id, invoiceXml(3).xml);
    const empty = await accept(o.id, uuid, { motivo: '  ' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().msg).toBe('Escribe el motivo por el que aceptas la diferencia.');
    const ok = await accept(o.id, uuid);
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().factura).toMatchObject({
      cotejo: 'diferencia_aceptada',
      cotejo_motivo: 'El cliente se queda la pieza',
    });
    const again = await accept(o.id, uuid);
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(MSG.facturaSinDiferencias);
    const events = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, o.id), eq(orderEvents.tipo, 'factura_cotejo')));
    expect(events).toHaveLength(1);
    expect(events[0]!.changes).toMatchObject({ uuid, motivo: 'El cliente se queda la pieza' });
    const logs = await db()
      .select()
      .from(systemLogs)
      .where(eq(systemLogs.eventType, 'factura_diferencia_aceptada'));
    expect(logs.some((l) => (l.metadata as { uuid?: string }).uuid === uuid)).toBe(true);
    // Another order's id, or an invoice without differences: 404 and 409.
    const other = await order();
    expect((await accept(other.id, uuid)).statusCode).toBe(404);
    await ship(other, 1, 1, 1);
    const clean = await register(other.id, invoiceXml(1).xml);
    expect((await accept(other.id, clean.uuid)).statusCode).toBe(409);
  });

  it('two acceptances at once: one 200, the other 409', async () => {
    const o = await order();
    await ship(o, 1, 1, 1);
    const { uuid } = await register(o.id, invoiceXml(2).xml);
    const both = await Promise.all([accept(o.id, uuid), accept(o.id, uuid, { motivo: 'Otro motivo' })]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const [row] = await db().select().from(invoices).where(eq(invoices.uuid, uuid));
    expect(row!.cotejo).toBe('diferencia_aceptada');
  });

  it('a credit note for less than the excess leaves the differences; one that covers it concilia the invoice', async () => {
    const o = await order();
    await ship(o, 1, 3, 2);
    const { uuid } = await register(o.id, invoiceXml(3).xml);
    const credit = (total: number) => {
      const base = total / 1.16;
      return cfdiXml({
        receptorRfc: RFC_A,
        tipo: 'E',
        subtotal: base.toFixed(2),
        traslados: (total - Number(base.toFixed(2))).toFixed(2),
        total: total.toFixed(2),
        relacionados: { tipoRelacion: '01', uuids: [uuid] },
        conceptos: [
          {
            claveProdServ: '84111506',
            cantidad: '1',
            valorUnitario: base.toFixed(2),
            importe: base.toFixed(2),
            noIdentificacion: clave(),
          },
        ],
      });
    };
    await register(o.id, credit(58).xml);
    const [still] = await db().select().from(invoices).where(eq(invoices.uuid, uuid));
    expect(still!.cotejo).toBe('con_diferencias');
    const note = credit(116);
    await register(o.id, note.xml);
    const list = await admin.get(`/api/surtido/${o.id}/facturas`);
    const invoice = list.json().facturas.find((f: { uuid: string }) => f.uuid === uuid);
    expect(invoice).toMatchObject({ cotejo: 'conciliada', cotejo_nota_credito: note.uuid });
    const [event] = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, o.id), eq(orderEvents.tipo, 'factura')))
      .orderBy(orderEvents.id)
      .offset(2);
    expect(event!.changes).toMatchObject({ uuid: note.uuid, resuelve: uuid });
  });

  it('the buyer, the approvers and the client administrator read the order’s invoices and files; others get 404', async () => {
    const o = await order();
    await ship(o, 1, 2, 2);
    const { uuid } = await register(o.id, invoiceXml(2).xml);
    for (const [who, prefix] of [
      [buyer, '/api/historial'],
      [approver, '/api/pedidos'],
      [clientAdmin, '/api/cliente/pedidos'],
    ] as const) {
      const res = await who.get(`${prefix}/${o.id}/facturas`);
      expect(res.statusCode, `${prefix}: ${res.body}`).toBe(200);
      expect(res.json().facturas).toEqual([
        expect.objectContaining({
          uuid,
          cotejo: 'conciliada',
          verificacion_sat: expect.stringContaining(uuid),
        }),
      ]);
      const xml = await who.get(`${prefix}/${o.id}/facturas/${uuid}/xml`);
      expect(xml.statusCode).toBe(200);
      expect(xml.headers['content-disposition']).toBe(`attachment; filename="${uuid}.xml"`);
      expect(xml.body).toContain(uuid);
      // Registered without a PDF.
      expect((await who.get(`${prefix}/${o.id}/facturas/${uuid}/pdf`)).statusCode).toBe(404);
    }
    // Another buyer of the same client and an approver of another client: like a missing order.
    for (const [who, url] of [
      [otherBuyer, `/api/historial/${o.id}/facturas`],
      [otherBuyer, `/api/historial/${o.id}/facturas/${uuid}/xml`],
      [approverB, `/api/pedidos/${o.id}/facturas`],
      [approverB, `/api/pedidos/${o.id}/facturas/${uuid}/xml`],
    ] as const) {
      const res = await who.get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json().msg).toBe(MSG.pedidoNoEncontrado);
    }
  });
});
