/**
 * The statements of receipts per shipment and claims (decision 0127): the receipt and its lines, a claim and
 * its units, the operator's decision, a credit's units, a replacement shipment and its stock, the photos they
 * attach. Like `order-writes.ts`, only the lifecycle seam (`lifecycle.ts`, `orderChanged`) calls them, and
 * every one that can lose a race is conditional in the statement itself.
 */
import type { ClaimReason, ClaimResolution, ClaimState, ReceiptReason } from '@portal/shared/domain/claims';
import { sql } from 'drizzle-orm';
import { rowsOf, type Tx } from '../../db/client.ts';
import {
  budgetAdjustments,
  orderClaimLines,
  orderClaims,
  orderPhotos,
  orderReceiptLines,
  orderReceipts,
  orderShipmentLines,
  orderShipments,
} from '../../db/schema/index.ts';

/** Units of given lines of one order (a claim's, a credit's, a replacement's). */
export type ClaimUnits = readonly { id: number; cantidad: number }[];

const unitsValues = (lines: ClaimUnits) =>
  sql.join(
    lines.map((l) => sql`(${l.id}::int, ${l.cantidad}::int)`),
    sql`, `,
  );

/**
 * Writes a shipment's receipt once (the unique index on the shipment): its id, or null when the shipment
 * already had one (a receipt that raced this one and committed first, or an earlier one).
 */
export async function insertReceipt(
  tx: Tx,
  w: {
    orderId: number;
    shipmentId: number;
    userId: number;
    nota: string | null;
    at: Date;
    lineas: readonly { id: number; recibido: number; motivo: ReceiptReason | null }[];
  },
): Promise<number | null> {
  const [row] = await rowsOf<{ id: number }>(
    tx,
    sql`insert into ${orderReceipts} (order_id, shipment_id, user_id, nota, created_at)
        values (${w.orderId}, ${w.shipmentId}, ${w.userId}, ${w.nota}, ${w.at})
        on conflict (shipment_id) do nothing
        returning id`,
  );
  if (!row) return null;
  const id = Number(row.id);
  await tx
    .insert(orderReceiptLines)
    .values(w.lineas.map((l) => ({ receiptId: id, lineId: l.id, recibido: l.recibido, motivo: l.motivo })));
  return id;
}

/**
 * The buyer's receipt of the whole order (`POST /api/historial/{id}/recibido`): a receipt of every unit, with
 * the note, for each shipment of the order that has none. Answers how many were written.
 */
export async function insertFullReceipts(
  tx: Tx,
  w: { orderId: number; userId: number; nota: string | null; at: Date },
): Promise<number> {
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`with r as (
          insert into ${orderReceipts} (order_id, shipment_id, user_id, nota, created_at)
          select s.order_id, s.id, ${w.userId}::int, ${w.nota}::text, ${w.at}
          from ${orderShipments} s
          where s.order_id = ${w.orderId}
            and not exists (select 1 from ${orderReceipts} x where x.shipment_id = s.id)
          order by s.numero
          on conflict (shipment_id) do nothing
          returning id, shipment_id
        ), l as (
          insert into ${orderReceiptLines} (receipt_id, line_id, recibido)
          select r.id, sl.order_line_id, sl.cantidad
          from r join ${orderShipmentLines} sl on sl.shipment_id = r.shipment_id
          returning 1
        )
        select r.id, (select count(*) from l) as lineas from r`,
  );
  return rows.length;
}

/** Whether every shipment of the order that is not a replacement has its receipt. */
export async function everyShipmentReceived(tx: Tx, orderId: number): Promise<boolean> {
  const [row] = await rowsOf<{ pending: boolean }>(
    tx,
    sql`select exists (
          select 1 from ${orderShipments} s
          where s.order_id = ${orderId} and not s.reposicion
            and not exists (select 1 from ${orderReceipts} r where r.shipment_id = s.id)
        ) as pending`,
  );
  return !row!.pending;
}

/**
 * Puts units of lines under a claim, only where the line still has that many shipped units not claimed
 * (`reclamado + n <= enviado + acreditado`, checked in the statement: two claims racing for the same units
 * cannot both take them). Answers the lines written; fewer than asked means the caller refuses and rolls back.
 */
