/**
 * Shipments, lines cancelled as unavailable and promised dates (issue 41 items 2 and 3, decision 0125): the
 * operator's and the integrations' writes. Each locks the order, decides from what it read (approved, units
 * still to ship) and hands the change to the order's lifecycle seam, which writes it conditionally (the loser
 * of a race gets 409) with its totals, reservations, event, log entry, webhooks and e-mails.
 */
import {
  FULFILMENT_LABELS,
  type FulfilmentState,
  knownCarrier,
  shippable,
} from '@portal/shared/domain/fulfilment';
import { centavosToPesos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { businessDate } from '@portal/shared/domain/time';
import type {
  LineCancelBody,
  OrderLinesChangeResponse,
  PromiseBody,
  ShipmentBody,
  ShipmentResponse,
} from '@portal/shared/schemas/fulfilment';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.ts';
import { orderLines, orders } from '../../db/schema/index.ts';
import { requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotency.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';
import { lockOrder } from '../orders/order.repository.ts';

/** Who writes: the operator (rol 4) or an integration token (its client's orders only, when it has one). */
interface Writer {
  actorId: number | null;
  idCliente?: number;
  meta: Record<string, unknown>;
}

/** The approved order, locked, within the writer's reach (another client's answers 404 like a missing one). */
async function lockApproved(tx: Tx, id: number, who: Writer) {
  const order = await lockOrder(tx, id, who.idCliente === undefined ? {} : { idCliente: who.idCliente });
  if (order.status !== 'aprobado' || !order.surtido)
    throw conflict('ORDER_NOT_APPROVED', MSG.surtidoNoAprobado);
  const from = order.surtido as FulfilmentState;
  if (!shippable(from)) throw conflict('NOTHING_TO_SHIP', MSG.envioSinPendiente(FULFILMENT_LABELS[from]));
  return { order, from };
}

/** A shipment in the caller's transaction (the operator's route and the v1 one). */
async function ship(
  tx: Tx,
  deps: Deps,
  id: number,
  body: ShipmentBody,
  who: Writer,
): Promise<ShipmentResponse> {
  const { order, from } = await lockApproved(tx, id, who);
  const today = businessDate(deps.clock.now(), deps.config.BUSINESS_TZ);
  const fecha = body.fecha ?? today;
  if (fecha > today)
    throw badRequest('SHIPMENT_FUTURE', MSG.envioFechaFutura, { fecha: MSG.envioFechaFutura });
  const paqueteria = body.paqueteria ? (knownCarrier(body.paqueteria)?.nombre ?? body.paqueteria) : null;
  const written = await orderChanged(tx, lifecycleDeps(deps), {
    kind: 'envio',
    order,
    from,
    lineas: body.lineas,
    guia: body.guia ?? null,
    paqueteria,
    fecha,
    actorId: who.actorId,
    log: {
      eventType: 'pedido_envio',
      description: `Pedido #${orderNumber(order.id)}: envío registrado${who.actorId === null ? ' (integración)' : ''}`,
      metadata: { lineas: body.lineas, guia: body.guia ?? null, paqueteria, fecha, ...who.meta },
    },
  });
  return {
    status: 'ok',
    msg: MSG.envioRegistrado(written.numero, FULFILMENT_LABELS[written.surtido]),
    envio: { id: written.id, numero: written.numero },
    pedido: { id: order.id, surtido: written.surtido },
  };
}

/** POST /api/surtido/{id}/envios: the operator ships some units of some lines. */
export async function operatorShipment(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: ShipmentBody,
): Promise<ShipmentResponse> {
  const result = await deps.db.transaction((tx) =>
    ship(tx, deps, id, body, { actorId: auth.user.id, meta: requestMeta(request) }),
  );
  void deps.mailer.flush();
  return result;
}

/**
 * POST /api/v1/pedidos/{id}/envios: a shipment by an integration token (surtido:escribir), with the operator's
 * rules, at most once per `Idempotency-Key`.
 */
export async function integrationShipment(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: { tokenId: number; idCliente: number | null },
  id: number,
  body: ShipmentBody,
): Promise<ShipmentResponse> {
  const result = await idempotentWrite(deps.db, request, reply, caller.tokenId, (tx) =>
    ship(tx, deps, id, body, {
      actorId: null,
      ...(caller.idCliente !== null ? { idCliente: caller.idCliente } : {}),
      meta: { ...requestMeta(request), id_token: caller.tokenId },
    }),
  );
  void deps.mailer.flush();
  return result;
}

/** The order's total and fulfilment as a change left them. */
async function orderNow(tx: Tx, id: number) {
  const [now] = await tx
    .select({ surtido: orders.surtidoEstatus, total: orders.total })
    .from(orders)
    .where(eq(orders.id, id));
  return {
    id,
    surtido: (now?.surtido ?? null) as FulfilmentState | null,
    total: centavosToPesos(now?.total ?? 0),
  };
}

/** POST /api/surtido/{id}/lineas/{linea}/cancelar: units of a line cancelled as unavailable (all left by default). */
export async function operatorCancelLine(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  lineId: number,
  body: LineCancelBody,
): Promise<OrderLinesChangeResponse> {
  const result = await deps.db.transaction(async (tx) => {
    const { order, from } = await lockApproved(tx, id, { actorId: auth.user.id, meta: {} });
    const [line] = await tx
      .select({
        id: orderLines.id,
        nombre: orderLines.nombre,
        left: sql<number>`${orderLines.cantidad} - ${orderLines.enviado}`,
      })
      .from(orderLines)
      .where(and(eq(orderLines.id, lineId), eq(orderLines.orderId, id)));
    if (!line) throw notFound(MSG.lineaNoEncontrada, 'LINE_NOT_FOUND');
    const left = Number(line.left);
    const cantidad = body.cantidad ?? left;
    if (left === 0 || cantidad > left) throw conflict('LINE_CANCEL_EXCEEDS', MSG.lineaCancelarExcede);
    await orderChanged(tx, lifecycleDeps(deps), {
      kind: 'linea_cancelada',
      order,
      from,
      linea: { id: line.id, cantidad, nombre: line.nombre },
      motivo: body.motivo,
      actorId: auth.user.id,
      log: {
        eventType: 'pedido_linea_cancelada',
        description: `Pedido #${orderNumber(order.id)}: ${cantidad} de «${line.nombre}» cancelados por falta de existencia`,
        metadata: { id_linea: line.id, cantidad, motivo: body.motivo, ...requestMeta(request) },
      },
    });
    return { msg: MSG.lineaCancelada(cantidad, line.nombre), pedido: await orderNow(tx, id) };
  });
  void deps.mailer.flush();
  return { status: 'ok', ...result };
}

/** POST /api/surtido/{id}/promesa: the promised date of given lines, or of every line still to ship. */
export async function operatorPromise(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: PromiseBody,
): Promise<OrderLinesChangeResponse> {
  const today = businessDate(deps.clock.now(), deps.config.BUSINESS_TZ);
  if (body.fecha < today) throw badRequest('PROMISE_PAST', MSG.promesaPasada, { fecha: MSG.promesaPasada });
  return deps.db.transaction(async (tx) => {
    const { order } = await lockApproved(tx, id, { actorId: auth.user.id, meta: {} });
    const open = await tx
      .select({ id: orderLines.id })
      .from(orderLines)
      .where(and(eq(orderLines.orderId, id), sql`${orderLines.cantidad} > ${orderLines.enviado}`));
    const lineas = body.lineas ?? open.map((l) => l.id);
    await orderChanged(tx, lifecycleDeps(deps), {
      kind: 'promesa',
      order,
      lineas,
      fecha: body.fecha,
      actorId: auth.user.id,
      log: {
        eventType: 'pedido_promesa',
        description: `Pedido #${orderNumber(order.id)}: fecha prometida ${body.fecha}`,
        metadata: { lineas, fecha: body.fecha, ...requestMeta(request) },
      },
    });
    return { status: 'ok' as const, msg: MSG.promesaGuardada, pedido: await orderNow(tx, id) };
  });
}
