/**
 * The statements that write an order's status, lines or fulfilment. Only the lifecycle seam
 * (`lifecycle.ts`, `orderChanged`) calls them, and `lifecycle.test.ts` fails when an order is written
 * anywhere else: whatever must follow a change (the running totals, the integration event, the budget
 * alerts, the e-mails) then happens once, in the seam.
 */
import { DEFAULT_PROMISE_DAYS, type FulfilmentState } from '@portal/shared/domain/fulfilment';
import type { LogEventType } from '@portal/shared/domain/log-events';
import { and, eq, inArray, isNotNull, isNull, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';
import { executeNamedOnce } from '../../db/prepared.ts';
import {
  orderEvents,
  orderLines,
  orderShipmentLines,
  orderShipments,
  orders,
  systemLogs,
} from '../../db/schema/index.ts';
import { type Email, outboxCtes, outboxRows } from '../../lib/mailer.ts';

/** An approving review's line edits: lines taken out and new quantities (before the approval's statement). */
export async function writeLineEdits(
  tx: Tx,
  removed: readonly number[],
  edited: readonly { id: number; cantidad: number }[],
): Promise<void> {
  if (removed.length > 0) await tx.delete(orderLines).where(inArray(orderLines.id, [...removed]));
  for (const l of edited)
    await tx.update(orderLines).set({ cantidad: l.cantidad }).where(eq(orderLines.id, l.id));
}

/** A cancellation, only while the order still has the status it was decided from: false when it had changed. */
export async function writeCancellation(
  tx: Tx,
  w: { orderId: number; from: string; reason: string | null; at: Date },
): Promise<boolean> {
  const updated = await tx
    .update(orders)
    .set({
      status: 'cancelado',
      cancelReason: w.reason,
      updatedAt: w.at,
      // Only an approved order has a fulfilment state (orders_surtido_aprobado).
      ...(w.from === 'aprobado' ? { surtidoEstatus: null } : {}),
    })
    .where(and(eq(orders.id, w.orderId), eq(orders.status, w.from)))
    .returning({ id: orders.id });
  return updated.length > 0;
}

/**
 * Sends an order at level 2 back to level 1 (decision 0111), only while it still waits there: false when its
 * status had changed. Its amount counts against the budget before and after: the totals do not move.
 */
export async function writeReturn(tx: Tx, w: { orderId: number; at: Date }): Promise<boolean> {
  const updated = await tx
    .update(orders)
    .set({ status: 'pendiente', updatedAt: w.at })
    .where(and(eq(orders.id, w.orderId), eq(orders.status, 'espera')))
    .returning({ id: orders.id });
  return updated.length > 0;
}

/** A fulfilment move, only from the state it was decided from: the order as moved, or null when it had moved. */
export async function writeFulfilmentMove(
  tx: Tx,
  w: {
    orderId: number;
    from: FulfilmentState;
    to: FulfilmentState;
    /** Set when the move sets them (to `enviado`: the tracking number and carrier; to `entregado`: the note). */
    guia?: { guia: string | null; paqueteria: string | null };
    nota?: string | null;
    at: Date;
  },
) {
  const [moved] = await tx
    .update(orders)
    .set({
      surtidoEstatus: w.to,
      ...(w.guia ? { guia: w.guia.guia, paqueteria: w.guia.paqueteria } : {}),
      ...(w.nota !== undefined ? { notaRecepcion: w.nota } : {}),
      updatedAt: w.at,
    })
    .where(and(eq(orders.id, w.orderId), eq(orders.surtidoEstatus, w.from)))
    .returning({ surtido: orders.surtidoEstatus, guia: orders.guia, notaRecepcion: orders.notaRecepcion });
  return moved ?? null;
}

/**
 * A credit hold (decision 0134), written by the final approval: why the order is held. Conditional on the
 * order being approved and not yet held.
 */
export async function writeCreditHold(tx: Tx, w: { orderId: number; motivo: string; at: Date }) {
  const [held] = await tx
    .update(orders)
    .set({ retenidoCredito: w.motivo, updatedAt: w.at })
    .where(and(eq(orders.id, w.orderId), eq(orders.status, 'aprobado'), isNull(orders.retenidoCredito)))
    .returning({ id: orders.id });
  return held ?? null;
}

/** The operator's release of a credit hold: conditional on the order being held (the loser of a race: null). */
export async function writeCreditRelease(tx: Tx, w: { orderId: number; at: Date }) {
  const [released] = await tx
    .update(orders)
    .set({ retenidoCredito: null, updatedAt: w.at })
    .where(and(eq(orders.id, w.orderId), isNotNull(orders.retenidoCredito)))
    .returning({ id: orders.id });
  return released ?? null;
}

/** Why an order is held for credit now, or null (read under the order's lock before a move or a shipment). */
export async function creditHoldOf(tx: Tx, orderId: number): Promise<string | null> {
  const [row] = await tx
    .select({ motivo: orders.retenidoCredito })
    .from(orders)
    .where(eq(orders.id, orderId));
  return row?.motivo ?? null;
}

/** Where an order's fulfilment stands now (to name it to the loser of a race). */
export async function fulfilmentNow(tx: Tx, orderId: number): Promise<string | null> {
  const [now] = await tx
    .select({ surtido: orders.surtidoEstatus })
    .from(orders)
    .where(eq(orders.id, orderId));
  return now?.surtido ?? null;
}

/** What an approval writes in its one statement. */
export interface ApprovalWrite {
  orderId: number;
  /** The status the approval was decided from: the update is conditional on it. */
  from: string;
  to: string;
  surtidoEstatus: string | null;
  totals: { subtotal: number; iva: number; total: number };
  lineas: number;
  at: Date;
  actorId: number;
  onBehalfOfId: number | null;
  /** The 'aprobado' event's changes (the client's rule, the comment's id), or null. */
  changes: Record<string, unknown> | null;
  /** The log entry's description and metadata (besides the order's id). */
  description: string;
  metadata: Record<string, unknown>;
  emails: readonly Email[];
  /** The business day: a final approval's lines are promised from it (decision 0125). */
  today: string;
}

type WriteValue =
  | 'orderId'
  | 'from'
  | 'to'
  | 'surtidoEstatus'
  | 'subtotal'
  | 'iva'
  | 'total'
  | 'lineas'
  | 'at'
  | 'actorId'
  | 'onBehalfOfId'
  | 'changes'
  | 'description'
  | 'metadata'
  | 'emails'
  | 'today';
const v = (name: WriteValue) => sql.placeholder(name);

/** The approval's statement, every value a placeholder (built once, `executeNamedOnce`). */
const approvalStatement = () => sql`
    with o as (
      update ${orders} set status = ${v('to')}, surtido_estatus = ${v('surtidoEstatus')},
        subtotal = ${v('subtotal')}, iva = ${v('iva')}, total = ${v('total')}, lineas = ${v('lineas')},
        updated_at = ${v('at')}
      where id = ${v('orderId')} and status = ${v('from')}
      returning id, id_cliente
    ), e as (
      insert into ${orderEvents} (order_id, actor_id, on_behalf_of_id, tipo, from_status, to_status, changes)
      select o.id, ${v('actorId')}::integer, ${v('onBehalfOfId')}::integer, 'aprobado', ${v('from')}::text,
        ${v('to')}::text, ${v('changes')}::jsonb
      from o
      returning 1
    ), g as (
      insert into ${systemLogs} (user_id, event_type, description, metadata, id_pedido, id_cliente)
      select ${v('actorId')}::integer, ${'pedido_aprobado' satisfies LogEventType}, ${v('description')}::text,
        ${v('metadata')}::jsonb || jsonb_build_object('id_pedido', o.id), o.id, o.id_cliente
      from o
      returning 1
    ), ${outboxCtes(v('emails'))},
    ${reservationCtes(v('orderId'), v('today'), sql`${v('to')}::text = 'aprobado' and exists (select from o)`)}
    select (select count(*) from o)::integer as updated, (select count(*) from e) as events,
      (select count(*) from g) as logs, (select count(*) from m) as emails,
      (select row_to_json(s) from stock_short s) as short`;

/**
 * Writes an approval (decision 0090): the order's status, totals and fulfilment start (only while it still has the status
 * the approval was decided from), its 'aprobado' event, its log entry, its e-mails and, when it goes to
 * `aprobado`, its stock reservation (`reservationCtes`). Answers `written: false` when the order's status
 * had changed (nothing is written then), and the first short line as `short` when the client forbids
 * backorders (nothing reserved): either way the caller refuses with 409 and rolls back.
 */
export async function writeApproval(
  tx: Tx,
  w: ApprovalWrite,
): Promise<{ written: boolean; short: StockShortfall | null }> {
  const [row] = await executeNamedOnce<{ updated: number; short: ShortRow | null }>(
    tx,
    'portal_approval_write',
    approvalStatement,
    {
      orderId: w.orderId,
      from: w.from,
      to: w.to,
      surtidoEstatus: w.surtidoEstatus,
      subtotal: w.totals.subtotal,
      iva: w.totals.iva,
      total: w.totals.total,
      lineas: w.lineas,
      at: w.at,
      actorId: w.actorId,
      onBehalfOfId: w.onBehalfOfId,
      changes: w.changes === null ? null : JSON.stringify(w.changes),
      description: w.description,
      metadata: JSON.stringify(w.metadata),
      emails: outboxRows(w.emails),
      today: w.today,
    } satisfies Record<WriteValue, unknown>,
  );
  return { written: row!.updated > 0, short: shortfallOf(row!.short) };
}

/** The first line a final approval cannot reserve: the client forbids backorders and its stock falls short. */
export interface StockShortfall {
  nombre: string;
  disponible: number;
  cantidad: number;
}

/**
 * An approved order's reservation (decision 0124) as common table expressions, for a statement of its own
 * (`reserveOrderStock`) or the approval's (`writeApproval`), only when `when` holds: the order's products
 * locked in id order (after the order, its buyer and its área: the lock order of decision 0124; each product
 * locked as the lines, sorted by product, come out), each line's whole quantity added to its product's
 * `reservado`, what goes beyond the available stock (existencia - reservado, less what earlier lines of the
 * same product took) marked "sobre pedido", and each line's promised date (`today` plus the product's lead
 * time, or `DEFAULT_PROMISE_DAYS`; decision 0125). Unknown stock (existencia null) is never short and never
 * "sobre pedido". When the client forbids backorders and a line is short, nothing is reserved and
 * `stock_short` holds that line (the first, by product and line): the caller refuses the approval.
 */
function reservationCtes(orderId: SQLWrapper, today: SQLWrapper, when: SQL): SQL {
  return sql`stock_locked as (
      select l.id as line_id, l.cantidad, p.id as product_id, p.nombre, p.existencia, p.reservado,
        p.dias_entrega, c.permitir_sobre_pedido as permitir
      from order_lines l
        join products p on p.id = l.product_id
        join clients c on c.id = p.id_cliente
      where l.order_id = ${orderId}::integer and ${when}
      order by p.id, l.id
      for update of p
    ), stock_lines as (
      select line_id, product_id, nombre, cantidad, existencia, permitir,
        greatest(existencia - reservado - coalesce(sum(cantidad) over (
          partition by product_id order by line_id rows between unbounded preceding and 1 preceding), 0), 0)
          as disponible,
        ${today}::date + coalesce(dias_entrega, ${sql.raw(String(DEFAULT_PROMISE_DAYS))}) as promesa
      from stock_locked
    ), stock_v as (
      select line_id, product_id, nombre, cantidad, permitir, disponible, promesa,
        case when existencia is null then 0 else greatest(cantidad - disponible, 0) end as sobre
      from stock_lines
    ), stock_short as (
      select nombre, disponible, cantidad from stock_v
      where sobre > 0 and not permitir
      order by product_id, line_id
      limit 1
    ), stock_products as (
      update products set reservado = products.reservado + s.n
      from (select product_id, sum(cantidad)::int as n from stock_v group by product_id) s
      where products.id = s.product_id and not exists (select from stock_short)
      returning products.id
    ), stock_order_lines as (
      update order_lines set reservado = stock_v.cantidad, sobre_pedido = stock_v.sobre,
        fecha_promesa = stock_v.promesa
      from stock_v where order_lines.id = stock_v.line_id and not exists (select from stock_short)
      returning order_lines.id
    )`;
}

/** `stock_short`'s row as the driver returns it. */
type ShortRow = { nombre: string; disponible: number | string; cantidad: number | string };

const shortfallOf = (row: ShortRow | null | undefined): StockShortfall | null =>
  row ? { nombre: row.nombre, disponible: Number(row.disponible), cantidad: Number(row.cantidad) } : null;

/**
 * Reserves an approved order's lines in one statement (`reservationCtes`): null when reserved, else the
 * first short line (nothing written; the caller refuses the approval).
 */
export async function reserveOrderStock(
  tx: Tx,
  orderId: number,
  today: string,
): Promise<StockShortfall | null> {
  const [short] = await rowsOf<ShortRow>(
    tx,
    sql`with ${reservationCtes(sql`${orderId}`, sql`${today}`, sql`true`)}
    select nombre, disponible, cantidad from stock_short`,
  );
  return shortfallOf(short);
}

/**
 * Gives back what an order's lines hold (decision 0124): `consume` (the goods left: shipped) also takes the
 * units off the products' stock; otherwise (cancelled) they are available again. Products locked in id order.
 */
export async function writeReleases(tx: Tx, orderId: number, consume: boolean): Promise<void> {
  const held = await rowsOf<{ product_id: number; n: number }>(
    tx,
    sql`select product_id, sum(reservado)::int as n from order_lines
        where order_id = ${orderId} and reservado > 0 group by product_id order by product_id`,
  );
  if (held.length === 0) return;
  const ids = held.map((h) => Number(h.product_id));
  const list = sql.join(
    ids.map((id) => sql`${id}::int`),
    sql`, `,
  );
  await rowsOf(tx, sql`select id from products where id in (${list}) order by id for update`);
  const values = sql.join(
    held.map((h) => sql`(${Number(h.product_id)}::int, ${Number(h.n)}::int)`),
    sql`, `,
  );
  const existencia = consume
    ? sql`case when products.existencia is null then null else greatest(products.existencia - v.n, 0) end`
    : sql`products.existencia`;
  await tx.execute(sql`
    update products set reservado = greatest(products.reservado - v.n, 0), existencia = ${existencia}
    from (values ${values}) as v(product_id, n) where products.id = v.product_id`);
  await tx.execute(sql`update order_lines set reservado = 0 where order_id = ${orderId} and reservado > 0`);
}

/** Units of given lines of one order: what a shipment carries, or what a cancellation takes out. */
export type LineUnits = readonly { id: number; cantidad: number }[];

const unitsValues = (lines: LineUnits) =>
  sql.join(
    lines.map((l) => sql`(${l.id}::int, ${l.cantidad}::int)`),
    sql`, `,
  );

/** The units each line of an order still has to ship (cantidad − enviado), lines with none left out. */
export async function unitsLeft(tx: Tx, orderId: number): Promise<{ id: number; cantidad: number }[]> {
  const rows = await tx
    .select({ id: orderLines.id, cantidad: sql<number>`${orderLines.cantidad} - ${orderLines.enviado}` })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), sql`${orderLines.cantidad} > ${orderLines.enviado}`))
    .orderBy(orderLines.id);
  return rows.map((r) => ({ id: r.id, cantidad: Number(r.cantidad) }));
}

