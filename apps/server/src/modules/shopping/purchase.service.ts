import { statusAtPurchase } from '@portal/shared/domain/approval-rules';
import { canPlaceAnotherOrder } from '@portal/shared/domain/budget';
import { quantityProblem } from '@portal/shared/domain/cart';
import { FULFILMENT_START } from '@portal/shared/domain/fulfilment';
import { centavosToPesos, formatMXN, totalsOf } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate } from '@portal/shared/domain/time';
import type { OrderStatus, PurchaseResponse } from '@portal/shared/schemas/shopping';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { moveOrderTotals } from '../../db/order-totals.ts';
import { users } from '../../db/schema/index.ts';
import { requestMeta } from '../../lib/audit.ts';
import { conflict, unprocessable } from '../../lib/errors.ts';
import { outboxInsert } from '../../lib/mailer.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { recordWebhookEvent } from '../integration/webhook-outbox.ts';
import { sendBudgetAlerts } from '../orders/budget-alerts.ts';
import { userHistory } from '../orders/history.service.ts';
import { authorizerEmails, notifyBuyer } from '../orders/notifications.ts';
import { afterPurchase, budgetDto, type CartLine, categoriesDto, loadShopperReads } from './buyer-state.ts';
import { lockBuyer } from './cart.service.ts';
import { insertPurchase } from './purchase.repository.ts';

/** The order's `orden` must be exactly the server's cart (same products, same quantities). */
export function sameItems(
  orden: readonly { id: number; cantidad: number }[],
  cart: readonly CartLine[],
): boolean {
  if (orden.length !== cart.length) return false;
  const wanted = new Map(orden.map((o) => [o.id, o.cantidad]));
  if (wanted.size !== orden.length) return false;
  return cart.every((l) => wanted.get(l.id) === l.cantidad);
}

/**
 * POST /api/compra: one transaction that locks the buyer's row, re-checks every rule at current prices,
 * creates the order with snapshotted lines, empties the cart and commits. A second submission of the same
 * cart finds it empty (409), so a double click or a second tab never makes two orders.
 */
