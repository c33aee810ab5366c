import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { budgetState, canPlaceAnotherOrder, monthUsedOf } from './budget.ts';
import { approverQuantityProblem, cartChangeProblem, quantityProblem } from './cart.ts';
import { businessMonth } from './time.ts';

const line = (idCategoria: number, precio: number, cantidad: number, impuesto = true) => ({
  idCategoria,
  precio,
  cantidad,
  impuesto,
});

describe('budget state', () => {
  it('the month added up (the running month) gives the same state as the orders themselves', () => {
    const orders = [
      { lines: [line(1, 1999, 1), line(1, 3333, 2), line(2, 777, 3, false)], total: 8665 + 1386 + 2331 },
      { lines: [line(2, 777, 1), line(3, 12345, 1)], total: 13122 + 2100 },
    ];
    const used = monthUsedOf(orders);
    // IVA rounded per order and category: 8665 × 16% = 1386.4 → 1386; 777 × 16% = 124.32 → 124.
    expect(used).toEqual({
      total: orders[0]!.total + orders[1]!.total,
      categorias: new Map([
        [1, 8665 + 1386],
        [2, 2331 + 777 + 124],
        [3, 12345 + 1975],
      ]),
    });
    for (const modo of ['regular', 'categoria'] as const) {
      const input = {
        modo,
        presupuestoDefault: 50_000,
        categorias: [
          { id: 1, presupuesto: 20_000 },
          { id: 2, presupuesto: 5_000 },
        ],
        cart: [line(2, 100, 1)],
      };
      expect(budgetState({ ...input, used })).toEqual(budgetState({ ...input, orders }));
    }
  });

  it('regular: used is the month orders, remaining counts the cart with IVA (taxable lines only)', () => {
    const s = budgetState({
      modo: 'regular',
      presupuestoDefault: 500000,
      categorias: [],
      orders: [
        { lines: [], total: 11600 },
        { lines: [], total: 5000 },
      ],
      cart: [line(1, 10000, 2, true), line(2, 4550, 1, false)],
    });
    // cart: 200.00 taxable (+32.00 IVA) + 45.50 exempt = 277.50
    expect(s).toMatchObject({
      presupuesto: 500000,
      utilizado: 16600,
      carrito: 27750,
      restante: 500000 - 16600 - 27750,
    });
  });

  it('rounds IVA once over the whole cart, not per line', () => {
    const s = budgetState({
      modo: 'regular',
      presupuestoDefault: 100,
      categorias: [],
      orders: [],
      cart: [line(1, 3, 1), line(1, 3, 1), line(1, 3, 1)],
    });
    expect(s.carrito).toBe(10); // 9 + round(1.44) = 10; per line it would be 9
  });

  it('category: figures per budgeted category; unbudgeted categories are absent', () => {
    const s = budgetState({
      modo: 'categoria',
      presupuestoDefault: 0,
      categorias: [
        { id: 1, presupuesto: 150000 },
        { id: 2, presupuesto: 80000 },
        { id: 3, presupuesto: 0 },
      ],
      orders: [{ lines: [line(1, 10000, 1), line(2, 5000, 2, false)], total: 21600 }],
      cart: [line(1, 1000, 1), line(4, 999, 1)],
    });
    expect(s.categorias.get(1)).toEqual({
      presupuesto: 150000,
      utilizado: 11600,
      carrito: 1160,
      restante: 150000 - 11600 - 1160,
    });
    expect(s.categorias.get(2)).toEqual({
      presupuesto: 80000,
      utilizado: 10000,
      carrito: 0,
      restante: 70000,
    });
    expect(s.categorias.has(3)).toBe(false);
    expect(s.categorias.has(4)).toBe(false);
    expect(s.presupuesto).toBe(230000);
    expect(s.utilizado).toBe(21600);
  });

  it('the month of an order is the business month (orders are selected with businessMonth)', () => {
    const lateJanuary = new Date('2026-02-01T05:59:00Z');
    const range = businessMonth(new Date('2026-01-15T12:00:00Z'));
    expect(lateJanuary >= range.start && lateJanuary < range.end).toBe(true);
    expect(new Date('2026-02-01T06:00:00Z') < range.end).toBe(false);
  });

  it('purchase limit: -1 unlimited', () => {
    expect(canPlaceAnotherOrder(-1, 1000)).toBe(true);
    expect(canPlaceAnotherOrder(4, 3)).toBe(true);
    expect(canPlaceAnotherOrder(4, 4)).toBe(false);
    expect(canPlaceAnotherOrder(0, 0)).toBe(false);
  });
});

describe('cart rules', () => {
  const state = (restante: number) =>
    budgetState({ modo: 'regular', presupuestoDefault: restante, categorias: [], orders: [], cart: [] });
  const base = {
    asignado: true,
    activo: true,
    cantidad: 1,
    cantidadLimite: 3,
    limiteDeCompras: -1,
    comprasDelMes: 0,
    enCarrito: false,
    modo: 'regular' as const,
    idCategoria: 1,
    categoriaNombre: 'Papelería',
    after: state(0),
    without: state(100),
  };

  it('checks in order: assigned, active, quantity, purchase limit, budget', () => {
    expect(cartChangeProblem({ ...base, asignado: false, activo: false })?.code).toBe('NOT_ASSIGNED');
    expect(cartChangeProblem({ ...base, activo: false, cantidad: 0 })?.code).toBe('INACTIVE_PRODUCT');
    expect(cartChangeProblem({ ...base, cantidad: 4, limiteDeCompras: 0 })?.msg).toBe(MSG.excedeCantidad(3));
    expect(cartChangeProblem({ ...base, limiteDeCompras: 2, comprasDelMes: 2, after: state(-1) })?.msg).toBe(
      MSG.limiteDeCompras,
    );
    expect(cartChangeProblem({ ...base, after: state(-1) })?.msg).toBe(MSG.presupuestoAgregar);
    expect(cartChangeProblem({ ...base, enCarrito: true, after: state(-1) })?.msg).toBe(
      MSG.presupuestoActualizar,
    );
    expect(cartChangeProblem(base)).toBeNull();
  });

  it('quantities are whole numbers from 1 to the limit', () => {
    expect(quantityProblem(0, 3)?.msg).toBe(MSG.cantidadInvalida);
    expect(quantityProblem(-2, 3)?.msg).toBe(MSG.cantidadInvalida);
    expect(quantityProblem(1.5, 3)?.msg).toBe(MSG.cantidadInvalida);
    expect(quantityProblem(Number.NaN, 3)?.msg).toBe(MSG.cantidadInvalida);
    expect(quantityProblem('2', 3)?.msg).toBe(MSG.cantidadInvalida);
    expect(quantityProblem(3, 3)).toBeNull();
  });

  it("an approver's quantity: whole and ≥ 1, within the limit unless left as it was", () => {
    expect(approverQuantityProblem(0, 3, 2)?.msg).toBe(MSG.cantidadAutorizadorInvalida);
    expect(approverQuantityProblem(2.5, 3, 2)?.code).toBe('BAD_QUANTITY');
    expect(approverQuantityProblem(4, 3, 2)).toEqual({
      code: 'OVER_QUANTITY_LIMIT',
      msg: MSG.excedeCantidad(3),
    });
    // The limit was lowered after the purchase: the quantity as placed is kept, a new one above it is not.
    expect(approverQuantityProblem(5, 3, 5)).toBeNull();
    expect(approverQuantityProblem(4, 3, 5)?.code).toBe('OVER_QUANTITY_LIMIT');
    expect(approverQuantityProblem(3, 3, 5)).toBeNull();
  });
});