/**
 * Writes a shipment of an order (decision 0125): its lines' `enviado` go up only where what is left covers
 * the units (checked in the statement, so two shipments racing for the last units cannot both take them),
 * then the shipment, numbered after the order's last one, and its lines. Answers null (nothing written)
 * when a line is not the order's or has fewer units left; the caller refuses and rolls back.
 */
export async function writeShipment(
  tx: Tx,
  w: {
    orderId: number;
    lines: LineUnits;
    guia: string | null;
    paqueteria: string | null;
    fecha: string;
    actorId: number | null;
    at: Date;
  },
): Promise<{ id: number; numero: number } | null> {
  const updated = await rowsOf<{ id: number }>(
    tx,
    sql`with v(line_id, n) as (values ${unitsValues(w.lines)})
        update order_lines l set enviado = l.enviado + v.n from v
        where l.id = v.line_id and l.order_id = ${w.orderId} and l.enviado + v.n <= l.cantidad
        returning l.id`,
  );
  if (updated.length !== w.lines.length) return null;
  const [shipment] = await rowsOf<{ id: number; numero: number }>(
    tx,
    sql`insert into ${orderShipments} (order_id, numero, guia, paqueteria, fecha, actor_id, created_at)
        select ${w.orderId}, coalesce(max(numero), 0) + 1, ${w.guia}, ${w.paqueteria}, ${w.fecha}::date,
          ${w.actorId}::integer, ${w.at}
        from ${orderShipments} where order_id = ${w.orderId}
        returning id, numero`,
  );
  await tx
    .insert(orderShipmentLines)
    .values(
      w.lines.map((l) => ({ shipmentId: Number(shipment!.id), orderLineId: l.id, cantidad: l.cantidad })),
    );
  return { id: Number(shipment!.id), numero: Number(shipment!.numero) };
}

