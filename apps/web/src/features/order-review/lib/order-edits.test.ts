/**
 * The authorizer's local edits must reach the figures the server computes on approval
 * (apps/server/src/modules/approval/authorizer.service.ts approvalBudget): prices converted from pesos
 * without float drift, IVA rounded once per order (per category in category mode), the buyer's other
 * orders of the month taken off the budget, and the same quantity rules.
 */
import { MSG } from '@portal/shared/messages';
import type { AuthorizerOrderView } from '@portal/shared/schemas/orders';
import { describe, expect, it } from 'vitest';
import {
  approvalLines,
  budgetAfter,
  buyerName,
  checkQuantity,
  editSummary,
  hasEdits,
  initialQuantities,
  overBudgetText,
  type Quantities,
  totalsFor,
  unitsFor,
} from './order-edits';

type Line = AuthorizerOrderView['pedido']['lineas'][number];
type Budget = AuthorizerOrderView['presupuesto'];

function line(
  id: number,
  nombre: string,
  costo: number,
  cantidad: number,
  impuesto: boolean,
  categoria: string,
) {
  return {
    id: id * 10,
    id_producto: id,
    clave_interna: `P-${id}`,
    clave_cliente: `C-${id}`,
    nombre,
    unidad_de_medida: 'pieza',
    categoria,
    costo,
    impuesto,
    cantidad,
    importe: Math.round(costo * cantidad * 100) / 100,
  } satisfies Line;
}

function view(lineas: Line[], presupuesto: Budget, limites: Record<string, number>): AuthorizerOrderView {
  return {
    pedido: {
      id: 7,
      status: 'pendiente',
      transaction_date: '2026-03-02T18:00:00.000Z',
      subtotal: 0,
      iva: 0,
      total: 0,
      motivo_cancelacion: null,
      lineas,
      eventos: [],
    },
    usuario: { id: 3, nombre: 'Ana', usuario: 'ana' },
    presupuesto,
    pedidos_del_mes: [],
    limites,
    reglas: { aprobacion_automatica_hasta: null, segundo_nivel_desde: null, ventana_horas: 24, previos: 0 },
    acciones: { aprobar: true, cancelar: true, editar: true, devolver: false },
  };
}

function regular(disponible: number, utilizado: number): Budget {
  return {
    tipo_presupuesto: 'regular',
    disponible,
    utilizado,
    restante: 0,
    productos: 0,
    categorias: [],
    area: null,
  };
}

// Two taxable lines of 3 centavos (IVA 0.48 each, 0.96 together) and an untaxed $0.29 line
// (0.29 * 100 is 28.999… in floating point).
const sobres = line(1, 'Sobres', 0.03, 1, true, 'Papelería');
const clips = line(2, 'Clips', 0.03, 1, true, 'Papelería');
const azucar = line(3, 'Azúcar', 0.29, 3, false, 'Cafetería');
const lineas = [sobres, clips, azucar];
const limites = { '1': 10, '2': 10, '3': 3 };

const edit = (entries: [number, number][]): Quantities => new Map(entries);

describe('order totals while editing', () => {
  it('rounds IVA once over the kept taxable lines and converts prices exactly', () => {
    // subtotal 3 + 3 + 87 = 93; IVA 16% of the taxable 6 = 0.96 -> 1 (per line it would be 0 + 0).
    expect(totalsFor(lineas, initialQuantities(lineas))).toEqual({ subtotal: 93, iva: 1, total: 94 });
  });

  it('drops removed lines, and the IVA with them', () => {
    // Without the clips the taxable 3 centavos give 0.48 of IVA: rounded down to 0.
    const q = edit([
      [1, 1],
      [3, 3],
    ]);
    expect(totalsFor(lineas, q)).toEqual({ subtotal: 90, iva: 0, total: 90 });
  });

  it('rounds a taxable subtotal of 22 centavos up to 4 of IVA (3.52)', () => {
    const carpeta = line(4, 'Carpeta', 0.11, 1, true, 'Papelería');
    expect(totalsFor([carpeta], edit([[4, 2]]))).toEqual({ subtotal: 22, iva: 4, total: 26 });
  });

  it('counts units and tells edits apart from the order as it came', () => {
    const initial = initialQuantities(lineas);
    expect(unitsFor(initial)).toBe(5);
    expect(hasEdits(lineas, initial)).toBe(false);
    expect(
      hasEdits(
        lineas,
        edit([
          [1, 1],
          [2, 1],
          [3, 2],
        ]),
      ),
    ).toBe(true);
    expect(
      hasEdits(
        lineas,
        edit([
          [1, 1],
          [3, 3],
        ]),
      ),
    ).toBe(true);
    // Changed and changed back is no edit.
    expect(hasEdits(lineas, new Map([...initial]))).toBe(false);
  });
});

