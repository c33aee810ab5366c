/**
 * The add-to-cart dialog answers early from the session's figures (what is left of each budget), while the
 * server decides from the month's orders themselves (apps/server/src/modules/shopping/cart.service.ts).
 * Both must give the same answer: the session below is built the way the server builds it
 * (buyer-state.ts: budgetDto, categoriesDto, cartDto) from a month of orders, and the server's decision is
 * taken with the same shared functions it calls.
 */
import { type BudgetLine, budgetState, type MonthOrder } from '@portal/shared/domain/budget';
import { cartChangeProblem, isValidQuantity } from '@portal/shared/domain/cart';
import { centavosToPesos, totalsOf } from '@portal/shared/domain/money';
import { MSG } from '@portal/shared/messages';
import type { CartItemDto, ProductDto, ShopperSession } from '@portal/shared/schemas/shopping';
import { describe, expect, it } from 'vitest';
import {
  addBlocked,
  blockedLabel,
  type CartTarget,
  cartRefusal,
  cartUnits,
  isQuantityRefusal,
  targetFromCartItem,
  targetFromProduct,
} from './cart-rules';

interface Product {
  id: number;
  /** Centavos. */
  precio: number;
  impuesto: boolean;
  idCategoria: number;
  cantidadLimite: number;
}

interface Month {
  modo: 'regular' | 'categoria';
  /** Centavos. */
  presupuestoDefault: number;
  /** Category budgets of the user (centavos), as user_category_budgets holds them. */
  budgets: { id: number; presupuesto: number }[];
  orders: MonthOrder[];
  cart: (Product & { cantidad: number })[];
  limiteDeCompras: number;
}

const categoryName = (id: number) => `Categoría ${id}`;

function cartItem(l: Product & { cantidad: number }): CartItemDto {
  return {
    id: l.id,
    cantidad: l.cantidad,
    costo: centavosToPesos(l.precio),
    fecha: '2026-03-02',
    nombre: `Producto ${l.id}`,
    clave_interna: `P-${l.id}`,
    unidad_de_medida: 'pieza',
    id_categoria: l.idCategoria,
    categoria: categoryName(l.idCategoria),
    impuesto: l.impuesto,
    miniatura: null,
    cantidad_limite: l.cantidadLimite,
    importe: centavosToPesos(l.precio * l.cantidad),
    envio_posterior: null,
  };
}

const serverState = (m: Month, cart: readonly BudgetLine[]) =>
  budgetState({
    modo: m.modo,
    presupuestoDefault: m.presupuestoDefault,
    categorias: m.budgets,
    orders: m.orders,
    cart,
  });

/** GET /api/sesion for this month, as the server builds it; the sidebar lists the given categories. */
function sessionOf(m: Month, sidebar: number[]): ShopperSession {
  const s = serverState(m, m.cart);
  const byCategory = m.modo === 'categoria';
  const t = totalsOf(m.cart);
  return {
    presupuesto: {
      tipo_presupuesto: m.modo,
      presupuesto_total: centavosToPesos(s.presupuesto),
      presupuesto_utilizado: centavosToPesos(s.utilizado),
      presupuesto_restante: centavosToPesos(s.restante),
      presupuesto_carrito: centavosToPesos(s.carrito),
      productos_totales: m.cart.reduce((n, l) => n + l.cantidad, 0),
      limite_de_compras: m.limiteDeCompras,
      cantidad_de_compras: m.orders.length,
      mostrar: true,
      mes: '2026-03',
      alertas_presupuesto: [80, 100],
      ampliaciones: 0,
      area: null,
    },
    categorias: sidebar.map((id) => {
      const f = s.categorias.get(id);
      return {
        id,
        nombre: categoryName(id),
        icono: 'IconBox',
        productos: 1,
        presupuesto: byCategory ? centavosToPesos(f?.presupuesto ?? 0) : null,
        utilizado: byCategory ? centavosToPesos(f?.utilizado ?? 0) : null,
        restante: byCategory ? centavosToPesos(f?.restante ?? 0) : null,
      };
    }),
    carrito: m.cart.map(cartItem),
    totales: {
      subtotal: centavosToPesos(t.subtotal),
      iva: centavosToPesos(t.iva),
      total: centavosToPesos(t.total),
    },
    direccion: { direccion_entrega: '', calle: '', colonia: '', ciudad: '', cp: '' },
  };
}

