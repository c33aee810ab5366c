import { businessDate } from '@portal/shared/domain/time';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../db/schema/index.ts';
import { MSG } from '../../messages.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import { assign, makeUser, TEST_PASSWORD } from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

describe.each(DB_KINDS)('the buyer’s note on an order: POST /api/compra nota (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(kind);
  });
  afterAll(async () => t?.close());
  const db = () => t.database.db;

  /** A buyer with one product in the cart, and an authorizer of the same client. */
  async function ready() {
    const b = await makeBuyer(t, { client: { cantidadAutorizadores: 1 } });
    const p = await b.product(1000);
    await assign(db(), b.user.id, p.id, 5);
    await b.api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } });
    const reviewer = await makeUser(db(), { rol: 2, idCliente: b.client.id });
    const authorizer = await new ApiClient(t.app, '10.0.0.8').loginOk(reviewer.usuario, TEST_PASSWORD);
    const buy = (nota: unknown) =>
      b.api.post('/api/compra', {
        orden: [{ id: p.id, cantidad: 1 }],
        fecha: businessDate(new Date()),
        nota,
      });
    return { ...b, p, authorizer, buy };
  }
  const notaOf = async (id: number) =>
    (await db().select({ nota: orders.nota }).from(orders).where(eq(orders.id, id)))[0]!.nota;

  it('is trimmed, stored as plain text and shown to the buyer and the approvers', async () => {
    const { api, authorizer, buy } = await ready();
    const text = '  Entregar en el almacén 2.\r\nPreguntar por <b>Ana</b> & Luis  ';
    const res = await buy(text);
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().pedido.id;
    const stored = 'Entregar en el almacén 2.\nPreguntar por <b>Ana</b> & Luis';
    expect(await notaOf(id)).toBe(stored);
    expect((await api.get(`/api/historial/${id}`)).json().pedido.nota).toBe(stored);
    expect((await authorizer.get(`/api/pedidos/${id}`)).json().pedido.nota).toBe(stored);
  });

  it('empty or only spaces is no note; without one the order says null', async () => {
    for (const nota of ['', '   \n ', undefined]) {
      const { api, buy } = await ready();
      const res = await buy(nota);
      expect(res.statusCode, String(nota)).toBe(201);
      expect(await notaOf(res.json().pedido.id)).toBeNull();
      expect((await api.get(`/api/historial/${res.json().pedido.id}`)).json().pedido.nota).toBeNull();
    }
  });

  it('at most 500 characters, a string, no control characters: else a Spanish 400 and no order', async () => {
    const { user, buy } = await ready();
    const cases: [unknown, string][] = [
      ['x'.repeat(501), MSG.notaLarga],
      [42, MSG.notaInvalida],
      [{ texto: 'x' }, MSG.notaInvalida],
      ['con \u0007 campana', MSG.notaInvalida],
    ];
    for (const [nota, msg] of cases) {
      const res = await buy(nota);
      expect(res.statusCode, String(nota)).toBe(400);
      expect(res.json().msg).toBe(msg);
    }
    expect(await db().select().from(orders).where(eq(orders.idUser, user.id))).toHaveLength(0);
    const longest = await buy(` ${'ñ'.repeat(500)} `);
    expect(longest.statusCode).toBe(201);
    expect(await notaOf(longest.json().pedido.id)).toBe('ñ'.repeat(500));
  });
});
