import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { parseQuickOrder } from './quick-order.ts';

describe('parseQuickOrder', () => {
  it('reads tab, comma, semicolon and space separated lines, numbering blank lines too', () => {
    expect(parseQuickOrder('A-1\t2\r\n\r\nB-2, 3\nC-3;4\n   D-4    5  \rE 6')).toEqual({
      lineas: [
        { linea: 1, clave: 'A-1', cantidad: 2 },
        { linea: 3, clave: 'B-2', cantidad: 3 },
        { linea: 4, clave: 'C-3', cantidad: 4 },
        { linea: 5, clave: 'D-4', cantidad: 5 },
        { linea: 6, clave: 'E', cantidad: 6 },
      ],
      invalidas: [],
      conContenido: 5,
    });
  });

  it('keeps a clave with a space when Excel separates the cells with a tab', () => {
    expect(parseQuickOrder('CAJA 12\t3\t').lineas).toEqual([{ linea: 1, clave: 'CAJA 12', cantidad: 3 }]);
  });

  it('reports each unreadable line with its reason', () => {
    const { lineas, invalidas } = parseQuickOrder('A 0\nA 1.5\nA 1,5\nA -2\nA\nA 1 2\nA 100001\nA 100000');
    expect(lineas).toEqual([{ linea: 8, clave: 'A', cantidad: 100_000 }]);
    expect(invalidas.map((l) => [l.linea, l.motivo])).toEqual([
      [1, MSG.pedidoRapidoCantidad],
      [2, MSG.pedidoRapidoCantidad],
      [3, MSG.pedidoRapidoCantidad],
      [4, MSG.pedidoRapidoCantidad],
      [5, MSG.pedidoRapidoFaltaCantidad],
      [6, MSG.pedidoRapidoFormato],
      [7, MSG.pedidoRapidoCantidad],
    ]);
  });
});
