/**
 * POST /api/pedidos/aprobar-lote by the bench's authorizer: each request approves 50 pendiente orders of
 * the authorizer's client (3 lines each, buyers with budgets far above them), each order in its own
 * transaction. The orders are inserted before the run; after each answer its 50 orders are put back to
 * pendiente by SQL, outside the measured processes, and handed out again, so every request does the work
 * of 50 approvals. The orders (with their events, log entries and e-mails) are deleted after the run.
 */
import type autocannon from 'autocannon';
import { authHeaders } from '../http.ts';
import { log } from '../processes.ts';
import { type BenchContext, httpRow, load } from './context.ts';

/** Orders per request (the route's maximum). */
const BATCH = 50;
/**
 * Requests at a time: each is 50 approvals, each its own transaction, so 50 connections would hold 2,500
 * approvals in flight and no request would answer within autocannon's 10 s timeout.
 */
const CONNECTIONS = 4;
/** Marks the orders this scenario inserts (a run cut short leaves them for the next one to delete). */
const MARK = 'Prueba de carga: aprobar en lote';

interface BulkTurn {
  ids?: number[];
}

async function cleanUp(ctx: BenchContext, outboxFrom?: number): Promise<void> {
  const { q } = ctx;
  // The e-mails the run's approvals enqueued.
  if (outboxFrom !== undefined)
    await q(
      `delete from email_outbox where id > $1 and (subject like 'Pedido #% aprobado' or subject like 'Pedido #% por revisar')`,
      [outboxFrom],
    );
  await q(
    `delete from system_logs where event_type = 'pedido_aprobado'
      and (metadata->>'id_pedido')::int in (select id from orders where nota = $1)`,
    [MARK],
  );
  await q('delete from order_events where order_id in (select id from orders where nota = $1)', [MARK]);
  await q('delete from order_lines where order_id in (select id from orders where nota = $1)', [MARK]);
  await q('delete from orders where nota = $1', [MARK]);
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
  const pool = BATCH * CONNECTIONS * 3;
  await cleanUp(ctx);
  const [outbox] = await q<{ n: number }>('select coalesce(max(id), 0)::int as n from email_outbox');
  await q(
    `insert into orders (id_user, id_cliente, status, subtotal, iva, total, lineas, transaction_date, nota)
      select (array[${buyers.map((b) => b.id).join(',')}])[1 + (g % ${buyers.length})], $1, 'pendiente', 0, 0, 0,
        0, now(), $2
      from generate_series(0, ${pool - 1}) g`,
    [client.id_cliente, MARK],
  );
  await q(
    `insert into order_lines (order_id, product_id, clave_interna, clave_cliente, nombre, unidad_de_medida,
        id_categoria, categoria, precio, impuesto, cantidad)
      select o.id, p.id, p.clave_interna, p.clave_cliente, p.nombre, p.unidad_de_medida, p.id_categoria,
        k.nombre, p.precio, p.impuesto, 1
      from orders o
      cross join lateral (
        select up.product_id from user_products up join products p2 on p2.id = up.product_id
        where up.user_id = o.id_user and up.asignado and p2.activo order by up.product_id limit 3
      ) a
      join products p on p.id = a.product_id
      join categories k on k.id = p.id_categoria
      where o.nota = $1`,
    [MARK],
  );
  await q(
    `update orders o set subtotal = s.subtotal, iva = s.iva, total = s.subtotal + s.iva, lineas = s.n
      from (
        select order_id, count(*)::int as n, sum(precio * cantidad)::bigint as subtotal,
          ((coalesce(sum(precio * cantidad) filter (where impuesto), 0)) * 16 + 50)::bigint / 100 as iva
        from order_lines where order_id in (select id from orders where nota = $1) group by order_id
      ) s where s.order_id = o.id`,
    [MARK],
  );
  // Budgets far above the month's orders: no approval is refused for money.
  await q('update users set presupuesto_default = 100000000000 where id = any($1)', [
    buyers.map((b) => b.id),
  ]);

  const free: number[] = (
    await q<{ id: number }>('select id from orders where nota = $1 order by id', [MARK])
  ).map((r) => r.id);
  const pending = new Set<Promise<void>>();
  const fresh = () => ({ approved: 0, refused: new Map<string, number>(), starved: 0 });
  let stats = fresh();
  const putBack = (ids: number[]) => {
    const done = q(
      `with gone as (delete from order_events where order_id = any($1) and tipo = 'aprobado')
        update orders set status = 'pendiente', surtido_estatus = null where id = any($1)`,
      [ids],
    ).then(() => {
      free.push(...ids);
    });
    pending.add(done);
    void done.finally(() => pending.delete(done));
  };
  const approve: autocannon.Request = {
    method: 'POST',
    path: '/api/pedidos/aprobar-lote',
    setupRequest: (req, context) => {
      const turn = context as BulkTurn;
      const ids = free.splice(0, BATCH);
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
      if (turn.ids?.length) putBack(turn.ids);
      turn.ids = undefined;
    },
  };

  const name = `POST /api/pedidos/aprobar-lote (${BATCH} pedidos de 3 líneas por petición, ${CONNECTIONS} conexiones, ${buyers.length} compradores, ${client.levels} nivel${client.levels === 1 ? '' : 'es'})`;
  log(`→ ${name}`);
  try {
    const { r, cpu } = await load(
      ctx,
      {
        url: ctx.base,
        requests: [approve],
        connections: CONNECTIONS,
        beforeMeasure: async () => {
          await Promise.all(pending);
          stats = fresh();
        },
      },
      ctx.portalMeter,
    );
    await Promise.all(pending);
    const row = httpRow(ctx, 'lote', name, r, cpu, null);
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
    await Promise.all(pending);
    for (const b of buyers)
      await q('update users set presupuesto_default = $2 where id = $1', [b.id, b.presupuesto_default]);
    await cleanUp(ctx, outbox?.n ?? 0);
  }
}
