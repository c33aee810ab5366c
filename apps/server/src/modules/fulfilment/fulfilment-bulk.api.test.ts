import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderEvents, orders } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { postForm } from '../../test/admin-fixtures.ts';
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

/** Fulfilment in bulk: many orders moved at once, and the guías file (docs/domain.md "Fulfilment", 0094). */
describe.each(DB_KINDS)('fulfilment in bulk: moves and the guías file (%s)', (kind) => {
  let t: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let operator: ApiClient;
  beforeAll(async () => {
    smtp = await startSmtp();
    t = await createTestApp(kind, { env: { SMTP_URL: smtp.url } });
    const op = await makeUser(db(), { rol: 4, idCliente: null });
    operator = await new ApiClient(t.app).loginOk(op.usuario, TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
    await smtp?.close();
  });
  const db = () => t.database.db;

  /** A client with a buyer, and orders of it in the statuses asked. */
  async function world() {
    const tag = uniq('lote');
    const client = await makeClient(db(), { nombre: `Cliente ${tag}`, limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id, 'Papelería');
    const product = await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 100 });
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id, email: `${tag}@example.test` });
    const order = (status: 'pendiente' | 'aprobado' = 'aprobado', surtido?: 'enviado' | 'entregado') =>
      makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status,
        surtido,
        lines: [{ productId: product.id, precio: 100, cantidad: 1, idCategoria: category.id }],
      });
    return { tag, client, buyer, order };
  }

  const stateOf = async (id: number) =>
    (
      await db()
        .select({ s: orders.surtidoEstatus, guia: orders.guia, paqueteria: orders.paqueteria })
        .from(orders)
        .where(eq(orders.id, id))
    )[0];
  const movesOf = async (ids: number[]) =>
    db()
      .select()
      .from(orderEvents)
      .where(and(inArray(orderEvents.orderId, ids), eq(orderEvents.tipo, 'surtido')));
  const MISSING = 999_999_999;
  const csv = (text: string, filename = 'guias.csv') => ({
    file: { filename, data: Buffer.from(text), contentType: 'text/csv' },
  });
  const upload = (client: ApiClient, text: string) => postForm(client, '/api/surtido/guias', {}, csv(text));

  it('moves each order on its own with the single move’s rules and texts, in the order asked', async () => {
    const w = await world();
    const a = await w.order();
    const b = await w.order();
    const shipped = await w.order('aprobado', 'enviado');
    const pending = await w.order('pendiente');
    const res = await operator.post('/api/surtido/estado-lote', {
      ids: [a.id, shipped.id, MISSING, pending.id, b.id],
      estado: 'enviado',
      guia: 'DHL 555',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().resultados).toEqual([
      { id: a.id, ok: true, estado: 'enviado' },
      { id: shipped.id, ok: false, error: MSG.surtidoYaEn('Enviado') },
      { id: MISSING, ok: false, error: MSG.pedidoNoEncontrado },
      { id: pending.id, ok: false, error: MSG.surtidoNoAprobado },
      { id: b.id, ok: true, estado: 'enviado' },
    ]);
    expect(await stateOf(a.id)).toEqual({ s: 'enviado', guia: 'DHL 555', paqueteria: null });
    expect((await stateOf(pending.id))?.s).toBeNull();
    expect(await movesOf([a.id, b.id, shipped.id])).toHaveLength(2);
    // The buyer is told of each shipment, with the tracking page of a known carrier.
    const mail = await smtp.waitFor((m) => m.to.includes(w.tag) && m.subject.includes(String(a.id)));
    expect(mail.text).toContain('Rastreo: https://www.dhl.com/mx-es/home/rastreo.html?tracking-id=555');
    // Never backwards: moving the shipped ones back to en_surtido refuses each one.
    const back = await operator.post('/api/surtido/estado-lote', { ids: [a.id], estado: 'en_surtido' });
    expect(back.json().resultados).toEqual([{ id: a.id, ok: false, error: MSG.surtidoYaEn('Enviado') }]);
    expect((await stateOf(a.id))?.s).toBe('enviado');
  });

  it('refuses bad bodies with Spanish 400s, other roles 403, without the XSRF token 419', async () => {
    const w = await world();
    const o = await w.order();
    const cases: [unknown, string][] = [
      [{ ids: [], estado: 'enviado' }, MSG.loteVacio],
      [{ ids: Array.from({ length: 201 }, (_, i) => i + 1), estado: 'enviado' }, MSG.loteLargo(200)],
      [{ ids: [o.id, o.id], estado: 'enviado' }, MSG.loteRepetido],
      [{ ids: [o.id], estado: 'perdido' }, MSG.surtidoEstadoInvalido],
      [{ ids: [o.id], estado: 'enviado', guia: 'x'.repeat(61) }, MSG.surtidoGuiaLarga],
    ];
    for (const [body, msg] of cases) {
      const res = await operator.post('/api/surtido/estado-lote', body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.body).toContain(msg);
    }
    const buyer = await new ApiClient(t.app).loginOk(w.buyer.usuario, TEST_PASSWORD);
    expect(
      (await buyer.post('/api/surtido/estado-lote', { ids: [o.id], estado: 'enviado' })).statusCode,
    ).toBe(403);
    const noToken = await operator.post(
      '/api/surtido/estado-lote',
      { ids: [o.id], estado: 'enviado' },
      { xsrf: null },
    );
    expect(noToken.statusCode).toBe(419);
    expect((await stateOf(o.id))?.s).toBe('por_surtir');
  });

  it('two operators moving the same orders at once move each order once', async () => {
    const w = await world();
    const list = [await w.order(), await w.order(), await w.order()];
    const ids = list.map((o) => o.id);
    const second = await new ApiClient(t.app).loginOk(
      (await makeUser(db(), { rol: 4, idCliente: null })).usuario,
      TEST_PASSWORD,
    );
    const [r1, r2] = await Promise.all([
      operator.post('/api/surtido/estado-lote', { ids, estado: 'en_surtido' }),
      second.post('/api/surtido/estado-lote', { ids: [...ids].reverse(), estado: 'en_surtido' }),
    ]);
    const rows = [...r1.json().resultados, ...r2.json().resultados];
    for (const id of ids) {
      const mine = rows.filter((r: { id: number }) => r.id === id);
      expect(mine.filter((r: { ok: boolean }) => r.ok)).toHaveLength(1);
      expect(mine.find((r: { ok: boolean }) => !r.ok).error).toBe(MSG.surtidoYaEn('En surtido'));
    }
    expect(await movesOf(ids)).toHaveLength(3);
  });

  it('the guías file ships each row’s order with its guía and carrier; bad rows are row errors', async () => {
    const w = await world();
    const a = await w.order();
    const b = await w.order();
    const delivered = await w.order('aprobado', 'entregado');
    const pending = await w.order('pendiente');
    const num = (id: number) => String(id).padStart(5, '0');
    const file = [
      'pedido,guia,paqueteria',
      `${a.id},1234567890,fedex`,
      `#${num(b.id)},EST-1,Redpack`,
      `${delivered.id},9,DHL`,
      `${pending.id},8,DHL`,
      `${MISSING},7,DHL`,
      'abc,6,DHL',
      `,5,DHL`,
      `${a.id},4,DHL`,
      `${b.id + 1_000_000},,DHL`,
      `${b.id + 1_000_001},${'x'.repeat(61)},`,
    ].join('\r\n');
    const res = await upload(operator, file);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ status: 'ok', total: 10, enviados: 2 });
    expect(body.msg).toBe(MSG.guiasImportadas(2, 10));
    expect(body.errores).toEqual([
      { fila: 4, campo: 'pedido', motivo: MSG.surtidoYaEn('Entregado'), valor: num(delivered.id) },
      { fila: 5, campo: 'pedido', motivo: MSG.surtidoNoAprobado, valor: num(pending.id) },
      { fila: 6, campo: 'pedido', motivo: MSG.pedidoNoEncontrado, valor: num(MISSING) },
      { fila: 7, campo: 'pedido', motivo: MSG.guiasPedidoInvalido, valor: 'abc' },
      { fila: 8, campo: 'pedido', motivo: MSG.guiasPedidoRequerido },
      { fila: 9, campo: 'pedido', motivo: MSG.guiasPedidoRepetido(2), valor: String(a.id) },
      { fila: 10, campo: 'guia', motivo: MSG.guiasGuiaRequerida },
      { fila: 11, campo: 'guia', motivo: MSG.surtidoGuiaLarga, valor: 'x'.repeat(61) },
    ]);
    // The known carrier is written as the table names it; another is kept as given.
    expect(await stateOf(a.id)).toEqual({ s: 'enviado', guia: '1234567890', paqueteria: 'FedEx' });
    expect(await stateOf(b.id)).toEqual({ s: 'enviado', guia: 'EST-1', paqueteria: 'Redpack' });
    const [event] = await movesOf([a.id]);
    expect(event?.changes).toEqual({ guia: '1234567890', paqueteria: 'FedEx', envio: 1 });
    // The queue shows the carrier beside the guía.
    const queue = (await operator.get(`/api/surtido?cliente=${w.client.id}`)).json();
    expect(queue.pedidos.find((p: { id: number }) => p.id === a.id)).toMatchObject({
      guia: '1234567890',
      paqueteria: 'FedEx',
    });
    // A second upload of the same file moves nothing twice.
    const again = (await upload(operator, file)).json();
    expect(again.enviados).toBe(0);
    expect(await movesOf([a.id, b.id])).toHaveLength(2);
  });

  it('bad guías files are Spanish 400s; semicolons and a missing paqueteria column are fine', async () => {
    const w = await world();
    const o = await w.order();
    const refusals: [string | Buffer, string][] = [
      ['', MSG.archivoNoSeleccionado],
      ['pedido,guia,paqueteria\r\n', MSG.csvSinRegistros],
      ['pedido,numero\r\n1,2\r\n', MSG.csvEncabezados(['guia'], ['numero'])],
      [Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), MSG.csvNoEsTexto],
      [`pedido,guia\r\n${'1,2\r\n'.repeat(1001)}`, MSG.csvDemasiadasFilas(1000)],
      [`pedido,guia\r\n1,${'x'.repeat(1024 * 1024)}\r\n`, 'El archivo excede el tamaño máximo de 1 MB.'],
    ];
    for (const [text, msg] of refusals) {
      const res = await postForm(operator, '/api/surtido/guias', {}, text === '' ? {} : csv(String(text)));
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    const json = await operator.post('/api/surtido/guias', { pedido: o.id });
    expect(json.statusCode).toBe(415);
    const ok = await upload(operator, `pedido;guia\r\n${o.id};Estafeta 12\r\n`);
    expect(ok.json()).toMatchObject({ enviados: 1, errores: [] });
    expect(await stateOf(o.id)).toEqual({ s: 'enviado', guia: 'Estafeta 12', paqueteria: null });
    const buyer = await new ApiClient(t.app).loginOk(w.buyer.usuario, TEST_PASSWORD);
    expect((await upload(buyer, `pedido,guia\r\n${o.id},1\r\n`)).statusCode).toBe(403);
  });
});
