/**
 * Orders' shipments (decision 0125), read where every screen and the integrations' serializer need them: the
 * order's detail (modules/orders/order.repository.ts) and the v1 order (modules/integration/v1-order.ts).
 */
import type { OrderShipmentDto } from '@portal/shared/schemas/orders';
import { asc, eq, inArray } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';
import { orderShipmentLines, orderShipments } from './schema/index.ts';

/**
 * Orders' shipments in number order, each with its units per line (decision 0125), by order id: every screen
 * and the v1 serializer read them here.
 */
export async function shipmentsOf(
  db: Db | Tx,
  ids: readonly number[],
): Promise<Map<number, OrderShipmentDto[]>> {
  const out = new Map<number, OrderShipmentDto[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({
      orderId: orderShipments.orderId,
      id: orderShipments.id,
      numero: orderShipments.numero,
      guia: orderShipments.guia,
      paqueteria: orderShipments.paqueteria,
      fecha: orderShipments.fecha,
      idLinea: orderShipmentLines.orderLineId,
      cantidad: orderShipmentLines.cantidad,
    })
    .from(orderShipments)
    .innerJoin(orderShipmentLines, eq(orderShipmentLines.shipmentId, orderShipments.id))
    .where(inArray(orderShipments.orderId, [...ids]))
    .orderBy(asc(orderShipments.orderId), asc(orderShipments.numero), asc(orderShipmentLines.orderLineId));
  for (const r of rows) {
    const list = out.get(r.orderId) ?? [];
    let s = list.at(-1);
    if (s?.id !== r.id) {
      s = { id: r.id, numero: r.numero, guia: r.guia, paqueteria: r.paqueteria, fecha: r.fecha, lineas: [] };
      list.push(s);
    }
    s.lineas.push({ id_linea: r.idLinea, cantidad: r.cantidad });
    out.set(r.orderId, list);
  }
  return out;
}
