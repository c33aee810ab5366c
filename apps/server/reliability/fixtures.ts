/** Data for the reliability scenarios, written straight into the database with the API tests' factories. */
import { and, eq, type SQL, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import type { Db } from '../src/db/client.ts';
import { cartItems, orderLines, orders, sessions as sessionsTable } from '../src/db/schema/index.ts';
import { hashToken, newToken } from '../src/lib/tokens.ts';
import {
  assign,
  makeCategory,
  makeClient,
  makeProduct,
  makeUser,
  TEST_PASSWORD,
} from '../src/test/factories.ts';
import { Client, codeOf, type Reply } from './client.ts';

export { TEST_PASSWORD };

/** 100.00 pesos + 16% IVA: every line of one unit costs 116.00 against the budget. */
export const UNIT_PRICE = 10_000;
export const UNIT_TOTAL = 11_600;

/** Rows of a raw query (both drivers answer `{ rows }`). */
export async function rows<T>(db: Db, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export interface Buyer {
  id: number;
  usuario: string;
  presupuesto: number;
  limite: number;
}

export interface Shop {
  clientId: number;
  productIds: number[];
  buyers: Buyer[];
}

/**
 * A client whose orders are approved at once (no authorizers, so no e-mail), `products` products of one
 * unit each, and buyers with the given monthly budget (centavos) and purchase limit (-1 unlimited).
 */
export async function makeShop(
  db: Db,
  options: { products: number; groups: { count: number; presupuesto: number; limite: number }[] },
): Promise<Shop> {
  const client = await makeClient(db, { cantidadAutorizadores: 0, limiteDeCompras: -1 });
  const category = await makeCategory(db, client.id, 'Papelería');
  const productIds: number[] = [];
  for (let i = 0; i < options.products; i++) {
    const p = await makeProduct(db, { idCliente: client.id, idCategoria: category.id, precio: UNIT_PRICE });
    productIds.push(p.id);
  }
  const buyers: Buyer[] = [];
  for (const group of options.groups) {
    for (let i = 0; i < group.count; i++) {
      const u = await makeUser(db, {
        rol: 1,
        idCliente: client.id,
        presupuestoDefault: group.presupuesto,
        limiteDeCompras: group.limite,
      });
      for (const productId of productIds) await assign(db, u.id, productId, 1);
      buyers.push({ id: u.id, usuario: u.usuario, presupuesto: group.presupuesto, limite: group.limite });
    }
  }
  return { clientId: client.id, productIds, buyers };
}

/**
 * A session for every buyer. The first buyer signs in through the real endpoint (production hashing, about
 * 0.4 s of CPU a password); the others get a session like it written in the database — a new random
 * token whose SHA-256 is the session id, and an XSRF token — as the sign-in writes it. A scenario's load is
 * its purchases, not a hundred password checks (decision 0052).
 */
export async function signInAll(db: Db, baseUrl: string, buyers: Buyer[]): Promise<Map<number, Client>> {
  const sessions = new Map<number, Client>();
  const [first, ...others] = buyers;
  if (!first) return sessions;
  const signedIn = new Client(baseUrl);
  await signedIn.signIn(first.usuario, TEST_PASSWORD);
  sessions.set(first.id, signedIn);
  // The session cookie's name, whatever the deployment makes it: the one cookie besides XSRF-TOKEN.
  const cookieName = [...signedIn.cookies.keys()].find((name) => name !== 'XSRF-TOKEN');
  if (!cookieName) throw new Error('the sign-in set no session cookie');
  const expiresAt = new Date(Date.now() + 8 * 3_600_000);
  const opened = others.map((b) => ({ buyer: b, token: newToken(), xsrfToken: newToken() }));
  if (opened.length > 0)
    await db.insert(sessionsTable).values(
      opened.map((o) => ({
        id: hashToken(o.token),
        userId: o.buyer.id,
        xsrfToken: o.xsrfToken,
        ip: '127.0.0.1',
        userAgent: 'reliability',
        expiresAt,
      })),
    );
  for (const o of opened) {
    const c = new Client(baseUrl);
    c.cookies.set(cookieName, o.token);
    c.cookies.set('XSRF-TOKEN', o.xsrfToken);
    sessions.set(o.buyer.id, c);
  }
  return sessions;
}

export interface Attempt {
  kind: 'add' | 'buy' | 'read';
  reply: Reply;
  /** Buyer's user id. */
  userId: number;
  /** For purchases: the product ids sent in `orden`. */
  orden?: number[];
}

/** Adds one unit of `productId` and buys the cart as the add returned it (what the web app does). */
export async function addAndBuy(
  c: Client,
  userId: number,
  productId: number,
  log: Attempt[],
): Promise<Reply> {
  const add = await c.post('/api/carrito/nuevo_item', { item: { id: productId, cantidad: 1 } });
  log.push({ kind: 'add', reply: add, userId });
  if (add.status !== 200) return add;
  const carrito = (add.body as { carrito: { id: number; cantidad: number }[] }).carrito;
  const orden = carrito.map((i) => ({ id: i.id, cantidad: i.cantidad }));
  const buy = await c.post('/api/compra', { orden });
  log.push({ kind: 'buy', reply: buy, userId, orden: orden.map((o) => o.id) });
  return buy;
}

export const isRefusal = (r: Reply) => r.status === 422 && ['BUDGET', 'PURCHASE_LIMIT'].includes(codeOf(r));

/** Orders of the shop's buyers that break an invariant (SQL over what the database holds). */
export async function invariantViolations(db: Db, clientId: number) {
  const overBudget = await rows<{ id: number; usado: number; presupuesto: number }>(
    db,
    sql`
    select u.id, coalesce(sum(o.total), 0)::bigint as usado, u.presupuesto_default as presupuesto
    from users u join orders o on o.id_user = u.id and o.status <> 'cancelado'
    where u.id_cliente = ${clientId}
    group by u.id having coalesce(sum(o.total), 0) > u.presupuesto_default`,
  );
  const overLimit = await rows<{ id: number; compras: number; limite: number }>(
    db,
    sql`
    select u.id, count(o.id)::int as compras, u.limite_de_compras as limite
    from users u join orders o on o.id_user = u.id and o.status <> 'cancelado'
    where u.id_cliente = ${clientId} and u.limite_de_compras <> -1
    group by u.id having count(o.id) > u.limite_de_compras`,
  );
  const withoutLines = await rows<{ id: number }>(
    db,
    sql`
    select o.id from orders o where o.id_cliente = ${clientId}
      and not exists (select 1 from ${orderLines} l where l.order_id = o.id)`,
  );
  // Every product is bought at most once per buyer in these scenarios, so a product that is both in an
  // order and still in the same buyer's cart means the order was written without emptying the cart.
  const cartOfOrder = await rows<{ order_id: number; product_id: number }>(
    db,
    sql`
    select l.order_id, l.product_id from ${orderLines} l
      join ${orders} o on o.id = l.order_id
      join ${cartItems} c on c.user_id = o.id_user and c.product_id = l.product_id
    where o.id_cliente = ${clientId}`,
  );
  // A cart the server accepted must still fit: what is spent plus the cart (with IVA) within the budget.
  const cartOverBudget = await rows<{ id: number }>(
    db,
    sql`
    select u.id from users u
    where u.id_cliente = ${clientId}
      and (select coalesce(sum(o.total), 0) from orders o where o.id_user = u.id and o.status <> 'cancelado')
        + (select coalesce(sum(c.cantidad), 0) * ${UNIT_TOTAL} from ${cartItems} c where c.user_id = u.id)
        > u.presupuesto_default`,
  );
  return {
    overBudget: overBudget,
    cartOverBudget: cartOverBudget,
    overLimit: overLimit,
    withoutLines: withoutLines,
    cartOfOrder: cartOfOrder,
  };
}

/** The lines (product ids) of an order, or null when it does not exist. */
export async function orderProducts(db: Db, orderId: number, userId: number): Promise<number[] | null> {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.idUser, userId)));
  if (!order) return null;
  const lines = await db
    .select({ productId: orderLines.productId })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId));
  return lines.map((l) => l.productId).sort((a, b) => a - b);
}

