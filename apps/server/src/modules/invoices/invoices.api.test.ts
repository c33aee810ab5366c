import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clients, invoices, orderEvents, storedFiles, systemLogs } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { integrationToken, multipart } from '../../test/admin-fixtures.ts';
import { cfdiXml, HOSTILE_XML } from '../../test/cfdi-documents.ts';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { fixture } from '../../test/fixture-files.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { eventually, startReceiver, verifySignature } from '../../test/webhook-receiver.ts';

const RFC_A = 'URE180429TM6';
const RFC_B = 'IIA040805DZ4';

/** CFDI invoices received (issue 42 item 2, decision 0131): the v1 post, the reads, the operator's upload. */
describe.each(DB_KINDS)('CFDI invoices (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let secret: string;
  const db = () => t.database.db;
  let clientA: number;
  let clientB: number;
  let buyerA: number;
  let buyerB: number;
  let product: { id: number; idCategoria: number };
  let writerA: string;
  let readerA: string;
  let writerAll: string;

  const newToken = (permisos: string[], id_cliente: number | null) =>
    integrationToken(admin, { permisos, id_cliente });

  async function approvedOrder(
    idCliente = clientA,
    idUser = buyerA,
    status: 'aprobado' | 'pendiente' = 'aprobado',
  ) {
    const o = await makeOrder(db(), {
      idUser,
      idCliente,
      status,
      lines: [{ productId: product.id, precio: 50_000, cantidad: 2, idCategoria: product.idCategoria }],
    });
    return o.id as number;
  }

  const post = (token: string, body: unknown, key?: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/facturas',
      headers: { authorization: `Bearer ${token}`, ...(key ? { 'idempotency-key': key } : {}) },
      payload: body as object,
    });
  const get = (token: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });

  /** Registers an ingreso of $1,160.00 for `pedido`; answers its UUID. */
  async function invoiceFor(pedido: number): Promise<string> {
    const { xml, uuid } = cfdiXml({ receptorRfc: RFC_A });
    const res = await post(writerA, { pedido, xml });
    expect(res.statusCode, res.body).toBe(201);
    return uuid;
  }

  const saldoOf = async (uuid: string) =>
    (await db().select({ saldo: invoices.saldo }).from(invoices).where(eq(invoices.uuid, uuid)))[0]?.saldo;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, { env: { WEBHOOK_ALLOW_PRIVATE: '1', API_RATE_LIMIT: '1000' } });
    admin = await new ApiClient(t.app).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    clientA = (await makeClient(db(), { nombre: 'Cliente Factura A', rfc: RFC_A })).id;
    clientB = (await makeClient(db(), { nombre: 'Cliente Factura B', rfc: RFC_B })).id;
    const cat = await makeCategory(db(), clientA);
    const p = await makeProduct(db(), { idCliente: clientA, idCategoria: cat.id, precio: 50_000 });
    product = { id: p.id, idCategoria: cat.id };
    buyerA = (await makeUser(db(), { rol: 1, idCliente: clientA })).id;
    buyerB = (await makeUser(db(), { rol: 1, idCliente: clientB })).id;
    writerA = await newToken(['facturas:escribir'], clientA);
    readerA = await newToken(['facturas:leer'], clientA);
    writerAll = await newToken(['facturas:escribir', 'facturas:leer'], null);
    const hook = await admin.post('/api/integracion/webhooks', {
      url: receiver.url('/facturas'),
      eventos: ['factura.registrada', 'pago.aplicado'],
      id_cliente: clientA,
    });
    expect(hook.statusCode, hook.body).toBe(201);
    secret = (hook.json() as { secreto: string }).secreto;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  it('registers a stamped ingreso: 201, stored with its amounts, concepts, saldo, XML and PDF files, event and log', async () => {
    const pedido = await approvedOrder();
    const { xml, uuid } = cfdiXml({
      receptorRfc: RFC_A,
      serie: 'F',
      folio: '7',
      descuento: '10.005',
      subtotal: '1000.00',
      total: '1149.99',
      traslados: '159.995',
    });
    const pdf = fixture('manual.pdf');
    const res = await post(writerA, { pedido, xml, pdf_base64: pdf.toString('base64') });
    expect(res.statusCode, res.body).toBe(201);
    const f = res.json().factura;
    expect(f).toMatchObject({
      uuid,
      tipo: 'I',
      serie: 'F',
      folio: '7',
      id_pedido: pedido,
      subtotal_centavos: 100_000,
      descuento_centavos: 1001,
      traslados_centavos: 16_000,
      total_centavos: 114_999,
      saldo_centavos: 114_999,
      estado: 'pendiente',
      moneda: 'MXN',
      metodo_pago: 'PPD',
      forma_pago: '03',
      pdf: true,
      receptor: { rfc: RFC_A, uso_cfdi: 'G03' },
      emisor: { rfc: 'EKU9003173C9' },
    });
    expect(f.conceptos).toHaveLength(1);
    expect(f.conceptos[0]).toMatchObject({
      no_identificacion: 'PAP-0001',
      cantidad: '2',
      importe_centavos: 100_000,
    });
    const [row] = await db().select().from(invoices).where(eq(invoices.uuid, uuid));
    const files = await db().select().from(storedFiles).where(eq(storedFiles.kind, 'factura'));
    expect(files.map((x) => x.id)).toEqual(expect.arrayContaining([row!.xmlFileId, row!.pdfFileId]));
    expect(row!.tokenId).not.toBeNull();
    const events = await db().select().from(orderEvents).where(eq(orderEvents.orderId, pedido));
    expect(events.find((e) => e.tipo === 'factura')?.changes).toMatchObject({
      uuid,
      tipo: 'I',
      total: 114_999,
    });
    const logs = await db().select().from(systemLogs).where(eq(systemLogs.eventType, 'factura_registrada'));
    expect(logs.some((l) => l.description.includes('F-7') && l.description.includes('(integración)'))).toBe(
      true,
    );
    // The signed webhook reaches the receiver with the invoice in its body.
    const hook = await eventually(
      async () => receiver.at('/facturas').find((h) => h.body.includes(uuid)),
      20_000,
      'factura.registrada',
    );
    const body = JSON.parse(hook.body);
    expect(body.tipo).toBe('factura.registrada');
    expect(body.pedido.id).toBe(pedido);
    expect(body.factura).toMatchObject({ uuid, total_centavos: 114_999, saldo_centavos: 114_999 });
    expect(verifySignature(secret, hook.headers['x-portal-firma'] as string, hook.body)).toBe(true);
  });

  it('refuses what is not a stamped CFDI 4.0 for the client, with a Spanish 400 naming the field', async () => {
    const pedido = await approvedOrder();
    const cases: [string, string][] = [
      [
        cfdiXml({ receptorRfc: RFC_A, version: null }).xml,
        'El XML no es un CFDI 4.0: falta el atributo Version en cfdi:Comprobante',
      ],
      [cfdiXml({ receptorRfc: RFC_A, version: '3.3' }).xml, MSG.cfdiVersion('3.3')],
      [cfdiXml({ receptorRfc: RFC_A, timbrado: false }).xml, MSG.cfdiSinTimbre],
      [
        cfdiXml({ receptorRfc: 'XAXX010101000' }).xml,
        'El RFC del receptor (XAXX010101000) no es el del cliente (URE180429TM6).',
      ],
      [cfdiXml({ receptorRfc: RFC_A, moneda: 'USD' }).xml, 'Moneda USD no admitida: solo MXN.'],
    ];
    for (const [xml, msg] of cases) {
      const res = await post(writerA, { pedido, xml });
      expect(res.statusCode, msg).toBe(400);
      expect(res.json()).toMatchObject({ msg, errors: { xml: msg } });
    }
    const missing = await post(writerA, { xml: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.pedido).toBe('Indica el pedido (pedido: su id).');
    const badPdf = await post(writerA, {
      pedido,
      xml: cfdiXml({ receptorRfc: RFC_A }).xml,
      pdf_base64: Buffer.from('no soy pdf').toString('base64'),
    });
    expect(badPdf.statusCode).toBe(400);
    expect(badPdf.json().errors.pdf).toBe('Solo se permiten archivos PDF.');
    const pending = await approvedOrder(clientA, buyerA, 'pendiente');
    const notApproved = await post(writerA, { pedido: pending, xml: cfdiXml({ receptorRfc: RFC_A }).xml });
    expect(notApproved.statusCode).toBe(409);
    expect(await db().select().from(invoices).where(eq(invoices.orderId, pedido))).toHaveLength(0);
  });

  it('answers each hostile XML with a Spanish 400, never a 500 or a hang', async () => {
    const pedido = await approvedOrder();
    const started = Date.now();
    const hostile: [string, string][] = [
      [HOSTILE_XML.xxe, MSG.cfdiXmlDtd],
      [HOSTILE_XML.externalDtd, MSG.cfdiXmlDtd],
      [HOSTILE_XML.billionLaughs, MSG.cfdiXmlDtd],
      [HOSTILE_XML.deep, MSG.cfdiXmlProfundo],
      [HOSTILE_XML.big(RFC_A), MSG.cfdiXmlGrande],
      [HOSTILE_XML.malformed, MSG.cfdiXmlMalFormado],
    ];
    for (const [xml, msg] of hostile) {
      const res = await post(writerA, { pedido, xml });
      expect(res.statusCode, msg).toBe(400);
      expect(res.json().msg).toBe(msg);
      expect(res.body).not.toContain('root:');
    }
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a UUID registers once: a repeat is 409, two posts at once give one 201 and one 409', async () => {
    const pedido = await approvedOrder();
    const { xml, uuid } = cfdiXml({ receptorRfc: RFC_A });
    expect((await post(writerA, { pedido, xml })).statusCode).toBe(201);
    const again = await post(writerA, { pedido, xml });
    expect(again.statusCode).toBe(409);
    expect(again.json().msg).toBe(`El CFDI ya está registrado (UUID ${uuid}).`);
    const other = cfdiXml({ receptorRfc: RFC_A });
    const [p2, p3] = [await approvedOrder(), await approvedOrder()];
    const both = await Promise.all([
      post(writerA, { pedido: p2, xml: other.xml }),
      post(writerAll, { pedido: p3, xml: other.xml }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(await db().select().from(invoices).where(eq(invoices.uuid, other.uuid))).toHaveLength(1);
  });

  it('Idempotency-Key: a retry answers the first 201 again and registers nothing more', async () => {
    const pedido = await approvedOrder();
    const { xml, uuid } = cfdiXml({ receptorRfc: RFC_A });
    const key = randomUUID();
    const first = await post(writerA, { pedido, xml }, key);
    const retry = await post(writerA, { pedido, xml }, key);
    expect([first.statusCode, retry.statusCode]).toEqual([201, 201]);
    expect(retry.headers['idempotency-replayed']).toBe('true');
    expect(retry.json().factura.uuid).toBe(uuid);
    const reused = await post(writerA, { pedido, xml: cfdiXml({ receptorRfc: RFC_A }).xml }, key);
    expect(reused.statusCode).toBe(422);
  });

  it("another client's order answers 404 like a missing one; a token without the scope 403", async () => {
    const orderB = await approvedOrder(clientB, buyerB);
    const res = await post(writerA, { pedido: orderB, xml: cfdiXml({ receptorRfc: RFC_B }).xml });
    const missing = await post(writerA, { pedido: 2_000_000_000, xml: cfdiXml({ receptorRfc: RFC_B }).xml });
    expect([res.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(res.json()).toEqual(missing.json());
    const forbidden = await post(readerA, { pedido: orderB, xml: 'x' });
    expect(forbidden.statusCode).toBe(403);
    expect(forbidden.json().code).toBe('TOKEN_SCOPE');
  });

  it('a credit note related to an invoice reduces its saldo; unrelated or over the saldo is refused', async () => {
    const pedido = await approvedOrder();
    const uuid = await invoiceFor(pedido);
    const nota = (total: string, related: string[] | null, tipoRelacion = '01') =>
      cfdiXml({
        receptorRfc: RFC_A,
        tipo: 'E',
        subtotal: (Number(total) / 1.16).toFixed(2),
        traslados: (Number(total) - Number((Number(total) / 1.16).toFixed(2))).toFixed(2),
        total,
        conceptos: [
          {
            cantidad: '1',
            valorUnitario: (Number(total) / 1.16).toFixed(2),
            importe: (Number(total) / 1.16).toFixed(2),
          },
        ],
        ...(related ? { relacionados: { tipoRelacion, uuids: related } } : {}),
      });
    const ok = nota('116.00', [uuid]);
    const res = await post(writerA, { pedido, xml: ok.xml });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().factura).toMatchObject({ tipo: 'E', saldo_centavos: null, estado: 'aplicada' });
    expect(await saldoOf(uuid)).toBe(116_000 - 11_600);
    const read = await get(readerA, `/api/v1/facturas/${uuid.toLowerCase()}`);
    expect(read.json().aplicaciones).toEqual([
      expect.objectContaining({ uuid: ok.uuid, tipo: 'E', importe_centavos: 11_600 }),
    ]);
    const noRelation = await post(writerA, { pedido, xml: nota('116.00', null).xml });
    expect(noRelation.statusCode).toBe(400);
    expect(noRelation.json().msg).toBe(MSG.cfdiEgresoSinRelacion);
    const wrongKind = await post(writerA, { pedido, xml: nota('116.00', [uuid], '07').xml });
    expect(wrongKind.json().msg).toBe(MSG.cfdiEgresoSinRelacion);
    const unknown = randomUUID().toUpperCase();
    const notRegistered = await post(writerA, { pedido, xml: nota('116.00', [unknown]).xml });
    expect(notRegistered.statusCode).toBe(400);
    expect(notRegistered.json().msg).toBe(MSG.cfdiRelacionNoRegistrada(unknown));
    const over = await post(writerA, { pedido, xml: nota('1160.00', [uuid]).xml });
    expect(over.statusCode).toBe(400);
    expect(over.json().msg).toBe(MSG.cfdiExcedeSaldo(uuid, 116_000, 104_400));
    expect(await saldoOf(uuid)).toBe(104_400);
  });

  it('a payment complement applies each DoctoRelacionado; unknown UUID or over the saldo is refused, nothing applied', async () => {
    const p1 = await approvedOrder();
    const p2 = await approvedOrder();
    const [u1, u2] = [await invoiceFor(p1), await invoiceFor(p2)];
    const pago = cfdiXml({
      receptorRfc: RFC_A,
      tipo: 'P',
      pagos: [
        { uuid: u1, saldoAnt: '1160.00', pagado: '1160.00' },
        { uuid: u2, saldoAnt: '1160.00', pagado: '500.00' },
      ],
    });
    const res = await post(writerA, { pedido: p1, xml: pago.xml });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().factura).toMatchObject({ tipo: 'P', total_centavos: 166_000 });
    expect([await saldoOf(u1), await saldoOf(u2)]).toEqual([0, 66_000]);
    const list = await get(readerA, `/api/v1/facturas?pedido=${p1}&tipo=I`);
    expect(list.json().facturas[0]).toMatchObject({ uuid: u1, estado: 'pagada', saldo_centavos: 0 });
    // The other order's timeline hears of it too, and both orders' webhooks say pago.aplicado.
    const other = await db()
      .select()
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, p2), eq(orderEvents.tipo, 'factura_aplicada')));
    expect(other[0]?.changes).toMatchObject({
      uuid: pago.uuid,
      tipo: 'P',
      aplicaciones: [{ uuid: u2, importe: 50_000, saldo: 66_000 }],
    });
    await eventually(
      async () =>
        receiver
          .at('/facturas')
          .filter((h) => JSON.parse(h.body).tipo === 'pago.aplicado' && h.body.includes(pago.uuid)).length ===
        2,
      20_000,
      'pago.aplicado',
    );
    const unknown = randomUUID().toUpperCase();
    const bad = cfdiXml({
      receptorRfc: RFC_A,
      tipo: 'P',
      pagos: [
        { uuid: u2, saldoAnt: '660.00', pagado: '1.00' },
        { uuid: unknown, saldoAnt: '1.00', pagado: '1.00' },
      ],
    });
    const refused = await post(writerA, { pedido: p2, xml: bad.xml });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe(MSG.cfdiDocumentoDesconocido(unknown));
    expect(await saldoOf(u2)).toBe(66_000);
    const over = await post(writerA, {
      pedido: p2,
      xml: cfdiXml({
        receptorRfc: RFC_A,
        tipo: 'P',
        pagos: [{ uuid: u2, saldoAnt: '700.00', pagado: '660.01' }],
      }).xml,
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().msg).toBe(MSG.cfdiExcedeSaldo(u2, 66_001, 66_000));
  });

  it('two payments of one invoice at once never take its saldo below 0', async () => {
    const pedido = await approvedOrder();
    const uuid = await invoiceFor(pedido);
    const pay = () =>
      cfdiXml({ receptorRfc: RFC_A, tipo: 'P', pagos: [{ uuid, saldoAnt: '1160.00', pagado: '700.00' }] })
        .xml;
    const both = await Promise.all([
      post(writerA, { pedido, xml: pay() }),
      post(writerAll, { pedido, xml: pay() }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([201, 400]);
    expect(both.find((r) => r.statusCode === 400)!.json().code).toBe('CFDI_OVER_BALANCE');
    expect(await saldoOf(uuid)).toBe(46_000);
  });

  it('lists with keyset pagination within the token’s client; another client’s UUID is 404', async () => {
    const orderB = await approvedOrder(clientB, buyerB);
    const { xml, uuid: uuidB } = cfdiXml({ receptorRfc: RFC_B });
    expect((await post(writerAll, { pedido: orderB, xml })).statusCode).toBe(201);
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(readerA, `/api/v1/facturas?limite=2${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode).toBe(200);
      const page = res.json() as { facturas: { uuid: string }[]; siguiente: string | null };
      expect(page.facturas.length).toBeLessThanOrEqual(2);
      seen.push(...page.facturas.map((f) => f.uuid));
      cursor = page.siguiente;
    } while (cursor);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).not.toContain(uuidB);
    const all = await db()
      .select({ uuid: invoices.uuid })
      .from(invoices)
      .where(eq(invoices.idCliente, clientA));
    expect(seen.sort()).toEqual(all.map((r) => r.uuid).sort());
    const hidden = await get(readerA, `/api/v1/facturas/${uuidB}`);
    const missing = await get(readerA, `/api/v1/facturas/${randomUUID()}`);
    expect([hidden.statusCode, missing.statusCode]).toEqual([404, 404]);
    expect(hidden.json()).toEqual(missing.json());
    expect((await get(readerA, '/api/v1/facturas?cursor=zzz')).statusCode).toBe(400);
    expect((await get(writerA, '/api/v1/facturas')).statusCode).toBe(403);
  });

  it('the operator uploads a CFDI (multipart), lists the order’s invoices and downloads XML and PDF', async () => {
    const pedido = await approvedOrder();
    const { xml, uuid } = cfdiXml({ receptorRfc: RFC_A });
    const pdf = fixture('manual.pdf');
    const upload = (files: Parameters<typeof multipart>[1]) => {
      const { body, headers } = multipart({}, files);
      return admin.post(`/api/surtido/${pedido}/facturas`, body, { headers });
    };
    const up = await upload({
      xml: { filename: 'factura.xml', data: Buffer.from(xml) },
      pdf: { filename: 'factura.pdf', data: pdf },
    });
    expect(up.statusCode, up.body).toBe(200);
    expect(up.json().msg).toBe(`CFDI registrado: Ingreso (UUID ${uuid}).`);
    const refused = await upload({
      xml: { filename: 'otra.xml', data: Buffer.from(cfdiXml({ receptorRfc: RFC_B }).xml) },
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json().msg).toBe(
      'El RFC del receptor (IIA040805DZ4) no es el del cliente (URE180429TM6).',
    );
    const hostile = await upload({ xml: { filename: 'xxe.xml', data: Buffer.from(HOSTILE_XML.xxe) } });
    expect(hostile.statusCode).toBe(400);
    expect(hostile.json().msg).toBe(MSG.cfdiXmlDtd);
    const notUtf8 = await upload({
      xml: { filename: 'latin1.xml', data: Buffer.from([0x3c, 0x61, 0xe9, 0x3e]) },
    });
    expect(notUtf8.statusCode).toBe(400);
    expect(notUtf8.json().msg).toBe(MSG.cfdiXmlMalFormado);
    const noFile = await upload({});
    expect(noFile.statusCode).toBe(400);
    const list = await admin.get(`/api/surtido/${pedido}/facturas`);
    expect(list.json().facturas.map((f: { uuid: string }) => f.uuid)).toEqual([uuid]);
    const x = await admin.get(`/api/surtido/${pedido}/facturas/${uuid}/xml`);
    expect(x.statusCode).toBe(200);
    expect(x.headers['content-type']).toContain('application/xml');
    expect(x.body).toBe(xml);
    const p = await admin.get(`/api/surtido/${pedido}/facturas/${uuid}/pdf`);
    expect(p.statusCode).toBe(200);
    expect(p.rawPayload.equals(pdf)).toBe(true);
    const none = await admin.get(`/api/surtido/${pedido}/facturas/${randomUUID()}/xml`);
    expect(none.statusCode).toBe(404);
    // A client without an RFC cannot be invoiced yet.
    await db().update(clients).set({ rfc: null }).where(eq(clients.id, clientA));
    try {
      const noRfc = await post(writerA, { pedido, xml: cfdiXml({ receptorRfc: RFC_A }).xml });
      expect(noRfc.json().msg).toBe(MSG.cfdiClienteSinRfc);
    } finally {
      await db().update(clients).set({ rfc: RFC_A }).where(eq(clients.id, clientA));
    }
  });
});
