import { orderNumber } from '@portal/shared/domain/order-workflow';
import { businessDate } from '@portal/shared/domain/time';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orderLines, orders, systemLogs } from '../../db/schema/index.ts';
import { parseCsv } from '../../lib/csv-read.ts';
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
import { pdfText } from '../../test/pdf-text.ts';
import { PICK_LIST_HEADER } from './pick-list.service.ts';

/** The operator's pick list: the selected orders by product (docs/domain.md "Fulfilment", decision 0109). */
describe.each(DB_KINDS)('pick list (%s)', (kind) => {
  let t: TestApp;
  let operator: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    const op = await makeUser(db(), { rol: 4, idCliente: null });
    operator = await new ApiClient(t.app).loginOk(op.usuario, TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;
  const num = (id: number) => `#${orderNumber(id)}`;
  const MISSING = 999_999_999;

  /** A client with a buyer and an authorizer, `n` products, and orders of it made of those products. */
  async function world(n = 3) {
    const tag = uniq('surtir');
    const client = await makeClient(db(), { nombre: `Cliente ${tag}`, limiteDeCompras: -1 });
    const category = await makeCategory(db(), client.id, 'Ferretería');
    const products: Awaited<ReturnType<typeof makeProduct>>[] = [];
    for (let i = 0; i < n; i++)
      products.push(await makeProduct(db(), { idCliente: client.id, idCategoria: category.id, precio: 10 }));
    const buyer = await makeUser(db(), { rol: 1, idCliente: client.id });
    const authorizer = await makeUser(db(), { rol: 2, idCliente: client.id });
    const order = (
      lines: [number, number][],
      status: 'pendiente' | 'aprobado' = 'aprobado',
      surtido?: 'en_surtido' | 'enviado' | 'entregado',
    ) =>
      makeOrder(db(), {
        idUser: buyer.id,
        idCliente: client.id,
        status,
        surtido,
        lines: lines.map(([i, cantidad]) => ({
          productId: products[i]!.id,
          nombre: `Tornillo ${tag} ${i}`,
          precio: 10,
          cantidad,
          idCategoria: category.id,
        })),
      });
    return { tag, products, buyer, authorizer, order };
  }
  const lista = (body: unknown, client = operator) => client.post('/api/surtido/lista', body);
  const today = () => businessDate(t.app.clock.now());

  it('groups the selection by product, with each total and the orders it serves (CSV)', async () => {
    const w = await world();
    const a = await w.order([
      [0, 3],
      [1, 1],
    ]);
    const b = await w.order(
      [
        [2, 5],
        [0, 1],
      ],
      'aprobado',
      'en_surtido',
    );
    const c = await w.order([
      [1, 4],
      [0, 2],
    ]);
    // The client's own code, as frozen on the lines.
    await db()
      .update(orderLines)
      .set({ claveCliente: 'CC-9' })
      .where(and(inArray(orderLines.orderId, [a.id, c.id]), eq(orderLines.productId, w.products[1]!.id)));

    const res = await lista({ ids: [c.id, a.id, b.id], formato: 'csv' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="lista-de-surtido-${today()}.csv"`);
    expect(res.headers['cache-control']).toBe('private, no-store');
    expect(res.body.startsWith('\uFEFF')).toBe(true);
    const table = parseCsv(res.body.slice(1));
    expect(table.header).toEqual(PICK_LIST_HEADER);
    const [p0, p1, p2] = w.products.map((p) => p.id);
    expect(table.records.map((r) => r.cells)).toEqual([
      [
        `CL-${p0}`,
        '',
        `Tornillo ${w.tag} 0`,
        'Pieza',
        '6',
        `${num(a.id)} (3); ${num(b.id)} (1); ${num(c.id)} (2)`,
      ],
      [`CL-${p1}`, 'CC-9', `Tornillo ${w.tag} 1`, 'Pieza', '5', `${num(a.id)} (1); ${num(c.id)} (4)`],
      [`CL-${p2}`, '', `Tornillo ${w.tag} 2`, 'Pieza', '5', `${num(b.id)} (5)`],
    ]);

    // One log entry for the download; no order changed.
    const [log] = await db()
      .select()
      .from(systemLogs)
      .where(
        and(
          eq(systemLogs.eventType, 'surtido_lista'),
          sql`${systemLogs.metadata}->'ids' @> ${JSON.stringify([c.id])}::jsonb`,
        ),
      );
    expect(log?.metadata).toMatchObject({
      pedidos: 3,
      productos: 3,
      formato: 'csv',
      ids: [c.id, a.id, b.id],
    });
    const states = await db()
      .select({ s: orders.surtidoEstatus, exportado: orders.exportadoAt })
      .from(orders)
      .where(inArray(orders.id, [a.id, b.id, c.id]));
    expect(states.map((s) => s.s).sort()).toEqual(['en_surtido', 'por_surtir', 'por_surtir']);
    expect(states.every((s) => s.exportado === null)).toBe(true);
  });

  it('prints the same list as a PDF, over several pages when it is long', async () => {
    const w = await world(60);
    const a = await w.order(w.products.map((_, i) => [i, 2] as [number, number]));
    const b = await w.order([[0, 7]]);
    const res = await lista({ ids: [a.id, b.id], formato: 'pdf' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="lista-de-surtido-${today()}.pdf"`);
    const { text, pages } = await pdfText(res.rawPayload);
    expect(text).toContain('Lista de surtido');
    expect(text).toContain('2 pedido(s) · 60 producto(s)');
    expect(text).toContain(`Tornillo ${w.tag} 0`);
    expect(text).toContain(`9 ${num(a.id)} (2); ${num(b.id)} (7)`);
    expect(pages).toBeGreaterThan(1);
    expect(text).toContain(`Página 2 de ${pages}`);
  });

  it('refuses bad bodies with Spanish 400s', async () => {
    const w = await world(1);
    const o = await w.order([[0, 1]]);
    const cases: [unknown, string][] = [
      [{ ids: [], formato: 'pdf' }, MSG.loteVacio],
      [{ formato: 'pdf' }, MSG.loteVacio],
      [{ ids: Array.from({ length: 201 }, (_, i) => i + 1), formato: 'csv' }, MSG.listaSurtidoLarga(200)],
      [{ ids: [o.id, o.id], formato: 'csv' }, MSG.loteRepetido],
      [{ ids: [1.5], formato: 'csv' }, MSG.loteIdInvalido],
      [{ ids: ['12'], formato: 'csv' }, MSG.loteIdInvalido],
      [{ ids: [o.id], formato: 'xlsx' }, MSG.listaSurtidoFormato],
      [{ ids: [o.id] }, MSG.listaSurtidoFormato],
    ];
    for (const [body, msg] of cases) {
      const res = await lista(body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().msg, JSON.stringify(body)).toBe(msg);
    }
  });

  it('refuses the whole selection for a missing, unapproved or shipped order, naming the first', async () => {
    const w = await world(1);
    const ok = await w.order([[0, 1]]);
    const pending = await w.order([[0, 1]], 'pendiente');
    const shipped = await w.order([[0, 1]], 'aprobado', 'enviado');
    const delivered = await w.order([[0, 1]], 'aprobado', 'entregado');
    const cases: [number[], number, string][] = [
      [[ok.id, MISSING, pending.id], 404, MSG.listaSurtidoNoExiste(num(MISSING))],
      [[ok.id, pending.id, shipped.id], 409, MSG.listaSurtidoNoAprobado(num(pending.id))],
      [[ok.id, shipped.id, pending.id], 409, MSG.listaSurtidoYaEnviado(num(shipped.id), 'Enviado')],
      [[delivered.id, ok.id], 409, MSG.listaSurtidoYaEnviado(num(delivered.id), 'Entregado')],
    ];
    for (const [ids, status, msg] of cases) {
      const res = await lista({ ids, formato: 'csv' });
      expect(res.statusCode, res.body).toBe(status);
      expect(res.json().msg).toBe(msg);
    }
  });

  it('is the operator’s alone: the buyer and the approvers get 403; without the XSRF token 419', async () => {
    const w = await world(1);
    const o = await w.order([[0, 1]]);
    for (const user of [w.buyer, w.authorizer]) {
      const client = await new ApiClient(t.app).loginOk(user.usuario, TEST_PASSWORD);
      expect((await lista({ ids: [o.id], formato: 'pdf' }, client)).statusCode).toBe(403);
    }
    const noToken = await operator.post(
      '/api/surtido/lista',
      { ids: [o.id], formato: 'pdf' },
      { xsrf: null },
    );
    expect(noToken.statusCode).toBe(419);
  });
});