describe('what Approve sends and what the dialog lists', () => {
  it('sends every kept line with its quantity, in the order of the lines, and never a removed one', () => {
    const q = edit([
      [3, 1],
      [1, 4],
    ]);
    expect(approvalLines(lineas, q)).toEqual([
      { id: 1, cantidad: 4 },
      { id: 3, cantidad: 1 },
    ]);
  });

  it('lists removals, quantity changes and the total before and after', () => {
    const q = edit([
      [1, 4],
      [3, 3],
    ]);
    const total = totalsFor(lineas, q).total;
    expect(total).toBe(101); // 12 + 87 = 99, IVA of 12 is 1.92 -> 2
    expect(editSummary(lineas, q, 94, total)).toEqual([
      'Sobres: 1 → 4',
      'Clips: se quita del pedido',
      'Total: $0.94 MXN → $1.01 MXN',
    ]);
  });

  it('lists nothing when nothing changed', () => {
    expect(editSummary(lineas, initialQuantities(lineas), 94, 94)).toEqual([]);
  });
});

describe('the buyer’s month with the order as edited (regular budget)', () => {
  it('takes the other orders and this order’s total off the budget; exactly 0 left is not over', () => {
    const v = view(lineas, regular(10, 9.06), limites);
    const after = budgetAfter(v, initialQuantities(lineas));
    expect(after).toMatchObject({ disponible: 1000, utilizado: 906, restante: 0, excedido: false });
  });

  it('is over by the centavo the order exceeds', () => {
    const v = view(lineas, regular(10, 9.07), limites);
    const after = budgetAfter(v, initialQuantities(lineas));
    expect(after).toMatchObject({ restante: -1, excedido: true });
    expect(overBudgetText(after, 'Ana')).toBe(
      'Con este pedido, el presupuesto del mes de Ana quedaría excedido por $0.01 MXN.',
    );
  });
});

describe('a quantity typed by the authorizer', () => {
  const fits = view(lineas, regular(10, 9.06), limites);
  const initial = initialQuantities(lineas);

  it.each([
    [''],
    ['   '],
    ['0'],
    ['-2'],
    ['1.5'],
    ['abc'],
    [2.5],
    [0],
  ])('refuses %j as not a whole number above 0, without putting the old one back', (raw) => {
    expect(checkQuantity(fits, initial, 1, raw)).toEqual({
      ok: false,
      error: MSG.cantidadAutorizadorInvalida,
      restore: false,
    });
  });

  it('accepts a number typed with spaces around it', () => {
    const result = checkQuantity(fits, initial, 3, ' 2 ');
    expect(result.ok && result.quantities.get(3)).toBe(2);
  });

  it('refuses more than the buyer’s limit for the product, and a product without one allows 1', () => {
    expect(checkQuantity(fits, initial, 3, 4)).toEqual({
      ok: false,
      error: MSG.excedeCantidad(3),
      restore: false,
    });
    const noLimit = view(lineas, regular(100, 0), { '1': 10, '3': 3 });
    expect(checkQuantity(noLimit, initial, 2, 2)).toEqual({
      ok: false,
      error: MSG.excedeCantidad(1),
      restore: false,
    });
  });

  it('keeps a quantity the buyer ordered above a limit lowered since (as the server does)', () => {
    const lowered = view(lineas, regular(10, 9.06), { '1': 10, '2': 10, '3': 2 });
    const down = checkQuantity(lowered, initial, 3, 1);
    expect(down.ok).toBe(true);
    if (!down.ok) return;
    // Back to the ordered 3 is allowed; 4 is not.
    expect(checkQuantity(lowered, down.quantities, 3, 3).ok).toBe(true);
    expect(checkQuantity(lowered, down.quantities, 3, 4)).toMatchObject({ ok: false, restore: false });
  });

  it('refuses a raise that leaves the month below 0 and puts the old quantity back', () => {
    // One more envelope: taxable 6 -> 9, IVA 1.44 -> 1, total 97 > the 94 left.
    expect(checkQuantity(fits, initial, 1, 2)).toEqual({
      ok: false,
      error: MSG.presupuestoAutorizador,
      restore: true,
    });
  });

  it('accepts a raise paid for by a lowering, and returns the new quantities without touching the old', () => {
    const lowered = checkQuantity(fits, initial, 3, 2);
    expect(lowered.ok).toBe(true);
    if (!lowered.ok) return;
    const raised = checkQuantity(fits, lowered.quantities, 1, 2);
    expect(raised.ok).toBe(true);
    if (!raised.ok) return;
    expect([...raised.quantities]).toEqual([
      [1, 2],
      [2, 1],
      [3, 2],
    ]);
    expect(lowered.quantities.get(1)).toBe(1);
    // 6 + 3 + 58 = 67 + IVA of 9 (1.44 -> 1) = 68 of the 94 left.
    expect(budgetAfter(fits, raised.quantities).restante).toBe(26);
  });

  it('always accepts a lowering, even while the order is still over budget', () => {
    const over = view(lineas, regular(10, 9.5), limites);
    const result = checkQuantity(over, initial, 3, 2);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(budgetAfter(over, result.quantities)).toMatchObject({ restante: -15, excedido: true });
  });
});

