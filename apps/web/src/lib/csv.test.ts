import { describe, expect, it } from 'vitest';
import { csvPesos, csvText } from './csv';

describe('csvText', () => {
  it('writes a BOM, a header and CRLF rows, quoting what needs it and neutralising formulas', () => {
    const text = csvText(
      ['Producto', 'Importe'],
      [
        ['Casco, blanco', csvPesos(1234.5)],
        ['=HYPERLINK("x")', 10],
        ['Guantes', null],
      ],
    );
    expect(text).toBe(
      '\uFEFFProducto,Importe\r\n"Casco, blanco",1234.50\r\n"\'=HYPERLINK(""x"")",10\r\nGuantes,\r\n',
    );
  });

  it('writes pesos with two decimals', () => {
    expect(csvPesos(0)).toBe('0.00');
    expect(csvPesos(99.9)).toBe('99.90');
    expect(csvPesos(1160)).toBe('1160.00');
  });
});
