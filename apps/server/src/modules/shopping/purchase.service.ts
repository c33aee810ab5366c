import {
  type ApprovalRules,
  approvalOutcome,
  approvalTarget,
  statusAtPurchase,
} from '@portal/shared/domain/approval-rules';
import type { BudgetState } from '@portal/shared/domain/budget';
import { canPlaceAnotherOrder } from '@portal/shared/domain/budget';
import { quantityProblem } from '@portal/shared/domain/cart';
import { FULFILMENT_START } from '@portal/shared/domain/fulfilment';
import { centavosToPesos, formatMXN, totalsOf } from '@portal/shared/domain/money';
import type { OrderStatus } from '@portal/shared/schemas/orders';
import type { PurchaseResponse } from '@portal/shared/schemas/shopping';
import type { FastifyRequest } from 'fastify';
import { requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { conflict, unprocessable } from '../../lib/errors.ts';
import { purchasesTotal } from '../../lib/metrics.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { checkChosenAddress } from '../addresses/addresses.service.ts';
import { placedBefore } from '../approval/approval.repository.ts';
import { lockAreas } from '../areas/area-budget.ts';
import { lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';
import type { ReviewSummary } from '../orders/notifications.ts';
import { afterPurchase, budgetDto, type CartLine, categoriesDto, loadShopperReads } from './buyer-state.ts';
import { lockBuyer } from './cart.service.ts';
import { historyAfterPurchase } from './history.service.ts';
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
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  orden: readonly { id: number; cantidad: number }[],
  nota?: string,
  /** The address book entry the order goes to (decision 0126); absent: the buyer's default. */
  idDireccion?: number,
): Promise<PurchaseResponse> {
  const tz = deps.config.BUSINESS_TZ;
  const created = await deps.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    const { buyer, client } = locked;
    const now = deps.clock.now();
    // The buyer's área, locked after the buyer (decision 0123): purchases of its buyers, and approvals of
    // their orders, take their turn on it, so the snapshot below reads its month as it stands.
    if (buyer.idArea) await lockAreas(tx, [buyer.idArea]);
    // The address chosen in the cart must be the buyer's default or one it is allowed (decision 0126).
    if (idDireccion !== undefined) await checkChosenAddress(tx, buyer, idDireccion);
    // The sidebar and the history's first page too: the answer is computed from this snapshot, not read
    // again after the commit. With them the order's number and, when it may wait, who is to be told
    // (decision 0086), so that the order's writes are one statement.
    const { snapshot, categories, purchase } = await loadShopperReads(tx, buyer, client, tz, {
      sidebar: true,
      now,
      kept: deps.sessions.kept(auth.sessionId),
      purchase: { level: client.cantidadAutorizadores > 0 },
    });
    const { orderId, history, level } = purchase!;
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
    const area = snapshot.areaState;
    if (area && area.restante < 0) {
      const disponible = Math.max(0, area.restante + area.carrito);
      throw unprocessable(
        'AREA_BUDGET',
        MSG.presupuestoArea(area.nombre, formatMXN(centavosToPesos(disponible), false)),
      );
    }

    const totals = totalsOf(cart);
    // The client's approval rules by amount, read with the buyer's lock (an edit of the client applies at
    // once), with what the buyer placed in the client's window before (decision 0100): the lock makes the
    // buyer's earlier purchases visible here, so two at once cannot both pass alone.
    const rules = locked.rules ?? { autoHasta: null, segundoNivelDesde: null, ventanaHoras: 0 };
    // The same sum tells the level-1 e-mail what a level-1 approval will do under the second-level rule.
    const windowed =
      rules.autoHasta !== null || (client.cantidadAutorizadores === 2 && rules.segundoNivelDesde !== null);
    const previos =
      client.cantidadAutorizadores > 0 && windowed && rules.ventanaHoras > 0
        ? await placedBefore(tx, { userId: buyer.id, until: now, hours: rules.ventanaHoras })
        : 0;
    const decided = statusAtPurchase(client.cantidadAutorizadores, totals.total, rules, previos);
    const status: OrderStatus = decided.status;
    // Approved at purchase (no levels, or the automatic rule): its fulfilment starts (decision 0058).
    const surtido = status === 'aprobado' ? FULFILMENT_START : null;
    const meta = requestMeta(request);
    // The order, its lines, events and log entries, the cart's delete, the e-mails and the move into the
    // sales summary and the buyer's running month (decision 0072): one statement (decisions 0073, 0086),
    // through the order's lifecycle seam, which gives it the e-mails and the totals and does the rest.
    // The month after the purchase, from the snapshot read under the lock: the alerts need no read of it.
    const after = afterPurchase(snapshot, buyer, totals.total);
    await orderChanged(tx, lifecycleDeps(deps), {
      kind: 'colocado',
      order: {
        id: orderId,
        idCliente: buyer.idCliente,
        idUser: buyer.id,
        total: totals.total,
        transactionDate: now,
        idArea: buyer.idArea ?? null,
      },
      status,
      approvedByRule: decided.rule !== null,
      buyerNombre: auth.user.nombre,
      // An order that waits tells the first level (rol 2) and their stand-ins (read with the snapshot).
      reviewers: level,
      summary:
        status === 'pendiente'
          ? reviewSummaryAtPurchase(cart, after.state, {
              levels: client.cantidadAutorizadores,
              rules,
              previos,
              comprador: auth.user.nombre,
            })
          : null,
      month: { alertas: client.alertasPresupuesto, state: after.state },
      write: async (emails) =>
        (
          await insertPurchase(tx, {
            id: orderId,
            buyerId: buyer.id,
            idCliente: buyer.idCliente,
            status,
            surtidoEstatus: surtido,
            totals,
            at: now,
            nota: nota || null,
            direccion: idDireccion ?? null,
            cart,
            // Approved by the client's rule: an approval event with no actor, naming the rule and its amount.
            rule: decided.rule ?? null,
            createdTo: decided.rule ? 'pendiente' : status,
            createdMeta: { total: totals.total, lineas: cart.length, ...meta },
            approvedMeta: decided.rule ? { a: 'aprobado', total: totals.total, ...decided.rule } : null,
            emails,
          })
        ).wanting,
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
      transacciones: historyAfterPurchase(history, {
        id: orderId,
        total: totals.total,
        status,
        surtido,
        transactionDate: now,
        productos: cart.length,
        comentarios: 0,
      }),
    };
  });

  purchasesTotal.inc({ status: created.status });
  void deps.mailer.flush();
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
    transacciones: created.transacciones,
    presupuesto: created.presupuesto,
    set_categorias: created.locked.client.modoPresupuesto === 'categoria',
    categorias: created.categorias,
  };
}

