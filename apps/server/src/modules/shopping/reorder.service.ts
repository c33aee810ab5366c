import { reorderQuantity } from '@portal/shared/domain/reorder';
import type { ReorderResponse } from '@portal/shared/schemas/shopping';
import { and, asc, eq, sql } from 'drizzle-orm';
import { preparedOnce } from '../../db/prepared.ts';
import { orderLines, orders } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { buyerOf, lockBuyer, setCartItemsLocked } from './cart.service.ts';

export interface ReorderLine {
  /** Product id. */
  id: number;
  cantidad: number;
  /** The name the answer gives a skipped line. */
  nombre: string;
}

/**
 * Adds lines to the buyer's cart, in their order, each with every check of POST /api/carrito/nuevo_item
 * (setCartItemsLocked: one read, each line decided on the cart as the earlier ones left it, one write) under
 * one lock of the buyer, at current prices. Each line asks for its quantity on top of what the cart holds,
 * capped at the current `cantidad_limite` (a capped line is reported in `ajustados`); a refused line is
 * reported whole with the cart's reason, never half-added.
 */
export async function addLinesToCart(
  deps: Deps,
  auth: AuthContext,
  lines: readonly ReorderLine[],
): Promise<ReorderResponse> {
  buyerOf(auth);
  return deps.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    const items = lines.map((line) => ({
      id: line.id,
      cantidad: (known: { enCarrito: number; cantidadLimite: number }) =>
        reorderQuantity(line.cantidad, known.enCarrito, known.cantidadLimite),
    }));
    const { results, view } = await setCartItemsLocked(deps, tx, locked, items, auth.sessionId);
    const agregados: ReorderResponse['agregados'] = [];
    const omitidos: ReorderResponse['omitidos'] = [];
    const ajustados: ReorderResponse['ajustados'] = [];
    results.forEach((result, i) => {
      const line = lines[i]!;
      if ('refused' in result)
        omitidos.push({
          id: line.id,
          nombre: line.nombre,
          motivo: result.refused.message,
          codigo: result.refused.code,
        });
      else {
        const agregado = result.cantidad - result.enCarrito;
        agregados.push({ id: line.id, cantidad: agregado });
        // Only the limit cuts a line (reorderQuantity); a cut line is never silent.
        if (agregado < line.cantidad)
          ajustados.push({
            id: line.id,
            pedido: line.cantidad,
            agregado,
            motivo: MSG.ajustadoPorLimite(line.cantidad, agregado),
          });
      }
    });
    return {
      status: 'ok',
      msg: MSG.productosAgregados(agregados.length),
      agregados,
      omitidos,
      ajustados,
      ...view,
    };
  });
}

/** POST /api/historial/{id}/repetir: the lines of one of the buyer's own orders (any status), in order. */
export async function userRepeatOrder(
  deps: Deps,
  auth: AuthContext,
  orderId: number,
): Promise<ReorderResponse> {
  buyerOf(auth);
  // The order and its lines in one named statement (planned once, decision 0089).
  const rows = await preparedOnce(deps.db, 'portal_repeat_lines', (d) =>
    d
      .select({ id: orderLines.productId, cantidad: orderLines.cantidad, nombre: orderLines.nombre })
      .from(orders)
      .leftJoin(orderLines, eq(orderLines.orderId, orders.id))
      .where(and(eq(orders.id, sql.placeholder('orderId')), eq(orders.idUser, sql.placeholder('userId'))))
      .orderBy(asc(orderLines.id)),
  ).execute({ orderId, userId: auth.user.id });
  // Another user's order answers exactly like a missing one.
  if (rows.length === 0) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  const lines = rows.filter((r): r is ReorderLine => r.id !== null);
  return addLinesToCart(deps, auth, lines);
}
