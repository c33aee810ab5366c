import {
  type BudgetLine,
  type BudgetState,
  budgetState,
  type MonthUsed,
  monthUsedOf,
  withTopups,
} from '@portal/shared/domain/budget';
import { centavosToPesos, totalsOf } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import { available } from '@portal/shared/domain/stock';
import { addDays, businessDate, businessMonth } from '@portal/shared/domain/time';
import type { BudgetStateDto, CartItemDto, CategoryDto } from '@portal/shared/schemas/shopping';
import { and, asc, eq, type Placeholder, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { jsonRows } from '../../db/json-rows.ts';
import {
  holdsTotalsLock,
  type MonthSpendJson,
  monthOfRows,
  TOTALS_SHARED_LOCK,
} from '../../db/order-totals.ts';
import { isTransaction, prepared } from '../../db/prepared.ts';
import {
  areaMonthSpend,
  areas,
  budgetAdjustments,
  cartItems,
  categories,
  products,
  scheduledPrices,
  userCategoryBudgets,
  userMonthSpend,
  userProducts,
  users,
} from '../../db/schema/index.ts';
import { thumbUrl } from '../../lib/files.ts';
import type { KeptSession, SidebarCategory } from '../../plugins/session-cache.ts';
import { type LevelPerson, levelWithStandInsQuery } from '../approval/delegation.service.ts';
import { type FirstHistoryPageJson, firstHistoryPageJson } from './history.service.ts';

export interface Buyer {
  id: number;
  idCliente: number;
  presupuestoDefault: number;
  limiteDeCompras: number;
  /** The buyer's área (decision 0123), when read under the buyer's lock; the reads find it themselves. */
  idArea?: number | null;
}

export interface BuyerClient {
  modoPresupuesto: string;
  mostrarPresupuestoAUsuarios: boolean;
  cantidadAutorizadores: number;
  /** Budget alert thresholds (decision 0054): the "Utilizado" card reads them. */
  alertasPresupuesto: number[];
}

export interface CartLine extends BudgetLine {
  id: number;
  cantidad: number;
  addedAt: Date;
  nombre: string;
  claveInterna: string;
  claveCliente: string;
  unidadDeMedida: string;
  categoria: string;
  imagen: string | null;
  activo: boolean;
  asignado: boolean;
  cantidadLimite: number;
  /** The product's stock, reserved units and lead time (decision 0124). */
  existencia?: number | null;
  reservado?: number;
  diasEntrega?: number | null;
  /** The product's pending price change (decision 0132): centavos and its business date; the cart's only. */
  precioProgramado?: number | string | null;
  vigenteDesde?: string | null;
}

/** The user and the first day of the business month (YYYY-MM-01) whose running figures are read. */
type MonthParams = { userId: number; mes: string };
type MonthArgs = { [K in keyof MonthParams]: MonthParams[K] | Placeholder };

const monthParams = (): MonthArgs => ({
  userId: sql.placeholder('userId'),
  mes: sql.placeholder('mes'),
});

/** Categories that hold at least one active product assigned to the user (the sidebar). */
function assignedCategoriesQuery(db: Db | Tx, userId: number | Placeholder, idCliente: number | Placeholder) {
  return db
    .select({
      id: categories.id,
      nombre: categories.nombre,
      icono: categories.icono,
      productos: sql<number>`count(*)::int`.mapWith(Number).as('productos'),
    })
    .from(userProducts)
    .innerJoin(products, eq(products.id, userProducts.productId))
    .innerJoin(categories, eq(categories.id, products.idCategoria))
    .where(
      and(
        eq(userProducts.userId, userId),
        eq(userProducts.asignado, true),
        eq(products.activo, true),
        eq(products.idCliente, idCliente),
      ),
    )
    .groupBy(categories.id, categories.nombre, categories.icono)
    .orderBy(asc(categories.nombre));
}

type ShopperParams = MonthParams & {
  idCliente: number;
  /** The business day (YYYY-MM-DD) whose stand-ins the purchase's level read takes. */
  day: string;
  /** A product of the buyer's client to read with its assignment (a cart change), or null. */
  productId: number | null;
  /** The products of several cart changes at once (a repeated order, a list, a quick order). */
  productIds: number[];
};
type ShopperArgs = { [K in keyof ShopperParams]: ShopperParams[K] | Placeholder };

/**
 * Everything the shopper's screens show (cart, the running month, category budgets, the sidebar) in one
 * statement: each round trip to the database costs about as much CPU as a simple query itself. GET
 * /api/sesion and the cart's answers need all of it; a cart change adds the product it changes (so its
 * checks, its write and its answer need no other read, decision 0073).
 */
/**
 * Which parts a read carries. Each combination is its own statement with only its parts in it (not one
 * statement with `case when $flag`): PostgreSQL then settles on one generic plan for each instead of planning
 * every call again, which it did while the flags pruned parts of a custom plan (benchmarks, finding 27).
 */
interface ShopperShape {
  byCategory: boolean;
  sidebar: boolean;
  /** 0 no product, 1 the one of `productId` (a cart change), 2 those of `productIds` (several changes). */
  product: 0 | 1 | 2;
  /**
   * What the purchase reads with its snapshot (decision 0086): 0 nothing, 1 the new order's number, the
   * history's first page and the totals' shared lock, 2 also the first level's authorizers and stand-ins.
   */
  purchase: 0 | 1 | 2;
}

function shopperReadsQuery(db: Db | Tx, p: ShopperArgs, shape: ShopperShape) {
  const cart = sql`select ${cartItems.productId} as id, ${cartItems.cantidad} as cantidad,
      ${cartItems.addedAt} as "addedAt", ${products.nombre} as nombre, ${products.claveInterna} as "claveInterna",
      ${products.claveCliente} as "claveCliente", ${products.unidadDeMedida} as "unidadDeMedida",
      ${products.precio} as precio, ${products.impuesto} as impuesto, ${products.activo} as activo,
      ${products.idCategoria} as "idCategoria", ${categories.nombre} as categoria, ${products.imagen} as imagen,
      coalesce(${userProducts.asignado}, false) as asignado,
      coalesce(${userProducts.cantidadLimite}, 1) as "cantidadLimite",
      ${products.existencia} as existencia, ${products.reservado} as reservado,
      ${products.diasEntrega} as "diasEntrega",
      ${scheduledPrices.precio} as "precioProgramado", ${scheduledPrices.vigenteDesde} as "vigenteDesde"
    from ${cartItems}
    inner join ${products} on ${products.id} = ${cartItems.productId}
    inner join ${categories} on ${categories.id} = ${products.idCategoria}
    left join ${scheduledPrices} on ${scheduledPrices.productId} = ${products.id}
      and ${scheduledPrices.appliedAt} is null
    left join ${userProducts} on ${userProducts.userId} = ${cartItems.userId}
      and ${userProducts.productId} = ${cartItems.productId}
    where ${cartItems.userId} = ${p.userId}`;
  const month = sql`select ${userMonthSpend.idCategoria} as c, ${userMonthSpend.importe} as i,
      ${userMonthSpend.compras} as n
    from ${userMonthSpend}
    where ${userMonthSpend.idUser} = ${p.userId} and ${userMonthSpend.mes} = ${p.mes}::date`;
  // This month's top-ups of the buyer's own budget (decision 0123), per category (0: the whole budget).
  const ajustes = sql`select ${budgetAdjustments.idCategoria} as c, sum(${budgetAdjustments.importe}) as i
    from ${budgetAdjustments}
    where ${budgetAdjustments.userId} = ${p.userId} and ${budgetAdjustments.mes} = ${p.mes}::date
    group by 1`;
  // The buyer's área and its month: its budget with the month's top-ups and transfers, and its spend.
  const area = sql`select ${areas.id} as id, ${areas.nombre} as nombre, ${areas.codigo} as codigo,
      ${areas.presupuesto} + coalesce((select sum(b.importe) from ${budgetAdjustments} b
        where b.id_area = ${areas.id} and b.mes = ${p.mes}::date), 0) as presupuesto,
      coalesce((select s.importe from ${areaMonthSpend} s
        where s.id_area = ${areas.id} and s.mes = ${p.mes}::date), 0) as utilizado
    from ${users} inner join ${areas} on ${areas.id} = ${users.idArea}
    where ${users.id} = ${p.userId}`;
  const budgets = sql`select ${userCategoryBudgets.categoryId} as id, ${userCategoryBudgets.presupuesto} as presupuesto
    from ${userCategoryBudgets} where ${userCategoryBudgets.userId} = ${p.userId}`;
  const product = sql`select ${products.id} as id, ${products.nombre} as nombre,
      ${products.claveInterna} as "claveInterna", ${products.claveCliente} as "claveCliente",
      ${products.unidadDeMedida} as "unidadDeMedida", ${products.precio} as precio,
      ${products.impuesto} as impuesto, ${products.activo} as activo, ${products.idCategoria} as "idCategoria",
      ${categories.nombre} as categoria, ${products.imagen} as imagen,
      coalesce(${userProducts.asignado}, false) as asignado,
      coalesce(${userProducts.cantidadLimite}, 1) as "cantidadLimite",
      ${products.existencia} as existencia, ${products.reservado} as reservado,
      ${products.diasEntrega} as "diasEntrega"
    from ${products}
    inner join ${categories} on ${categories.id} = ${products.idCategoria}
    left join ${userProducts} on ${userProducts.userId} = ${p.userId} and ${userProducts.productId} = ${products.id}
    where ${
      shape.product === 2
        ? sql`${products.id} = any(${p.productIds}::integer[])`
        : sql`${products.id} = ${p.productId}::integer`
    } and ${products.idCliente} = ${p.idCliente}`;
  return db
    .select({
      cart: sql<CartJson[]>`${jsonRows(cart, sql`r."addedAt", r.id`)}`,
      month: sql<MonthSpendJson[]>`${jsonRows(month)}`,
      ajustes: sql<{ c: number; i: number | string }[]>`${jsonRows(ajustes)}`,
      area: sql<AreaJson | null>`(select row_to_json(r) from (${area}) r)`,
      budgets: sql<
        { id: number; presupuesto: number }[] | null
      >`${shape.byCategory ? jsonRows(budgets) : sql`null`}`,
      categories: sql<AssignedCategory[] | null>`${
        shape.sidebar
          ? jsonRows(assignedCategoriesQuery(db, p.userId, p.idCliente).getSQL(), sql`r.nombre`)
          : sql`null`
      }`,
      product: sql<ProductJson | ProductJson[] | null>`${
        shape.product === 1
          ? sql`(select row_to_json(r) from (${product}) r)`
          : shape.product === 2
            ? jsonRows(product)
            : sql`null`
      }`,
      purchase: sql<PurchaseReadJson | null>`${
        shape.purchase
          ? sql`json_build_object(
              'orderId', nextval(pg_get_serial_sequence('orders', 'id')),
              'locked', (select count(*) from (select ${TOTALS_SHARED_LOCK}) k),
              'history', ${firstHistoryPageJson(p.userId)},
              'level', ${
                shape.purchase === 2
                  ? sql`(select coalesce(json_agg(x order by x.part, x.id), '[]'::json) from (${levelWithStandInsQuery(p.idCliente, ROLES.autorizador, p.day)}) x)`
                  : sql`null`
              })`
          : sql`null`
      }`,
    })
    .from(users)
    .where(eq(users.id, p.userId));
}

type CartJson = Omit<CartLine, 'addedAt'> & { addedAt: string };
type AreaJson = {
  id: number;
  nombre: string;
  codigo: string;
  presupuesto: number | string;
  utilizado: number | string;
};
/**
 * What a purchase reads under the buyer's lock besides the snapshot (decision 0086): its order's number,
 * taken from the sequence now so that everything the order writes (e-mails included) is one statement; the
 * history's first page the answer shows; and, when the order may wait for level 1, who is to be told. The
 * same statement takes the totals' shared lock the purchase's move needs.
 */
export interface PurchaseRead {
  orderId: number;
  history: FirstHistoryPageJson;
  level: LevelPerson[] | null;
}
/** As the statement gives it (a bigint sequence value may come as text). */
type PurchaseReadJson = Omit<PurchaseRead, 'orderId'> & { orderId: number | string };
/** A product as a cart line would show it, before it has a quantity. */
export type ProductJson = Omit<CartLine, 'addedAt' | 'cantidad'>;
type AssignedCategory = SidebarCategory;

/**
 * The buyer's cart, month and budgets in one round trip: the snapshot the budget rules need (read inside
 * the caller's transaction after the user's row is locked, or on the pool for a screen), and, with
 * `sidebar`, the sidebar's categories.
 */
export async function loadShopperReads(
  db: Db | Tx,
  buyer: Buyer,
  client: BuyerClient,
  tz: string,
  opts: {
    sidebar: boolean;
    /** Now (the app's clock): the running month is its month. */
    now: Date;
    productId?: number;
    /** Several products' current data and assignment, read at once (`products` of the answer). */
    productIds?: readonly number[];
    /** Where the request's session keeps its sidebar (decision 0075): read once, then from memory. */
    kept?: KeptSession;
    /** A purchase's reads (`PurchaseRead`), inside its transaction; `level`: the order may wait for level 1. */
    purchase?: { level: boolean };
  },
): Promise<{
  snapshot: BuyerSnapshot;
  categories: AssignedCategory[];
  product: ProductJson | null;
  /** The products of `productIds` that belong to the buyer's client (any order). */
  products: ProductJson[];
  purchase: PurchaseRead | null;
}> {
  const now = opts.now;
  const modo = client.modoPresupuesto === 'categoria' ? 'categoria' : 'regular';
  const range = businessMonth(now, tz);
  const params: ShopperParams = {
    userId: buyer.id,
    idCliente: buyer.idCliente,
    mes: `${range.key}-01`,
    productId: opts.productId ?? null,
    productIds: opts.productIds ? [...opts.productIds] : [],
    // Only the level's read takes the day (its stand-ins').
    day: opts.purchase?.level ? businessDate(now, tz) : '',
  };
  const kept = opts.sidebar && opts.kept ? opts.kept.cache.sidebarOf(opts.kept.sessionId) : undefined;
  // A change announced after this moment is not kept with a sidebar read now.
  const epoch = opts.kept?.cache.epoch ?? 0;
  const shape: ShopperShape = {
    byCategory: modo === 'categoria',
    sidebar: opts.sidebar && !kept,
    product: opts.productIds ? 2 : opts.productId !== undefined ? 1 : 0,
    purchase: opts.purchase ? (opts.purchase.level ? 2 : 1) : 0,
  };
  // Prepared on the pool, or on the transaction's connection under the buyer's lock (decision 0073): the
  // same builder and placeholders for each shape, so one name carries one text.
  const name = `portal_shopper_reads_${[shape.byCategory, shape.sidebar, shape.product, shape.purchase].map(Number).join('')}`;
  const build = (d: Db | Tx) =>
    shopperReadsQuery(
      d,
      {
        ...monthParams(),
        idCliente: sql.placeholder('idCliente'),
        productId: sql.placeholder('productId'),
        productIds: sql.placeholder('productIds'),
        day: sql.placeholder('day'),
      },
      shape,
    );
  const [row] = await prepared(db, name, build).execute(params);
  // A purchase's read took the totals' shared lock for the rest of its transaction (decision 0086).
  if (shape.purchase && isTransaction(db)) holdsTotalsLock(db);
  if (!row) throw new Error(`No existe el usuario ${buyer.id}`);
  const cart: CartLine[] = row.cart.map((l) => ({ ...l, addedAt: new Date(l.addedAt) }));
  const month = monthOfRows(row.month);
  if (opts.sidebar && !kept && opts.kept && row.categories)
    opts.kept.cache.keep(opts.kept.sessionId, epoch, { sidebar: row.categories });
  const base = {
    ajustes: new Map(row.ajustes.map((a) => [Number(a.c), Number(a.i)])),
    area: row.area
      ? {
          id: row.area.id,
          nombre: row.area.nombre,
          codigo: row.area.codigo,
          presupuesto: Number(row.area.presupuesto),
          utilizado: Number(row.area.utilizado),
        }
      : null,
  };
  return {
    snapshot: snapshotOf(modo, range.key, buyer, cart, month, row.budgets ?? [], base),
    categories: kept ? [...kept] : (row.categories ?? []),
    product:
      row.product && !Array.isArray(row.product)
        ? { ...row.product, precio: Number(row.product.precio) }
        : null,
    products: Array.isArray(row.product) ? row.product.map((p) => ({ ...p, precio: Number(p.precio) })) : [],
    purchase: row.purchase
      ? {
          orderId: Number(row.purchase.orderId),
          history: row.purchase.history,
          level: row.purchase.level,
        }
      : null,
  };
}

export interface BuyerSnapshot {
  modo: 'regular' | 'categoria';
  /** The business month of the figures, YYYY-MM. */
  mes: string;
  cart: CartLine[];
  comprasDelMes: number;
  /** The month's non-cancelled orders, added up (the running month, decision 0072). */
  monthUsed: MonthUsed;
  categoryBudgets: { id: number; presupuesto: number }[];
  /** This month's approved top-ups of the buyer's own budget, per category (0: the whole budget). */
  ajustes: ReadonlyMap<number, number>;
  /** The buyer's área this month (decision 0123): its budget and its orders' spend; null = none. */
  area: AreaOfMonth | null;
  state: BudgetState;
  /** The área's figures with this snapshot's cart (what is left of it after the cart). */
  areaState: (AreaOfMonth & { carrito: number; restante: number }) | null;
}

export interface AreaOfMonth {
  id: number;
  nombre: string;
  codigo: string;
  /** The month's budget: the base, the top-ups and the transfers (centavos). */
  presupuesto: number;
  /** The month's non-cancelled orders charged to the área (centavos). */
  utilizado: number;
}

type MonthBase = Pick<BuyerSnapshot, 'ajustes' | 'area'>;

/** The buyer's budget of the month: their own plus the month's top-ups (per category in category mode). */
function budgetInput(
  buyer: Buyer,
  categoryBudgets: readonly { id: number; presupuesto: number }[],
  ajustes: ReadonlyMap<number, number>,
) {
  return withTopups(buyer.presupuestoDefault, categoryBudgets, ajustes);
}

function snapshotOf(
  modo: BuyerSnapshot['modo'],
  mes: string,
  buyer: Buyer,
  cart: CartLine[],
  month: { count: number; used: MonthUsed },
  categoryBudgets: { id: number; presupuesto: number }[],
  base: MonthBase,
): BuyerSnapshot {
  const state = budgetState({
    modo,
    ...budgetInput(buyer, categoryBudgets, base.ajustes),
    used: month.used,
    cart,
  });
  const carrito = state.carrito;
  const areaState = base.area
    ? { ...base.area, carrito, restante: base.area.presupuesto - base.area.utilizado - carrito }
    : null;
  return {
    modo,
    mes,
    cart,
    comprasDelMes: month.count,
    monthUsed: month.used,
    categoryBudgets,
    ajustes: base.ajustes,
    area: base.area,
    state,
    areaState,
  };
}

/**
 * The buyer's figures right after a purchase of the whole cart, from the snapshot read under the lock
 * (decision 0073): the order joins the month (its total, and each category's lines with IVA rounded per
 * order and category), the purchase limit counts it, and the cart is empty. The same figures a read after
 * the commit would give, without the read.
 */
export function afterPurchase(snapshot: BuyerSnapshot, buyer: Buyer, total: number): BuyerSnapshot {
  const order = monthUsedOf([{ lines: snapshot.cart, total }]);
  const categorias = new Map(snapshot.monthUsed.categorias);
  for (const [id, spent] of order.categorias) categorias.set(id, (categorias.get(id) ?? 0) + spent);
  const month = {
    count: snapshot.comprasDelMes + 1,
    used: { total: snapshot.monthUsed.total + total, categorias },
  };
  const area = snapshot.area ? { ...snapshot.area, utilizado: snapshot.area.utilizado + total } : null;
  return snapshotOf(snapshot.modo, snapshot.mes, buyer, [], month, snapshot.categoryBudgets, {
    ajustes: snapshot.ajustes,
    area,
  });
}

/** The snapshot with another cart (the same month): the figures a cart change answers with. */
export function withCart(snapshot: BuyerSnapshot, buyer: Buyer, cart: CartLine[]): BuyerSnapshot {
  const month = { count: snapshot.comprasDelMes, used: snapshot.monthUsed };
  return snapshotOf(snapshot.modo, snapshot.mes, buyer, cart, month, snapshot.categoryBudgets, snapshot);
}

export function recomputeState(
  snapshot: BuyerSnapshot,
  buyer: Buyer,
  cart: readonly BudgetLine[],
): BudgetState {
  return budgetState({
    modo: snapshot.modo,
    ...budgetInput(buyer, snapshot.categoryBudgets, snapshot.ajustes),
    used: snapshot.monthUsed,
    cart,
  });
}

export function budgetDto(snapshot: BuyerSnapshot, buyer: Buyer, client: BuyerClient): BudgetStateDto {
  const s = snapshot.state;
  return {
    tipo_presupuesto: snapshot.modo,
    presupuesto_total: centavosToPesos(s.presupuesto),
    presupuesto_utilizado: centavosToPesos(s.utilizado),
    presupuesto_restante: centavosToPesos(s.restante),
    presupuesto_carrito: centavosToPesos(s.carrito),
    productos_totales: snapshot.cart.reduce((n, l) => n + l.cantidad, 0),
    limite_de_compras: buyer.limiteDeCompras,
    cantidad_de_compras: snapshot.comprasDelMes,
    mostrar: client.mostrarPresupuestoAUsuarios,
    mes: snapshot.mes,
    alertas_presupuesto: client.alertasPresupuesto,
    ampliaciones: centavosToPesos([...snapshot.ajustes.values()].reduce((n, x) => n + x, 0)),
    area: snapshot.areaState
      ? {
          id: snapshot.areaState.id,
          nombre: snapshot.areaState.nombre,
          codigo: snapshot.areaState.codigo,
          presupuesto: centavosToPesos(snapshot.areaState.presupuesto),
          utilizado: centavosToPesos(snapshot.areaState.utilizado),
          restante: centavosToPesos(snapshot.areaState.restante),
        }
      : null,
  };
}

export function cartDto(cart: readonly CartLine[], tz: string, today: string): CartItemDto[] {
  return cart.map((l) => ({
    id: l.id,
    cantidad: l.cantidad,
    costo: centavosToPesos(l.precio),
    fecha: businessDate(l.addedAt, tz),
    nombre: l.nombre,
    clave_interna: l.claveInterna,
    unidad_de_medida: l.unidadDeMedida,
    id_categoria: l.idCategoria,
    categoria: l.categoria,
    impuesto: l.impuesto,
    miniatura: thumbUrl(l.imagen),
    cantidad_limite: l.cantidadLimite,
    importe: centavosToPesos(l.precio * l.cantidad),
    envio_posterior: laterShipment(l, today),
    precio_programado:
      l.precioProgramado == null || !l.vigenteDesde
        ? null
        : { precio: centavosToPesos(Number(l.precioProgramado)), vigente_desde: l.vigenteDesde },
  }));
}

/**
 * The part of a cart line beyond the product's available stock, which will ship later (decision 0124),
 * with its estimated delivery date; null when it all is in stock or the stock is unknown.
 */
function laterShipment(l: CartLine, today: string): CartItemDto['envio_posterior'] {
  const disponible = available(l.existencia ?? null, Number(l.reservado ?? 0));
  if (disponible === null || l.cantidad <= disponible) return null;
  return {
    cantidad: l.cantidad - disponible,
    entrega_estimada: l.diasEntrega == null ? null : addDays(today, Number(l.diasEntrega)),
  };
}

export function cartTotalsDto(cart: readonly CartLine[]) {
  const t = totalsOf(cart);
  return {
    subtotal: centavosToPesos(t.subtotal),
    iva: centavosToPesos(t.iva),
    total: centavosToPesos(t.total),
  };
}

export function categoriesDto(
  assigned: { id: number; nombre: string; icono: string; productos: number }[],
  snapshot: BuyerSnapshot,
): CategoryDto[] {
  return assigned.map((c) => {
    const f = snapshot.state.categorias.get(c.id);
    const inCategoryMode = snapshot.modo === 'categoria';
    return {
      id: c.id,
      nombre: c.nombre,
      icono: c.icono,
      productos: c.productos,
      presupuesto: inCategoryMode ? centavosToPesos(f?.presupuesto ?? 0) : null,
      utilizado: inCategoryMode ? centavosToPesos(f?.utilizado ?? 0) : null,
      restante: inCategoryMode ? centavosToPesos(f?.restante ?? 0) : null,
    };
  });
}
