import { reorderQuantity } from '@portal/shared/domain/reorder';
import type { ReorderResponse } from '@portal/shared/schemas/shopping';
import { asc, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { orderLines } from '../../db/schema/index.ts';
import { AppError } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { orderOf } from '../orders/history.service.ts';
import { buyerOf, lockBuyer, setCartItemLocked, shopperView } from './cart.service.ts';

export interface ReorderLine {
  /** Product id. */
  id: number;
  cantidad: number;
  /** The name the answer gives a skipped line. */
  nombre: string;
}

/**
 * Adds lines to the buyer's cart, in their order, each through the one path of a cart change
 * (setCartItemLocked: every check of POST /api/carrito/nuevo_item) under one lock of the buyer, at current
 * prices. Each line asks for its quantity on top of what the cart holds, capped at the current
 * `cantidad_limite`; a refused line is reported whole with the cart's reason, never half-added.
 */
export async function addLinesToCart(
  app: FastifyInstance,
  auth: AuthContext,
  lines: readonly ReorderLine[],
): Promise<ReorderResponse> {
  buyerOf(auth);
  return app.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    const agregados: ReorderResponse['agregados'] = [];
    const omitidos: ReorderResponse['omitidos'] = [];
    for (const line of lines) {
      try {
        let enCarrito = 0;
        const { cantidad } = await setCartItemLocked(app, tx, locked, {
          id: line.id,
          cantidad: (known) => {
            enCarrito = known.enCarrito;
            return reorderQuantity(line.cantidad, known.enCarrito, known.cantidadLimite);
          },
        });
        agregados.push({ id: line.id, cantidad: cantidad - enCarrito });
      } catch (err) {
        // A refusal of the cart's rules (nothing was written for this line); anything else fails the call.
        if (!(err instanceof AppError) || (err.statusCode !== 404 && err.statusCode !== 422)) throw err;
        omitidos.push({ id: line.id, nombre: line.nombre, motivo: err.message, codigo: err.code });
      }
    }
    const view = await shopperView(app, tx, locked, auth.sessionId);
    return { status: 'ok', msg: MSG.productosAgregados(agregados.length), agregados, omitidos, ...view };
  });
}

/** POST /api/historial/{id}/repetir: the lines of one of the buyer's own orders (any status), in order. */
export async function userRepeatOrder(
  app: FastifyInstance,
  auth: AuthContext,
  orderId: number,
): Promise<ReorderResponse> {
  buyerOf(auth);
  // Another user's order answers exactly like a missing one.
  await orderOf(app.db, orderId, { idUser: auth.user.id });
  const lines = await app.db
    .select({ id: orderLines.productId, cantidad: orderLines.cantidad, nombre: orderLines.nombre })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  return addLinesToCart(app, auth, lines);
}
