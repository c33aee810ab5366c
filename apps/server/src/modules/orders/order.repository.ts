/**
 * The order's reads (the order aggregate's repository): one order within who may see it, and its detail as
 * every screen shows it (the buyer's, the approver's, the administrator's, the purchase order). Orders with
 * their buyer and their client are read from `db/orders-with-parties.ts`, which the integrations reach too.
 */
import { deliveryAddress, deliveryContact } from '@portal/shared/domain/delivery';
import type { FulfilmentState } from '@portal/shared/domain/fulfilment';
import { centavosToPesos } from '@portal/shared/domain/money';
import type { ClaimDto } from '@portal/shared/schemas/claims';
import type { OrderDetailDto, OrderStatus } from '@portal/shared/schemas/orders';
import type { PendingPriceDto } from '@portal/shared/schemas/pending-price';
import { and, asc, eq, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { claimsOf } from '../../db/order-claims.ts';
import { type ShipmentRead, shipmentsOf } from '../../db/order-shipments.ts';
import { pendingPricesOf } from '../../db/pending-prices.ts';
import { receiverReach } from '../../db/receivers.ts';
import { orderEvents, orderLines, orders, users } from '../../db/schema/index.ts';
import { notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import { commentsOf } from './comments.service.ts';

/** Who may see an order: its buyer, or its client's people. */
export interface OrderScope {
  idUser?: number;
  idCliente?: number;
  /** A receiver's id (decision 0130): only orders sent to its addresses (with `idCliente`, its client). */
  receiver?: number;
}

/** The conditions that keep a read of `orders` within the scope (beside the order's own id). */
export function scopeConditions(scope: OrderScope): SQL[] {
  const conditions: SQL[] = [];
  if (scope.idUser !== undefined) conditions.push(eq(orders.idUser, scope.idUser));
  if (scope.idCliente !== undefined) conditions.push(eq(orders.idCliente, scope.idCliente));
  if (scope.receiver !== undefined) conditions.push(receiverReach(scope.receiver));
  return conditions;
}

/** The order row within its scope; out of scope answers exactly like a missing order (404). */
export async function orderOf(db: Db, id: number, scope: OrderScope) {
  const conditions = [eq(orders.id, id), ...scopeConditions(scope)];
  const [order] = await db
    .select()
    .from(orders)
    .where(and(...conditions))
    .limit(1);
  if (!order) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  return order;
}

/**
 * The order within its scope, locked to the end of the caller's transaction: the first lock of every change
 * to an approved order (shipments, receipts, claims, decisions). Out of scope answers like a missing order.
 */
export async function lockOrder(tx: Tx, id: number, scope: OrderScope) {
  const conditions = [eq(orders.id, id), ...scopeConditions(scope)];
  const [order] = await tx
    .select({
      id: orders.id,
      status: orders.status,
      surtido: orders.surtidoEstatus,
      idUser: orders.idUser,
      idCliente: orders.idCliente,
      total: orders.total,
      transactionDate: orders.transactionDate,
      idArea: orders.idArea,
      /** Why it is held for credit (decision 0134), or null. */
      retenidoCredito: orders.retenidoCredito,
    })
    .from(orders)
    .where(and(...conditions))
    .for('update');
  if (!order) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  return order;
}

/** The person a delegate acted for (order_events.on_behalf_of_id). */
const delegator = alias(users, 'delegator');

/** One order with its lines and its history of events; `scope` limits who may see it. */
export async function orderDetail(db: Db, id: number, scope: OrderScope): Promise<OrderDetailDto> {
  const order = await orderOf(db, id, scope);
  // Shipments, receipts and claims exist only once an order is approved (decisions 0125 and 0127).
  const approved = order.surtidoEstatus !== null;
  const [lines, events, thread, envios, reclamos] = await Promise.all([
    db.select().from(orderLines).where(eq(orderLines.orderId, id)).orderBy(asc(orderLines.id)),
    db
      .select({
        id: orderEvents.id,
        tipo: orderEvents.tipo,
        fromStatus: orderEvents.fromStatus,
        toStatus: orderEvents.toStatus,
        changes: orderEvents.changes,
        reason: orderEvents.reason,
        createdAt: orderEvents.createdAt,
        actor: users.nombre,
        enNombreDe: delegator.nombre,
      })
      .from(orderEvents)
      .leftJoin(users, eq(users.id, orderEvents.actorId))
      .leftJoin(delegator, eq(delegator.id, orderEvents.onBehalfOfId))
      .where(eq(orderEvents.orderId, id))
      .orderBy(asc(orderEvents.id)),
    commentsOf(db, id),
    approved ? shipmentsOf(db, [id]) : new Map<number, ShipmentRead[]>(),
    approved ? claimsOf(db, [id]) : new Map<number, ClaimDto[]>(),
  ]);
  // An order waiting for approval shows its products' pending price changes (decision 0132); it keeps its own.
  const waiting = order.status === 'pendiente' || order.status === 'espera';
  const pending = waiting
    ? await pendingPricesOf(
        db,
        lines.map((l) => l.productId),
      )
    : new Map<number, PendingPriceDto>();
  return {
    id: order.id,
    status: order.status as OrderStatus,
    transaction_date: order.transactionDate.toISOString(),
    subtotal: centavosToPesos(order.subtotal),
    iva: centavosToPesos(order.iva),
    total: centavosToPesos(order.total),
    motivo_cancelacion: order.cancelReason,
    nota: order.nota,
    lineas: lines.map((l) => ({
      id: l.id,
      id_producto: l.productId,
      clave_interna: l.claveInterna,
      clave_cliente: l.claveCliente,
      nombre: l.nombre,
      unidad_de_medida: l.unidadDeMedida,
      categoria: l.categoria,
      costo: centavosToPesos(l.precio),
      impuesto: l.impuesto,
      cantidad: l.cantidad,
      importe: centavosToPesos(l.precio * l.cantidad),
      enviado: l.enviado,
      cancelado: l.cancelado,
      motivo_cancelacion: l.motivoCancelacion,
      sobre_pedido: l.sobrePedido,
      fecha_promesa: l.fechaPromesa,
      acreditado: l.acreditado,
      reclamado: l.reclamado,
      precio_programado: pending.get(l.productId) ?? null,
    })),
    eventos: events.map((e) => ({
      id: e.id,
      tipo: e.tipo,
      de: e.fromStatus,
      a: e.toStatus,
      actor: e.actor,
      en_nombre_de: e.enNombreDe,
      fecha: e.createdAt.toISOString(),
      motivo: e.reason,
      cambios: e.changes ?? null,
    })),
    comentarios: thread.comentarios,
    comentarios_total: order.comentarios,
    surtido: order.surtidoEstatus as FulfilmentState | null,
    guia: order.guia,
    paqueteria: order.paqueteria,
    nota_recepcion: order.notaRecepcion,
    retenido_credito: order.retenidoCredito,
    envios: envios.get(id) ?? [],
    reclamos: reclamos.get(id) ?? [],
    entrega: { direccion: deliveryAddress(order.entrega), contacto: deliveryContact(order.entrega) },
  };
}