export async function writeClaimUnits(tx: Tx, orderId: number, lines: ClaimUnits): Promise<number[]> {
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`with v(line_id, n) as (values ${unitsValues(lines)})
        update order_lines l set reclamado = l.reclamado + v.n from v
        where l.id = v.line_id and l.order_id = ${orderId} and l.reclamado + v.n <= l.enviado + l.acreditado
        returning l.id`,
  );
  return rows.map((r) => Number(r.id));
}

/** Takes a refused (or replaced) claim's units out of its lines' `reclamado`. */
export async function releaseClaimUnits(tx: Tx, orderId: number, lines: ClaimUnits): Promise<void> {
  await tx.execute(
    sql`with v(line_id, n) as (values ${unitsValues(lines)})
        update order_lines l set reclamado = l.reclamado - v.n from v
        where l.id = v.line_id and l.order_id = ${orderId}`,
  );
}

/**
 * Credits a claim's units (decision 0127): they leave `cantidad` and `enviado` for `acreditado`
 * (`reclamado` unchanged), only where the line still has them shipped. Answers how many lines were written.
 */
export async function writeCredit(tx: Tx, orderId: number, lines: ClaimUnits): Promise<number> {
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`with v(line_id, n) as (values ${unitsValues(lines)})
        update order_lines l
        set cantidad = l.cantidad - v.n, enviado = l.enviado - v.n, acreditado = l.acreditado + v.n
        from v
        where l.id = v.line_id and l.order_id = ${orderId} and l.enviado >= v.n
        returning l.id`,
  );
  return rows.length;
}

/**
 * A new claim of an order, numbered after the order's last one (under the order's lock, the unique index as
 * a backstop), with its lines.
 */
export async function insertClaim(
  tx: Tx,
  w: {
    orderId: number;
    userId: number;
    shipmentId: number | null;
    resolucion: ClaimResolution;
    nota: string | null;
    at: Date;
    lineas: readonly { id: number; cantidad: number; motivo: ClaimReason }[];
  },
): Promise<{ id: number; numero: number }> {
  const [row] = await rowsOf<{ id: number; numero: number }>(
    tx,
    sql`insert into ${orderClaims}
          (order_id, numero, user_id, shipment_id, resolucion_solicitada, nota, created_at, updated_at)
        select ${w.orderId}, coalesce(max(numero), 0) + 1, ${w.userId}, ${w.shipmentId}::integer,
          ${w.resolucion}, ${w.nota}::text, ${w.at}, ${w.at}
        from ${orderClaims} where order_id = ${w.orderId}
        returning id, numero`,
  );
  const claim = { id: Number(row!.id), numero: Number(row!.numero) };
  await tx
    .insert(orderClaimLines)
    .values(
      w.lineas.map((l) => ({ claimId: claim.id, lineId: l.id, cantidad: l.cantidad, motivo: l.motivo })),
    );
  return claim;
}

/**
 * Attaches photos to a receipt and/or a claim, only photos of this order uploaded by this person and not
 * attached yet (checked in the statement). Answers how many were attached; fewer than named means refusal.
 */
export async function attachPhotos(
  tx: Tx,
  w: {
    orderId: number;
    userId: number;
    ids: readonly number[];
    receiptId: number | null;
    claimId: number | null;
  },
): Promise<number> {
  if (w.ids.length === 0) return 0;
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`update ${orderPhotos} set receipt_id = ${w.receiptId}::integer, claim_id = ${w.claimId}::integer
        where id = any(${sql.param([...w.ids])}::int4[]) and order_id = ${w.orderId} and user_id = ${w.userId}
          and receipt_id is null and claim_id is null
        returning id`,
  );
  return rows.length;
}

/** The operator's decision, only while the claim still is in the state it was decided from. */
export async function writeClaimDecision(
  tx: Tx,
  w: {
    claimId: number;
    from: ClaimState;
    to: ClaimState;
    resolucion: ClaimResolution | null;
    respuesta: string | null;
    guia: string | null;
    paqueteria: string | null;
    decidedBy: number;
    at: Date;
  },
): Promise<boolean> {
  const rows = await rowsOf<{ id: number }>(
    tx,
    sql`update ${orderClaims} set estado = ${w.to}, resolucion = ${w.resolucion}::text,
          respuesta = ${w.respuesta}::text,
          guia_devolucion = coalesce(${w.guia}::text, guia_devolucion),
          paqueteria_devolucion = coalesce(${w.paqueteria}::text, paqueteria_devolucion),
          decided_by = ${w.decidedBy}, updated_at = ${w.at}
        where id = ${w.claimId} and estado = ${w.from}
        returning id`,
  );
  return rows.length > 0;
}