/** What the server answers to POST /api/carrito for this product and quantity (after the account checks). */
function serverRefusal(m: Month, p: Product, cantidad: unknown) {
  const current = m.cart.find((l) => l.id === p.id);
  const others = m.cart.filter((l) => l.id !== p.id);
  const line = { ...p, cantidad: isValidQuantity(cantidad) ? cantidad : 1 };
  return cartChangeProblem({
    asignado: true,
    activo: true,
    cantidad,
    cantidadLimite: p.cantidadLimite,
    limiteDeCompras: m.limiteDeCompras,
    comprasDelMes: m.orders.length,
    enCarrito: Boolean(current),
    modo: m.modo,
    idCategoria: p.idCategoria,
    categoriaNombre: categoryName(p.idCategoria),
    after: serverState(m, [...others, line]),
    without: serverState(m, others),
  });
}

function targetOf(p: Product): CartTarget {
  return {
    id: p.id,
    nombre: `Producto ${p.id}`,
    clave: `P-${p.id}`,
    precio: centavosToPesos(p.precio),
    impuesto: p.impuesto,
    idCategoria: p.idCategoria,
    categoria: categoryName(p.idCategoria),
    unidad: 'pieza',
    miniatura: null,
    cantidadLimite: p.cantidadLimite,
  };
}

function order(...lines: (Product & { cantidad: number })[]): MonthOrder {
  return { lines, total: totalsOf(lines).total };
}

const webRefusal = (m: Month, p: Product, cantidad: unknown, sidebar = [1, 2]) =>
  cartRefusal(sessionOf(m, sidebar), targetOf(p), cantidad);

// $0.29 (28.999… centavos in floating point), taxable; $0.22 taxable; $1.15 untaxed.
const pluma: Product = { id: 1, precio: 29, impuesto: true, idCategoria: 1, cantidadLimite: 10 };
const carpeta: Product = { id: 2, precio: 22, impuesto: true, idCategoria: 1, cantidadLimite: 10 };
const cafe: Product = { id: 3, precio: 115, impuesto: false, idCategoria: 2, cantidadLimite: 5 };

describe('the early answer of the add-to-cart dialog (regular budget)', () => {
  // Last month's order: 2 pens = 58 + IVA 9.28 -> 9 = 67.
  const base: Month = {
    modo: 'regular',
    presupuestoDefault: 300,
    budgets: [],
    orders: [order({ ...pluma, cantidad: 2 })],
    cart: [{ ...cafe, cantidad: 1 }],
    limiteDeCompras: -1,
  };

  it('lets the cart use the budget to the last centavo, and refuses one centavo more', () => {
    // Left before the cart: 300 - 67 = 233. Coffee 115 + 4 folders 88 (IVA of 88: 14.08 -> 14) = 217.
    expect(webRefusal(base, carpeta, 4)).toBeNull();
    // 5 folders: 115 + 110 + IVA 17.6 -> 18 = 243 > 233.
    expect(webRefusal(base, carpeta, 5)).toEqual({ code: 'BUDGET', msg: MSG.presupuestoAgregar });
    expect(webRefusal({ ...base, presupuestoDefault: 310 }, carpeta, 5)).toBeNull();
    expect(webRefusal({ ...base, presupuestoDefault: 309 }, carpeta, 5)).toMatchObject({ code: 'BUDGET' });
  });

  it('rounds the IVA once over the whole cart, not per line', () => {
    // A folder in the cart and one more product of 22: per line 22 + 4 (3.52) twice = 52, once over
    // the cart 44 + 7 (7.04) = 51.
    const cart: Month = { ...base, orders: [], cart: [{ ...carpeta, cantidad: 1 }], presupuestoDefault: 51 };
    const otra: Product = { ...carpeta, id: 4 };
    expect(webRefusal(cart, otra, 1)).toBeNull();
    expect(webRefusal({ ...cart, presupuestoDefault: 50 }, otra, 1)).toMatchObject({ code: 'BUDGET' });
  });

  it('replaces the quantity of a product already in the cart instead of adding to it', () => {
    // 3 coffees (345) fit in 345 left; with the cart's one counted twice they would not.
    const m: Month = { ...base, orders: [], presupuestoDefault: 345 };
    expect(webRefusal(m, cafe, 3)).toBeNull();
    expect(webRefusal(m, cafe, 4)).toEqual({ code: 'BUDGET', msg: MSG.presupuestoActualizar });
    expect(webRefusal({ ...m, presupuestoDefault: 344 }, cafe, 3)).toEqual({
      code: 'BUDGET',
      msg: MSG.presupuestoActualizar,
    });
  });

  it('refuses more than the product’s limit and anything but a whole number from 1, on the quantity field', () => {
    const over = webRefusal(base, cafe, 6);
    expect(over).toEqual({ code: 'OVER_QUANTITY_LIMIT', msg: MSG.excedeCantidad(5) });
    for (const bad of [0, -1, 1.5, Number.NaN, '2', null]) {
      expect(webRefusal(base, cafe, bad)).toEqual({ code: 'BAD_QUANTITY', msg: MSG.cantidadInvalida });
    }
    expect(isQuantityRefusal('OVER_QUANTITY_LIMIT') && isQuantityRefusal('BAD_QUANTITY')).toBe(true);
    expect(isQuantityRefusal('BUDGET') || isQuantityRefusal('PURCHASE_LIMIT')).toBe(false);
  });

  it('refuses once the month’s purchase limit is reached, before looking at the budget', () => {
    const limited: Month = { ...base, limiteDeCompras: 1 };
    expect(webRefusal(limited, carpeta, 1)).toEqual({ code: 'PURCHASE_LIMIT', msg: MSG.limiteDeCompras });
    expect(webRefusal({ ...limited, limiteDeCompras: 2 }, carpeta, 1)).toBeNull();
  });
});

