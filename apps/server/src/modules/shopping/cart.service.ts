import { cartChangeProblem, isValidQuantity } from '@portal/shared/domain/cart';
import { ROLES } from '@portal/shared/domain/roles';
import type { CartResponse, ShopperSession } from '@portal/shared/schemas/shopping';
import { and, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { genericPlansForTheTransaction, preparedIn } from '../../db/prepared.ts';
import { cartItems, clients, users } from '../../db/schema/index.ts';
import { AppError, forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import {
  type Buyer,
  type BuyerClient,
  budgetDto,
  type CartLine,
  cartDto,
  cartTotalsDto,
  categoriesDto,
  loadShopperReads,
  recomputeState,
  withCart,
} from './buyer-state.ts';

export interface LockedBuyer {
  buyer: Buyer;
  client: BuyerClient;
  /** The client's approval rules by amount as read under the lock (lockBuyer only; the purchase needs them). */
  rules?: { autoHasta: number | null; segundoNivelDesde: number | null };
}

/**
 * Locks the buying user's row (SELECT … FOR UPDATE) for the rest of the transaction, so two cart changes
 * or purchases of one user run one after the other and each sees what the other wrote. The rest of the
 * transaction runs on generic plans (decision 0083): its statements are named ones whose plans do not depend
 * on the values, and the purchase's was otherwise planned again on every call (1 ms, finding 34).
 */
export async function lockBuyer(tx: Tx, userId: number): Promise<LockedBuyer> {
  // A named prepared statement on the transaction's connection (decision 0073).
  const [row] = await preparedIn(tx, 'portal_lock_buyer', (d) =>
    d
      .select({
        id: users.id,
        rol: users.rol,
        activo: users.activo,
        idCliente: users.idCliente,
        presupuestoDefault: users.presupuestoDefault,
        limiteDeCompras: users.limiteDeCompras,
        client: {
          activo: clients.activo,
          modoPresupuesto: clients.modoPresupuesto,
          mostrarPresupuestoAUsuarios: clients.mostrarPresupuestoAUsuarios,
          cantidadAutorizadores: clients.cantidadAutorizadores,
          alertasPresupuesto: clients.alertasPresupuesto,
          autoHasta: clients.aprobacionAutomaticaHasta,
          segundoNivelDesde: clients.segundoNivelDesde,
        },
        plans: genericPlansForTheTransaction,
      })
      .from(users)
      .leftJoin(clients, eq(clients.id, users.idCliente))
      .where(eq(users.id, sql.placeholder('userId')))
      .for('update', { of: users }),
  ).execute({ userId });
  if (row?.rol !== ROLES.usuario || row.idCliente === null) throw forbidden(MSG.soloUsuarios);
  if (!row.activo) throw new AppError(403, 'USER_INACTIVE', MSG.usuarioInactivo);
  const { client } = row;
  if (!client?.activo) throw new AppError(403, 'CLIENT_INACTIVE', MSG.clienteInactivo);
  const { autoHasta, segundoNivelDesde, ...rest } = client;
  return {
    buyer: {
      id: row.id,
      idCliente: row.idCliente,
      presupuestoDefault: row.presupuestoDefault,
      limiteDeCompras: row.limiteDeCompras,
    },
    client: rest,
    rules: { autoHasta, segundoNivelDesde },
  };
}

/** The signed-in buyer as the session read it; any other role may not use the cart. */
export function buyerOf(auth: AuthContext): LockedBuyer {
  const { user, client } = auth;
  if (user.rol !== ROLES.usuario || !client || user.idCliente === null) throw forbidden(MSG.soloUsuarios);
  return {
    buyer: {
      id: user.id,
      idCliente: user.idCliente,
      presupuestoDefault: user.presupuestoDefault,
      limiteDeCompras: user.limiteDeCompras,
    },
    client,
  };
}

/** The buyer's figures every cart call answers with (the session adds the delivery address). */
export async function shopperView(
  app: FastifyInstance,
  db: Db | Tx,
  locked: LockedBuyer,
  /** The request's session: its sidebar is kept with it (decision 0075). */
  sessionId?: string,
): Promise<Omit<ShopperSession, 'direccion'>> {
  const { snapshot: snap, categories: assigned } = await loadShopperReads(
    db,
    locked.buyer,
    locked.client,
    app.config.BUSINESS_TZ,
    { sidebar: true, kept: app.sessions.kept(sessionId) },
  );
  return {
    categorias: categoriesDto(assigned, snap),
    presupuesto: budgetDto(snap, locked.buyer, locked.client),
    carrito: cartDto(snap.cart, app.config.BUSINESS_TZ),
    totales: cartTotalsDto(snap.cart),
  };
}

/** The shopper part of GET /api/sesion and GET /api/carrito, with the delivery address the cart shows. */
export async function shopperSession(app: FastifyInstance, auth: AuthContext): Promise<ShopperSession> {
  const { user } = auth;
  return {
    ...(await shopperView(app, app.db, buyerOf(auth), auth.sessionId)),
    direccion: {
      direccion_entrega: user.direccionEntrega,
      calle: user.calle,
      colonia: user.colonia,
      ciudad: user.ciudad,
      cp: user.cp,
    },
  };
}

async function respond(
  app: FastifyInstance,
  tx: Tx,
  locked: LockedBuyer,
  msg: string,
  sessionId: string,
): Promise<CartResponse> {
  const view = await shopperView(app, tx, locked, sessionId);
  return { status: 'ok', msg, ...view };
}

/**
 * A wanted quantity, or how to compute it from the units the cart already holds and the product's current
 * `cantidad_limite` (repeating an order or adding a list adds to what the cart holds, docs/domain.md "Cart").
 */
export type WantedQuantity = number | ((known: { enCarrito: number; cantidadLimite: number }) => number);

/**
 * The one path of a cart change (POST /api/carrito/nuevo_item, and every line of a repeated order or a
 * list): adds a product or sets its quantity (0 or less removes it), checking every rule of
 * docs/domain.md "Cart" in order. Runs inside the caller's transaction, which holds the buyer's lock
 * (lockBuyer), so the checks see every earlier change. A refusal throws before anything is written.
 */
export async function setCartItemLocked(
  app: FastifyInstance,
  tx: Tx,
  locked: LockedBuyer,
  item: { id: number; cantidad: WantedQuantity },
  opts: { sidebar?: boolean; sessionId?: string } = {},
): Promise<{ msg: string; cantidad: number; view: Omit<ShopperSession, 'direccion'> }> {
  const { buyer, client } = locked;
  const tz = app.config.BUSINESS_TZ;
  // The product, the cart, the month (and the sidebar for the answer) in one read under the lock.
  const {
    snapshot,
    categories: assigned,
    product,
  } = await loadShopperReads(tx, buyer, client, tz, {
    sidebar: opts.sidebar ?? false,
    productId: item.id,
    kept: app.sessions.kept(opts.sessionId),
  });
  // Another client's product answers exactly like a missing one.
  if (!product) throw notFound(MSG.productoNoExiste, 'PRODUCT_NOT_FOUND');
  const current = snapshot.cart.find((l) => l.id === item.id);
  const cantidadLimite = product.cantidadLimite;
  const cantidad =
    typeof item.cantidad === 'function'
      ? item.cantidad({ enCarrito: current?.cantidad ?? 0, cantidadLimite })
      : item.cantidad;
  const others = snapshot.cart.filter((l) => l.id !== item.id);
  /** The answer from the snapshot and the change (decision 0073): the cart as the write leaves it. */
  const viewOf = (cart: CartLine[]) => {
    const after = withCart(snapshot, buyer, cart);
    return {
      categorias: categoriesDto(assigned, after),
      presupuesto: budgetDto(after, buyer, client),
      carrito: cartDto(after.cart, tz),
      totales: cartTotalsDto(after.cart),
    };
  };

  if (typeof cantidad === 'number' && cantidad <= 0 && Number.isFinite(cantidad)) {
    if (!current) throw unprocessable('BAD_QUANTITY', MSG.cantidadInvalida);
    await tx.delete(cartItems).where(and(eq(cartItems.userId, buyer.id), eq(cartItems.productId, item.id)));
    return { msg: MSG.productoEliminadoCarrito, cantidad: 0, view: viewOf(others) };
  }

  const line = {
    id: product.id,
    precio: product.precio,
    impuesto: product.impuesto,
    idCategoria: product.idCategoria,
    cantidad: isValidQuantity(cantidad) ? cantidad : 1,
  };
  const refusal = cartChangeProblem({
    asignado: product.asignado,
    activo: product.activo,
    cantidad,
    cantidadLimite,
    limiteDeCompras: buyer.limiteDeCompras,
    comprasDelMes: snapshot.comprasDelMes,
    enCarrito: Boolean(current),
    modo: snapshot.modo,
    idCategoria: product.idCategoria,
    categoriaNombre: product.categoria,
    after: recomputeState(snapshot, buyer, [...others, line]),
    without: recomputeState(snapshot, buyer, others),
  });
  if (refusal) throw unprocessable(refusal.code, refusal.msg);

  // One upsert for a new line and a changed one (a changed line keeps the time it was added).
  const [row] = await preparedIn(tx, 'portal_cart_put', (d) =>
    d
      .insert(cartItems)
      .values({
        userId: sql.placeholder('userId'),
        productId: sql.placeholder('productId'),
        cantidad: sql.placeholder('cantidad'),
      })
      .onConflictDoUpdate({
        target: [cartItems.userId, cartItems.productId],
        set: { cantidad: sql`excluded.cantidad` },
      })
      .returning({ addedAt: cartItems.addedAt }),
  ).execute({ userId: buyer.id, productId: item.id, cantidad: line.cantidad });
  const changed: CartLine = { ...product, cantidad: line.cantidad, addedAt: row!.addedAt };
  // In the read's order (added at, then product id): a changed line keeps its place, a new one goes last.
  const cart = [...others, changed].sort((x, y) => x.addedAt.getTime() - y.addedAt.getTime() || x.id - y.id);
  return {
    msg: current ? MSG.carritoActualizado : MSG.productoAgregado,
    cantidad: line.cantidad,
    view: viewOf(cart),
  };
}

/** Adds a product or sets its quantity (0 or less removes it), re-checking every rule under the lock. */
export async function userSetCartItem(
  app: FastifyInstance,
  auth: AuthContext,
  item: { id: number; cantidad: number },
): Promise<CartResponse> {
  buyerOf(auth);
  return app.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    const { msg, view } = await setCartItemLocked(app, tx, locked, item, {
      sidebar: true,
      sessionId: auth.sessionId,
    });
    return { status: 'ok' as const, msg, ...view };
  });
}

export async function userRemoveCartItem(
  app: FastifyInstance,
  auth: AuthContext,
  productId: number,
): Promise<CartResponse> {
  buyerOf(auth);
  return app.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    const deleted = await tx
      .delete(cartItems)
      .where(and(eq(cartItems.userId, locked.buyer.id), eq(cartItems.productId, productId)))
      .returning({ id: cartItems.productId });
    if (deleted.length === 0) throw notFound(MSG.productoNoEnCarrito, 'NOT_IN_CART');
    return respond(app, tx, locked, MSG.productoEliminadoCarrito, auth.sessionId);
  });
}

export async function userEmptyCart(app: FastifyInstance, auth: AuthContext): Promise<CartResponse> {
  buyerOf(auth);
  return app.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    await tx.delete(cartItems).where(eq(cartItems.userId, locked.buyer.id));
    return respond(app, tx, locked, MSG.carritoVaciado, auth.sessionId);
  });
}
