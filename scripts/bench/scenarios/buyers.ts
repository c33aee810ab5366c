/**
 * The buyers of the cart, purchase and repeat scenarios: each connection takes its turn over its own group
 * of buyers and their assigned products; between runs, carts are emptied and budgets reset.
 */
import { businessMonth } from '@portal/shared/domain/time';
import type autocannon from 'autocannon';
import { authHeaders, type SignedIn } from '../http.ts';
import type { BenchContext } from './context.ts';

/** What a connection remembers between its requests. */
export interface Turn {
  group?: SignedIn[];
  turn?: number;
  user?: SignedIn;
  product?: number;
  /** The cart as the last nuevo_item answered it (what the purchase must match). */
  cart?: { id: number; cantidad: number }[];
  t0?: number;
}

export interface Buyers {
  /** The business month of the run (budgets and purchase limits count in it). */
  month: ReturnType<typeof businessMonth>;
  /** Each buyer's user id, by usuario. */
  ids: Map<string, number>;
  /** Adds one assigned product of the connection's next buyer to that buyer's cart. */
  addItem: autocannon.Request;
  /** Starts the turns again from the first group (before a run). */
  restart(): void;
  /**
   * Empty carts, and a budget of what each buyer spent this month plus `remaining` centavos; with `tight`,
   * one buyer in `tight.every` (by id) is left `tight.remaining` instead.
   */
  reset(remaining: number, tight?: { every: number; remaining: number }): Promise<void>;
}

export async function prepareBuyers(ctx: BenchContext): Promise<Buyers> {
  const { q, buyers, buyerNames } = ctx;
  const groups = Math.max(1, ctx.args.connections);
  const buyerIds = new Map(
    (
      await q<{ id: number; usuario: string }>('select id, usuario from users where usuario = any($1)', [
        buyerNames,
      ])
    ).map((r) => [r.usuario, r.id]),
  );
  const assigned = new Map<string, number[]>();
  for (const r of await q<{ usuario: string; product_id: number }>(
    `select u.usuario, up.product_id from user_products up join users u on u.id = up.user_id
       join products p on p.id = up.product_id
       where u.usuario = any($1) and up.asignado and p.activo order by up.product_id`,
    [buyerNames],
  )) {
    const list = assigned.get(r.usuario) ?? [];
    list.push(r.product_id);
    assigned.set(r.usuario, list);
  }
  const groupOf = (g: number) => buyers.filter((_, i) => i % groups === g);
  let connectionCounter = 0;
  const nextItem = (turn: Turn) => {
    turn.group ??= groupOf(connectionCounter++ % groups);
    turn.turn = (turn.turn ?? 0) + 1;
    const user = turn.group[turn.turn % turn.group.length]!;
    const products = assigned.get(user.usuario) ?? [];
    turn.user = user;
    turn.product = products[Math.floor(turn.turn / turn.group.length) % Math.max(1, products.length)];
    return user;
  };
  const month = businessMonth(new Date(), ctx.args.tz);
  return {
    month,
    ids: buyerIds,
    addItem: {
      method: 'POST',
      path: '/api/carrito/nuevo_item',
      setupRequest: (req, context) => {
        const turn = context as Turn;
        const user = nextItem(turn);
        return {
          ...req,
          headers: authHeaders(user, true),
          body: JSON.stringify({ item: { id: turn.product, cantidad: 1 } }),
        };
      },
    },
    restart: () => {
      connectionCounter = 0;
    },
    reset: async (remaining, tight) => {
      // Requests still in flight when a run ends are let through first.
      await new Promise((r2) => setTimeout(r2, 1000));
      await q('delete from cart_items where user_id = any($1)', [[...buyerIds.values()]]);
      await q(
        `update users u set presupuesto_default = coalesce((select sum(total) from orders o
           where o.id_user = u.id and o.status <> 'cancelado' and o.transaction_date >= $2
             and o.transaction_date < $3), 0) + case when u.id % $5::integer = 0 then $6::bigint else $4::bigint end
         where u.id = any($1)`,
        [
          [...buyerIds.values()],
          month.start,
          month.end,
          remaining,
          tight?.every ?? 1,
          tight?.remaining ?? remaining,
        ],
      );
    },
  };
}
