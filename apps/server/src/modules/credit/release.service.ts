import { orderNumber } from '@portal/shared/domain/order-workflow';
import type { OkMessage } from '@portal/shared/schemas/common';
import type { FastifyRequest } from 'fastify';
import { requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { conflict } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';
import { lockOrder } from '../orders/order.repository.ts';

/**
 * POST /api/surtido/{id}/liberar (rol 4): releases an order held for credit (decision 0134), through the
 * order's seam (event `liberado_credito`, log entry). Under the order's lock; of two releases at once the
 * second finds it released and gets 409.
 */
export async function releaseCreditHold(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<OkMessage> {
  await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, id, {});
    if (!order.retenidoCredito) throw conflict('CREDIT_NOT_HELD', MSG.pedidoNoRetenido);
    await orderChanged(tx, lifecycleDeps(deps), {
      kind: 'liberado_credito',
      order,
      motivo: order.retenidoCredito,
      actorId: auth.user.id,
      log: {
        eventType: 'pedido_liberado_credito',
        description: `Pedido #${orderNumber(order.id)} liberado de su retención por crédito`,
        metadata: { motivo: order.retenidoCredito, ...requestMeta(request) },
      },
    });
  });
  return { status: 'ok', msg: MSG.pedidoLiberado };
}