/**
 * Gives back what given units of an order's lines hold (decision 0125): each line's reservation goes down by
 * at most those units; `consume` (they were shipped) also takes them off the products' stock, otherwise
 * (cancelled) they are available again. Products locked in id order, as the approval locks them.
 */
export async function writeLineReleases(tx: Tx, lines: LineUnits, consume: boolean): Promise<void> {
  if (lines.length === 0) return;
  const held = await rowsOf<{ id: number; product_id: number; k: number }>(
    tx,
    sql`with v(line_id, n) as (values ${unitsValues(lines)})
        select l.id, l.product_id, least(l.reservado, v.n)::int as k
        from order_lines l join v on v.line_id = l.id where l.reservado > 0`,
  );
  if (held.length === 0) return;
  const ids = [...new Set(held.map((h) => Number(h.product_id)))].sort((a, b) => a - b);
  await rowsOf(
    tx,
    sql`select id from products where id in (${sql.join(
      ids.map((id) => sql`${id}::int`),
      sql`, `,
    )}) order by id for update`,
  );
  const values = sql.join(
    held.map((h) => sql`(${Number(h.id)}::int, ${Number(h.product_id)}::int, ${Number(h.k)}::int)`),
    sql`, `,
  );
  const existencia = consume
    ? sql`case when products.existencia is null then null else greatest(products.existencia - s.k, 0) end`
    : sql`products.existencia`;
  await tx.execute(sql`
    with v(line_id, product_id, k) as (values ${values}),
    p as (
      update products set reservado = greatest(products.reservado - s.k, 0), existencia = ${existencia}
      from (select product_id, sum(k)::int as k from v group by product_id) s
      where products.id = s.product_id
      returning products.id
    )
    update order_lines set reservado = order_lines.reservado - v.k
    from v where order_lines.id = v.line_id`);
}

