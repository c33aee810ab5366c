import type { CategoryDto, ShopperSession } from '@portal/shared/schemas/shopping';
import { describe, expect, it } from 'vitest';
import { areaFigures, budgetCardFigures, categoryRemaining, usedAlert } from './budget-figures';

function shopper(presupuesto: Partial<ShopperSession['presupuesto']>, units: [number, number][] = []) {
  return {
    presupuesto: {
      tipo_presupuesto: 'regular',
      presupuesto_total: 0,
      presupuesto_utilizado: 0,
      presupuesto_restante: 0,
      presupuesto_carrito: 0,
      productos_totales: units.reduce((n, [, cantidad]) => n + cantidad, 0),
      limite_de_compras: -1,
      cantidad_de_compras: 0,
      mostrar: true,
      mes: '2026-03',
      alertas_presupuesto: [80, 100],
      ampliaciones: 0,
      area: null,
      ...presupuesto,
    },
    categorias: [],
    carrito: units.map(([idCategoria, cantidad], i) => ({
      id: i + 1,
      cantidad,
      costo: 1,
      fecha: '2026-03-02',
      nombre: `Producto ${i + 1}`,
      clave_interna: `P-${i + 1}`,
      unidad_de_medida: 'pieza',
      id_categoria: idCategoria,
      categoria: `Categoría ${idCategoria}`,
      impuesto: true,
      miniatura: null,
      cantidad_limite: 10,
      importe: cantidad,
      envio_posterior: null,
    })),
    totales: { subtotal: 0, iva: 0, total: 0 },
    direccion: { direccion_entrega: '', calle: '', colonia: '', ciudad: '', cp: '' },
  } satisfies ShopperSession;
}

function category(id: number, presupuesto: number | null, utilizado: number | null, restante: number | null) {
  return {
    id,
    nombre: `Categoría ${id}`,
    icono: 'IconBox',
    productos: 1,
    presupuesto,
    utilizado,
    restante,
  } satisfies CategoryDto;
}

describe('the shopper’s budget cards', () => {
  it('shows the month in centavos, with the cart as what the budget lost besides the orders', () => {
    // 0.29 and 0.58 are not exact in binary: the cart is still 1,000.00 - 600.29 - 399.13 = 0.58.
    const s = shopper(
      { presupuesto_total: 1000, presupuesto_utilizado: 600.29, presupuesto_restante: 399.13 },
      [
        [1, 2],
        [2, 3],
      ],
    );
    expect(budgetCardFigures(s)).toEqual({
      byCategory: false,
      total: 100_000,
      utilizado: 60_029,
      restante: 39_913,
      enCarrito: 58,
      unidades: 5,
      usedPct: ((60_029 + 58) / 100_000) * 100,
    });
  });

  it('caps the bar at 100% when the month is overdrawn, and leaves a negative remaining as it is', () => {
    // Orders approved after a budget was lowered: used 120 of 100, nothing in the cart.
    const s = shopper({ presupuesto_total: 100, presupuesto_utilizado: 120, presupuesto_restante: -20 });
    expect(budgetCardFigures(s)).toMatchObject({ restante: -2000, enCarrito: 0, usedPct: 100 });
  });

  it('shows no bar without a budget', () => {
    expect(budgetCardFigures(shopper({}))).toMatchObject({ total: 0, usedPct: 0 });
  });

  it('on a category page in category mode shows that category and counts only its units', () => {
    const s = shopper(
      {
        tipo_presupuesto: 'categoria',
        presupuesto_total: 800,
        presupuesto_utilizado: 100,
        presupuesto_restante: 650,
      },
      [
        [1, 2],
        [2, 3],
        [1, 1],
      ],
    );
    const figures = budgetCardFigures(s, category(1, 200, 50.5, 120.25));
    expect(figures).toEqual({
      byCategory: true,
      total: 20_000,
      utilizado: 5050,
      restante: 12_025,
      enCarrito: 2925,
      unidades: 3,
      usedPct: ((5050 + 2925) / 20_000) * 100,
    });
  });

  it('shows the month in regular mode or when the category has no budget figures', () => {
    const regular = shopper({ presupuesto_total: 500, presupuesto_utilizado: 0, presupuesto_restante: 500 }, [
      [1, 2],
      [2, 3],
    ]);
    expect(budgetCardFigures(regular, category(1, null, null, null))).toMatchObject({
      byCategory: false,
      total: 50_000,
      unidades: 5,
    });
    const categoria = shopper({
      tipo_presupuesto: 'categoria',
      presupuesto_total: 300,
      presupuesto_restante: 300,
    });
    expect(budgetCardFigures(categoria, category(1, null, null, null))).toMatchObject({
      byCategory: false,
      total: 30_000,
    });
    expect(budgetCardFigures(categoria, null)).toMatchObject({ byCategory: false, total: 30_000 });
  });
});