describe('category budgets', () => {
  // Each category's IVA is rounded on its own lines (as the server's spendOf per category).
  const carpeta = line(11, 'Carpeta', 0.22, 1, true, 'Papelería');
  const filtro = line(12, 'Filtro', 0.22, 1, true, 'Cafetería');
  const azucarCat = line(13, 'Azúcar', 0.29, 3, false, 'Cafetería');
  const catLines = [carpeta, filtro, azucarCat];
  const catLimits = { '11': 10, '12': 10, '13': 10 };

  function categoryView(papeleria: { disponible: number; utilizado: number }, extra: Line[] = []) {
    const categorias = [
      { id: 1, nombre: 'Papelería', restante: 0, ...papeleria },
      { id: 2, nombre: 'Cafetería', disponible: 5, utilizado: 0, restante: 0 },
      // Already overdrawn by other orders, but this order has nothing in it.
      { id: 3, nombre: 'Limpieza', disponible: 2, utilizado: 2.5, restante: 0 },
      // A budget row of 0: no budget.
      { id: 4, nombre: 'Regalos', disponible: 0, utilizado: 0, restante: 0 },
    ];
    // As the server sends them: the month's figures are the categories' sums.
    const sum = (pick: (c: (typeof categorias)[number]) => number) =>
      categorias.reduce((s, c) => s + Math.round(pick(c) * 100), 0) / 100;
    return view(
      [...catLines, ...extra],
      {
        tipo_presupuesto: 'categoria',
        disponible: sum((c) => c.disponible),
        utilizado: sum((c) => c.utilizado),
        restante: 0,
        productos: 0,
        categorias,
        area: null,
      },
      { ...catLimits, ...Object.fromEntries(extra.map((l) => [String(l.id_producto), 10])) },
    );
  }

  it('figures each category with its own IVA and adds them up for the month', () => {
    const v = categoryView({ disponible: 1.01, utilizado: 0.5 });
    const after = budgetAfter(v, initialQuantities(v.pedido.lineas));
    // Papelería: 22 + 4 (3.52) = 26. Cafetería: 22 + 87 + 4 = 113. Rounded once over the whole order the
    // IVA would be 7 (44 * 0.16 = 7.04), one centavo less than the two categories' 8.
    expect(after.categorias.map((c) => [c.nombre, c.pedido, c.restante, c.tocada])).toEqual([
      ['Papelería', 26, 101 - 50 - 26, true],
      ['Cafetería', 113, 500 - 113, true],
      ['Limpieza', 0, -50, false],
      ['Regalos', 0, 0, false],
    ]);
    expect(after).toMatchObject({ disponible: 801, utilizado: 300, restante: 801 - 300 - 139 });
    // The overdrawn category the order does not touch does not block it.
    expect(after.excedido).toBe(false);
  });

  it('judges a raise on the line’s own category: to exactly 0 left it passes, beyond it is put back', () => {
    const v = categoryView({ disponible: 1.01, utilizado: 0.5 });
    const initial = initialQuantities(v.pedido.lineas);
    // Two folders: 44 + 7 (7.04) = 51 of Papelería's 51 left.
    expect(checkQuantity(v, initial, 11, 2).ok).toBe(true);
    // Three: 66 + 11 (10.56) = 77.
    expect(checkQuantity(v, initial, 11, 3)).toEqual({
      ok: false,
      error: MSG.presupuestoAutorizador,
      restore: true,
    });
    // Cafetería has room: a raise there passes.
    expect(checkQuantity(v, initial, 13, 10).ok).toBe(true);
  });

  it('names the overdrawn categories the order touches, by how much', () => {
    const v = categoryView({ disponible: 1.01, utilizado: 0.8 });
    const after = budgetAfter(v, initialQuantities(v.pedido.lineas));
    expect(after.excedido).toBe(true);
    expect(overBudgetText(after, 'Ana')).toBe(
      'Con este pedido se excedería el presupuesto de: Papelería (por $0.05 MXN).',
    );
  });

  it('cannot be approved with a line in a category that has no budget for the buyer', () => {
    const lazo = line(14, 'Lazo', 0.5, 1, false, 'Regalos');
    const taza = line(15, 'Taza', 1, 1, false, 'Cocina');
    const v = categoryView({ disponible: 1.01, utilizado: 0 }, [lazo, taza]);
    const after = budgetAfter(v, initialQuantities(v.pedido.lineas));
    expect(after.excedido).toBe(true);
    expect(after.sinPresupuesto).toEqual(['Regalos', 'Cocina']);
    // Regalos is not also listed as overdrawn by its $0.50.
    expect(overBudgetText(after, 'Ana')).toBe(
      'Con este pedido se excedería el presupuesto de: Regalos (sin presupuesto asignado), Cocina (sin presupuesto asignado).',
    );
    // Removing those lines makes it approvable.
    const kept = edit([
      [11, 1],
      [12, 1],
      [13, 3],
    ]);
    expect(budgetAfter(v, kept)).toMatchObject({ excedido: false, sinPresupuesto: [] });
  });
});