export async function userSubmitOrder(
  app: FastifyInstance,
  request: FastifyRequest,
  auth: AuthContext,
  orden: readonly { id: number; cantidad: number }[],
  nota?: string,
): Promise<PurchaseResponse> {
  const tz = app.config.BUSINESS_TZ;
  const created = await app.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    const { buyer, client } = locked;
    // The sidebar too: the answer is computed from this snapshot, not read again after the commit.
    const { snapshot, categories } = await loadShopperReads(tx, buyer, client, tz, {
      sidebar: true,
      kept: app.sessions.kept(auth.sessionId),
    });
    const cart = snapshot.cart;
    if (cart.length === 0) throw conflict('EMPTY_CART', MSG.carritoVacio);
    if (!sameItems(orden, cart)) throw conflict('CART_CHANGED', MSG.carritoCambio);
    for (const line of cart) {
      if (!line.asignado) throw unprocessable('NOT_ASSIGNED', `${line.nombre}: ${MSG.productoNoAsignado}`);
      if (!line.activo) throw unprocessable('INACTIVE_PRODUCT', `${line.nombre}: ${MSG.productoInactivo}`);
      const q = quantityProblem(line.cantidad, line.cantidadLimite);
      if (q) throw unprocessable(q.code, `${line.nombre}: ${q.msg}`);
    }
    if (!canPlaceAnotherOrder(buyer.limiteDeCompras, snapshot.comprasDelMes)) {
      throw unprocessable('PURCHASE_LIMIT', MSG.limiteDeCompras);
    }
    // The state already counts the cart at current prices: what is left must not go below zero.
    if (snapshot.modo === 'categoria') {
      for (const idCategoria of new Set(cart.map((l) => l.idCategoria))) {
        const f = snapshot.state.categorias.get(idCategoria);
        if (!f || f.restante < 0) {
          const nombre = cart.find((l) => l.idCategoria === idCategoria)?.categoria ?? '';
          const disponible = Math.max(0, (f?.restante ?? 0) + (f?.carrito ?? 0));
          throw unprocessable(
            'CATEGORY_BUDGET',
            MSG.presupuestoCategoria(nombre, formatMXN(centavosToPesos(disponible), false)),
          );
        }
      }
    } else if (snapshot.state.restante < 0) {
      throw unprocessable('BUDGET', MSG.presupuestoInsuficienteCompra);
    }

    const totals = totalsOf(cart);
    // The client's approval rules by amount, read with the buyer's lock (an edit of the client applies at once).
    const decided = statusAtPurchase(
      client.cantidadAutorizadores,
      totals.total,
      locked.rules ?? { autoHasta: null, segundoNivelDesde: null },
    );
    const status: OrderStatus = decided.status;
    const now = new Date();
    const meta = requestMeta(request);
    // The order, its lines, events and log entries and the cart's delete: one statement (decision 0073).
    // An order that waits tells the first level (rol 2) and their stand-ins: read in the purchase's statement.
    const { orderId, wanting, level } = await insertPurchase(tx, {
      buyerId: buyer.id,
      idCliente: buyer.idCliente,
      status,
      // Approved at purchase (no levels, or the automatic rule): its fulfilment starts (decision 0058).
      surtidoEstatus: status === 'aprobado' ? FULFILMENT_START : null,
      totals,
      at: now,
      nota: nota || null,
      cart,
      // Approved by the client's rule: an approval event with no actor, naming the rule and its amount.
      rule: decided.rule ?? null,
      createdTo: decided.rule ? 'pendiente' : status,
      createdMeta: { total: totals.total, lineas: cart.length, ...meta },
      approvedMeta: decided.rule ? { a: 'aprobado', total: totals.total, ...decided.rule } : null,
      level: status === 'pendiente' ? { rol: ROLES.autorizador, day: businessDate(now, tz) } : null,
    });
    if (decided.rule) {
      const [me] = await tx
        .select({ email: users.email, usuario: users.usuario, nombre: users.nombre })
        .from(users)
        .where(eq(users.id, buyer.id));
      if (me)
        await notifyBuyer(tx, app.config.PUBLIC_URL, me, { id: orderId, total: totals.total }, 'aprobado');
    }
    // The integrations' outbox (decision 0060): created, and approved when the purchase approved it.
    const webhookEvent = { clientId: buyer.idCliente, orderId };
    await recordWebhookEvent(tx, app.jobs, { ...webhookEvent, type: 'pedido.creado' }, wanting.creado);
    if (status === 'aprobado')
      await recordWebhookEvent(tx, app.jobs, { ...webhookEvent, type: 'pedido.aprobado' }, wanting.aprobado);
    // Into the sales summary and the buyer's running month (decision 0072), before the alerts read it.
    // The authorizers' e-mails are written by the move's statement.
    const toLevel = level
      ? authorizerEmails(
          app.config.PUBLIC_URL,
          ROLES.autorizador,
          { id: orderId, total: totals.total, idCliente: buyer.idCliente, buyerNombre: auth.user.nombre },
          level,
        )
      : [];
    await moveOrderTotals(tx, orderId, 1, toLevel.length ? outboxInsert(toLevel) : undefined);
    // The month after the purchase, from the snapshot read under the lock: the alerts need no read of it.
    const after = afterPurchase(snapshot, buyer, totals.total);
    await sendBudgetAlerts(tx, { publicUrl: app.config.PUBLIC_URL, tz }, buyer.id, now, {
      alertas: client.alertasPresupuesto,
      state: after.state,
    });
    return {
      orderId,
      status,
      total: totals.total,
      lineas: cart.length,
      date: now,
      locked,
      presupuesto: budgetDto(after, buyer, client),
      categorias: categoriesDto(categories, after),
    };
  });

  void app.mailer.flush();
  const transacciones = await userHistory(app, auth.user.id, { page: 1 });
  return {
    status: 'ok',
    msg: MSG.compraEnviada,
    pedido: {
      id: created.orderId,
      productos: created.lineas,
      total: centavosToPesos(created.total),
      status: created.status,
      transaction_date: created.date.toISOString(),
    },
    transacciones,
    presupuesto: created.presupuesto,
    set_categorias: created.locked.client.modoPresupuesto === 'categoria',
    categorias: created.categorias,
  };
}
