import { ORDERS_PER_PAGE } from '@portal/shared/limits';
import { MSG } from '@portal/shared/messages';
import type { OrderSort } from '@portal/shared/schemas/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

/**
 * Keyset paging of the authorizer's order list (decision 0076): the pager's step to the next page names
 * the last order of the page on screen (`despues`), its step back the first one (`antes`), and the server
 * reads the page from where that order stands in the index instead of skipping every row before it. The
 * pages must be exactly the pages by number, in every sort, with ties on the date and on the total; an id
 * that is no row of the client's list is no key (the page by number answers), and a bad key is a 400.
 */
describe.each(DB_KINDS)('the order list paged from a row (%s)', (kind) => {
  let t: TestApp;
  let auth: ApiClient;
  let otherClientsOrder: number;
  let newOrder: () => Promise<number>;
  /** Two full pages and five rows. */
  const ORDERS = 2 * ORDERS_PER_PAGE + 5;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const db = t.database.db;
    const client = await makeClient(db, { cantidadAutorizadores: 1 });
    const category = await makeCategory(db, client.id);
    const product = await makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio: 1000 });
    const authorizer = await makeUser(db, { rol: 2, idCliente: client.id });
    const buyers: { id: number }[] = [];
    for (let i = 0; i < 4; i++) buyers.push(await makeUser(db, { rol: 1, idCliente: client.id }));
    for (let i = 0; i < ORDERS; i++)
      await makeOrder(db, {
        idUser: buyers[i % buyers.length]!.id,
        idCliente: client.id,
        // Three orders share each minute and totals repeat: the id must break the ties across pages.
        transactionDate: new Date(Date.UTC(2026, 10, 2, 12, Math.floor(i / 3))),
        lines: [{ productId: product.id, precio: 1000, cantidad: 1 + (i % 4), idCategoria: category.id }],
      });
    const other = await makeClient(db, { cantidadAutorizadores: 1 });
    const otherCategory = await makeCategory(db, other.id);
    const otherProduct = await makeProduct(db, {
      idCliente: other.id,
      idCategoria: otherCategory.id,
      precio: 500,
    });
    const otherBuyer = await makeUser(db, { rol: 1, idCliente: other.id });
    otherClientsOrder = (
      await makeOrder(db, {
        idUser: otherBuyer.id,
        idCliente: other.id,
        transactionDate: new Date(Date.UTC(2026, 10, 2, 12, 30)),
        lines: [{ productId: otherProduct.id, precio: 500, cantidad: 1, idCategoria: otherCategory.id }],
      })
    ).id;
    newOrder = async () =>
      (
        await makeOrder(db, {
          idUser: buyers[0]!.id,
          idCliente: client.id,
          transactionDate: new Date(Date.UTC(2026, 10, 3)),
          lines: [{ productId: product.id, precio: 1000, cantidad: 1, idCategoria: category.id }],
        })
      ).id;
    auth = await new ApiClient(t.app).loginOk(authorizer.usuario, TEST_PASSWORD);
  });
  afterAll(async () => {
    await t?.close();
  });

  async function ids(query: string): Promise<number[]> {
    const res = await auth.get(`/api/pedidos?status=todos&${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { pedidos: { id: number }[] }).pedidos.map((o) => o.id);
  }

  it.each([
    'fecha_desc',
    'fecha_asc',
    'total_desc',
    'total_asc',
  ] satisfies OrderSort[])('stepping forward and back from a row gives the pages by number (%s)', async (orden) => {
    const [p1, p2, p3] = [
      await ids(`orden=${orden}&page=1`),
      await ids(`orden=${orden}&page=2`),
      await ids(`orden=${orden}&page=3`),
    ];
    expect([p1.length, p2.length, p3.length]).toEqual([ORDERS_PER_PAGE, ORDERS_PER_PAGE, 5]);
    expect(new Set([...p1, ...p2, ...p3]).size).toBe(ORDERS);
    // Forward: each page after the last row of the one before.
    expect(await ids(`orden=${orden}&page=2&despues=${p1.at(-1)}`)).toEqual(p2);
    expect(await ids(`orden=${orden}&page=3&despues=${p2.at(-1)}`)).toEqual(p3);
    // Back: the page before the first row of the one after, in the list's order.
    expect(await ids(`orden=${orden}&page=2&antes=${p3[0]}`)).toEqual(p2);
  });

  it('a key that is no row of this client’s list answers the page by number, never another client’s rows', async () => {
    const byNumber = await ids('page=2');
    expect(await ids(`page=2&despues=${otherClientsOrder}`)).toEqual(byNumber);
    expect(await ids(`page=2&antes=${otherClientsOrder}`)).toEqual(byNumber);
    expect(await ids('page=2&despues=2147483647')).toEqual(byNumber);
    expect(byNumber).not.toContain(otherClientsOrder);
    // Page 1 starts at the top whatever the key.
    expect(await ids(`page=1&despues=${byNumber[0]}`)).toEqual(await ids('page=1'));
  });

  it('with a search the step from a row still gives the page by number', async () => {
    // Every buyer of the factories is a «Persona de Prueba»: the search keeps all their orders.
    const q = 'q=persona%20de%20prueba';
    const [p1, p2] = [await ids(`${q}&page=1`), await ids(`${q}&page=2`)];
    expect(p2).toHaveLength(ORDERS_PER_PAGE);
    expect(await ids(`${q}&page=2&despues=${p1.at(-1)}`)).toEqual(p2);
    expect(await ids(`${q}&page=2&antes=${(await ids(`${q}&page=3`))[0]}`)).toEqual(p2);
  });

  it('a bad key, or both keys at once, is a Spanish 400', async () => {
    for (const query of ['despues=0', 'despues=abc', 'antes=-3', 'despues=2147483648']) {
      const res = await auth.get(`/api/pedidos?status=todos&page=2&${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().msg, query).toBeTypeOf('string');
    }
    const both = await auth.get('/api/pedidos?status=todos&page=2&despues=5&antes=9');
    expect(both.statusCode).toBe(400);
    expect(JSON.stringify(both.json())).toContain(MSG.paginaDespuesOAntes);
  });

  // Last: it adds an order.
  it('a step from a row is read from that row: an order placed meanwhile does not shift the next page', async () => {
    const [p1, p2] = [await ids('page=1'), await ids('page=2')];
    const placed = await newOrder();
    // By number the newest order pushes every row down one place: page 2 now starts with page 1's last row.
    const byNumber = await ids('page=2');
    expect(byNumber[0]).toBe(p1.at(-1));
    // From the row, page 2 is still what followed the page on screen.
    expect(await ids(`page=2&despues=${p1.at(-1)}`)).toEqual(p2);
    expect((await ids('page=1'))[0]).toBe(placed);
  });
});
