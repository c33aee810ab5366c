/**
 * Orders' shipments (decision 0125), read where every screen and the integrations' serializer need them: the
 * order's detail (modules/orders/order.repository.ts) and the v1 order (modules/integration/v1-order.ts).
 */
import type { OrderShipmentDto } from '@portal/shared/schemas/orders';
import { asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';
import { receiptsOf } from './order-claims.ts';
import { isTransaction } from './prepared.ts';
import {
  clientShipmentsToReceive,
  orderReceipts,
  orderShipmentLines,
  orderShipments,
  orders,
} from './schema/index.ts';

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

/** A shipment whose kept facts disagree with its order and its receipt. */
type ShipmentDrift = {
  id: number;
  recibido: boolean;
  recibida: boolean;
  id_cliente: number;
  del_pedido: number;
  id_direccion: number | null;
  enviado_a: number | null;
};

/**
 * The shipments whose kept facts (decision 0139) disagree with what they copy: `recibido` with whether a
 * receipt exists, `id_cliente` and `id_direccion` with the order's client and delivery copy (empty when the
 * triggers of migration 0065 kept them): checked by the tests after receipts and deletions, like the running
 * totals' recounts.
 */
export async function shipmentFlagDrift(db: Db | Tx): Promise<ShipmentDrift[]> {
  const result = await db.execute(sql`
    select s.id, s.recibido, r.shipment_id is not null as recibida, s.id_cliente, o.id_cliente as del_pedido,
      s.id_direccion, (o.entrega ->> 'id_direccion')::int as enviado_a
    from ${orderShipments} s
    join ${orders} o on o.id = s.order_id
    left join ${orderReceipts} r on r.shipment_id = s.id
    where s.recibido is distinct from (r.shipment_id is not null) or s.id_cliente is distinct from o.id_cliente
      or s.id_direccion is distinct from (o.entrega ->> 'id_direccion')::int
    order by s.id`);
  return (result as unknown as { rows: ShipmentDrift[] }).rows;
}

/**
 * The clients' addresses whose kept count of shipments to receive (the sum of their rows in
 * `client_shipments_to_receive`, decision 0149) disagrees with the shipments: empty when the triggers of
 * migration 0072 kept it. Checked by the tests after shipments, receipts and deletions, beside
 * `shipmentFlagDrift`.
 */
export async function waitingShipmentCountDrift(db: Db | Tx): Promise<unknown[]> {
  const k = clientShipmentsToReceive;
  const result = await db.execute(sql`
    with counted as (
      select ${orderShipments.idCliente} as id_cliente,
        coalesce(${orderShipments.idDireccion}, 0) as id_direccion, count(*)::int as envios
      from ${orderShipments} where not ${orderShipments.recibido} group by 1, 2
    )
    , kept as (
      select ${k.idCliente} as id_cliente, ${k.idDireccion} as id_direccion, sum(${k.envios})::int as envios
      from ${k} group by 1, 2 having sum(${k.envios}) <> 0
    )
    select coalesce(k.id_cliente, c.id_cliente) as id_cliente,
      coalesce(k.id_direccion, c.id_direccion) as id_direccion, k.envios as guardados, c.envios
    from kept k
    full join counted c on c.id_cliente = k.id_cliente and c.id_direccion = k.id_direccion
    where k.envios is distinct from c.envios
    order by 1, 2`);
  return (result as unknown as { rows: unknown[] }).rows;
}
