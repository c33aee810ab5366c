import { businessDate } from '@portal/shared/domain/time';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf } from '../../db/client.ts';
import { MSG } from '../../messages.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeOrder, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('the buyer’s history: filters and whom an order waits for (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;
  const ids = (res: { json(): { pedidos: { id: number }[] } }) => res.json().pedidos.map((o) => o.id);

  it('filters by status, by business month and by order number, server-side and paginated', async () => {
    const { user, client, api, product } = await makeBuyer(t);
    const p = await product(100);
    const at = (iso: string, status: 'pendiente' | 'espera' | 'aprobado' | 'cancelado') =>
      makeOrder(db(), {
        idUser: user.id,
        idCliente: client.id,
        status,
        transactionDate: new Date(iso),
        lines: [{ productId: p.id, precio: 100, cantidad: 1, idCategoria: p.idCategoria }],
      });
    // 23:59 on 28 February in Mexico City is still February; 00:00 on 1 March is March.
    const lateFeb = await at('2026-03-01T05:59:00Z', 'aprobado');
    const earlyMar = await at('2026-03-01T06:00:00Z', 'pendiente');
    const marCancelled = await at('2026-03-15T18:00:00Z', 'cancelado');
    const april: number[] = [];
    for (let i = 0; i < 12; i++) april.push((await at('2026-04-10T18:00:00Z', 'pendiente')).id);
    // Another buyer's orders never show.
    const other = await makeBuyer(t);
    const foreign = await makeOrder(db(), {
      idUser: other.user.id,
      idCliente: other.client.id,
      status: 'pendiente',
      transactionDate: new Date('2026-03-02T18:00:00Z'),
      lines: [{ productId: p.id, precio: 100, cantidad: 1, idCategoria: p.idCategoria }],
    });

    expect((await api.get('/api/historial')).json().total).toBe(15);
    expect(ids(await api.get('/api/historial?mes=2026-02'))).toEqual([lateFeb.id]);
    expect(ids(await api.get('/api/historial?mes=2026-03'))).toEqual([marCancelled.id, earlyMar.id]);
    expect(ids(await api.get('/api/historial?mes=2026-03&status=pendiente'))).toEqual([earlyMar.id]);
    expect(ids(await api.get('/api/historial?status=cancelado'))).toEqual([marCancelled.id]);
    expect((await api.get('/api/historial?status=todos')).json().total).toBe(15);
    expect((await api.get('/api/historial?status=&mes=&q=')).json().total).toBe(15);
    const pending = (await api.get('/api/historial?status=pendiente&page=2')).json();
    expect(pending).toMatchObject({ total: 13, page: 2, per_page: 10 });
    expect(pending.pedidos.map((o: { id: number }) => o.id)).toEqual([april[1], april[0], earlyMar.id]);
    // A page past the end has no order to carry the total: it is still counted.
    expect((await api.get('/api/historial?status=pendiente&page=3')).json()).toMatchObject({
      total: 13,
      page: 3,
      pedidos: [],
    });
    const number = String(earlyMar.id).padStart(5, '0');
    for (const q of [`%23${number}`, number, String(earlyMar.id), `%20${earlyMar.id}%20`])
      expect(ids(await api.get(`/api/historial?q=${q}`)), q).toEqual([earlyMar.id]);
    expect((await api.get(`/api/historial?q=${earlyMar.id}&status=aprobado`)).json().total).toBe(0);
    expect((await api.get(`/api/historial?q=${foreign.id}`)).json()).toMatchObject({ pedidos: [], total: 0 });
    expect((await api.get('/api/historial?mes=2026-05')).json().total).toBe(0);

    for (const [query, msg] of [
      ['mes=2026-13', MSG.mesInvalido],
      ['mes=2026-3', MSG.mesInvalido],
      ['mes=marzo', MSG.mesInvalido],
      ['q=abc', MSG.numeroPedidoInvalido],
      ['q=1234567890', MSG.numeroPedidoInvalido],
      ['q=%2342x', MSG.numeroPedidoInvalido],
    ] as const) {
      const res = await api.get(`/api/historial?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().msg, query).toBe(msg);
    }
    expect((await api.get('/api/historial?status=perdido')).statusCode).toBe(400);
  });

  it('the unfiltered total is the count each user keeps: set-based inserts and deletes of orders move it', async () => {
    const a = await makeBuyer(t);
    const b = await makeBuyer(t);
    const p = await a.product(100);
    const line = [{ productId: p.id, precio: 100, cantidad: 1, idCategoria: p.idCategoria }];
    const first = await makeOrder(db(), { idUser: a.user.id, idCliente: a.client.id, lines: line });
    await makeOrder(db(), { idUser: b.user.id, idCliente: b.client.id, lines: line });
    // One statement writing orders of two buyers (as the data sets do), copied from the two above.
    const [found] = await rowsOf<{ c: string }>(
      db(),
      sql`select string_agg(quote_ident(column_name), ', ') as c from information_schema.columns
        where table_schema = current_schema() and table_name = 'orders' and column_name <> 'id'`,
    );
    const columns = found!.c;
    await db().execute(
      sql.raw(`insert into orders (${columns}) select ${columns} from orders, generate_series(1, 3)
        where id_user in (${a.user.id}, ${b.user.id})`),
    );
    const kept = async (id: number) =>
      (
        await rowsOf<{ n: number }>(
          db(),
          sql`select total_pedidos as n from user_order_counts where user_id = ${id}`,
        )
      )[0]?.n;
    expect(await kept(a.user.id)).toBe(4);
    expect(await kept(b.user.id)).toBe(4);
    expect((await a.api.get('/api/historial')).json().total).toBe(4);
    expect((await a.api.get('/api/historial?orden=total_desc&page=1')).json().pedidos).toHaveLength(4);
    // Two of a's copies gone in one statement: its total follows, b's stays.
    await db().execute(
      sql`delete from orders where id in (select id from orders where id_user = ${a.user.id} and id <> ${first.id} order by id limit 2)`,
    );
    expect(await kept(a.user.id)).toBe(2);
    expect(await kept(b.user.id)).toBe(4);
    expect((await a.api.get('/api/historial')).json().total).toBe(2);
    // A filtered total is still counted: the same number.
    expect((await a.api.get('/api/historial?status=pendiente')).json().total).toBe(2);
  });

  it('the detail says whom a pendiente or espera order waits for and since when, and whether it can be withdrawn', async () => {
    const { user, client, api, product } = await makeBuyer(t, { client: { cantidadAutorizadores: 2 } });
    const p = await product(1000);
    await assign(db(), user.id, p.id, 5);
    await api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } });
    const bought = await api.post('/api/compra', {
      orden: [{ id: p.id, cantidad: 1 }],
      fecha: businessDate(new Date()),
    });
    const id = bought.json().pedido.id;
    const first = (await api.get(`/api/historial/${id}`)).json();
    const created = first.pedido.eventos.find((e: { tipo: string }) => e.tipo === 'creado');
    expect(first).toMatchObject({
      en_espera: { nivel: 1, desde: created.fecha },
      acciones: { retirar: true },
    });

    const reviewer = await makeUser(db(), { rol: 2, idCliente: client.id });
    const authorizer = await new ApiClient(t.app, '10.0.0.7').loginOk(reviewer.usuario, TEST_PASSWORD);
    expect(
      (await authorizer.post('/api/update/compra', { id, orden: [{ id: p.id, cantidad: 1 }] })).statusCode,
    ).toBe(200);
    const second = (await api.get(`/api/historial/${id}`)).json();
    const approved = second.pedido.eventos.find((e: { a: string }) => e.a === 'espera');
    expect(second).toMatchObject({
      en_espera: { nivel: 2, desde: approved.fecha },
      acciones: { retirar: false },
    });
    expect(approved.fecha >= created.fecha).toBe(true);

    // Final statuses wait for nobody; an order without events falls back to its purchase time.
    const done = await makeOrder(db(), {
      idUser: user.id,
      idCliente: client.id,
      status: 'aprobado',
      lines: [{ productId: p.id, precio: 1000, cantidad: 1, idCategoria: p.idCategoria }],
    });
    expect((await api.get(`/api/historial/${done.id}`)).json()).toMatchObject({
      en_espera: null,
      acciones: { retirar: false },
    });
    const bare = await makeOrder(db(), {
      idUser: user.id,
      idCliente: client.id,
      status: 'pendiente',
      lines: [{ productId: p.id, precio: 1000, cantidad: 1, idCategoria: p.idCategoria }],
    });
    expect((await api.get(`/api/historial/${bare.id}`)).json().en_espera).toEqual({
      nivel: 1,
      desde: bare.transactionDate.toISOString(),
    });
  });
});