/** Orders placed and money spent (centavos) per buyer of a shop. */
export async function ordersPerBuyer(db: Db, clientId: number) {
  const result = await rows<{ id: number; n: number; spent: number }>(
    db,
    sql`
    select u.id, count(o.id)::int as n, coalesce(sum(o.total), 0)::bigint as spent
    from users u left join orders o on o.id_user = u.id and o.status <> 'cancelado'
    where u.id_cliente = ${clientId} group by u.id`,
  );
  return new Map(result.map((r) => [Number(r.id), { orders: Number(r.n), spent: Number(r.spent) }]));
}

/**
 * The shop of the purchase rushes: `perHalf` buyers who can afford exactly 2 orders (budget 2.5 units, no
 * limit) and `perHalf` who may place 3 orders (a budget far above it).
 */
export function rushShop(db: Db, perHalf: number, products: number): Promise<Shop> {
  return makeShop(db, {
    products,
    groups: [
      { count: perHalf, presupuesto: Math.round(2.5 * UNIT_TOTAL), limite: -1 },
      { count: perHalf, presupuesto: 100 * UNIT_TOTAL, limite: 3 },
    ],
  });
}

/**
 * Every buyer's `tabs` tabs at once (`tabClient` gives each tab its signed-in client, on whichever instance),
 * each adding and buying one product after another, at most `rounds`, until the server refuses (budget or limit).
 */
