import { ORDERS_PER_PAGE, USERS_PER_PAGE } from '@portal/shared/limits';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.ts';
import { type Database, openDatabase } from '../../db/client.ts';
import { signedInAdmin } from '../../test/admin-fixtures.ts';
import { makeBuyer } from '../../test/buyer-fixtures.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeOrder,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../../test/factories.ts';
import { ApiClient, createTestApp, DB_KINDS, type TestApp } from '../../test/harness.ts';

/**
 * The lists an authorizer and an administrator page through all day (orders, users, the system log) run as
 * named prepared statements whose first page has its LIMIT in the text and no OFFSET (`pageWindow`,
 * db/prepared.ts): PostgreSQL keeps one generic plan for them instead of planning every call (docs/benchmarks.md,
 * finding 28). Deeper pages still page through the same rows.
 */
describe.each(DB_KINDS)('the lists’ first pages and deeper pages (%s)', (kind) => {
  let t: TestApp;
  /** On PostgreSQL: a second instance on the same database with one connection, whose statements we read. */
  let one: { app: FastifyInstance; database: Database } | undefined;
  let idCliente: number;
  let authorizer: string;

  beforeAll(async () => {
    t = await createTestApp(kind);
    const db = t.database.db;
    const client = await makeClient(db, { cantidadAutorizadores: 1 });
    idCliente = client.id;
    const category = await makeCategory(db, client.id);
    const product = await makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio: 1000 });
    authorizer = (await makeUser(db, { rol: 2, idCliente: client.id })).usuario;
    const buyers = [];
    for (let i = 0; i < USERS_PER_PAGE + 3; i++)
      buyers.push(await makeUser(db, { rol: 1, idCliente: client.id }));
    for (let i = 0; i < ORDERS_PER_PAGE + 5; i++)
      await makeOrder(db, {
        idUser: buyers[i % buyers.length]!.id,
        idCliente: client.id,
        transactionDate: new Date(Date.UTC(2026, 10, 2, 12, i)),
        lines: [{ productId: product.id, precio: 1000, cantidad: 1 + (i % 3), idCategoria: category.id }],
      });
    if (kind === 'postgres') {
      const url = (t.database.pool as unknown as { options: { connectionString: string } }).options
        .connectionString;
      const database = await openDatabase({ databaseUrl: url, poolSize: 1 });
      const app = await buildApp({ config: t.config, database, logger: false });
      await app.ready();
      one = { app, database };
    }
  });
  afterAll(async () => {
    await one?.app.close();
    await one?.database.close();
    await t?.close();
  });

  it('pages 1 and 2 of the orders, users and log lists hold different rows, each page its size', async () => {
    const auth = await new ApiClient(one?.app ?? t.app).loginOk(authorizer, TEST_PASSWORD);
    const orders = async (page: number) => {
      const res = await auth.get(`/api/pedidos?status=todos&page=${page}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { pedidos: { id: number }[]; total: number };
    };
    const [o1, o2] = [await orders(1), await orders(2)];
    expect(o1.total).toBe(ORDERS_PER_PAGE + 5);
    expect(o1.pedidos).toHaveLength(ORDERS_PER_PAGE);
    expect(o2.pedidos).toHaveLength(5);
    const ids = [...o1.pedidos, ...o2.pedidos].map((o) => o.id);
    expect(new Set(ids).size).toBe(ORDERS_PER_PAGE + 5);

    const { api: admin } = await signedInAdmin(one?.app ?? t.app, t.database.db);
    const usersPage = async (page: number) => {
      const res = await admin.get(`/api/usuarios?id_cliente=${idCliente}&rol=1&page=${page}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { usuarios: { id: number }[]; total: number };
    };
    const [u1, u2] = [await usersPage(1), await usersPage(2)];
    expect(u1.total).toBe(USERS_PER_PAGE + 3);
    expect(u1.usuarios).toHaveLength(USERS_PER_PAGE);
    expect(u2.usuarios).toHaveLength(3);
    expect(u2.usuarios.map((u) => u.id)).not.toContain(u1.usuarios[0]!.id);

    const logs = async (page: number) => {
      const res = await admin.get(`/api/logs?page=${page}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { logs: { id: number }[] };
    };
    const [l1, l2] = [await logs(1), await logs(2)];
    if (l2.logs.length > 0) expect(l2.logs[0]!.id).toBeLessThan(l1.logs.at(-1)!.id);
    expect(l1.logs.length).toBeGreaterThan(0);
  });

  if (kind === 'postgres') {
    it('each list’s first page runs on its generic plan from the first call, never planned for its values', async () => {
      const app = one!.app;
      const auth = await new ApiClient(app).loginOk(authorizer, TEST_PASSWORD);
      const { api: admin } = await signedInAdmin(app, t.database.db);
      // Left to itself, PostgreSQL plans the first five runs of a statement for their values, then weighs a
      // generic plan against them and may keep planning each call (on the bench's data it did, for the
      // order list's page and the purchase): the planned pool's connections take the generic plan at once.
      for (let i = 0; i < 8; i++) {
        expect((await auth.get('/api/pedidos?status=todos&page=1')).statusCode).toBe(200);
        expect((await auth.get('/api/pedidos?status=accionables&page=1')).statusCode).toBe(200);
        expect((await admin.get(`/api/usuarios?id_cliente=${idCliente}&page=1`)).statusCode).toBe(200);
        expect((await admin.get('/api/usuarios?page=1')).statusCode).toBe(200);
        expect((await admin.get('/api/logs?page=1')).statusCode).toBe(200);
      }
      // One connection of each pool: the statements the planned one prepared are the ones its session sees.
      const { rows } = await one!.database.plannedPool!.query<{
        name: string;
        generic_plans: string;
        custom_plans: string;
      }>(
        `select name, generic_plans, custom_plans from pg_prepared_statements
          where name like 'portal_orders_page_%' or name like 'portal_users_page_%' or name like 'portal_logs_page_%'`,
      );
      const looped = [
        /^portal_orders_page_fecha_desc_1000000_p1$/,
        /^portal_orders_page_fecha_desc_1100000_p1$/,
        /^portal_users_page_1000_usuario_asc_p1$/,
        /^portal_users_page_0000_usuario_asc_p1$/,
        /^portal_logs_page_0+_p1$/,
      ];
      for (const name of looped) {
        const row = rows.find((r) => name.test(r.name));
        expect(row, String(name)).toBeDefined();
        // Eight runs, each on the generic plan (before decision 0083, up to five were planned for their
        // values; before finding 28, the users and log pages were planned all eight times).
        expect({
          name: row!.name,
          custom: Number(row!.custom_plans),
          generic: Number(row!.generic_plans),
        }).toEqual({ name: row!.name, custom: 0, generic: expect.toSatisfy((n: number) => n >= 8) });
      }
    });

    it('the buyer’s transactions run on generic plans; the connection plans for values again after them', async () => {
      const b = await makeBuyer(t, { presupuesto: 10_000_000, limite: 50 });
      const api = await new ApiClient(one!.app).loginOk(b.user.usuario, TEST_PASSWORD);
      const p = await b.product(1_500);
      await assign(t.database.db, b.user.id, p.id, 10);
      for (let i = 0; i < 7; i++) {
        const add = await api.post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 + i } });
        expect(add.statusCode, add.body).toBe(200);
        const bought = await api.post('/api/compra', { orden: [{ id: p.id, cantidad: 1 + i }] });
        expect(bought.statusCode, bought.body).toBe(201);
      }
      // The instance's one transaction connection: what it prepared, and its setting outside a transaction.
      const { rows } = await one!.database.pool!.query<{ name: string; custom_plans: string }>(
        `select name, custom_plans from pg_prepared_statements
          where name like 'portal_purchase%' or name like 'portal_totals_move%' or name = 'portal_cart_put'
            or name like 'portal_shopper_reads%'`,
      );
      // The running totals' move is part of the purchase's statement (decision 0086): no statement of its own.
      expect(rows.map((r) => r.name).filter((n) => !n.startsWith('portal_shopper_reads'))).toEqual(
        expect.arrayContaining(['portal_cart_put', expect.stringMatching(/^portal_purchase/)]),
      );
      expect(rows.filter((r) => /^portal_totals_move/.test(r.name))).toEqual([]);
      // The purchase's read (its snapshot, number, history and level) and the add's.
      expect(rows.filter((r) => r.name.startsWith('portal_shopper_reads')).length).toBeGreaterThanOrEqual(2);
      // Seven purchases with seven adds: none planned for its values (before, the purchase's statement was
      // planned on every call on the bench's data, 1 ms each).
      expect(rows.filter((r) => Number(r.custom_plans) > 0)).toEqual([]);
      const { rows: mode } = await one!.database.pool!.query<{ mode: string }>(
        `select current_setting('plan_cache_mode') as mode`,
      );
      expect(mode[0]!.mode).toBe('auto');
    });

    it('the support search: one statement with a kept plan; a short term planned for each call’s pattern', async () => {
      // Planned for each call's pattern its statements spent 0.85 ms planning to 0.15 ms running (finding
      // 56); on a generic plan the old search by a buyer's name read the newest orders backwards (37 ms a
      // call on the bench's data, finding 34). A term of three letters or digits in a row is one statement
      // whose text fixes the path; a shorter one (or one matching over 100 users) keeps the planned ones.
      const { api: admin } = await signedInAdmin(one!.app, t.database.db);
      for (let i = 0; i < 7; i++) {
        const res = await admin.get(`/api/buscar?q=${i % 2 ? 'user' : 'zz-nadie'}`);
        expect(res.statusCode, res.body).toBe(200);
      }
      const prepared = async (pool: 'pool' | 'plannedPool') =>
        (
          await one!.database[pool]!.query<{ name: string; custom_plans: string }>(
            `select name, custom_plans from pg_prepared_statements where name like 'portal_support_%' order by name`,
          )
        ).rows;
      const kept = await prepared('plannedPool');
      expect(kept.map((r) => r.name)).toEqual(['portal_support_search']);
      expect(kept.filter((r) => Number(r.custom_plans) > 0)).toEqual([]);
      expect(await prepared('pool')).toEqual([]);
      for (let i = 0; i < 2; i++) expect((await admin.get('/api/buscar?q=us')).statusCode).toBe(200);
      expect((await prepared('pool')).map((r) => r.name)).toEqual([
        'portal_support_buyer_orders',
        'portal_support_users',
      ]);
    });

    it('the receivers’ search: a term with a trigram on one kept plan (the guías’ trigram index), a short one planned for its pattern', async () => {
      // Finding 66: the guías' trigram index serves any term with a trigram on one generic plan; a shorter
      // term would scan the whole index, so it is planned for its pattern (the client's shipments to receive).
      const receiver = await makeUser(t.database.db, { rol: 1, idCliente, receptor: true });
      const api = await new ApiClient(one!.app).loginOk(receiver.usuario, TEST_PASSWORD);
      for (let i = 0; i < 7; i++)
        for (const q of ['DHL-7788', '#00042', '88'])
          expect((await api.get(`/api/recepcion?q=${encodeURIComponent(q)}`)).json()).toMatchObject({
            total: 0,
          });
      const { rows } = await one!.database.plannedPool!.query<{ name: string; custom_plans: string }>(
        `select name, custom_plans from pg_prepared_statements where name like 'portal_receiving%' order by name`,
      );
      expect(rows.map((r) => r.name)).toEqual(['portal_receiving_count_qt', 'portal_receiving_p1_qt']);
      expect(rows.filter((r) => Number(r.custom_plans) > 0)).toEqual([]);
      const { rows: pool } = await one!.database.pool!.query<{ name: string }>(
        `select name from pg_prepared_statements where name like 'portal_receiving%'`,
      );
      expect(pool).toEqual([]);
    });

    it('a filtered log page is planned for each call’s values, never with a kept plan', async () => {
      // A plan kept for the log filtered by users read the table backwards by id and, for a user with few
      // entries, the whole log (172 ms on the bench's data against 1.5 ms planned for the value).
      const app = one!.app;
      const { api: admin } = await signedInAdmin(app, t.database.db);
      for (let i = 0; i < 8; i++) {
        for (const query of [`id_cliente=${idCliente}`, 'usuario=user', 'event_type=login']) {
          expect((await admin.get(`/api/logs?${query}&page=1`)).statusCode).toBe(200);
          expect((await admin.get(`/api/logs?${query}&page=2`)).statusCode).toBe(200);
        }
      }
      const { rows } = await one!.database.plannedPool!.query<{ name: string; custom_plans: string }>(
        `select name, custom_plans from pg_prepared_statements where name like 'portal_logs_%'`,
      );
      // Only the unfiltered page's statement (from the test above, on this connection) is kept, and the
      // lookup of the users a term with a trigram names (finding 61): the trigram indexes' plan for any such
      // term, never planned for its pattern.
      expect(
        rows.map((r) => r.name).filter((n) => !/^portal_logs_(page|count)_0+(_p1|_pn)?$/.test(n)),
      ).toEqual(['portal_logs_user_ids_qt']);
      expect(rows.filter((r) => Number(r.custom_plans) > 0)).toEqual([]);
      // A term without three letters or digits in a row gives the indexes nothing: planned for its pattern.
      for (let i = 0; i < 2; i++)
        expect((await admin.get('/api/logs?usuario=us&page=1')).statusCode).toBe(200);
      const named = async (pool: 'pool' | 'plannedPool') =>
        (await one!.database[pool]!.query<{ name: string }>(`select name from pg_prepared_statements`)).rows;
      // (No statement of the lookup is kept besides the trigram one, on either pool.)
      expect(
        [...(await named('pool')), ...(await named('plannedPool'))]
          .map((r) => r.name)
          .filter((n) => n.includes('user_ids')),
      ).toEqual(['portal_logs_user_ids_qt']);
    });
  }
});
