import type { CategoryDto, ShopperSession } from '@portal/shared/schemas/shopping';
import { describe, expect, it } from 'vitest';
import {
  isTopupRefusal,
  offersTopup,
  overspentCategory,
  remainingFor,
  topupCategories,
  topupOffer,
  topupTargetOf,
} from './topups';

function category(id: number, presupuesto: number | null, restante: number | null): CategoryDto {
  return {
    id,
    nombre: `Categoría ${id}`,
    icono: 'IconBox',
    productos: 1,
    presupuesto,
    utilizado: 0,
    restante,
  };
}

function shopper(
  presupuesto: Partial<ShopperSession['presupuesto']>,
  categorias: CategoryDto[] = [],
): ShopperSession {
  return {
    presupuesto: {
      tipo_presupuesto: 'regular',
      presupuesto_total: 1000,
      presupuesto_utilizado: 600,
      presupuesto_restante: 150,
      presupuesto_carrito: 250,
      productos_totales: 0,
      limite_de_compras: -1,
      cantidad_de_compras: 0,
      mostrar: true,
      mes: '2026-03',
      alertas_presupuesto: [80, 100],
      ampliaciones: 0,
      area: null,
      ...presupuesto,
    },
    categorias,
    carrito: [],
    totales: { subtotal: 0, iva: 0, total: 0 },
    direccion: { direccion_entrega: '', calle: '', colonia: '', ciudad: '', cp: '' },
  };
}

const mantenimiento = {
  id: 4,
  nombre: 'Mantenimiento',
  codigo: 'MANT',
  presupuesto: 300,
  utilizado: 200,
  restante: -40,
};

describe('which budget a refusal asks more of', () => {
  it('the área’s for AREA_BUDGET, the buyer’s own (one category’s) for BUDGET and CATEGORY_BUDGET', () => {
    expect(topupTargetOf('AREA_BUDGET', 7)).toEqual({ destino: 'area', idCategoria: null });
    expect(topupTargetOf('CATEGORY_BUDGET', 7)).toEqual({ destino: 'usuario', idCategoria: 7 });
    expect(topupTargetOf('CATEGORY_BUDGET')).toEqual({ destino: 'usuario', idCategoria: null });
    expect(topupTargetOf('BUDGET', 7)).toEqual({ destino: 'usuario', idCategoria: null });
  });

  it('no other refusal offers one', () => {
    for (const code of ['PURCHASE_LIMIT', 'OVER_QUANTITY_LIMIT', 'CART_CHANGED', '', null, undefined]) {
      expect(topupTargetOf(code)).toBeNull();
      expect(isTopupRefusal(code)).toBe(false);
    }
    expect(isTopupRefusal('AREA_BUDGET')).toBe(true);
  });
});

describe('the request dialog', () => {
  it('category mode: the categories with a budget of their own; the first one a refused cart overdraws', () => {
    const s = shopper({ tipo_presupuesto: 'categoria' }, [
      category(1, 500, 20),
      category(2, 0, 0),
      category(3, 200, -15),
    ]);
    expect(topupCategories(s)).toEqual([
      { value: '1', label: 'Categoría 1' },
      { value: '3', label: 'Categoría 3' },
    ]);
    expect(overspentCategory(s)).toBe(3);
    expect(topupCategories(shopper({}))).toEqual([]);
    expect(overspentCategory(shopper({}))).toBeNull();
  });

  it('says what is left of the budget asked for', () => {
    expect(remainingFor(shopper({}), { destino: 'usuario', idCategoria: null })).toEqual({
      nombre: 'Tu presupuesto del mes',
      restante: 150,
    });
    expect(remainingFor(shopper({ area: mantenimiento }), { destino: 'area', idCategoria: null })).toEqual({
      nombre: 'Presupuesto del área Mantenimiento',
      restante: -40,
    });
    expect(remainingFor(shopper({}), { destino: 'area', idCategoria: null })).toBeNull();
    const byCategory = shopper({ tipo_presupuesto: 'categoria' }, [category(3, 200, -15)]);
    expect(remainingFor(byCategory, { destino: 'usuario', idCategoria: 3 })).toEqual({
      nombre: 'Tu presupuesto de Categoría 3',
      restante: -15,
    });
    // No category chosen yet.
    expect(remainingFor(byCategory, { destino: 'usuario', idCategoria: null })).toBeNull();
  });

  it('a budget card offers it once the first threshold is reached or nothing is left', () => {
    expect(offersTopup('normal', 100)).toBe(false);
    expect(offersTopup('aviso', 100)).toBe(true);
    expect(offersTopup('agotado', 0)).toBe(true);
    expect(offersTopup('normal', 0)).toBe(true);
  });
});

describe('the request a refusal offers', () => {
  const byCategory = shopper({ tipo_presupuesto: 'categoria' }, [category(1, 500, 20), category(2, 0, 0)]);

  it('a category’s only when it has a budget of its own; in regular mode the buyer’s whole budget', () => {
    expect(topupOffer(byCategory, 'CATEGORY_BUDGET', 1)).toEqual({ destino: 'usuario', idCategoria: 1 });
    expect(topupOffer(byCategory, 'CATEGORY_BUDGET', 2)).toBeNull();
    expect(topupOffer(byCategory, 'CATEGORY_BUDGET')).toEqual({ destino: 'usuario', idCategoria: null });
    expect(
      topupOffer(shopper({ tipo_presupuesto: 'categoria' }, [category(2, 0, 0)]), 'CATEGORY_BUDGET'),
    ).toBeNull();
    expect(topupOffer(shopper({}), 'BUDGET', 5)).toEqual({ destino: 'usuario', idCategoria: null });
    expect(topupOffer(byCategory, 'AREA_BUDGET', 2)).toEqual({ destino: 'area', idCategoria: null });
    expect(topupOffer(byCategory, 'PURCHASE_LIMIT', 1)).toBeNull();
  });
});