/**
 * What the level-1 e-mail of a new order says of it (decision 0112): its lines, what is left of the buyer's
 * month after it (the whole budget, or each of its categories) and what a level-1 approval will do.
 */
function reviewSummaryAtPurchase(
  cart: readonly CartLine[],
  after: BudgetState,
  c: { levels: number; rules: ApprovalRules & { ventanaHoras: number }; previos: number; comprador: string },
): ReviewSummary {
  const total = totalsOf(cart).total;
  const target = approvalTarget(
    c.levels === 2 ? 'espera' : 'aprobado',
    'pendiente',
    total,
    c.rules,
    c.previos,
  );
  const categories = new Map(cart.map((l) => [l.idCategoria, l.categoria]));
  return {
    lineas: cart.map((l) => ({ nombre: l.nombre, cantidad: l.cantidad, importe: l.precio * l.cantidad })),
    queda:
      after.modo === 'categoria'
        ? [...categories].map(([id, categoria]) => ({
            categoria,
            restante: after.categorias.get(id)?.restante ?? 0,
          }))
        : [{ categoria: null, restante: after.restante }],
    resultado: approvalOutcome({
      target,
      total,
      previos: c.previos,
      ventanaHoras: c.rules.ventanaHoras,
      comprador: c.comprador,
    }),
  };
}
