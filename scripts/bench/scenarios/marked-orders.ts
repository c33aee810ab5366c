/**
 * Orders a write scenario inserts before its run, marked by their note (a run cut short leaves them for the
 * next one to delete), and their deletion with everything the portal wrote about them: e-mails, bell items,
 * log entries, events, webhook rows, shipments and lines.
 */
import type { Query } from './context.ts';

/**
 * Inserts `count` orders of `clientId` in the given state, their buyers taken in turn, each with 3 lines of
 * its buyer's first assigned active products (those `productWhere`, on `p2`, allows) of `cantidad` units,
 * and their totals. Answers the orders' ids.
 */
async function insertMarkedOrders(
  q: Query,
  o: {
    mark: string;
    clientId: number;
    buyerIds: readonly number[];
    count: number;
    status: string;
    surtido: string | null;
    cantidad: number;
    productWhere?: string;
  },
): Promise<number[]> {
  await q(
    `insert into orders (id_user, id_cliente, status, surtido_estatus, subtotal, iva, total, lineas,
        transaction_date, nota)
      select (array[${o.buyerIds.join(',')}])[1 + (g % ${o.buyerIds.length})], $1, $2, $3, 0, 0, 0, 0, now(), $4
      from generate_series(0, ${o.count - 1}) g`,
    [o.clientId, o.status, o.surtido, o.mark],
  );
  await q(
    `insert into order_lines (order_id, product_id, clave_interna, clave_cliente, nombre, unidad_de_medida,
        id_categoria, categoria, precio, impuesto, cantidad)
      select o.id, p.id, p.clave_interna, p.clave_cliente, p.nombre, p.unidad_de_medida, p.id_categoria,
        k.nombre, p.precio, p.impuesto, ${o.cantidad}
      from orders o
      cross join lateral (
        select up.product_id from user_products up join products p2 on p2.id = up.product_id
        where up.user_id = o.id_user and up.asignado and p2.activo ${o.productWhere ? `and ${o.productWhere}` : ''}
        order by up.product_id limit 3
      ) a
      join products p on p.id = a.product_id
      join categories k on k.id = p.id_categoria
      where o.nota = $1`,
    [o.mark],
  );
  await writeMarkedTotals(q, o.mark);
  return (await q<{ id: number }>('select id from orders where nota = $1 order by id', [o.mark])).map(
    (r) => r.id,
  );
}

/** The marked orders' stored totals and line counts, from their lines (the purchase's rule: 16% IVA). */
export async function writeMarkedTotals(q: Query, mark: string): Promise<void> {
  await q(
    `update orders o set subtotal = s.subtotal, iva = s.iva, total = s.subtotal + s.iva, lineas = s.n
      from (
        select order_id, count(*)::int as n, sum(precio * cantidad)::bigint as subtotal,
          ((coalesce(sum(precio * cantidad) filter (where impuesto), 0)) * 16 + 50)::bigint / 100 as iva
        from order_lines where order_id in (select id from orders where nota = $1) group by order_id
      ) s where s.order_id = o.id`,
    [mark],
  );
}

/** The last e-mail of the outbox: a scenario deletes the e-mails its run enqueued after it. */
async function lastEmail(q: Query): Promise<number> {
  const [outbox] = await q<{ n: number }>('select coalesce(max(id), 0)::int as n from email_outbox');
  return outbox?.n ?? 0;
}

/**
 * Deletes the orders marked `mark` and what the portal wrote about them: the e-mails after `outbox.from`
 * whose subject is like one of `outbox.subjects`, their bell items, the log entries of `logEvents`, their
 * events, webhook rows, lines and shipments (the last two with the orders, on delete cascade).
 */
async function deleteMarkedOrders(
  q: Query,
  mark: string,
  o: { logEvents: readonly string[]; outbox?: { from: number; subjects: readonly string[] } },
): Promise<void> {
  const marked = 'select id from orders where nota = $1';
  if (o.outbox)
    await q('delete from email_outbox where id > $1 and subject like any($2)', [
      o.outbox.from,
      o.outbox.subjects,
    ]);
  await q(
    `delete from notifications where ruta in (
      select r || o.id from orders o cross join unnest(array['/usuario/historial/', '/autorizador/orden/']) r
      where o.nota = $1)`,
    [mark],
  );
  await q(`delete from system_logs where event_type = any($2) and id_pedido in (${marked})`, [
    mark,
    o.logEvents,
  ]);
  await q(`delete from order_events where order_id in (${marked})`, [mark]);
  await q(
    `delete from webhook_deliveries where event_id in
      (select id from webhook_events where order_id in (${marked}))`,
    [mark],
  );
  await q(`delete from webhook_events where order_id in (${marked})`, [mark]);
  await q(`delete from order_lines where order_id in (${marked})`, [mark]);
  await q('delete from orders where nota = $1', [mark]);
}

/**
 * Keeps the stock columns of the products `ids` (their stock, reservations, lead time, last change) and
 * answers what puts them back: a write scenario's approvals reserve and its shipments consume, run after run.
 */
export async function keepProducts(q: Query, ids: readonly number[]): Promise<() => Promise<void>> {
  const kept = await q<{
    id: number;
    existencia: number | null;
    reservado: number;
    dias_entrega: number | null;
    updated_at: Date;
  }>('select id, existencia, reservado, dias_entrega, updated_at from products where id = any($1)', [ids]);
  return async () => {
    await q(
      `update products p set existencia = v.e, reservado = v.r, dias_entrega = v.d, updated_at = v.u
        from unnest($1::int[], $2::int[], $3::int[], $4::int[], $5::timestamptz[]) v(id, e, r, d, u)
        where p.id = v.id`,
      [
        kept.map((p) => p.id),
        kept.map((p) => p.existencia),
        kept.map((p) => p.reservado),
        kept.map((p) => p.dias_entrega),
        kept.map((p) => p.updated_at),
      ],
    );
  };
}

/** The products of the orders marked `mark`'s lines. */
async function productsOf(q: Query, mark: string): Promise<number[]> {
  return (
    await q<{ id: number }>(
      `select distinct product_id as id from order_lines
        where order_id in (select id from orders where nota = $1)`,
      [mark],
    )
  ).map((r) => r.id);
}

/** A write scenario's orders, inserted for its run. */
export interface MarkedOrders {
  ids: number[];
  /** Puts back the stock of their products and deletes them with what the run wrote about them. */
  remove(): Promise<void>;
}

/**
 * Deletes what an earlier run cut short left, inserts the orders (`insertMarkedOrders`), and keeps their
 * products' stock. Their removal deletes, besides the orders, the log entries of `logEvents` and the
 * e-mails of `subjects` enqueued from now on.
 */
export async function markedOrders(
  q: Query,
  o: Parameters<typeof insertMarkedOrders>[1] & { logEvents: readonly string[]; subjects: readonly string[] },
): Promise<MarkedOrders> {
  await deleteMarkedOrders(q, o.mark, o);
  const from = await lastEmail(q);
  const ids = await insertMarkedOrders(q, o);
  const putBackStock = await keepProducts(q, await productsOf(q, o.mark));
  return {
    ids,
    remove: async () => {
      await putBackStock();
      await deleteMarkedOrders(q, o.mark, { logEvents: o.logEvents, outbox: { from, subjects: o.subjects } });
    },
  };
}
