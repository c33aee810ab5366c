import { cartChangeProblem, isValidQuantity } from '@portal/shared/domain/cart';
import { centavosToPesos, formatMXN } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate } from '@portal/shared/domain/time';
import type { CartResponse, ShopperSession } from '@portal/shared/schemas/shopping';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { executeNamedOnce, genericPlansForTheTransaction, preparedIn } from '../../db/prepared.ts';
import { cartItems, clients, users } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import type { SidebarCategory } from '../../plugins/session-cache.ts';
import {
  type Buyer,
  type BuyerClient,
  type BuyerSnapshot,
  budgetDto,
  type CartLine,
  cartDto,
  cartTotalsDto,
  categoriesDto,
  loadShopperReads,
  type ProductJson,
  recomputeState,
  withCart,
} from './buyer-state.ts';

export interface LockedBuyer {
  buyer: Buyer;
  client: BuyerClient;
  /** The client's approval rules by amount as read under the lock (lockBuyer only; the purchase needs them). */
  rules?: { autoHasta: number | null; segundoNivelDesde: number | null; ventanaHoras: number };
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
        idArea: users.idArea,
        client: {
          activo: clients.activo,
          modoPresupuesto: clients.modoPresupuesto,
          mostrarPresupuestoAUsuarios: clients.mostrarPresupuestoAUsuarios,
          cantidadAutorizadores: clients.cantidadAutorizadores,
          alertasPresupuesto: clients.alertasPresupuesto,
          autoHasta: clients.aprobacionAutomaticaHasta,
          segundoNivelDesde: clients.segundoNivelDesde,
          ventanaHoras: clients.ventanaReglasHoras,
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
  const { autoHasta, segundoNivelDesde, ventanaHoras, ...rest } = client;
  return {
    buyer: {
      id: row.id,
      idCliente: row.idCliente,
      presupuestoDefault: row.presupuestoDefault,
      limiteDeCompras: row.limiteDeCompras,
      idArea: row.idArea,
    },
    client: rest,
    rules: { autoHasta, segundoNivelDesde, ventanaHoras },
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
  deps: Deps,
  db: Db | Tx,
  locked: LockedBuyer,
  /** The request's session: its sidebar is kept with it (decision 0075). */
  sessionId?: string,
): Promise<ShopperView> {
  const { snapshot, categories } = await loadShopperReads(
    db,
    locked.buyer,
    locked.client,
    deps.config.BUSINESS_TZ,
    {
      sidebar: true,
      now: deps.clock.now(),
      kept: deps.sessions.kept(sessionId),
    },
  );
  const tz = deps.config.BUSINESS_TZ;
  return viewOf(categories, snapshot, locked, tz, businessDate(deps.clock.now(), tz));
}

type ShopperView = Omit<ShopperSession, 'direccion'>;

/** The answer's figures from a snapshot (read, or as a change leaves it: decision 0073). */
function viewOf(
  assigned: SidebarCategory[],
  snapshot: BuyerSnapshot,
  locked: LockedBuyer,
  tz: string,
  /** The business date the estimated deliveries count from (decision 0124). */
  today: string,
): ShopperView {
  return {
    categorias: categoriesDto(assigned, snapshot),
    presupuesto: budgetDto(snapshot, locked.buyer, locked.client),
    carrito: cartDto(snapshot.cart, tz, today),
    totales: cartTotalsDto(snapshot.cart),
  };
}

/** The shopper part of GET /api/sesion and GET /api/carrito, with the delivery address the cart shows. */
export async function shopperSession(deps: Deps, auth: AuthContext): Promise<ShopperSession> {
  const { user } = auth;
  return {
    ...(await shopperView(deps, deps.db, buyerOf(auth), auth.sessionId)),
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
  deps: Deps,
  tx: Tx,
  locked: LockedBuyer,
  msg: string,
  sessionId: string,
): Promise<CartResponse> {
  const view = await shopperView(deps, tx, locked, sessionId);
  return { status: 'ok', msg, ...view };
}

/**
 * A wanted quantity, or how to compute it from the units the cart already holds and the product's current
 * `cantidad_limite` (repeating an order or adding a list adds to what the cart holds, docs/domain.md "Cart").
 */
export type WantedQuantity = number | ((known: { enCarrito: number; cantidadLimite: number }) => number);

/** A cart change decided on the snapshot read under the buyer's lock, before anything is written. */
export interface CartChange {
  msg: string;
  /** The product's quantity in the cart after the change (0: removed). */
  cantidad: number;
  /** What the cart held of it before. */
  enCarrito: number;
  /**
   * The snapshot with the cart after the change, in the read's order (its budget figures are the ones the
   * checks used); a new line goes last with `addedAt` the caller's `now` until the write gives it its own
   * (`placeWritten`).
   */
  after: BuyerSnapshot;
}

/**
 * The one decision of a cart change (POST /api/carrito/nuevo_item, and every line of a repeated order, a
 * list or a quick order): adds a product or sets its quantity (0 or less removes it), checking every rule of
 * docs/domain.md "Cart" in order against `snapshot`, the cart and month read under the buyer's lock (and, for
 * the lines after the first of a batch, the cart as the earlier lines left it). `product` is the product as
 * read with it (null: missing or another client's). A refusal throws; nothing is written here.
 */
export function decideCartChange(
  snapshot: BuyerSnapshot,
  buyer: Buyer,
  product: ProductJson | null,
  item: { id: number; cantidad: WantedQuantity },
  now: Date,
): CartChange {
  // Another client's product answers exactly like a missing one.
  if (!product) throw notFound(MSG.productoNoExiste, 'PRODUCT_NOT_FOUND');
  const current = snapshot.cart.find((l) => l.id === item.id);
  const enCarrito = current?.cantidad ?? 0;
  const cantidadLimite = product.cantidadLimite;
  const cantidad =
    typeof item.cantidad === 'function' ? item.cantidad({ enCarrito, cantidadLimite }) : item.cantidad;
  const others = snapshot.cart.filter((l) => l.id !== item.id);

  if (typeof cantidad === 'number' && cantidad <= 0 && Number.isFinite(cantidad)) {
    if (!current) throw unprocessable('BAD_QUANTITY', MSG.cantidadInvalida);
    return {
      msg: MSG.productoEliminadoCarrito,
      cantidad: 0,
      enCarrito,
      after: withCart(snapshot, buyer, others),
    };
  }

  const line: CartLine = {
    ...product,
    cantidad: isValidQuantity(cantidad) ? cantidad : 1,
    addedAt: current?.addedAt ?? now,
  };
  // A changed line keeps its place (and the time it was added); a new one goes last.
  const after = withCart(
    snapshot,
    buyer,
    current ? snapshot.cart.map((l) => (l.id === item.id ? line : l)) : [...others, line],
  );
  const without = recomputeState(snapshot, buyer, others);
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
    after: after.state,
    without,
  });
  if (refusal) throw unprocessable(refusal.code, refusal.msg);
  // The buyer's área (decision 0123): a cart that grows must still fit in what the área has left this month.
  const area = after.areaState;
  if (area && area.restante < 0 && after.state.carrito > snapshot.state.carrito) {
    const disponible = Math.max(0, area.presupuesto - area.utilizado - without.carrito);
    throw unprocessable(
      'AREA_BUDGET',
      MSG.presupuestoAreaCarrito(area.nombre, formatMXN(centavosToPesos(disponible), false)),
    );
  }
  return {
    msg: current ? MSG.carritoActualizado : MSG.productoAgregado,
    cantidad: line.cantidad,
    enCarrito,
    after,
  };
}

/**
 * The cart with the times the write gave its new lines, in the read's order (added at, then product id).
 */
function placeWritten(cart: readonly CartLine[], written: ReadonlyMap<number, Date>): CartLine[] {
  return cart
    .map((l) => {
      const addedAt = written.get(l.id);
      return addedAt ? { ...l, addedAt } : l;
    })
    .sort((x, y) => x.addedAt.getTime() - y.addedAt.getTime() || x.id - y.id);
}

/** Every put of a change or a batch in one upsert (a changed line keeps the time it was added). */
const putLines = () => sql`insert into ${cartItems} (user_id, product_id, cantidad)
  select ${sql.placeholder('userId')}, t.p, t.c
  from unnest(${sql.placeholder('productIds')}::integer[], ${sql.placeholder('cantidades')}::integer[]) as t(p, c)
  on conflict (user_id, product_id) do update set cantidad = excluded.cantidad
  returning product_id as id, to_json(added_at) as "addedAt"`;

/**
 * Writes what one cart change or a batch of them decided (`final`: each product's last quantity, 0 removes
 * it) in one statement of puts, and a delete only when a line was removed; answers the cart with its new
 * lines' times.
 */
async function writeCartChanges(
  tx: Tx,
  buyer: Buyer,
  final: ReadonlyMap<number, number>,
  cart: readonly CartLine[],
): Promise<CartLine[]> {
  const removed = [...final].filter(([, q]) => q === 0).map(([id]) => id);
  const puts = [...final].filter(([, q]) => q > 0);
  if (removed.length)
    await tx
      .delete(cartItems)
      .where(and(eq(cartItems.userId, buyer.id), inArray(cartItems.productId, removed)));
  if (!puts.length) return [...cart];
  const rows = await executeNamedOnce<{ id: number; addedAt: string }>(tx, 'portal_cart_put', putLines, {
    userId: buyer.id,
    productIds: puts.map(([id]) => id),
    cantidades: puts.map(([, q]) => q),
  });
  return placeWritten(cart, new Map(rows.map((r) => [r.id, new Date(r.addedAt)])));
}

/**
 * A cart change under the caller's lock (lockBuyer): the product, the cart, the month (and the sidebar for
 * the answer) in one read, the decision, one write.
 */
export async function setCartItemLocked(
  deps: Deps,
  tx: Tx,
  locked: LockedBuyer,
  item: { id: number; cantidad: WantedQuantity },
  opts: { sidebar?: boolean; sessionId?: string } = {},
): Promise<{ msg: string; cantidad: number; view: ShopperView }> {
  const { buyer, client } = locked;
  const tz = deps.config.BUSINESS_TZ;
  const now = deps.clock.now();
  const { snapshot, categories, product } = await loadShopperReads(tx, buyer, client, tz, {
    sidebar: opts.sidebar ?? false,
    now,
    productId: item.id,
    kept: deps.sessions.kept(opts.sessionId),
  });
  const change = decideCartChange(snapshot, buyer, product, item, now);
  const cart = await writeCartChanges(tx, buyer, new Map([[item.id, change.cantidad]]), change.after.cart);
  return {
    msg: change.msg,
    cantidad: change.cantidad,
    view: viewOf(categories, withCart(snapshot, buyer, cart), locked, tz, businessDate(now, tz)),
  };
}

/**
 * Several cart changes in one transaction under one lock of the buyer (a repeated order, a list, a quick
 * order): one read of every product with the cart and month, each line decided in order on the cart as the
 * earlier ones left it (`decideCartChange`, the same checks as one change), one write. A refusal of a line
 * (404 or 422) is reported with it and the rest go on; the answer's figures are the cart as written.
 */
export async function setCartItemsLocked(
  deps: Deps,
  tx: Tx,
  locked: LockedBuyer,
  items: readonly { id: number; cantidad: WantedQuantity }[],
  sessionId: string,
): Promise<{
  results: ({ cantidad: number; enCarrito: number } | { refused: AppError })[];
  view: ShopperView;
}> {
  const { buyer, client } = locked;
  const tz = deps.config.BUSINESS_TZ;
  const now = deps.clock.now();
  const reads = await loadShopperReads(tx, buyer, client, tz, {
    sidebar: true,
    now,
    productIds: [...new Set(items.map((i) => i.id))],
    kept: deps.sessions.kept(sessionId),
  });
  const products = new Map(reads.products.map((p) => [p.id, p]));
  let snapshot = reads.snapshot;
  const final = new Map<number, number>();
  const results = items.map((item) => {
    try {
      const change = decideCartChange(snapshot, buyer, products.get(item.id) ?? null, item, now);
      snapshot = change.after;
      final.set(item.id, change.cantidad);
      return { cantidad: change.cantidad, enCarrito: change.enCarrito };
    } catch (err) {
      // A refusal of the cart's rules (nothing is written for this line); anything else fails the call.
      if (!(err instanceof AppError) || (err.statusCode !== 404 && err.statusCode !== 422)) throw err;
      return { refused: err };
    }
  });
  const cart = await writeCartChanges(tx, buyer, final, snapshot.cart);
  return {
    results,
    view: viewOf(reads.categories, withCart(snapshot, buyer, cart), locked, tz, businessDate(now, tz)),
  };
}

/** Adds a product or sets its quantity (0 or less removes it), re-checking every rule under the lock. */
export async function userSetCartItem(
  deps: Deps,
  auth: AuthContext,
  item: { id: number; cantidad: number },
): Promise<CartResponse> {
  buyerOf(auth);
  return deps.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    const { msg, view } = await setCartItemLocked(deps, tx, locked, item, {
      sidebar: true,
      sessionId: auth.sessionId,
    });
    return { status: 'ok' as const, msg, ...view };
  });
}

export async function userRemoveCartItem(
  deps: Deps,
  auth: AuthContext,
  productId: number,
): Promise<CartResponse> {
  buyerOf(auth);
  return deps.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    const deleted = await tx
      .delete(cartItems)
      .where(and(eq(cartItems.userId, locked.buyer.id), eq(cartItems.productId, productId)))
      .returning({ id: cartItems.productId });
    if (deleted.length === 0) throw notFound(MSG.productoNoEnCarrito, 'NOT_IN_CART');
    return respond(deps, tx, locked, MSG.productoEliminadoCarrito, auth.sessionId);
  });
}

export async function userEmptyCart(deps: Deps, auth: AuthContext): Promise<CartResponse> {
  buyerOf(auth);
  return deps.db.transaction(async (tx) => {
    const locked = await lockBuyer(tx, auth.user.id);
    await tx.delete(cartItems).where(eq(cartItems.userId, locked.buyer.id));
    return respond(deps, tx, locked, MSG.carritoVaciado, auth.sessionId);
  });
}
