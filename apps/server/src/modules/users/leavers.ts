/**
 * What follows when a person leaves the client (a SCIM deactivation, decision 0121; the HR list sync,
 * decision 0122): their sessions end at once and each of their orders still waiting for approval
 * (pendiente or espera) is withdrawn through the order lifecycle seam with the reason 'Usuario dado de
 * baja'. The caller has locked the account's row in its transaction, so a second deactivation waits and
 * then finds it inactive: nothing is withdrawn twice (the seam's conditional write refuses a race anyway).
 */
import { type OrderStatus, orderNumber } from '@portal/shared/domain/order-workflow';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { orders } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { MSG } from '../../messages.ts';
import { lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';

export interface LeaverOrigin {
  /** How the log names the cause, after "usuario dado de baja": '(SCIM)', '(lista de personal)'. */
  how: string;
  /** Added to each withdrawn order's log entry (`origen` and what identifies the caller). */
  metadata: Record<string, unknown>;
}

/** Ends the leaver's sessions and withdraws its waiting orders; returns the withdrawn orders' ids. */
export async function withdrawLeaver(
  tx: Tx,
  deps: Deps,
  userId: number,
  origin: LeaverOrigin,
): Promise<number[]> {
  await deps.sessions.endSessionsOfUsers([userId], tx);
  const pending = await tx
    .select({
      id: orders.id,
      status: orders.status,
      total: orders.total,
      transactionDate: orders.transactionDate,
      idCliente: orders.idCliente,
    })
    .from(orders)
    .where(and(eq(orders.idUser, userId), inArray(orders.status, ['pendiente', 'espera'])))
    .orderBy(asc(orders.id))
    .for('update');
  for (const order of pending) {
    await orderChanged(tx, lifecycleDeps(deps), {
      kind: 'cancelado',
      tipo: 'retirado',
      order: { ...order, idUser: userId },
      from: order.status as OrderStatus,
      reason: MSG.motivoBajaScim,
      // Withdrawn because the account was closed, not by the buyer's hand: the timeline says so.
      changes: { baja: true },
      actorId: userId,
      onBehalfOfId: null,
      log: {
        eventType: 'pedido_retirado',
        description: `Pedido #${orderNumber(order.id)} retirado: usuario dado de baja ${origin.how}`,
        metadata: { de: order.status, total: order.total, ...origin.metadata },
      },
    });
  }
  return pending.map((o) => o.id);
}
