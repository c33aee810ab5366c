/**
 * The early answer of the add-to-cart dialog: the shared cart rules (packages/shared/src/domain/cart.ts)
 * applied to the figures the session shows. The server checks everything again and decides.
 */
import { type BudgetLine, budgetState } from '@portal/shared/domain/budget';
import { type CartRefusal, cartChangeProblem, isValidQuantity } from '@portal/shared/domain/cart';
import { type Centavos, centavosToPesos, formatMXN, pesosToCentavos } from '@portal/shared/domain/money';
import { MSG } from '@portal/shared/messages';
import type { CartItemDto, ProductDto, ShopperSession } from '@portal/shared/schemas/shopping';

/** What the dialog needs of a product, whether it comes from the catalogue or from the cart. */
export interface CartTarget {
  id: number;
  nombre: string;
  clave: string;
  precio: number;
  impuesto: boolean;
  idCategoria: number;
  categoria: string;
  unidad: string;
  miniatura: string | null;
  cantidadLimite: number;
}

export function targetFromProduct(p: ProductDto): CartTarget {
  return {
    id: p.id,
    nombre: p.nombre,
    clave: p.clave_interna,
    precio: p.precio,
    impuesto: p.impuesto,
    idCategoria: p.id_categoria,
    categoria: p.categoria,
    unidad: p.unidad_de_medida,
    miniatura: p.miniatura,
    cantidadLimite: p.cantidad_limite,
  };
}

export function targetFromCartItem(item: CartItemDto): CartTarget {
  return {
    id: item.id,
    nombre: item.nombre,
    clave: item.clave_interna,
    precio: item.costo,
    impuesto: item.impuesto,
    idCategoria: item.id_categoria,
    categoria: item.categoria,
    unidad: item.unidad_de_medida,
    miniatura: item.miniatura,
    cantidadLimite: item.cantidad_limite,
  };
}

type Line = BudgetLine & { id: number };

function lineOf(item: CartItemDto): Line {
  return {
    id: item.id,
    precio: pesosToCentavos(item.costo),
    cantidad: item.cantidad,
    impuesto: item.impuesto,
    idCategoria: item.id_categoria,
  };
}

/**
 * A refusal of a cart change: the shared rules' (cart.ts), or the buyer's área's (decision 0123), which the
 * server checks after them.
 */
export type WebCartRefusal = CartRefusal | { code: 'AREA_BUDGET'; msg: string };

/**
 * The área's answer to a cart that would hold `after` (centavos, with IVA) instead of `now`, `without` being
 * the cart without the changed line: a cart that grows must fit in what the área has left this month
 * (its budget − its orders), as the server's cart.service decides.
 */
export function areaRefusal(
  area: ShopperSession['presupuesto']['area'],
  carts: { now: Centavos; after: Centavos; without: Centavos },
): WebCartRefusal | null {
  if (!area) return null;
  const left = pesosToCentavos(area.presupuesto) - pesosToCentavos(area.utilizado);
  if (left - carts.after >= 0 || carts.after <= carts.now) return null;
  const disponible = Math.max(0, left - carts.without);
  return {
    code: 'AREA_BUDGET',
    msg: MSG.presupuestoAreaCarrito(area.nombre, formatMXN(centavosToPesos(disponible), false)),
  };
}

/**
 * Why the server would refuse this quantity, judged from the session's figures, or null.
 * The month's orders enter as what is left of each budget before the cart (budget − used).
 */
export function cartRefusal(
  shopper: ShopperSession,
  target: CartTarget,
  cantidad: unknown,
): WebCartRefusal | null {
  const { presupuesto: p } = shopper;
  const current = shopper.carrito.find((item) => item.id === target.id);
  const others = shopper.carrito.filter((item) => item.id !== target.id).map(lineOf);
  const line: Line = {
    id: target.id,
    precio: pesosToCentavos(target.precio),
    cantidad: isValidQuantity(cantidad) ? cantidad : 1,
    impuesto: target.impuesto,
    idCategoria: target.idCategoria,
  };
  const stateWith = (cart: Line[]) =>
    budgetState({
      modo: p.tipo_presupuesto,
      presupuestoDefault: pesosToCentavos(p.presupuesto_total) - pesosToCentavos(p.presupuesto_utilizado),
      categorias: shopper.categorias.map((c) => ({
        id: c.id,
        presupuesto: pesosToCentavos(c.presupuesto ?? 0) - pesosToCentavos(c.utilizado ?? 0),
      })),
      orders: [],
      cart,
    });
  const after = stateWith([...others, line]);
  const without = stateWith(others);
  const problem = cartChangeProblem({
    asignado: true,
    activo: true,
    cantidad,
    cantidadLimite: target.cantidadLimite,
    limiteDeCompras: p.limite_de_compras,
    comprasDelMes: p.cantidad_de_compras,
    enCarrito: Boolean(current),
    modo: p.tipo_presupuesto,
    idCategoria: target.idCategoria,
    categoriaNombre: target.categoria,
    after,
    without,
  });
  if (problem || !isValidQuantity(cantidad)) return problem;
  const now = stateWith(shopper.carrito.map(lineOf)).carrito;
  return areaRefusal(p.area, { now, after: after.carrito, without: without.carrito });
}

/** A quantity field's value as a number; null when it is empty or not a number. */
export function toQuantity(value: number | string): number | null {
  if (typeof value === 'number') return value;
  if (value.trim() === '') return null;
  const n = Number(value);
  return Number.isFinite(n) ? n : null;
}

/** Refusals that belong on the quantity field rather than in an alert. */
export function isQuantityRefusal(code: string): boolean {
  return code === 'BAD_QUANTITY' || code === 'OVER_QUANTITY_LIMIT';
}

/** Units of the cart, optionally of one category. */
export function cartUnits(carrito: readonly CartItemDto[], idCategoria?: number): number {
  return carrito
    .filter((item) => idCategoria === undefined || item.id_categoria === idCategoria)
    .reduce((n, item) => n + item.cantidad, 0);
}

/** Refusals that no quantity avoids: the budget left cannot take one unit, or no order may be placed. */
const BLOCKING_CODES = new Set(['BUDGET', 'CATEGORY_BUDGET', 'AREA_BUDGET', 'PURCHASE_LIMIT']);

/**
 * Why the product cannot be added at all (not even one unit), or null: its add button is disabled with
 * this reason instead of answering with an error after the click. A product already in the cart is never
 * blocked: its quantity can still go down or the line be removed.
 */
export function addBlocked(shopper: ShopperSession, target: CartTarget): WebCartRefusal | null {
  if (shopper.carrito.some((item) => item.id === target.id)) return null;
  const refusal = cartRefusal(shopper, target, 1);
  return refusal && BLOCKING_CODES.has(refusal.code) ? refusal : null;
}

/** The short label of a blocked add ('Sin presupuesto' or the purchase limit). */
export function blockedLabel(refusal: WebCartRefusal): string {
  return refusal.code === 'PURCHASE_LIMIT' ? 'Límite de pedidos' : 'Sin presupuesto';
}