export async function purchaseRush(
  shop: Shop,
  tabs: number,
  rounds: number,
  tabClient: (buyer: Buyer, tab: number) => Client,
): Promise<Attempt[]> {
  const log: Attempt[] = [];
  await Promise.all(
    shop.buyers.flatMap((buyer) =>
      Array.from({ length: tabs }, async (_, tab) => {
        const c = tabClient(buyer, tab);
        for (let i = 0; i < rounds; i++) {
          const productId = shop.productIds[(tab + i) % shop.productIds.length]!;
          const r = await addAndBuy(c, buyer.id, productId, log);
          if (isRefusal(r)) return;
        }
      }),
    ),
  );
  return log;
}

/** What a rush's answers may be: no error and no lost connection; 200/201, a cart another tab changed (409), a refusal (422). */
export function expectRushAnswers(log: Attempt[], describe: (replies: Reply[]) => string = () => ''): void {
  const replies = log.map((l) => l.reply);
  expect(
    replies.filter((r) => r.status === 0 || r.status >= 500),
    describe(replies),
  ).toEqual([]);
  for (const r of replies) expect([200, 201, 409, 422], r.text).toContain(r.status);
}

/** No buyer over budget or limit, no order without lines, no cart holding a placed order's items. */
export async function expectNoViolations(db: Db, clientId: number): Promise<void> {
  expect(await invariantViolations(db, clientId)).toEqual({
    overBudget: [],
    overLimit: [],
    withoutLines: [],
    cartOfOrder: [],
    cartOverBudget: [],
  });
}

/**
 * After a rush on `rushShop`: every 201 is an order, and the ceilings were reached, not just approached — at
 * least `min` buyers of each half at their limit (3 orders) or their budget (2 orders' worth).
 */
export async function expectCeilingsReached(db: Db, shop: Shop, log: Attempt[], min: number): Promise<void> {
  const created = log.filter((l) => l.kind === 'buy' && l.reply.status === 201);
  const placed = await ordersPerBuyer(db, shop.clientId);
  expect([...placed.values()].reduce((n, p) => n + p.orders, 0)).toBe(created.length);
  const atLimit = shop.buyers.filter((u) => u.limite === 3 && placed.get(u.id)?.orders === 3);
  const atBudget = shop.buyers.filter((u) => u.limite === -1 && placed.get(u.id)?.spent === 2 * UNIT_TOTAL);
  expect(atLimit.length).toBeGreaterThanOrEqual(min);
  expect(atBudget.length).toBeGreaterThanOrEqual(min);
}
