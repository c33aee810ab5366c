import { describe, expect, it } from 'vitest';
import { type MatchConcept, type MatchLine, matchInvoice, unitsText } from './invoice-match.ts';

const papel: MatchLine = {
  id: 1,
  claveInterna: 'PAP-0001',
  nombre: 'Papel bond carta',
  unidad: 'Pieza',
  precio: 10_000,
  impuesto: true,
  llegado: 2,
  base: 'recibidas',
  yaFacturado: 0,
};
const concept = (over: Partial<MatchConcept> = {}): MatchConcept => ({
  numero: 1,
  noIdentificacion: 'PAP-0001',
  descripcion: 'Papel bond carta',
  cantidad: '2',
  valorUnitario: '100.00',
  importe: 20_000,
  descuento: 0,
  ...over,
});

describe('matchInvoice', () => {
  it('an invoice of what arrived at the order’s price is conciliada, nothing in excess', () => {
    const r = matchInvoice([papel], [concept()], 23_200);
    expect(r).toMatchObject({ estado: 'conciliada', diferencias: [], exceso: 0, facturado: { 1: 2 } });
  });

  it('more units than received: «Factura 3 piezas, recibidas 2», the third unit with IVA in excess', () => {
    const r = matchInvoice([papel], [concept({ cantidad: '3', importe: 30_000 })], 34_800);
    expect(r.estado).toBe('con_diferencias');
    expect(r.diferencias).toEqual([
      expect.objectContaining({
        tipo: 'cantidad',
        texto: 'Factura 3 piezas, recibidas 2',
        clave: 'PAP-0001',
      }),
    ]);
    expect(r.exceso).toBe(11_600);
  });

  it('shipped when not received, and what earlier invoices billed', () => {
    const line = { ...papel, base: 'enviadas' as const, llegado: 3, yaFacturado: 2 };
    const r = matchInvoice([line], [concept()], 23_200);
    expect(r.diferencias.map((d) => d.texto)).toEqual(['Factura 2 piezas, enviadas 3, ya facturadas 2']);
  });

  it('billing fewer units than arrived is no difference', () => {
    const r = matchInvoice([papel], [concept({ cantidad: '1', importe: 10_000 })], 11_600);
    expect(r.estado).toBe('conciliada');
    expect(r.exceso).toBe(0);
  });

  it('a price off by more than a centavo per line: «Precio facturado $105.00, pedido $100.00»', () => {
    const r = matchInvoice([papel], [concept({ valorUnitario: '105.00', importe: 21_000 })], 24_360);
    expect(r.diferencias.map((d) => d.texto)).toEqual(['Precio facturado $105.00, pedido $100.00']);
    expect(r.exceso).toBe(1_160);
  });

  it('one centavo per line is within the tolerance, two are not', () => {
    expect(matchInvoice([papel], [concept({ importe: 20_001 })], 23_201).estado).toBe('conciliada');
    expect(matchInvoice([papel], [concept({ importe: 20_002 })], 23_202).estado).toBe('con_diferencias');
  });

  it('a concept of no order line and a line in two concepts are differences', () => {
    const r = matchInvoice(
      [papel],
      [
        concept({ cantidad: '1', importe: 10_000 }),
        concept({ numero: 2, cantidad: '1', importe: 10_000, noIdentificacion: ' pap-0001 ' }),
        concept({ numero: 3, noIdentificacion: 'XYZ-9', descripcion: 'Flete' }),
        concept({ numero: 4, noIdentificacion: null, descripcion: 'Servicio' }),
      ],
      46_400,
    );
    expect(r.diferencias.map((d) => [d.tipo, d.conceptos])).toEqual([
      ['sin_producto', [3]],
      ['sin_producto', [4]],
      ['duplicado', [1, 2]],
    ]);
    expect(r.diferencias[0]!.texto).toBe('Concepto 3: la clave XYZ-9 no es de ningún producto del pedido');
  });

  it('units read "pieza", "piezas", "unidades"', () => {
    expect(unitsText(1, 'Pieza')).toBe('1 pieza');
    expect(unitsText(4, 'Caja')).toBe('4 unidades');
  });

  /** A small seeded generator (xorshift): the same cases on every run. */
  const random = (seed: number) => () => {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 4_294_967_296;
  };

  it('property: an invoice of at most what arrived at the order’s prices is always conciliada', () => {
    const next = random(42);
    const int = (max: number) => Math.floor(next() * (max + 1));
    for (let run = 0; run < 300; run++) {
      const spec = Array.from({ length: 1 + int(7) }, () => ({
        precio: 1 + int(999_999),
        llegado: int(50),
        q: int(50),
      }));
      const lines = spec.map((s, i) => ({
        ...papel,
        id: i + 1,
        claveInterna: `P-${i}`,
        precio: s.precio,
        llegado: s.llegado,
      }));
      const concepts = spec
        .map((s, i) => ({ q: Math.min(s.q, s.llegado), precio: s.precio, i }))
        .filter(({ q }) => q > 0)
        .map(({ q, precio, i }, n) =>
          concept({
            numero: n + 1,
            noIdentificacion: `P-${i}`,
            cantidad: String(q),
            valorUnitario: (precio / 100).toFixed(2),
            importe: q * precio,
          }),
        );
      expect(matchInvoice(lines, concepts, 0).estado).toBe('conciliada');
    }
  });

  it('property: billing one unit more than may be billed is always a quantity difference', () => {
    for (let llegado = 0; llegado <= 30; llegado++)
      for (let ya = 0; ya <= 30; ya += 3) {
        const q = Math.max(0, llegado - ya) + 1;
        const line = { ...papel, llegado, yaFacturado: ya };
        const r = matchInvoice([line], [concept({ cantidad: String(q), importe: q * 10_000 })], 0);
        expect(r.diferencias.some((d) => d.tipo === 'cantidad')).toBe(true);
      }
  });
});