/** The amount (centavos with IVA) an accepted credit gave back, on its claim. */
export async function writeClaimCredit(tx: Tx, claimId: number, credito: number): Promise<void> {
  await tx.execute(sql`update ${orderClaims} set credito = ${credito} where id = ${claimId}`);
}

/**
 * A replacement shipment for an accepted claim (decision 0127): numbered after the order's last shipment,
 * dated `fecha`, with the claim's lines and units. It does not touch the lines' `enviado`.
 */
export async function insertReplacement(
  tx: Tx,
  w: { orderId: number; claimId: number; lines: ClaimUnits; fecha: string; actorId: number; at: Date },
): Promise<{ id: number; numero: number }> {
  const [row] = await rowsOf<{ id: number; numero: number }>(
    tx,
    sql`insert into ${orderShipments}
          (order_id, numero, fecha, actor_id, created_at, reposicion, id_reclamo)
        select ${w.orderId}, coalesce(max(numero), 0) + 1, ${w.fecha}::date, ${w.actorId}, ${w.at}, true,
          ${w.claimId}
        from ${orderShipments} where order_id = ${w.orderId}
        returning id, numero`,
  );
  const shipment = { id: Number(row!.id), numero: Number(row!.numero) };
  await tx
    .insert(orderShipmentLines)
    .values(w.lines.map((l) => ({ shipmentId: shipment.id, orderLineId: l.id, cantidad: l.cantidad })));
  return shipment;
}

/**
 * Takes a replacement's units off its products' known stock (`existencia`, never below 0; an unknown one stays
 * unknown). Nothing was reserved for them. Products locked in id order, as every stock write locks them.
 */
export async function consumeReplacementStock(tx: Tx, lines: ClaimUnits): Promise<void> {
  if (lines.length === 0) return;
  const byProduct = await rowsOf<{ product_id: number; n: number }>(
    tx,
    sql`with v(line_id, n) as (values ${unitsValues(lines)})
        select l.product_id, sum(v.n)::int as n from order_lines l join v on v.line_id = l.id
        group by l.product_id order by l.product_id`,
  );
  if (byProduct.length === 0) return;
  const ids = byProduct.map((p) => Number(p.product_id));
  await rowsOf(
    tx,
    sql`select id from products where id = any(${sql.param(ids)}::int4[]) order by id for update`,
  );
  const values = sql.join(
    byProduct.map((p) => sql`(${Number(p.product_id)}::int, ${Number(p.n)}::int)`),
    sql`, `,
  );
  await tx.execute(sql`
    update products set existencia = greatest(products.existencia - v.n, 0)
    from (values ${values}) as v(product_id, n)
    where products.id = v.product_id and products.existencia is not null`);
}

/** A credit given back in the current month (decision 0127): one row per buyer's category, or the área's. */
export interface CreditAdjustment {
  userId: number | null;
  idArea: number | null;
  idCategoria: number;
  importe: number;
}

/** Writes a credit's budget adjustments (tipo `credito`) for business month `mes`. */
export async function insertCreditAdjustments(
  tx: Tx,
  w: {
    idCliente: number;
    mes: string;
    claimId: number;
    createdBy: number;
    rows: readonly CreditAdjustment[];
  },
): Promise<void> {
  const rows = w.rows.filter((r) => r.importe > 0);
  if (rows.length === 0) return;
  await tx.insert(budgetAdjustments).values(
    rows.map((r) => ({
      idCliente: w.idCliente,
      mes: w.mes,
      userId: r.userId,
      idArea: r.idArea,
      idCategoria: r.idCategoria,
      importe: r.importe,
      tipo: 'credito',
      idReclamo: w.claimId,
      createdBy: w.createdBy,
    })),
  );
}