describe('the buyer’s name', () => {
  it.each([
    [null, 'Usuario'],
    [undefined, 'Usuario'],
    ['  ', 'Usuario'],
    ['null', 'Usuario'],
    ['  Ana López ', 'Ana López'],
  ])('%j is shown as %j', (nombre, shown) => {
    expect(buyerName(nombre)).toBe(shown);
  });
});

describe('the order’s área (decision 0123)', () => {
  /** The buyer has room; the order is charged to an área of $10.00 whose other orders spent `utilizado`. */
  const withArea = (utilizado: number): Budget => ({
    ...regular(100, 0),
    area: { id: 4, nombre: 'Mantenimiento', codigo: 'MANT', presupuesto: 10, utilizado, restante: 0 },
  });

  it('takes the área’s other orders and this order (94 centavos) off its budget; 0 left is not over', () => {
    const after = budgetAfter(view(lineas, withArea(9.06), limites), initialQuantities(lineas));
    expect(after.area).toEqual({
      nombre: 'Mantenimiento',
      codigo: 'MANT',
      disponible: 1000,
      utilizado: 906,
      restante: 0,
    });
    expect(after.excedido).toBe(false);
    expect(budgetAfter(view(lineas, regular(100, 0), limites), initialQuantities(lineas)).area).toBeNull();
  });

  it('over the área, the approval is refused, and the warning names the área', () => {
    const after = budgetAfter(view(lineas, withArea(9.07), limites), initialQuantities(lineas));
    expect(after).toMatchObject({ restante: 9906, excedido: true, area: { restante: -1 } });
    expect(overBudgetText(after, 'Ana')).toBe(
      'Con este pedido, el presupuesto del área Mantenimiento quedaría excedido por $0.01 MXN.',
    );
    // Over both: the buyer's month first, then the área's.
    const both = budgetAfter(
      view(lineas, { ...withArea(9.07), disponible: 10, utilizado: 9.07 }, limites),
      initialQuantities(lineas),
    );
    expect(overBudgetText(both, 'Ana')).toBe(
      'Con este pedido, el presupuesto del mes de Ana quedaría excedido por $0.01 MXN. Además, el presupuesto del área Mantenimiento quedaría excedido por $0.01 MXN.',
    );
  });

  it('a raised quantity the área cannot take is put back, with the server’s words', () => {
    // Sobres 1 → 2: 94 → 97 centavos, 3 more than the área has left.
    const v = view(lineas, withArea(9.06), limites);
    expect(checkQuantity(v, initialQuantities(lineas), 1, 2)).toEqual({
      ok: false,
      error: MSG.presupuestoAreaAutorizador('Mantenimiento'),
      restore: true,
    });
    // Lowering is always accepted.
    expect(checkQuantity(v, initialQuantities(lineas), 3, 1)).toMatchObject({ ok: true });
  });
});
