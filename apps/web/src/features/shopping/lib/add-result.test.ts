import { describe, expect, it } from 'vitest';
import { addedLines, addResultSummary } from './add-result';

const item = (id: number, nombre: string, cantidad_limite = 5) => ({ id, nombre, cantidad_limite }) as never;

describe('addedLines', () => {
  it('names each added line from the cart in the answer, in the order of the answer', () => {
    const res = {
      agregados: [
        { id: 2, cantidad: 3 },
        { id: 1, cantidad: 1 },
      ],
      carrito: [item(1, 'Jabón'), item(2, 'Papel')],
    };
    expect(addedLines(res)).toEqual([
      { id: 2, nombre: 'Papel', cantidad: 3, limite: 5, ajuste: null },
      { id: 1, nombre: 'Jabón', cantidad: 1, limite: 5, ajuste: null },
    ]);
  });

  it('puts each cut line’s reason on its own line, also when a product comes twice', () => {
    const res = {
      agregados: [
        { id: 1, cantidad: 2 },
        { id: 2, cantidad: 1 },
        { id: 1, cantidad: 1 },
      ],
      carrito: [item(1, 'Jabón', 3), item(2, 'Papel')],
      ajustados: [{ id: 1, pedido: 4, agregado: 1, motivo: 'Se ajustó de 4 a 1 por tu límite.' }],
    };
    expect(addedLines(res).map((l) => [l.nombre, l.cantidad, l.limite, l.ajuste])).toEqual([
      ['Jabón', 2, 3, null],
      ['Papel', 1, 5, null],
      ['Jabón', 1, 3, 'Se ajustó de 4 a 1 por tu límite.'],
    ]);
  });

  it('falls back to the product id when the cart does not name it', () => {
    expect(addedLines({ agregados: [{ id: 9, cantidad: 2 }], carrito: [] })).toEqual([
      { id: 9, nombre: 'Producto 9', cantidad: 2, limite: null, ajuste: null },
    ]);
  });
});

describe('addResultSummary', () => {
  const omitido = { id: 1, nombre: 'X', motivo: 'm', codigo: 'C' };
  it('counts added and skipped in Spanish, singular and plural', () => {
    expect(addResultSummary({ agregados: [{ id: 1, cantidad: 1 }], omitidos: [] })).toBe(
      'Se agregó 1 producto al carrito.',
    );
    expect(
      addResultSummary({
        agregados: [
          { id: 1, cantidad: 1 },
          { id: 2, cantidad: 1 },
        ],
        omitidos: [omitido],
      }),
    ).toBe('Se agregaron 2 productos al carrito; 1 no se pudo agregar.');
    expect(addResultSummary({ agregados: [], omitidos: [omitido, omitido] })).toBe(
      'No se agregó ningún producto al carrito; 2 no se pudieron agregar.',
    );
  });
});