describe('the early answer in category mode', () => {
  // Category 1: $1.00 with an order of 2 pens (67) already; category 2: $5.00.
  const base: Month = {
    modo: 'categoria',
    presupuestoDefault: 0,
    budgets: [
      { id: 1, presupuesto: 100 },
      { id: 2, presupuesto: 500 },
    ],
    orders: [order({ ...pluma, cantidad: 2 }, { ...cafe, cantidad: 4 })],
    cart: [{ ...cafe, cantidad: 1 }],
    limiteDeCompras: -1,
  };

  it('judges the product’s own category only, and says what is left in it', () => {
    // Category 1 has 33 left (the coffee in the cart is category 2's): one folder (26) fits, two (51)
    // do not.
    expect(webRefusal(base, carpeta, 1)).toBeNull();
    expect(webRefusal(base, carpeta, 2)).toEqual({
      code: 'CATEGORY_BUDGET',
      msg: MSG.presupuestoCategoria('Categoría 1', '$0.33'),
    });
    // Category 2 has 500 - 460 = 40 left before the cart: two coffees (230) do not fit, even though
    // category 1 has room.
    expect(webRefusal(base, cafe, 2)).toEqual({
      code: 'CATEGORY_BUDGET',
      msg: MSG.presupuestoCategoria('Categoría 2', '$0.40'),
    });
  });

  it('refuses a category without a budget, or already spent, with nothing left', () => {
    const spent: Month = { ...base, budgets: [{ id: 1, presupuesto: 67 }, base.budgets[1]!] };
    expect(webRefusal(spent, carpeta, 1)).toEqual({
      code: 'CATEGORY_BUDGET',
      msg: MSG.presupuestoCategoria('Categoría 1', '$0.00'),
    });
    const lowered: Month = { ...base, budgets: [{ id: 1, presupuesto: 50 }, base.budgets[1]!] };
    expect(webRefusal(lowered, carpeta, 1)).toMatchObject({ code: 'CATEGORY_BUDGET' });
    const none: Month = { ...base, budgets: [base.budgets[1]!] };
    expect(webRefusal(none, carpeta, 1)).toMatchObject({ code: 'CATEGORY_BUDGET' });
  });
});

/** A small deterministic generator (mulberry32). */
function random(seed: number) {
  let a = seed;
  const next = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return { next, int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)) };
}

