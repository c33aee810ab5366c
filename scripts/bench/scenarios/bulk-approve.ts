/**
 * POST /api/pedidos/aprobar-lote by the bench's authorizer: each request approves 50 pendiente orders of
 * the authorizer's client (3 lines each, buyers with budgets far above them), each order in its own
 * transaction. The orders are inserted before the run; after each answer its 50 orders are put back to
 * pendiente by SQL, outside the measured processes, and handed out again, so every request does the work
 * of 50 approvals. The orders (with their events, log entries, e-mails and bell items) are deleted after the
 * run, and the stock their approvals reserved given back.
 */
import type autocannon from 'autocannon';
import { authHeaders } from '../http.ts';
import { log } from '../processes.ts';
import type { BenchContext } from './context.ts';
import { handOut, measureWrites } from './hand-out.ts';
import { markedOrders } from './marked-orders.ts';

/** Orders per request (the route's maximum). */
const BATCH = 50;
/**
 * Requests at a time: each is 50 approvals, each its own transaction, so 50 connections would hold 2,500
 * approvals in flight and no request would answer within autocannon's timeout (`load`'s 30 s).
 */
const CONNECTIONS = 4;
/** Marks the orders this scenario inserts (a run cut short leaves them for the next one to delete). */
const MARK = 'Prueba de carga: aprobar en lote';

interface BulkTurn {
  ids?: number[];
}

export async function bulkApproveScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.only('lote')) return;
  // Measured once, in the cost run (no latency target).
  if (ctx.pass === 'latency') return;
  const { q } = ctx;
  const [client] = await q<{ id_cliente: number; levels: number }>(
    `select u.id_cliente, c.cantidad_autorizadores as levels from users u join clients c on c.id = u.id_cliente
      where u.usuario = $1`,
    [ctx.autorizador.usuario],
  );
  if (!client) throw new Error('El autorizador de la prueba no tiene cliente');
  const buyers = await q<{ id: number; presupuesto_default: number }>(
    `select u.id, u.presupuesto_default from users u
        where u.id_cliente = $1 and u.rol = 1 and u.activo
          and exists (select 1 from user_products up where up.user_id = u.id and up.asignado)
        order by u.id limit 200`,
    [client.id_cliente],
  );
  if (buyers.length === 0) throw new Error('El cliente del autorizador no tiene compradores');
  // Each approval reserves its lines' units on their products (decision 0124): put back after the run.
  const orders = await markedOrders(q, {
    mark: MARK,
    clientId: client.id_cliente,
    buyerIds: buyers.map((b) => b.id),
    count: BATCH * CONNECTIONS * 3,
    status: 'pendiente',
    surtido: null,
    cantidad: 1,
    logEvents: ['pedido_aprobado'],
    subjects: ['Pedido #% aprobado', 'Pedido #% por revisar'],
  });
  // Budgets far above the month's orders: no approval is refused for money.
  await q('update users set presupuesto_default = 100000000000 where id = any($1)', [
    buyers.map((b) => b.id),
  ]);

  const fresh = () => ({ approved: 0, refused: new Map<string, number>(), starved: 0 });
  let stats = fresh();
  // Each answer's orders back to pendiente (its approval events gone) and handed out again.
  const pool = handOut(orders.ids, (batch) =>
    q(
      `with gone as (delete from order_events where order_id = any($1) and tipo = 'aprobado')
        update orders set status = 'pendiente', surtido_estatus = null where id = any($1)`,
      [batch],
    ),
  );
  const approve: autocannon.Request = {
    method: 'POST',
    path: '/api/pedidos/aprobar-lote',
    setupRequest: (req, context) => {
      const turn = context as BulkTurn;
      const ids = pool.take(BATCH);
      if (ids.length < BATCH) stats.starved++;
      turn.ids = ids;
      return {
        ...req,
        headers: authHeaders(ctx.autorizador, true),
        body: JSON.stringify({ ids: ids.length ? ids : [2_000_000_000] }),
      };
    },
    onResponse: (status, body, context) => {
      const turn = context as BulkTurn;
      if (status === 200) {
        const answer = JSON.parse(body) as { resultados: { ok: boolean; error?: string }[] };
        for (const r of answer.resultados) {
          if (r.ok) stats.approved++;
          else stats.refused.set(r.error ?? '?', (stats.refused.get(r.error ?? '?') ?? 0) + 1);
        }
      }
      if (turn.ids?.length) pool.putBack(turn.ids);
      turn.ids = undefined;
    },
  };

  const name = `POST /api/pedidos/aprobar-lote (${BATCH} pedidos de 3 líneas por petición, ${CONNECTIONS} conexiones, ${buyers.length} compradores, ${client.levels} nivel${client.levels === 1 ? '' : 'es'})`;
  try {
    const { row, cpu } = await measureWrites(ctx, {
      key: 'lote',
      name,
      request: approve,
      connections: CONNECTIONS,
      pool,
      reset: () => {
        stats = fresh();
      },
    });
    const perOrder = stats.approved ? (cpu.node + cpu.pg) / stats.approved : 0;
    const refused = stats.refused.size
      ? `; rechazados ${JSON.stringify(Object.fromEntries(stats.refused))}`
      : '';
    // No approval answered within the run (each request is 50 of them): no CPU per order to give.
    const cpuPerOrder = stats.approved
      ? `CPU por pedido ${(cpu.node / stats.approved).toFixed(2)} ms node + ${(cpu.pg / stats.approved).toFixed(2)} ms pg (${perOrder.toFixed(2)} ms)`
      : 'ninguna petición terminó dentro de la corrida';
    row.result =
      `${stats.approved} pedidos aprobados; ${cpuPerOrder}${refused}` +
      (stats.starved ? `; ${stats.starved} peticiones con menos de ${BATCH} pedidos libres` : '');
    row.ok = null;
    ctx.rows.push(row);
    log(
      `  ${row.rps!.toFixed(1)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, no-2xx ${row.non2xx}, errores ${row.errors}; CPU/req ${row.cpuNode!.toFixed(2)} ms node + ${row.cpuPg!.toFixed(2)} ms pg; ${row.result}`,
    );
  } finally {
    await pool.settled();
    for (const b of buyers)
      await q('update users set presupuesto_default = $2 where id = $1', [b.id, b.presupuesto_default]);
    await orders.remove();
  }
}
