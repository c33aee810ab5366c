import { formatCentavos } from '@portal/shared/domain/money';
import type { V1Order, V1OrderCredit, V1OrdersResponse } from '@portal/shared/schemas/integration';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type clients, orderEvents, webhookEvents } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { integrationToken, signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { creditWorld } from '../../test/credit-fixtures.ts';
import { assign } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';
import { eventually, startReceiver, verifySignature } from '../../test/webhook-receiver.ts';

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const NEVER: V1OrderCredit = {
  retenido: false,
  motivo: null,
  retenido_desde: null,
  liberado_en: null,
  aviso: null,
};

/** The credit hold in the v1 API and the webhooks (decision 0136, on decision 0134's hold). */
describe.each(DB_KINDS)('credit holds in the v1 API and the webhooks (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  let receiver: Receiver;
  const db = () => t.database.db;

  beforeAll(async () => {
    receiver = await startReceiver();
    t = await createTestApp(kind, {
      env: { API_RATE_LIMIT: '100000', WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_BASE_SECONDS: '1' },
    });
    admin = (await signedInAdmin(t.app, db())).api;
  });
  afterAll(async () => {
    await t?.close();
    await receiver?.close();
  });

  /** A client with one approval level, its buyer and approver, and orders of $1,160.00 with IVA. */
  async function world(credit: Partial<typeof clients.$inferInsert>) {
    const w = await creditWorld(t, credit);
    const order = async (status: 'pendiente' | 'aprobado' = 'pendiente') =>
      (await w.order(status)).id as number;
    /** A waiting order approved by the client's approver (the final approval checks the credit). */
    const approved = async () => {
      const id = await order();
      const res = await w.approve(id);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().nuevo_estatus).toBe('aprobado');
      return id;
    };
    return { client: w.client, order, approved };
  }

  const token = (idCliente: number | null) =>
    integrationToken(admin, { id_cliente: idCliente, permisos: ['pedidos:leer'] });

  const get = (tok: string, url: string) =>
    t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${tok}` } });

  async function detail(tok: string, id: number): Promise<V1Order> {
    const res = await get(tok, `/api/v1/pedidos/${id}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as V1Order;
  }

  /** Every page of a list, following `siguiente`. */
  async function pages(tok: string, query: string): Promise<number[][]> {
    const out: number[][] = [];
    let cursor: string | null = null;
    do {
      const res = await get(tok, `/api/v1/pedidos?${query}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as V1OrdersResponse;
      out.push(body.pedidos.map((p) => p.id));
      cursor = body.siguiente;
    } while (cursor !== null && out.length < 20);
    return out;
  }

  const eventAt = async (id: number, tipo: string) => {
    const [e] = await db()
      .select({ at: orderEvents.createdAt })
      .from(orderEvents)
      .where(and(eq(orderEvents.orderId, id), eq(orderEvents.tipo, tipo)));
    return e!.at.toISOString();
  };

  it('list and detail carry the hold: held, released, never held and warned; the filter pages by cursor; tenancy', async () => {
    const a = await world({ limiteCredito: 0, politicaCredito: 'retener' });
    const warned = await world({ limiteCredito: 0, politicaCredito: 'avisar' });
    const other = await world({ limiteCredito: 0, politicaCredito: 'retener' });
    const held1 = await a.approved();
    const released = await a.approved();
    const fine = await a.order('aprobado');
    const held2 = await a.approved();
    const waiting = await a.order();
    const warnedId = await warned.approved();
    const otherHeld = await other.approved();
    expect((await admin.post(`/api/surtido/${released}/liberar`, {})).statusCode).toBe(200);

    const mine = await token(a.client.id);
    const motivo = MSG.creditoExcedido(formatCentavos(0), formatCentavos(116_000), formatCentavos(0));

    const h = await detail(mine, held1);
    expect(h.estatus).toBe('aprobado');
    expect(h.surtido).toBe('por_surtir');
    expect(h.credito).toEqual({
      retenido: true,
      motivo,
      retenido_desde: await eventAt(held1, 'retenido_credito'),
      liberado_en: null,
      aviso: null,
    });
    const r = await detail(mine, released);
    expect(r.credito).toEqual({
      retenido: false,
      motivo,
      retenido_desde: await eventAt(released, 'retenido_credito'),
      liberado_en: await eventAt(released, 'liberado_credito'),
      aviso: null,
    });
    expect(r.credito.liberado_en! >= r.credito.retenido_desde!).toBe(true);
    expect(r.eventos.map((e) => e.tipo)).toContain('liberado_credito');
    expect((await detail(mine, fine)).credito).toEqual(NEVER);
    expect((await detail(mine, waiting)).credito).toEqual(NEVER);

    const w = await detail(await token(warned.client.id), warnedId);
    expect(w.credito).toEqual({ ...NEVER, aviso: motivo });

    // The list carries the same state as the detail.
    const all = await get(mine, '/api/v1/pedidos?limite=100');
    const listed = new Map((all.json() as V1OrdersResponse).pedidos.map((p) => [p.id, p.credito]));
    expect(listed.get(held1)).toEqual(h.credito);
    expect(listed.get(released)).toEqual(r.credito);
    expect(listed.get(fine)).toEqual(NEVER);

    // The filter, one order a page: every held order once, in id order, nothing else.
    expect(await pages(mine, 'credito=retenido&limite=1')).toEqual([[held1], [held2]]);
    expect((await pages(mine, 'credito=libre&limite=2')).flat()).toEqual([released, fine, waiting]);
    expect((await pages(mine, 'credito=libre&estatus=aprobado&surtido=por_surtir')).flat()).toEqual([
      released,
      fine,
    ]);
    expect((await get(mine, '/api/v1/pedidos?credito=bloqueado')).statusCode).toBe(400);

    // A client's token never sees another client's held order, by the filter or by its id.
    const theirs = await token(other.client.id);
    expect((await pages(theirs, 'credito=retenido')).flat()).toEqual([otherHeld]);
    const refused = await get(mine, `/api/v1/pedidos/${otherHeld}`);
    expect(refused.statusCode).toBe(404);
    expect(refused.body).not.toContain(motivo);
    expect((await get(theirs, `/api/v1/pedidos/${held1}`)).statusCode).toBe(404);
    // A token for every client sees both clients' held orders.
    const every = (await pages(await token(null), 'credito=retenido&limite=100')).flat();
    expect(every).toEqual(expect.arrayContaining([held1, held2, otherHeld]));
    expect(every).not.toContain(released);
  });

  it('webhooks: the hold at an approval and the release arrive once each, signed, after pedido.aprobado', async () => {
    const a = await world({ limiteCredito: 0, politicaCredito: 'retener' });
    const other = await world({ limiteCredito: 0, politicaCredito: 'retener' });
    const reg = async (path: string, idCliente: number, eventos: string[]) => {
      const res = await admin.post('/api/integracion/webhooks', {
        url: receiver.url(path),
        eventos,
        id_cliente: idCliente,
      });
      expect(res.statusCode, res.body).toBe(201);
      return (res.json() as { secreto: string }).secreto;
    };
    const secret = await reg('/credito', a.client.id, [
      'pedido.aprobado',
      'pedido.retenido_credito',
      'pedido.liberado_credito',
    ]);
    const listed = await admin.get('/api/integracion/webhooks');
    expect(JSON.stringify(listed.json())).toContain('pedido.liberado_credito');
    await reg('/credito-otro', other.client.id, ['pedido.retenido_credito', 'pedido.liberado_credito']);

    const id = await a.approved();
    expect((await admin.post(`/api/surtido/${id}/liberar`, {})).statusCode).toBe(200);
    // A second release is refused and sends nothing.
    expect((await admin.post(`/api/surtido/${id}/liberar`, {})).statusCode).toBe(409);

    const hooks = await eventually(
      async () => (receiver.at('/credito').length >= 3 ? receiver.at('/credito') : undefined),
      20_000,
      'tres entregas a /credito',
    );
    const bodies = hooks.map((hk) => JSON.parse(hk.body) as { id: string; tipo: string; pedido: V1Order });
    const byType = (tipo: string) => bodies.filter((b) => b.tipo === tipo);
    expect(bodies.map((b) => b.tipo).sort()).toEqual(
      ['pedido.aprobado', 'pedido.liberado_credito', 'pedido.retenido_credito'].sort(),
    );
    for (const [i, hk] of hooks.entries()) {
      expect(verifySignature(secret, hk.headers['x-portal-firma'] as string, hk.body), `firma ${i}`).toBe(
        true,
      );
      expect(verifySignature(secret, hk.headers['x-portal-firma'] as string, `${hk.body} `)).toBe(false);
      expect(hk.headers['x-portal-evento']).toBe(bodies[i]!.id);
      expect(bodies[i]!.pedido.id).toBe(id);
    }
    // The approval's own event already shows the hold; the hold's event says why; the release's says it ended.
    expect(byType('pedido.aprobado')[0]!.pedido.credito.retenido).toBe(true);
    const hold = byType('pedido.retenido_credito')[0]!.pedido.credito;
    expect(hold).toMatchObject({ retenido: true, liberado_en: null });
    expect(hold.motivo).toContain('rebasa su límite de crédito');
    const release = byType('pedido.liberado_credito')[0]!.pedido.credito;
    expect(release).toMatchObject({
      retenido: false,
      motivo: hold.motivo,
      retenido_desde: hold.retenido_desde,
    });
    expect(release.liberado_en).not.toBeNull();
    // Recorded once each, for this order, and nothing for the other client's endpoint.
    const recorded = await db()
      .select({ tipo: webhookEvents.tipo })
      .from(webhookEvents)
      .where(eq(webhookEvents.orderId, id));
    expect(recorded.map((e) => e.tipo).sort()).toEqual(
      ['pedido.aprobado', 'pedido.liberado_credito', 'pedido.retenido_credito'].sort(),
    );
    expect(receiver.at('/credito-otro')).toEqual([]);
  });

  it('a purchase approved at once (no approval levels) sends the hold too', async () => {
    const b = await makeBuyer(t, {
      client: { cantidadAutorizadores: 0, limiteCredito: 50_000, politicaCredito: 'retener' },
    });
    const p = await b.product(100_000);
    await assign(db(), b.user.id, p.id, 5);
    const res = await admin.post('/api/integracion/webhooks', {
      url: receiver.url('/al-momento-credito'),
      eventos: ['pedido.retenido_credito'],
      id_cliente: b.client.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const secret = (res.json() as { secreto: string }).secreto;
    await b.api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } });
    const bought = await b.api.post('/api/compra', { orden: [{ id: p.id, cantidad: 1 }] });
    expect(bought.statusCode, bought.body).toBe(201);
    const id = bought.json().pedido.id as number;
    const [hook] = await eventually(
      async () =>
        receiver.at('/al-momento-credito').length >= 1 ? receiver.at('/al-momento-credito') : undefined,
      20_000,
      'una entrega a /al-momento-credito',
    );
    expect(verifySignature(secret, hook!.headers['x-portal-firma'] as string, hook!.body)).toBe(true);
    const body = JSON.parse(hook!.body) as { tipo: string; pedido: V1Order };
    expect(body.tipo).toBe('pedido.retenido_credito');
    expect(body.pedido.id).toBe(id);
    expect(body.pedido.credito.retenido).toBe(true);
  });
});
