/**
 * The buyer's receipt of one shipment (issue 41 item 4, decision 0127, docs/domain.md "Receipts and claims"):
 * line by line, the units received in good condition and why fewer; any difference opens a claim in the same
 * transaction, and the last shipment received moves an `enviado` order to `entregado`.
 */
import { CLAIM_MSG, type ReceiptReason } from '@portal/shared/domain/claims';
import type { FulfilmentState } from '@portal/shared/domain/fulfilment';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import type { ShipmentReceiptBody, ShipmentReceiptResponse } from '@portal/shared/schemas/claims';
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.ts';
import { orderLines, orderShipmentLines, orderShipments } from '../../db/schema/index.ts';
import { requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { type ClaimLine, lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';
import { lockOrder, type OrderScope } from '../orders/order.repository.ts';

/** The fulfilment states in which an order has shipments to receive. */
const RECEIVABLE: ReadonlySet<string> = new Set<FulfilmentState>(['parcial', 'enviado', 'entregado']);

/** The shipment `numero` of the order, with its lines' units and names; 404 when the order has none such. */
async function shipmentOf(tx: Tx, orderId: number, numero: number) {
  const [shipment] = await tx
    .select({ id: orderShipments.id, numero: orderShipments.numero, reposicion: orderShipments.reposicion })
    .from(orderShipments)
    .where(and(eq(orderShipments.orderId, orderId), eq(orderShipments.numero, numero)));
  if (!shipment) throw notFound(MSG.remisionNoEncontrada, 'SHIPMENT_NOT_FOUND');
  const lines = await tx
    .select({
      id: orderShipmentLines.orderLineId,
      cantidad: orderShipmentLines.cantidad,
      nombre: orderLines.nombre,
    })
    .from(orderShipmentLines)
    .innerJoin(orderLines, eq(orderLines.id, orderShipmentLines.orderLineId))
    .where(eq(orderShipmentLines.shipmentId, shipment.id))
    .orderBy(asc(orderShipmentLines.orderLineId));
  return { ...shipment, lines };
}

/**
 * Each line of the shipment as received (a line the body does not list arrived in full) and the differences
 * the claim takes: a line not in the shipment, more units than it carries, or fewer without a reason: 400.
 */
function receivedLines(
  shipment: Awaited<ReturnType<typeof shipmentOf>>,
  body: ShipmentReceiptBody,
): { lineas: { id: number; recibido: number; motivo: ReceiptReason | null }[]; diferencias: ClaimLine[] } {
  const given = new Map(body.lineas.map((l) => [l.id, l]));
  const inShipment = new Set(shipment.lines.map((l) => l.id));
  if (body.lineas.some((l) => !inShipment.has(l.id)))
    throw badRequest('RECEIPT_LINE', MSG.recepcionLineaNoEnEnvio, { lineas: MSG.recepcionLineaNoEnEnvio });
  const lineas: { id: number; recibido: number; motivo: ReceiptReason | null }[] = [];
  const diferencias: ClaimLine[] = [];
  for (const line of shipment.lines) {
    const g = given.get(line.id);
    const recibido = g?.recibido ?? line.cantidad;
    if (recibido > line.cantidad) {
      const msg = MSG.recepcionExcede(line.cantidad, line.nombre);
      throw badRequest('RECEIPT_EXCEEDS', msg, { lineas: msg });
    }
    const short = line.cantidad - recibido;
    if (short > 0 && !g?.motivo) {
      const msg = MSG.recepcionMotivo(line.nombre);
      throw badRequest('RECEIPT_REASON', msg, { lineas: msg });
    }
    const motivo = short > 0 ? g!.motivo! : null;
    lineas.push({ id: line.id, recibido, motivo });
    if (motivo) diferencias.push({ id: line.id, cantidad: short, motivo, nombre: line.nombre });
  }
  return { lineas, diferencias };
}

/**
 * POST /api/historial/{id}/envios/{numero}/recepcion: the buyer receives one shipment of an own order; a
 * receiver (POST /api/recepcion/{id}/envios/{numero}/recepcion, decision 0130) one of an order within its
 * `scope` — the same rule, recorded as the receiver's.
 */
export async function receiveShipment(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  numero: number,
  body: ShipmentReceiptBody,
  scope: OrderScope = { idUser: auth.user.id },
): Promise<ShipmentReceiptResponse> {
  const written = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, id, scope);
    if (order.status !== 'aprobado' || !order.surtido || !RECEIVABLE.has(order.surtido))
      throw conflict('ORDER_NOT_SHIPPED', MSG.recepcionNoEnviado);
    const shipment = await shipmentOf(tx, id, numero);
    const { lineas, diferencias } = receivedLines(shipment, body);
    if (diferencias.length > 0 && !body.resolucion)
      throw badRequest('CLAIM_RESOLUTION', CLAIM_MSG.reclamoResolucion, {
        resolucion: CLAIM_MSG.reclamoResolucion,
      });
    return orderChanged(tx, lifecycleDeps(deps), {
      kind: 'recepcion',
      order,
      from: order.surtido as FulfilmentState,
      envio: { id: shipment.id, numero: shipment.numero, reposicion: shipment.reposicion },
      lineas,
      nota: body.nota ?? null,
      fotos: body.fotos ?? [],
      reclamo:
        diferencias.length > 0 && body.resolucion
          ? { lineas: diferencias, resolucion: body.resolucion }
          : null,
      actorId: auth.user.id,
      log: {
        eventType: 'pedido_recepcion',
        description: `Pedido #${orderNumber(order.id)}: envío ${shipment.numero} recibido${
          diferencias.length > 0 ? ' con diferencias' : ''
        }`,
        metadata: { lineas, ...requestMeta(request) },
      },
    });
  });
  void deps.mailer.flush();
  return {
    status: 'ok',
    msg: written.reclamo
      ? MSG.recepcionConReclamo(numero, written.reclamo.numero)
      : MSG.recepcionRegistrada(numero),
    recepcion: { id: written.id },
    reclamo: written.reclamo,
    pedido: { id, surtido: written.surtido },
  };
}
