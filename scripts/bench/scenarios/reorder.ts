/**
 * POST /api/historial/{id}/repetir across many buyers: each repeats an order of 20 lines of its assigned
 * products into an empty cart. The orders are inserted before the run and deleted after it; each cart is
 * checked against the products' `cantidad_limite` and emptied by SQL after each answer, outside the
 * measured processes, so that every request does the work of 20 lines.
 */
import type autocannon from 'autocannon';
import { authHeaders, type SignedIn } from '../http.ts';
import { log } from '../processes.ts';
import type { Buyers } from './buyers.ts';
import { type BenchContext, httpRow, load } from './context.ts';
import { writeMarkedTotals } from './marked-orders.ts';

/** Lines of each buyer's order. */
const LINES = 20;
/** Marks the orders this scenario inserts (a run cut short leaves them for the next one to delete). */
const MARK = 'Prueba de carga: repetir';

interface ReorderTurn {
  group?: SignedIn[];
  turn?: number;
  user?: SignedIn;
}

export async function reorderScenario(ctx: BenchContext, buyers: Buyers): Promise<void> {
  if (!ctx.only('repetir') || !ctx.buyers.length) return;
  // Measured once, in the cost run (no latency target).
  if (ctx.pass === 'latency') return;
  const { q } = ctx;
  const ids = [...buyers.ids.values()];
  // Last month's order of each buyer: its first 20 assigned, active products, 1 to 3 of each.
  const before = new Date(buyers.month.start.getTime() - 10 * 86_400_000);
  await q('delete from orders where nota = $1', [MARK]);
  await q(
    `insert into orders (id_user, id_cliente, status, surtido_estatus, subtotal, iva, total, lineas,
        transaction_date, nota, created_at, updated_at)
      select id, id_cliente, 'aprobado', 'por_surtir', 0, 0, 0, 0, $2, $3, $2, $2 from users where id = any($1)
      order by id`,
    [ids, before, MARK],
  );
  await q(
    `insert into order_lines (order_id, product_id, clave_interna, clave_cliente, nombre, unidad_de_medida,
        id_categoria, categoria, precio, impuesto, cantidad)
      select o.id, p.id, p.clave_interna, p.clave_cliente, p.nombre, p.unidad_de_medida, p.id_categoria,
        k.nombre, p.precio, p.impuesto, 1 + a.j % 3
      from orders o
      cross join lateral (
        select up.product_id, row_number() over (order by up.product_id)::int as j
        from user_products up join products p2 on p2.id = up.product_id
        where up.user_id = o.id_user and up.asignado and p2.activo
        order by up.product_id limit ${LINES}
      ) a
      join products p on p.id = a.product_id
      join categories k on k.id = p.id_categoria
      where o.nota = $1
      order by o.id, a.j`,
    [MARK],
  );
  await writeMarkedTotals(q, MARK);
  const orderOf = new Map(
    (
      await q<{ usuario: string; id: number; lines: number }>(
        `select u.usuario, o.id, o.lineas as lines
          from orders o join users u on u.id = o.id_user where o.nota = $1`,
        [MARK],
      )
    ).map((r) => [r.usuario, r]),
  );
  const shortOrders = [...orderOf.values()].filter((o) => o.lines < LINES).length;

  // Budgets far above 20 lines: every line fits, and no refusal shortens the work.
  await buyers.reset(1_000_000_000);

  const groups = Math.max(1, ctx.args.connections);
  let connectionCounter = 0;
  /** Buyers whose cart is being checked and emptied: their turn is passed to the next buyer of the group. */
  const emptying = new Set<string>();
  const pending = new Set<Promise<void>>();
  const fresh = () => ({
    full: 0,
    partial: 0,
    omitted: new Map<string, number>(),
    carts: 0,
    lines: 0,
    over: 0,
    notEmptied: 0,
  });
  let stats = fresh();
  const checkAndEmpty = (user: SignedIn) => {
    emptying.add(user.usuario);
    const done = q<{ lines: number; over: number }>(
      `with d as (delete from cart_items where user_id = $1 returning product_id, cantidad)
        select count(*)::int as lines,
          count(*) filter (where d.cantidad > coalesce(up.cantidad_limite, 1))::int as over
        from d left join user_products up on up.user_id = $1 and up.product_id = d.product_id`,
      [buyers.ids.get(user.usuario)],
    ).then(([r]) => {
      stats.carts++;
      stats.lines += r?.lines ?? 0;
      stats.over += r?.over ?? 0;
      emptying.delete(user.usuario);
    });
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };
  const repeat: autocannon.Request = {
    method: 'POST',
    path: '/api/historial/0/repetir',
    setupRequest: (req, context) => {
      const turn = context as ReorderTurn;
      if (!turn.group) {
        const g = connectionCounter++ % groups;
        turn.group = ctx.buyers.filter((_, i) => i % groups === g);
      }
      let user: SignedIn;
      let tries = 0;
      do {
        turn.turn = (turn.turn ?? 0) + 1;
        user = turn.group[turn.turn % turn.group.length]!;
      } while (emptying.has(user.usuario) && ++tries < turn.group.length);
      if (emptying.has(user.usuario)) stats.notEmptied++;
      turn.user = user;
      return {
        ...req,
        path: `/api/historial/${orderOf.get(user.usuario)?.id ?? 0}/repetir`,
        headers: authHeaders(user, true),
        body: '{}',
      };
    },
    onResponse: (status, body, context) => {
      const turn = context as ReorderTurn;
      if (status === 200) {
        const answer = JSON.parse(body) as { agregados: unknown[]; omitidos: { codigo: string }[] };
        if (answer.agregados.length === LINES) stats.full++;
        else stats.partial++;
        for (const o of answer.omitidos) stats.omitted.set(o.codigo, (stats.omitted.get(o.codigo) ?? 0) + 1);
      }
      if (turn.user) checkAndEmpty(turn.user);
    },
  };

  const name = `POST /api/historial/{id}/repetir (${ctx.buyers.length} usuarios, pedido de ${LINES} líneas)`;
  log(`→ ${name}`);
  try {
    const { r, cpu } = await load(
      ctx,
      {
        url: ctx.base,
        requests: [repeat],
        // The warm-up's carts are emptied (also those of answers cut off at its end) and not counted.
        beforeMeasure: async () => {
          await Promise.all(pending);
          await buyers.reset(1_000_000_000);
          stats = fresh();
        },
      },
      ctx.portalMeter,
    );
    await Promise.all(pending);
    // Whatever an answer cut off at the end left in a cart (committed within a second), checked the same way.
    await new Promise((r2) => setTimeout(r2, 1000));
    const [left] = await q<{ over: number }>(
      `select count(*)::int as over from cart_items c
        left join user_products up on up.user_id = c.user_id and up.product_id = c.product_id
        where c.user_id = any($1) and c.cantidad > coalesce(up.cantidad_limite, 1)`,
      [ids],
    );
    const over = stats.over + (left?.over ?? 0);
    const row = httpRow(ctx, 'repetir', name, r, cpu, null);
    const omitted = stats.omitted.size
      ? `; omitidos ${JSON.stringify(Object.fromEntries(stats.omitted))}`
      : '';
    row.result =
      `${stats.full} con las ${LINES} líneas agregadas, ${stats.partial} con menos${omitted}; ` +
      `líneas sobre cantidad_limite: ${over} de ${stats.lines} en ${stats.carts} carritos` +
      (shortOrders ? `; ${shortOrders} pedidos de menos de ${LINES} líneas` : '') +
      (stats.notEmptied ? `; ${stats.notEmptied} turnos con el carrito aún por vaciar` : '');
    row.ok = over === 0 ? null : false;
    ctx.rows.push(row);
    log(
      `  ${row.rps!.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, no-2xx ${row.non2xx}, errores ${row.errors}; CPU/req ${row.cpuNode!.toFixed(2)} ms node + ${row.cpuPg!.toFixed(2)} ms pg; ${row.result}`,
    );
  } finally {
    await Promise.all(pending);
    await q('delete from orders where nota = $1', [MARK]);
    await buyers.reset(10_000_000);
  }
}