describe('each category’s remaining budget (category mode, all products)', () => {
  it('lists what each category has left, those without a budget last', () => {
    const s = {
      ...shopper({ tipo_presupuesto: 'categoria', presupuesto_total: 300, presupuesto_restante: 180 }),
      categorias: [category(3, 0, 0, 0), category(1, 200, 50.5, 120.25), category(2, 100, 0, 59.75)],
    };
    expect(categoryRemaining(s)).toEqual([
      { id: 1, nombre: 'Categoría 1', icono: 'IconBox', total: 20_000, restante: 12_025, usedPct: 39.875 },
      { id: 2, nombre: 'Categoría 2', icono: 'IconBox', total: 10_000, restante: 5975, usedPct: 40.25 },
      { id: 3, nombre: 'Categoría 3', icono: 'IconBox', total: 0, restante: 0, usedPct: 100 },
    ]);
  });

  it('keeps an overdrawn category’s negative remaining, with a full bar; nothing in regular mode', () => {
    const s = {
      ...shopper({ tipo_presupuesto: 'categoria' }),
      categorias: [category(1, 100, 120, -20)],
    };
    expect(categoryRemaining(s)).toMatchObject([{ restante: -2000, usedPct: 100 }]);
    expect(categoryRemaining(shopper({}))).toBeNull();
  });
});

describe('the "Utilizado" card by the client thresholds', () => {
  const figures = (s: ShopperSession) => budgetCardFigures(s);
  const at = (utilizado: number, alertas = [80, 100]) =>
    shopper({
      presupuesto_total: 1000,
      presupuesto_utilizado: utilizado,
      presupuesto_restante: 1000 - utilizado,
      mes: '2026-11',
      alertas_presupuesto: alertas,
    }) as ShopperSession;

  it('plain below the first threshold, amber from it, red from 100%, with the sentence', () => {
    const below = at(799.99);
    expect(usedAlert(below, figures(below))).toEqual({ level: 'normal', sentence: null });
    const amber = at(820);
    expect(usedAlert(amber, figures(amber))).toEqual({
      level: 'aviso',
      sentence: 'Has usado el 82% de tu presupuesto de noviembre',
    });
    const red = at(1000);
    expect(usedAlert(red, figures(red))).toEqual({
      level: 'agotado',
      sentence: 'Has usado el 100% de tu presupuesto de noviembre',
    });
    const low = at(500, [50]);
    expect(usedAlert(low, figures(low)).level).toBe('aviso');
  });

  it('the cart does not count (the alert is about orders); a budget of 0 never reads as used', () => {
    const s = shopper({
      presupuesto_total: 1000,
      presupuesto_utilizado: 100,
      presupuesto_restante: 50,
      mes: '2026-11',
    }) as ShopperSession;
    expect(usedAlert(s, figures(s)).level).toBe('normal');
    const none = shopper({
      presupuesto_total: 0,
      presupuesto_utilizado: 0,
      mes: '2026-11',
    }) as ShopperSession;
    expect(usedAlert(none, figures(none)).level).toBe('normal');
  });

  it('on a category page: the category figures and its name', () => {
    const categoria = {
      id: 7,
      nombre: 'Papelería',
      icono: 'IconPencil',
      productos: 3,
      presupuesto: 200,
      utilizado: 190,
      restante: 10,
    };
    const s = {
      ...shopper({ tipo_presupuesto: 'categoria', presupuesto_total: 1000, mes: '2026-11' }),
      categorias: [categoria],
    } as ShopperSession;
    const f = budgetCardFigures(s, categoria);
    expect(usedAlert(s, f, categoria)).toEqual({
      level: 'aviso',
      sentence: 'Has usado el 95% de tu presupuesto de Papelería de noviembre',
    });
  });
});

describe('the área’s line (decision 0123)', () => {
  const area = (presupuesto: number, utilizado: number, restante: number) =>
    shopper({ area: { id: 3, nombre: 'Mantenimiento', codigo: 'MANT', presupuesto, utilizado, restante } });

  it('is absent without an área', () => {
    expect(areaFigures(shopper({}))).toBeNull();
  });

  it('reads the área’s month in centavos, the cart as what it lost besides the orders', () => {
    // 300.00 budget, 120.29 spent by the área's orders, 99.13 left after the cart: the cart is 80.58.
    expect(areaFigures(area(300, 120.29, 99.13))).toEqual({
      nombre: 'Mantenimiento',
      codigo: 'MANT',
      total: 30_000,
      utilizado: 12_029,
      enCarrito: 8058,
      restante: 9913,
      usedPct: ((30_000 - 9913) / 30_000) * 100,
      level: 'normal',
    });
  });

  it('warns by the client’s thresholds, and is spent at 100% or beyond', () => {
    expect(areaFigures(area(100, 70, 15))?.level).toBe('aviso');
    expect(areaFigures(area(100, 90, -5))).toMatchObject({ level: 'agotado', usedPct: 100 });
    // No budget at all: nothing to use.
    expect(areaFigures(area(0, 0, 0))).toMatchObject({ usedPct: 100, level: 'normal' });
  });
});
