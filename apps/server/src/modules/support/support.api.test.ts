import { orderNumber } from '@portal/shared/domain/order-workflow';
import type {
  AdminOrderResponse,
  AdminOrdersResponse,
  SupportSearchResponse,
} from '@portal/shared/schemas/support';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MSG } from '../../messages.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
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

describe.each(DB_KINDS)('support: one search and any order read-only (%s)', (kind) => {
  let t: TestApp;
  let admin: ApiClient;
  beforeAll(async () => {
    t = await createTestApp(kind);
    admin = (await signedInAdmin(t.app, t.database.db)).api;
  });
  afterAll(async () => {
    await t?.close();
  });
  const db = () => t.database.db;

  async function world() {
    const tag = uniq('s').replace('_', '');
    const client = await makeClient(db(), { nombre: `Cliente ${tag}` });
    const category = await makeCategory(db(), client.id);
    const product = await makeProduct(db(), {
      idCliente: client.id,
      idCategoria: category.id,
      precio: 10000,
      nombre: 'Tóner',
    });
    const buyer = await makeUser(db(), {
      rol: 1,
      idCliente: client.id,
      usuario: `jperez${tag}`,
      nombre: `José Pérez ${tag}`,
      email: `correo.${tag}@example.test`,
    });
    const order = await makeOrder(db(), {
      idUser: buyer.id,
      idCliente: client.id,
      lines: [{ productId: product.id, precio: 10000, cantidad: 2, idCategoria: category.id }],
    });
    return { tag, client, category, product, buyer, order };
  }

  const search = async (q: string) => {
    const res = await admin.get(`/api/buscar?q=${encodeURIComponent(q)}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as SupportSearchResponse;
  };

  it('finds users by name without accents and in any case, by e-mail, with their client', async () => {
    const w = await world();
    const byName = await search(`JOSE PEREZ ${w.tag}`);
    expect(byName.usuarios).toEqual([
      {
        id: w.buyer.id,
        usuario: w.buyer.usuario,
        nombre: w.buyer.nombre,
        email: w.buyer.email,
        rol: 1,
        id_cliente: w.client.id,
        cliente: w.client.nombre,
      },
    ]);
    const byEmail = await search(`  correo.${w.tag}@EXAMPLE  `);
    expect(byEmail.usuarios.map((u) => u.id)).toEqual([w.buyer.id]);
  });

  it('finds orders by number ("#00012", "00012", "12") and by the buyer’s username or name', async () => {
    const w = await world();
    // Enough orders before it that its plain number has two digits at least.
    const other = await makeUser(db(), { rol: 1, idCliente: w.client.id });
    for (let i = 0; i < 10; i++)
      await makeOrder(db(), {
        idUser: other.id,
        idCliente: w.client.id,
        lines: [{ productId: w.product.id, precio: 100, cantidad: 1, idCategoria: w.category.id }],
      });
    const order = await makeOrder(db(), {
      idUser: w.buyer.id,
      idCliente: w.client.id,
      lines: [{ productId: w.product.id, precio: 5000, cantidad: 3, idCategoria: w.category.id }],
    });
    for (const q of [`#${orderNumber(order.id)}`, orderNumber(order.id), String(order.id)]) {
      const r = await search(q);
      expect(r.pedidos[0], q).toMatchObject({
        id: order.id,
        status: 'pendiente',
        total: order.total / 100,
        usuario: w.buyer.usuario,
        nombre: w.buyer.nombre,
        id_cliente: w.client.id,
        cliente: w.client.nombre,
      });
    }
    const mine = [order.id, w.order.id];
    expect((await search(w.buyer.usuario.toUpperCase())).pedidos.map((p) => p.id)).toEqual(mine);
    expect((await search(`jose perez ${w.tag}`)).pedidos.map((p) => p.id)).toEqual(mine);
  });

  it('answers at most 10 users and 10 orders, newest orders first; never administrators', async () => {
    const w = await world();
    const more = [];
    for (let i = 0; i < 11; i++)
      more.push(await makeUser(db(), { rol: 1, idCliente: w.client.id, nombre: `Lote ${w.tag} ${i}` }));
    for (let i = 0; i < 11; i++)
      await makeOrder(db(), {
        idUser: more[0]!.id,
        idCliente: w.client.id,
        transactionDate: new Date(Date.UTC(2026, 0, 1 + i)),
        lines: [{ productId: w.product.id, precio: 100, cantidad: 1, idCategoria: w.category.id }],
      });
    await makeUser(db(), { rol: 4, idCliente: null, nombre: `Lote ${w.tag} admin` });
    const r = await search(`lote ${w.tag}`);
    expect(r.usuarios).toHaveLength(10);
    expect(r.usuarios.every((u) => u.rol === 1)).toBe(true);
    expect(r.pedidos).toHaveLength(10);
    const dates = r.pedidos.map((p) => p.transaction_date);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('answers a term matching over 100 users, and a two-letter one, as it answers a narrow one', async () => {
    // A term whose trigrams narrow the users to at most 100 is one statement over those matches; a broader
    // or shorter one runs the statements planned for its pattern (finding 56): the same answer either way.
    const w = await world();
    const many = [];
    for (let i = 0; i < 101; i++)
      many.push(
        await makeUser(db(), {
          rol: 1,
          idCliente: w.client.id,
          usuario: `amp${w.tag}${String(i).padStart(3, '0')}`,
          nombre: `Amplio ${w.tag}`,
        }),
      );
    const dated = [];
    for (let i = 0; i < 12; i++)
      dated.push(
        await makeOrder(db(), {
          idUser: many[(i * 7) % 101]!.id,
          idCliente: w.client.id,
          transactionDate: new Date(Date.UTC(2026, 1, 1 + i)),
          lines: [{ productId: w.product.id, precio: 100, cantidad: 1, idCategoria: w.category.id }],
        }),
      );
    const newest = dated
      .map((o) => o.id)
      .reverse()
      .slice(0, 10);
    const broad = await search(`amplio ${w.tag}`);
    expect(broad.usuarios.map((u) => u.usuario)).toEqual(many.slice(0, 10).map((u) => u.usuario));
    expect(broad.pedidos.map((p) => p.id)).toEqual(newest);
    // One of them alone (a narrow term), then the same buyers by a term of their own: the same orders.
    const one = await search(many[7]!.usuario);
    expect(one.usuarios.map((u) => u.id)).toEqual([many[7]!.id]);
    expect(one.pedidos.map((p) => p.id)).toEqual([dated[1]!.id]);
    // A buyer found by e-mail alone is a user hit, and its orders are not (they go by username or name).
    const byEmail = await search(w.buyer.email);
    expect(byEmail.usuarios.map((u) => u.id)).toEqual([w.buyer.id]);
    expect(byEmail.pedidos).toEqual([]);
    // Two letters: no trigram to narrow by, the planned statements; the order number still first.
    // (every user's e-mail is at example.test: all of them match)
    const short = await search('Am');
    expect(short.usuarios).toHaveLength(10);
    expect(short.pedidos).toHaveLength(10);
    const number = await search(`#${orderNumber(w.order.id)}`);
    expect(number.pedidos[0]?.id).toBe(w.order.id);
  });

  it('refuses a search shorter than 2 characters (after trimming) or longer than 100 in Spanish', async () => {
    for (const q of ['a', '  b  ', '']) {
      const res = await admin.get(`/api/buscar?q=${encodeURIComponent(q)}`);
      expect(res.statusCode, q).toBe(400);
      expect(res.json().msg).toBe(MSG.busquedaMuyCorta);
    }
    expect((await admin.get('/api/buscar')).statusCode).toBe(400);
    const long = await admin.get(`/api/buscar?q=${'x'.repeat(101)}`);
    expect(long.statusCode).toBe(400);
    expect(long.json().msg).toBe(MSG.busquedaMuyLarga);
  });

  it('GET /api/admin/pedidos/{id}: any order read-only with buyer and client; 404 when missing', async () => {
    const w = await world();
    const res = await admin.get(`/api/admin/pedidos/${w.order.id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json() as AdminOrderResponse;
    expect(body.pedido).toMatchObject({ id: w.order.id, status: 'pendiente', total: w.order.total / 100 });
    expect(body.pedido.lineas).toHaveLength(1);
    expect(body.comprador).toEqual({ id: w.buyer.id, usuario: w.buyer.usuario, nombre: w.buyer.nombre });
    expect(body.cliente).toEqual({ id: w.client.id, nombre: w.client.nombre });
    const missing = await admin.get('/api/admin/pedidos/999999999');
    expect(missing.statusCode).toBe(404);
    expect(missing.json().msg).toBe(MSG.pedidoNoEncontrado);
  });

  it('GET /api/admin/pedidos: every client’s orders waiting for an authorizer, by month, 20 a page, newest first', async () => {
    const a = await world();
    const b = await world();
    const line = (w: typeof a) => [
      { productId: w.product.id, precio: 10000, cantidad: 1, idCategoria: w.category.id },
    ];
    // February 2024 (business zone) holds only this test's orders.
    const at = (day: number, hour = 18) => new Date(Date.UTC(2024, 1, day, hour));
    const pending: number[] = [];
    for (let d = 1; d <= 21; d++) {
      const o = await makeOrder(db(), {
        idUser: a.buyer.id,
        idCliente: a.client.id,
        status: 'pendiente',
        transactionDate: at(d),
        lines: line(a),
      });
      pending.push(o.id);
    }
    const waiting = await makeOrder(db(), {
      idUser: b.buyer.id,
      idCliente: b.client.id,
      status: 'espera',
      transactionDate: at(28),
      lines: line(b),
    });
    const approved = await makeOrder(db(), {
      idUser: b.buyer.id,
      idCliente: b.client.id,
      status: 'aprobado',
      transactionDate: at(27),
      lines: line(b),
    });
    // 1 March 03:00 UTC is still 29 February in Mexico City; 1 February 05:00 UTC is still January.
    const lastNight = await makeOrder(db(), {
      idUser: a.buyer.id,
      idCliente: a.client.id,
      status: 'pendiente',
      transactionDate: new Date(Date.UTC(2024, 2, 1, 3)),
      lines: line(a),
    });
    await makeOrder(db(), {
      idUser: a.buyer.id,
      idCliente: a.client.id,
      status: 'pendiente',
      transactionDate: new Date(Date.UTC(2024, 1, 1, 5)),
      lines: line(a),
    });
    const list = async (q: string) => {
      const res = await admin.get(`/api/admin/pedidos?${q}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as AdminOrdersResponse;
    };
    const page1 = await list('estatus=por_autorizar&mes=2024-02');
    expect(page1).toMatchObject({ total: 23, page: 1, per_page: 20 });
    expect(page1.pedidos.map((o) => o.id)).toEqual([lastNight.id, waiting.id, ...pending.slice(3).reverse()]);
    expect(page1.pedidos[1]).toMatchObject({
      status: 'espera',
      total: 116,
      usuario: b.buyer.usuario,
      id_cliente: b.client.id,
      cliente: b.client.nombre,
    });
    const page2 = await list('estatus=por_autorizar&mes=2024-02&page=2');
    expect(page2.pedidos.map((o) => o.id)).toEqual(pending.slice(0, 3).reverse());
    // The default is por_autorizar.
    expect((await list('mes=2024-02')).total).toBe(23);
    expect((await list('estatus=espera&mes=2024-02')).pedidos.map((o) => o.id)).toEqual([waiting.id]);
    expect((await list('estatus=aprobado&mes=2024-02')).pedidos.map((o) => o.id)).toEqual([approved.id]);
    // Without a month: every month's.
    const all = await list('estatus=espera');
    expect(all.total).toBeGreaterThanOrEqual(1);
    expect(all.pedidos.every((o) => o.status === 'espera')).toBe(true);

    const badStatus = await admin.get('/api/admin/pedidos?estatus=todos');
    expect(badStatus.statusCode).toBe(400);
    expect(badStatus.json().msg).toBe(MSG.estatusPedidoInvalido);
    const badMonth = await admin.get('/api/admin/pedidos?mes=2024-13');
    expect(badMonth.statusCode).toBe(400);
    expect(badMonth.json().msg).toBe(MSG.mesInvalido);
    expect((await admin.get('/api/admin/pedidos?page=0')).statusCode).toBe(400);
  });

  it('is for administrators only: 401 without a session, 403 for roles 1 to 3', async () => {
    const w = await world();
    const anon = new ApiClient(t.app);
    expect((await anon.get('/api/buscar?q=jose')).statusCode).toBe(401);
    expect((await anon.get(`/api/admin/pedidos/${w.order.id}`)).statusCode).toBe(401);
    expect((await anon.get('/api/admin/pedidos?estatus=por_autorizar')).statusCode).toBe(401);
    for (const rol of [1, 2, 3]) {
      const u = await makeUser(db(), { rol, idCliente: w.client.id });
      const api = await new ApiClient(t.app).loginOk(u.usuario, TEST_PASSWORD);
      expect((await api.get('/api/buscar?q=jose')).statusCode, `rol ${rol}`).toBe(403);
      expect((await api.get(`/api/admin/pedidos/${w.order.id}`)).statusCode, `rol ${rol}`).toBe(403);
      expect((await api.get('/api/admin/pedidos')).statusCode, `rol ${rol}`).toBe(403);
    }
  });
});
