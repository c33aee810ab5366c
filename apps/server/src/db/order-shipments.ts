/**
 * Orders' shipments (decision 0125), read where every screen and the integrations' serializer need them: the
 * order's detail (modules/orders/order.repository.ts) and the v1 order (modules/integration/v1-order.ts).
 */
import type { OrderShipmentDto } from '@portal/shared/schemas/orders';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';
import { receiptsOf } from './order-claims.ts';
import { isTransaction } from './prepared.ts';
import { orderShipmentLines, orderShipments } from './schema/index.ts';

/** A shipment as every reader gets it: always with whether it is a replacement and its receipt. */
export type ShipmentRead = OrderShipmentDto & Required<Pick<OrderShipmentDto, 'reposicion' | 'recepcion'>>;

/**
 * Orders' shipments in number order, each with its units per line (decision 0125), whether it replaces a
 * claim's units and its receipt (decision 0127), by order id: every screen and the v1 serializer read them
 * here (two statements, whatever the number of orders, and one more for the receipts' photos).
 */
export async function shipmentsOf(db: Db | Tx, ids: readonly number[]): Promise<Map<number, ShipmentRead[]>> {
  const out = new Map<number, ShipmentRead[]>();
  if (ids.length === 0) return out;
  const shipments = db
    .select({
      orderId: orderShipments.orderId,
      id: orderShipments.id,
      numero: orderShipments.numero,
      guia: orderShipments.guia,
      paqueteria: orderShipments.paqueteria,
      fecha: orderShipments.fecha,
      reposicion: orderShipments.reposicion,
      idLinea: orderShipmentLines.orderLineId,
      cantidad: orderShipmentLines.cantidad,
    })
    .from(orderShipments)
    .innerJoin(orderShipmentLines, eq(orderShipmentLines.shipmentId, orderShipments.id))
    .where(inArray(orderShipments.orderId, [...ids]))
    .orderBy(asc(orderShipments.orderId), asc(orderShipments.numero), asc(orderShipmentLines.orderLineId));
  // At once on the pool; one after the other on a transaction's one connection (`allOn`).
  const [rows, receipts] = isTransaction(db)
    ? [await shipments, await receiptsOf(db, ids)]
    : await Promise.all([shipments, receiptsOf(db, ids)]);
  for (const r of rows) {
    const list = out.get(r.orderId) ?? [];
    let s = list.at(-1);
    if (s?.id !== r.id) {
      s = {
        id: r.id,
        numero: r.numero,
        guia: r.guia,
        paqueteria: r.paqueteria,
        fecha: r.fecha,
        lineas: [],
        reposicion: r.reposicion,
        recepcion: receipts.get(r.id) ?? null,
      };
      list.push(s);
    }
    s.lineas.push({ id_linea: r.idLinea, cantidad: r.cantidad });
    out.set(r.orderId, list);
  }
  return out;
}