describe('the same answer as the server', () => {
  it('agrees on 2,000 generated months, carts and quantities', () => {
    const r = random(20_260_302);
    let refused = 0;
    for (let i = 0; i < 2000; i++) {
      const products: Product[] = Array.from({ length: 6 }, (_, k) => ({
        id: k + 1,
        // Prices with every kind of centavo ending, some of them float-unfriendly (0.29, 1.15, 4.35...).
        precio: r.int(1, 2500),
        impuesto: r.next() < 0.7,
        idCategoria: r.int(1, 3),
        cantidadLimite: r.int(1, 8),
      }));
      const pick = () => products[r.int(0, products.length - 1)]!;
      const withQty = (p: Product) => ({ ...p, cantidad: r.int(1, p.cantidadLimite) });
      const orders = Array.from({ length: r.int(0, 3) }, () =>
        order(...Array.from({ length: r.int(1, 3) }, () => withQty(pick()))),
      );
      const cart = [
        ...new Map(Array.from({ length: r.int(0, 4) }, () => withQty(pick())).map((l) => [l.id, l])),
      ].map(([, l]) => l);
      const m: Month = {
        modo: r.next() < 0.5 ? 'regular' : 'categoria',
        presupuestoDefault: r.int(0, 40_000),
        budgets: [1, 2, 3].filter(() => r.next() < 0.8).map((id) => ({ id, presupuesto: r.int(0, 15_000) })),
        orders,
        cart,
        limiteDeCompras: r.next() < 0.2 ? r.int(0, 3) : -1,
      };
      const p = pick();
      const cantidad = r.next() < 0.1 ? [0, -1, 1.5][r.int(0, 2)] : r.int(1, p.cantidadLimite + 1);
      const expected = serverRefusal(m, p, cantidad);
      if (expected) refused++;
      expect(webRefusal(m, p, cantidad, [1, 2, 3]), `case ${i}`).toEqual(expected);
    }
    // Both outcomes were exercised.
    expect(refused).toBeGreaterThan(200);
    expect(refused).toBeLessThan(1800);
  });
});

describe('targets and units', () => {
  it('reads the same target from a catalogue product and from its cart line', () => {
    const product: ProductDto = {
      id: 9,
      nombre: 'Café molido',
      descripcion: 'Bolsa de 500 g',
      clave_interna: 'CAF-9',
      clave_cliente: 'X-9',
      unidad_de_medida: 'bolsa',
      precio: 1.15,
      impuesto: false,
      id_categoria: 2,
      categoria: 'Cafetería',
      imagen: '/api/img/a.jpg',
      miniatura: '/api/img/a-thumb.jpg',
      cantidad_limite: 4,
      disponibilidad: null,
    };
    const item: CartItemDto = {
      id: 9,
      cantidad: 2,
      costo: 1.15,
      fecha: '2026-03-02',
      nombre: 'Café molido',
      clave_interna: 'CAF-9',
      unidad_de_medida: 'bolsa',
      id_categoria: 2,
      categoria: 'Cafetería',
      impuesto: false,
      miniatura: '/api/img/a-thumb.jpg',
      cantidad_limite: 4,
      importe: 2.3,
      envio_posterior: null,
    };
    const expected: CartTarget = {
      id: 9,
      nombre: 'Café molido',
      clave: 'CAF-9',
      precio: 1.15,
      impuesto: false,
      idCategoria: 2,
      categoria: 'Cafetería',
      unidad: 'bolsa',
      miniatura: '/api/img/a-thumb.jpg',
      cantidadLimite: 4,
    };
    expect(targetFromProduct(product)).toEqual(expected);
    expect(targetFromCartItem(item)).toEqual(expected);
  });

  it('counts the cart’s units, of all of it or of one category', () => {
    const carrito = [
      cartItem({ ...pluma, cantidad: 3 }),
      cartItem({ ...carpeta, cantidad: 2 }),
      cartItem({ ...cafe, cantidad: 4 }),
    ];
    expect(cartUnits(carrito)).toBe(9);
    expect(cartUnits(carrito, 1)).toBe(5);
    expect(cartUnits(carrito, 2)).toBe(4);
    expect(cartUnits(carrito, 3)).toBe(0);
  });
});

