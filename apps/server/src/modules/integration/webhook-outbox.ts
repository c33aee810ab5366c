import { randomUUID } from 'node:crypto';
import type { WebhookEventType } from '@portal/shared/domain/integration';
import { type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { executeNamed } from '../../db/prepared.ts';
import { webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { JobRunner } from '../../lib/jobs.ts';
import { v1Orders } from './v1-order.ts';

/** The pg-boss queue that delivers one event to one endpoint (webhook-delivery.ts). */
export const WEBHOOK_QUEUE = 'webhooks-entrega';

export interface WebhookDeliveryJob {
  /** webhook_deliveries.id */
  id: number;
}

/**
 * The ids of the active endpoints that want events of `type` for client `clientId` (the client's own and
 * those of every client), as one SQL value (an integer array, empty when none): the purchase reads it within
 * its own statement.
 */
export function wantingEndpoints(clientId: number | Placeholder, type: WebhookEventType): SQL {
  const w = webhookEndpoints;
  return sql`(select coalesce(array_agg(${w.id} order by ${w.id}), '{}') from ${w}
    where ${w.activo} and (${w.idCliente} is null or ${w.idCliente} = ${clientId}::integer)
      and ${type}::text = any(${w.eventos}))`;
}

/**
 * Records an order's event for its webhooks, inside the caller's transaction (the outbox, decision 0060):
 * when an active endpoint of the order's client (or of every client) subscribes to `type`, one event row
 * with the body to send (the order as it is in this transaction, through the v1 serializer), one delivery
 * row per such endpoint and its pg-boss job. They exist if and only if the caller's change commits. Without
 * a subscribed endpoint it writes nothing (one indexed read). Answers the event id, or null.
 *
 * The order's lifecycle seam calls it (`modules/orders/lifecycle.ts`, decision 0107): the purchase
 * (`pedido.creado`, and `pedido.aprobado` when a rule or a client without approvers approves at once), an
 * approval that reaches `aprobado`, a cancellation or a buyer's withdrawal (`pedido.cancelado`), each
 * fulfilment move (`pedido.surtido`), each shipment (`pedido.envio`, decision 0125), each line's
 * cancellation as unavailable (`pedido.linea_cancelada`), each claim opened or decided (`reclamo.*`,
 * decision 0127), each CFDI registered or payment applied (`factura.registrada`, `pago.aplicado`,
 * decision 0131), and each credit hold at an approval or release by the operator (`pedido.retenido_credito`,
 * `pedido.liberado_credito`, decision 0136).
 */
export async function recordWebhookEvent(
  tx: Tx,
  /** The job queue that delivers it, and the clock that dates it (the app has both). */
  deps: { jobs: JobRunner; clock: Clock },
  /**
   * `envio`: the shipment a `pedido.envio` event is about; `reclamo`: the claim a `reclamo.*` event is about
   * (the body carries it besides the order); `factura`: the CFDI a `factura.registrada` or `pago.aplicado`
   * event is about, as the v1 API shows it (decision 0131).
   */
  event: {
    clientId: number;
    type: WebhookEventType;
    orderId: number;
    envio?: number;
    reclamo?: number;
    factura?: object;
  },
  /** The endpoints that want the event, when the caller already read them (`wantingEndpoints`). */
  wanting?: readonly number[],
): Promise<string | null> {
  // A named prepared statement: every order change asks it, and most clients have no endpoint.
  const endpoints =
    wanting ??
    (
      await executeNamed<{ ids: number[] }>(
        tx,
        'portal_webhook_endpoints',
        sql`select ${wantingEndpoints(event.clientId, event.type)} as ids`,
      )
    )[0]!.ids;
  if (endpoints.length === 0) return null;
  const [pedido] = await v1Orders(tx, [event.orderId]);
  if (!pedido) return null;
  const id = randomUUID();
  const fecha = deps.clock.now();
  const envio = event.envio === undefined ? undefined : pedido.envios.find((e) => e.id === event.envio);
  const reclamo =
    event.reclamo === undefined ? undefined : pedido.reclamos.find((r) => r.id === event.reclamo);
  const cuerpo = JSON.stringify({
    id,
    tipo: event.type,
    fecha: fecha.toISOString(),
    pedido,
    ...(envio ? { envio } : {}),
    ...(reclamo ? { reclamo } : {}),
    ...(event.factura ? { factura: event.factura } : {}),
  });
  await tx.insert(webhookEvents).values({
    id,
    tipo: event.type,
    orderId: event.orderId,
    idCliente: event.clientId,
    cuerpo,
    createdAt: fecha,
  });
  const deliveries = await tx
    .insert(webhookDeliveries)
    .values(endpoints.map((endpointId) => ({ eventId: id, endpointId, reintentosDesde: fecha })))
    .returning({ id: webhookDeliveries.id });
  for (const d of deliveries) await deps.jobs.send<WebhookDeliveryJob>(WEBHOOK_QUEUE, { id: d.id }, tx);
  return id;
}