/**
 * Cancels units of one line as unavailable (decision 0125), only while the line still has that many units to
 * ship (checked in the statement): they leave `cantidad` (what the totals and the budget count) for
 * `cancelado`. Answers the line as written, or null when it had fewer units left (or is not the order's).
 */
export async function writeLineCancellation(
  tx: Tx,
  w: { orderId: number; lineId: number; cantidad: number; motivo: string },
): Promise<{ cantidad: number; cancelado: number } | null> {
  const [row] = await tx
    .update(orderLines)
    .set({
      cantidad: sql`${orderLines.cantidad} - ${w.cantidad}`,
      cancelado: sql`${orderLines.cancelado} + ${w.cantidad}`,
      motivoCancelacion: w.motivo,
    })
    .where(
      and(
        eq(orderLines.id, w.lineId),
        eq(orderLines.orderId, w.orderId),
        sql`${orderLines.cantidad} - ${orderLines.enviado} >= ${w.cantidad}`,
      ),
    )
    .returning({ cantidad: orderLines.cantidad, cancelado: orderLines.cancelado });
  return row ?? null;
}

/** An order's stored totals after its lines changed (the purchase's rule, `totalsOf`). */
export async function writeOrderTotals(
  tx: Tx,
  orderId: number,
  totals: { subtotal: number; iva: number; total: number },
  at: Date,
): Promise<void> {
  await tx
    .update(orders)
    .set({ subtotal: totals.subtotal, iva: totals.iva, total: totals.total, updatedAt: at })
    .where(eq(orders.id, orderId));
}

/** The operator's promised date for given lines of an order that still have units to ship. */
export async function writePromise(
  tx: Tx,
  w: { orderId: number; lines: readonly number[]; fecha: string },
): Promise<number> {
  const updated = await tx
    .update(orderLines)
    .set({ fechaPromesa: w.fecha })
    .where(
      and(
        eq(orderLines.orderId, w.orderId),
        inArray(orderLines.id, [...w.lines]),
        sql`${orderLines.cantidad} > ${orderLines.enviado}`,
      ),
    )
    .returning({ id: orderLines.id });
  return updated.length;
}
