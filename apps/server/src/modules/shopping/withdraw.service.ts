import { orderNumber } from '@portal/shared/domain/order-workflow';
import type { WithdrawResponse } from '@portal/shared/schemas/shopping';
import { and, eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { orders } from '../../db/schema/index.ts';
import { requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';
import { orderDetail } from '../orders/order.repository.ts';
import { buyerOf, shopperSession } from './cart.service.ts';

/**
 * POST /api/historial/{id}/retirar: the buyer withdraws their own `pendiente` order. Like every transition
 * it locks the order and changes the status only if it is still `pendiente`, so of a withdrawal and an
 * authorizer's approval or cancellation one wins and the other gets 409 with nothing changed. The order
 * becomes `cancelado` with the reason 'Retirado por el comprador' (an order event and a log entry) and
 * stops counting against the budget and the purchase limit at once (docs/domain.md "Order workflow").
 */
export async function userWithdrawOrder(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<WithdrawResponse> {
  buyerOf(auth);
  const reason = MSG.motivoRetiro;
  await deps.db.transaction(async (tx) => {
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
    // Only a pending order is withdrawn; the seam's write is conditional on it too (409 to a race's loser).
    if (order.status !== 'pendiente') throw conflict('ORDER_ALREADY_PROCESSED', MSG.pedidoYaProcesado);
    await orderChanged(tx, lifecycleDeps(deps), {
      kind: 'cancelado',
      tipo: 'retirado',
      order: { ...order, idUser: auth.user.id },
      from: 'pendiente',
      reason,
      actorId: auth.user.id,
      onBehalfOfId: null,
      log: {
        eventType: 'pedido_retirado',
        description: `Pedido #${orderNumber(id)} retirado por el comprador`,
        metadata: { de: 'pendiente', total: order.total, ...requestMeta(request) },
      },
    });
  });
  const [pedido, view] = await Promise.all([
    orderDetail(deps.db, id, { idUser: auth.user.id }),
    shopperSession(deps, auth),
  ]);
  return {
    status: 'ok',
    msg: MSG.pedidoRetirado,
    pedido,
    presupuesto: view.presupuesto,
    categorias: view.categorias,
  };
}
