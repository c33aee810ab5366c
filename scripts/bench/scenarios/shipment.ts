/**
 * POST /api/surtido/{id}/envios by the operator (`bench.admin`, rol 4): a partial shipment, 1 unit of the
 * first line of an approved order of the bench client (3 lines of 5 units, reserved as an approval reserves
 * them, on products in stock), with a guía. The orders are inserted before the run; after each answer its
 * order is put back by SQL, outside the measured processes (the line's units unshipped and reserved again,
 * the shipment, its event and the guía gone, back to `por_surtir`), and handed out again, so every request
 * ships from `por_surtir` to `parcial`. Afterwards the orders are deleted with everything written about them
 * (events, log entries, e-mails, bell items, webhook rows) and the products' stock put back.
 */
import type autocannon from 'autocannon';
import { authHeaders } from '../http.ts';
import { log } from '../processes.ts';
import { type BenchContext, logRow } from './context.ts';
import { handOut, measureWrites } from './hand-out.ts';
import { markedOrders } from './marked-orders.ts';

/** The operator's screen: a few at a time (a target of its own, like the administrator's other routes). */
const CONNECTIONS = 10;
/**
 * Orders to hand out: more than a run asks for (about 1,500 in 10 s here), so the put-backs never run the
 * pool dry. Each put-back deletes a shipment, and its check against invoices' `shipment_id` reads the whole
 * table (no index there: the app never looks invoices up by it; 25 ms on the large data set); with 200 orders
 * the put-backs lagged behind 10 connections and 465–662 requests found no free order (finding 49).
 */
const POOL = 1000;
/** Units of each line (the shipment takes 1: the order stays `parcial`). */
const UNITS = 5;
const MARK = 'Prueba de carga: envío parcial';

interface ShipTurn {
  order?: { id: number; line: number };
}

/** An answer by what it says: the order's new state, or the code and the error's code. */
function answerOf(status: number, body: string): string {
  try {
    const answer = JSON.parse(body) as { pedido?: { surtido?: string }; code?: string };
    return status === 200 ? (answer.pedido?.surtido ?? '200') : `${status} ${answer.code ?? ''}`.trim();
  } catch {
    return String(status);
  }
}

export async function shipmentScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.only('envio')) return;
  // Measured once, in the cost run, at its own connections (which fill the latency column).
  if (ctx.pass === 'latency') return;
  const { q } = ctx;
  const clientId = ctx.known.id_cliente;
  const buyers = (
    await q<{ id: number }>(
      `select u.id from users u where u.id_cliente = $1 and u.rol = 1 and u.activo
        and exists (select 1 from user_products up where up.user_id = u.id and up.asignado)
        order by u.id limit ${POOL}`,
      [clientId],
    )
  ).map((r) => r.id);
  if (buyers.length === 0) throw new Error('El cliente de la prueba no tiene compradores');
  const orders = await markedOrders(q, {
    mark: MARK,
    clientId,
    buyerIds: buyers,
    count: POOL,
    status: 'aprobado',
    surtido: 'por_surtir',
    cantidad: UNITS,
    productWhere: 'p2.existencia > 20',
    logEvents: ['pedido_envio'],
    subjects: ['Pedido #%: envío % en camino%'],
  });
  // As the approval left them (decision 0124): each line's units reserved on its product, a promised date.
  await q(
    `with l as (
      update order_lines set reservado = cantidad, fecha_promesa = current_date + 3
      where order_id in (select id from orders where nota = $1) returning product_id, cantidad
    )
    update products p set reservado = p.reservado + s.n
      from (select product_id, sum(cantidad)::int as n from l group by product_id) s where p.id = s.product_id`,
    [MARK],
  );
  const firstLine = new Map(
    (
      await q<{ order_id: number; id: number }>(
        `select order_id, min(id)::int as id from order_lines
          where order_id in (select id from orders where nota = $1) group by order_id`,
        [MARK],
      )
    ).map((r) => [r.order_id, r.id]),
  );
  const fresh = () => ({ answers: new Map<string, number>(), starved: 0 });
  let stats = fresh();
  // Each answer's order back to por_surtir: the shipment (with its lines), its event and the guía gone,
  // the line's units unshipped and reserved again. The products' stock is put back after the run.
  const pool = handOut(
    orders.ids.filter((id) => firstLine.has(id)).map((id) => ({ id, line: firstLine.get(id)! })),
    async ([order]) => {
      await q('delete from order_shipments where order_id = $1', [order!.id]);
      await q(
        `with e as (delete from order_events where order_id = $1 and tipo = 'envio'),
          l as (update order_lines set enviado = 0, reservado = cantidad where id = $2)
        update orders set surtido_estatus = 'por_surtir', guia = null, paqueteria = null where id = $1`,
        [order!.id, order!.line],
      );
    },
  );
  let guia = 0;
  const shipOne: autocannon.Request = {
    method: 'POST',
    setupRequest: (req, context) => {
      const turn = context as ShipTurn;
      const [order] = pool.take(1);
      if (!order) stats.starved++;
      turn.order = order;
      return {
        ...req,
        path: `/api/surtido/${order?.id ?? 2_000_000_000}/envios`,
        headers: authHeaders(ctx.admin, true),
        body: JSON.stringify({
          lineas: [{ id: order?.line ?? 1, cantidad: 1 }],
          guia: `BENCH${String(++guia).padStart(8, '0')}`,
          paqueteria: 'Estafeta',
        }),
      };
    },
    onResponse: (status, body, context) => {
      const turn = context as ShipTurn;
      const key = answerOf(status, body);
      stats.answers.set(key, (stats.answers.get(key) ?? 0) + 1);
      if (turn.order) pool.putBack([turn.order]);
      turn.order = undefined;
    },
  };

  const name = `POST /api/surtido/{id}/envios (rol 4, ${CONNECTIONS} conexiones; 1 unidad de 1 línea de un pedido aprobado de 3 líneas, por_surtir → parcial)`;
  try {
    const { row } = await measureWrites(ctx, {
      key: 'envio',
      name,
      request: shipOne,
      connections: CONNECTIONS,
      pool,
      reset: () => {
        stats = fresh();
      },
    });
    row.result =
      `respuestas ${JSON.stringify(Object.fromEntries(stats.answers))}` +
      (stats.starved ? `; ${stats.starved} peticiones sin pedido libre` : '');
    ctx.rows.push(row);
    logRow(row);
    log(`  ${row.result}`);
  } finally {
    await pool.settled();
    await orders.remove();
  }
}