describe('an add that no quantity can make (the disabled add button)', () => {
  const regular: Month = {
    modo: 'regular',
    presupuestoDefault: 300,
    budgets: [],
    orders: [],
    cart: [{ ...cafe, cantidad: 2 }],
    limiteDeCompras: -1,
  };
  const blocked = (m: Month, p: Product, sidebar = [1, 2]) => addBlocked(sessionOf(m, sidebar), targetOf(p));

  it('regular mode: blocked when one unit does not fit in what is left, with the server’s words', () => {
    // Left: 300 - 230 = 70; a pen is 29 + IVA 5 = 34 (fits), a 100 + IVA product is 116 (does not).
    expect(blocked(regular, pluma)).toBeNull();
    const caro: Product = { ...pluma, id: 7, precio: 100 };
    const refusal = blocked(regular, caro);
    expect(refusal).toEqual({ code: 'BUDGET', msg: MSG.presupuestoAgregar });
    expect(blockedLabel(refusal!)).toBe('Sin presupuesto');
    // The same answer as the server would give for one unit.
    expect(refusal).toEqual(serverRefusal(regular, caro, 1));
  });

  it('never blocks a product already in the cart: its quantity can still go down', () => {
    expect(blocked({ ...regular, presupuestoDefault: 1 }, cafe)).toBeNull();
  });

  it('category mode: a category without budget, or with less left than one unit, blocks its products only', () => {
    const m: Month = {
      modo: 'categoria',
      presupuestoDefault: 0,
      budgets: [{ id: 1, presupuesto: 40 }],
      orders: [],
      cart: [],
      limiteDeCompras: -1,
    };
    expect(blocked(m, pluma)).toBeNull();
    expect(blocked(m, cafe)).toEqual({
      code: 'CATEGORY_BUDGET',
      msg: MSG.presupuestoCategoria('Categoría 2', '$0.00'),
    });
    // 40 left in category 1; a product of 35 + IVA 6 = 41 does not fit.
    expect(blocked(m, { ...carpeta, id: 8, precio: 35 })).toMatchObject({ code: 'CATEGORY_BUDGET' });
  });

  it('the month’s purchase limit reached blocks every product, with its own label', () => {
    const m: Month = { ...regular, cart: [], orders: [order({ ...pluma, cantidad: 1 })], limiteDeCompras: 1 };
    const refusal = blocked(m, pluma);
    expect(refusal).toEqual({ code: 'PURCHASE_LIMIT', msg: MSG.limiteDeCompras });
    expect(blockedLabel(refusal!)).toBe('Límite de pedidos');
  });
});

describe('the buyer’s área (decision 0123)', () => {
  // A buyer with plenty of its own budget and a coffee (115, untaxed) in the cart.
  const m: Month = {
    modo: 'regular',
    presupuestoDefault: 100_000,
    budgets: [],
    orders: [],
    cart: [{ ...cafe, cantidad: 1 }],
    limiteDeCompras: -1,
  };
  /** The session with an área of `presupuesto` centavos whose orders spent `utilizado`, as the server sends it. */
  function withArea(presupuesto: number, utilizado: number): ShopperSession {
    const s = sessionOf(m, [1, 2]);
    const carrito = serverState(m, m.cart).carrito;
    s.presupuesto.area = {
      id: 9,
      nombre: 'Mantenimiento',
      codigo: 'MANT',
      presupuesto: centavosToPesos(presupuesto),
      utilizado: centavosToPesos(utilizado),
      restante: centavosToPesos(presupuesto - utilizado - carrito),
    };
    return s;
  }

  it('a cart that grows must fit in what the área has left, with the server’s words and figure', () => {
    // Left: 300 - 100 = 200. Coffee 115 + 3 folders 66 + IVA 11 = 192 fits; 4 folders 88 + 14 = 217 do not.
    const s = withArea(300, 100);
    expect(cartRefusal(s, targetOf(carpeta), 3)).toBeNull();
    // What the área could still take without the changed line: 200 - 115 = 85.
    expect(cartRefusal(s, targetOf(carpeta), 4)).toEqual({
      code: 'AREA_BUDGET',
      msg: MSG.presupuestoAreaCarrito('Mantenimiento', '$0.85'),
    });
    // The buyer's own refusals come first.
    expect(cartRefusal(s, targetOf(carpeta), 11)).toMatchObject({ code: 'OVER_QUANTITY_LIMIT' });
  });

  it('blocks a product not even one unit of fits; a cart that does not grow is never refused', () => {
    // Left after the coffee: 300 - 100 - 115 = 85; a product of 100 + IVA 16 does not fit.
    const s = withArea(300, 100);
    const caro: Product = { ...pluma, id: 7, precio: 100 };
    expect(addBlocked(s, targetOf(caro))).toMatchObject({ code: 'AREA_BUDGET' });
    expect(blockedLabel(addBlocked(s, targetOf(caro))!)).toBe('Sin presupuesto');
    // The área's budget was lowered below the cart: the coffee's quantity may stay.
    expect(cartRefusal(withArea(50, 0), targetOf(cafe), 1)).toBeNull();
    // Without an área nothing changes.
    expect(cartRefusal(sessionOf(m, [1, 2]), targetOf(carpeta), 4)).toBeNull();
  });
});
