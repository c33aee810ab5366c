import { eq, type Placeholder, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeCategory, makeClient, makeOrder, makeProduct, makeUser } from '../test/factories.ts';
import { createTestApp, DB_KINDS, type TestApp } from '../test/harness.ts';
import { preparedIn, preparedOnce } from './prepared.ts';
import { orderComments, orders, users } from './schema/index.ts';

/**
 * Statements prepared once map their rows with a function made for the statement (db/prepared.ts): the
 * rows must be exactly what Drizzle's own mapper makes of the same query — dates, money, counts mapped
 * with `mapWith`, nulls of columns and of expressions, nested objects of inner joins — and a statement with
 * a left join, whose joined table without a row becomes null, keeps Drizzle's mapper.
 */
describe.each(DB_KINDS)('rows of prepared statements (%s)', (kind) => {
  let t: TestApp;
  let orderIds: number[];

  beforeAll(async () => {
    t = await createTestApp(kind);
    const db = t.database.db;
    const client = await makeClient(db);
    const category = await makeCategory(db, client.id);
    const product = await makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio: 1050 });
    const buyer = await makeUser(db, { rol: 1, idCliente: client.id });
    orderIds = [];
    for (const cantidad of [1, 3]) {
      const order = await makeOrder(db, {
        idUser: buyer.id,
        idCliente: client.id,
        transactionDate: new Date('2026-03-04T05:06:07.089Z'),
        lines: [{ productId: product.id, precio: 1050, cantidad, idCategoria: category.id }],
      });
      orderIds.push(order.id);
    }
  });
  afterAll(async () => {
    await t?.close();
  });

  const flat = (db: TestApp['database']['db'], user: number | Placeholder) =>
    db
      .select({
        id: orders.id,
        total: orders.total,
        lineas: orders.lineas,
        transactionDate: orders.transactionDate,
        nota: orders.nota,
        usuario: users.usuario,
        comentarios:
          sql`(select count(*) from ${orderComments} where ${orderComments.orderId} = ${orders.id})`.mapWith(
            Number,
          ),
        nada: sql<string | null>`null::text`,
        texto: sql<string>`'a' || ${orders.id}`,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.idUser))
      .where(eq(orders.idUser, user))
      .orderBy(orders.id);

  it('a flat selection: the same rows as Drizzle’s mapper, on the pool and in a transaction', async () => {
    const db = t.database.db;
    const [first] = await db
      .select({ idUser: orders.idUser })
      .from(orders)
      .where(eq(orders.id, orderIds[0]!));
    const user = first!.idUser;
    const expected = await flat(db, user);
    expect(expected).toHaveLength(2);
    expect(expected[0]!.transactionDate).toEqual(new Date('2026-03-04T05:06:07.089Z'));
    expect(expected[0]).toMatchObject({ lineas: 1, nota: null, comentarios: 0, nada: null });
    expect(typeof expected[0]!.total).toBe('number');

    const statement = preparedOnce(db, `test_rows_${kind}`, (d) => flat(d, sql.placeholder('user')));
    // The statement's own mapper is the one in use (a flat selection).
    expect(typeof (statement as unknown as { customResultMapper: unknown }).customResultMapper).toBe(
      'function',
    );
    expect(await statement.execute({ user })).toEqual(expected);
    // Run again (the statement already prepared on its connection), and inside a transaction twice.
    expect(await statement.execute({ user })).toEqual(expected);
    await db.transaction(async (tx) => {
      for (let i = 0; i < 2; i++) {
        const inTx = preparedIn(tx, `test_rows_tx_${kind}`, (d) => flat(d as never, sql.placeholder('user')));
        expect(await inTx.execute({ user })).toEqual(expected);
      }
    });
  });

  it('a nested selection over inner joins: the same nested objects as Drizzle’s mapper', async () => {
    const db = t.database.db;
    const nested = (d: TestApp['database']['db'], id: number | Placeholder) =>
      d
        .select({ user: users, order: { id: orders.id, total: orders.total, fecha: orders.transactionDate } })
        .from(orders)
        .innerJoin(users, eq(users.id, orders.idUser))
        .where(eq(orders.id, id));
    const expected = await nested(db, orderIds[0]!);
    expect(expected[0]!.user.createdAt).toBeInstanceOf(Date);
    expect(expected[0]!.order.id).toBe(orderIds[0]);
    const statement = preparedOnce(db, `test_inner_${kind}`, (d) => nested(d, sql.placeholder('id')));
    expect(typeof (statement as unknown as { customResultMapper: unknown }).customResultMapper).toBe(
      'function',
    );
    expect(await statement.execute({ id: orderIds[0] })).toEqual(expected);
  });

  it('a nested selection with a left join keeps Drizzle’s mapper: a missing row is null', async () => {
    const db = t.database.db;
    const nested = (d: TestApp['database']['db']) =>
      d
        .select({ order: { id: orders.id }, comment: { id: orderComments.id, texto: orderComments.texto } })
        .from(orders)
        .leftJoin(orderComments, eq(orderComments.orderId, orders.id))
        .where(eq(orders.id, sql.placeholder('id')));
    const statement = preparedOnce(db, `test_nested_${kind}`, (d) => nested(d));
    expect((statement as unknown as { customResultMapper: unknown }).customResultMapper).toBeUndefined();
    expect(await statement.execute({ id: orderIds[1] })).toEqual([
      { order: { id: orderIds[1] }, comment: null },
    ]);
  });
});
