import { MSG as SHARED_MSG } from '@portal/shared/messages';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { makeOrder } from '../../test/factories.ts';
import { type ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

/**
 * The order lists a person sorts (decision 0067): the buyer's history, the administrator's read-only list
 * (date, total) and the fulfilment queue (date). Three orders whose id, date and total orders all differ.
 */
describe.each(DB_KINDS)('order lists sorted by the server (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;
  const ids = (res: { statusCode: number; body: string; json(): { pedidos: { id: number }[] } }) => {
    expect(res.statusCode, res.body).toBe(200);
    return res.json().pedidos.map((o) => o.id);
  };

  /** A month of its own (the administrator's list spans every client), and three orders in it. */
  async function world(status: 'pendiente' | 'aprobado') {
    const buyer = await makeBuyer(t);
    const p = await buyer.product(100);
    const year = 1975 + Math.floor(Math.random() * 40);
    const month = String(1 + Math.floor(Math.random() * 12)).padStart(2, '0');
    const at = (day: string, cantidad: number) =>
      makeOrder(db(), {
        idUser: buyer.user.id,
        idCliente: buyer.client.id,
        status,
        transactionDate: new Date(`${year}-${month}-${day}T18:00:00Z`),
        lines: [{ productId: p.id, precio: 10000, cantidad, idCategoria: p.idCategoria }],
      });
    const big = await at('10', 3); // middle date, largest total
    const small = await at('05', 1); // oldest, smallest
    const middle = await at('20', 2); // newest, middle total
    return { buyer, mes: `${year}-${month}`, big: big.id, small: small.id, middle: middle.id };
  }

  it('the buyer’s history: newest first by default, then by date or total either way', async () => {
    const w = await world('pendiente');
    const api = w.buyer.api;
    expect(ids(await api.get('/api/historial'))).toEqual([w.middle, w.big, w.small]);
    expect(ids(await api.get('/api/historial?orden=fecha_desc'))).toEqual([w.middle, w.big, w.small]);
    expect(ids(await api.get('/api/historial?orden=fecha_asc'))).toEqual([w.small, w.big, w.middle]);
    expect(ids(await api.get('/api/historial?orden=total_desc'))).toEqual([w.big, w.middle, w.small]);
    expect(ids(await api.get('/api/historial?orden=total_asc'))).toEqual([w.small, w.middle, w.big]);
    expect(ids(await api.get(`/api/historial?orden=total_asc&mes=${w.mes}&status=pendiente`))).toEqual([
      w.small,
      w.middle,
      w.big,
    ]);
  });

  it('the administrator’s order list: by date (default) or total', async () => {
    const w = await world('pendiente');
    const mine = new Set([w.big, w.small, w.middle]);
    const list = async (query: string) =>
      ids(await admin.get(`/api/admin/pedidos?estatus=pendiente&mes=${w.mes}${query}`)).filter((id) =>
        mine.has(id),
      );
    expect(await list('')).toEqual([w.middle, w.big, w.small]);
    expect(await list('&orden=fecha_asc')).toEqual([w.small, w.big, w.middle]);
    expect(await list('&orden=total_desc')).toEqual([w.big, w.middle, w.small]);
    expect(await list('&orden=total_asc')).toEqual([w.small, w.middle, w.big]);
  });

  it('the fulfilment queue: newest first by default, oldest first on request', async () => {
    const w = await world('aprobado');
    const queue = (query: string) => admin.get(`/api/surtido?cliente=${w.buyer.client.id}${query}`);
    expect(ids(await queue(''))).toEqual([w.middle, w.big, w.small]);
    expect(ids(await queue('&orden=fecha_desc'))).toEqual([w.middle, w.big, w.small]);
    expect(ids(await queue('&orden=fecha_asc'))).toEqual([w.small, w.big, w.middle]);
  });

  it('an unknown orden is a 400 in Spanish on every list', async () => {
    const w = await world('pendiente');
    const calls: [ApiClient, string][] = [
      [w.buyer.api, '/api/historial?orden=precio_asc'],
      [w.buyer.api, '/api/historial?orden=fecha'],
      [admin, '/api/admin/pedidos?orden=nombre_asc'],
      [admin, '/api/admin/pedidos?orden=total_arriba'],
      [admin, '/api/surtido?orden=total_desc'],
      [admin, '/api/surtido?orden='],
    ];
    for (const [api, url] of calls) {
      const res = await api.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json().msg, url).toBe(SHARED_MSG.ordenInvalido);
    }
  });
});
