import { orderNumber } from '@portal/shared/domain/order-workflow';
import type { WithdrawResponse } from '@portal/shared/schemas/shopping';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { moveOrderTotals } from '../../db/order-totals.ts';
import { orderEvents, orders } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { recordWebhookEvent } from '../integration/webhook-outbox.ts';
import { sendBudgetAlerts } from '../orders/budget-alerts.ts';
import { orderDetail } from '../orders/history.service.ts';
import { buyerOf, shopperSession } from './cart.service.ts';

/**
 * POST /api/historial/{id}/retirar: the buyer withdraws their own `pendiente` order. Like every transition
 * it locks the order and changes the status only if it is still `pendiente`, so of a withdrawal and an
 * authorizer's approval or cancellation one wins and the other gets 409 with nothing changed. The order
 * becomes `cancelado` with the reason 'Retirado por el comprador' (an order event and a log entry) and
 * stops counting against the budget and the purchase limit at once (docs/domain.md "Order workflow").
 */
export async function userWithdrawOrder(
  app: FastifyInstance,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<WithdrawResponse> {
  buyerOf(auth);
  const reason = MSG.motivoRetiro;
  await app.db.transaction(async (tx) => {
    const [order] = await tx
      .select({
        id: orders.id,
        status: orders.status,
        total: orders.total,
        transactionDate: orders.transactionDate,
        idCliente: orders.idCliente,
      })
      .from(orders)
      .where(and(eq(orders.id, id), eq(orders.idUser, auth.user.id)))
      .for('update');
    // Another user's order answers exactly like a missing one.
    if (!order) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
    // Out of the sales summary and the buyer's running month before it is cancelled (decisions 0055, 0072).
    if (order.status === 'pendiente') await moveOrderTotals(tx, id, -1);
    const updated =
      order.status === 'pendiente'
        ? await tx
            .update(orders)
            .set({ status: 'cancelado', cancelReason: reason, updatedAt: app.clock.now() })
            .where(and(eq(orders.id, id), eq(orders.status, 'pendiente')))
            .returning({ id: orders.id })
        : [];
    if (updated.length === 0) throw conflict('ORDER_ALREADY_PROCESSED', MSG.pedidoYaProcesado);
    await tx.insert(orderEvents).values({
      orderId: id,
      actorId: auth.user.id,
      tipo: 'retirado',
      fromStatus: 'pendiente',
      toStatus: 'cancelado',
      reason,
    });
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'pedido_retirado',
      description: `Pedido #${orderNumber(id)} retirado por el comprador`,
      metadata: { id_pedido: id, de: 'pendiente', total: order.total, ...requestMeta(request) },
    });
    // For the integrations a withdrawal is a cancellation (decision 0060): the order is `cancelado`.
    await recordWebhookEvent(tx, app, {
      clientId: order.idCliente,
      type: 'pedido.cancelado',
      orderId: id,
    });
    // A withdrawal only lowers the month; the check still runs (decision 0054) and never re-sends.
    await sendBudgetAlerts(
      tx,
      { publicUrl: app.config.PUBLIC_URL, tz: app.config.BUSINESS_TZ, now: app.clock.now() },
      auth.user.id,
      order.transactionDate,
    );
  });
  const [pedido, view] = await Promise.all([
    orderDetail(app.db, id, { idUser: auth.user.id }),
    shopperSession(app, auth),
  ]);
  return {
    status: 'ok',
    msg: MSG.pedidoRetirado,
    pedido,
    presupuesto: view.presupuesto,
    categorias: view.categorias,
  };
}
