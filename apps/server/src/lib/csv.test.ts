import { describe, expect, it } from 'vitest';
import { csvCell, csvMoney, csvRow } from './csv.ts';

/** The pieces a spreadsheet that splits on `sep` (ignoring the quotes) would make of a written cell. */
function splitPieces(written: string, sep: ',' | ';'): string[] {
  return written.split(sep).map((p) => p.replace(/^[" ]+/, ''));
}

const RUNNABLE = /^[=+\-@\t\r]/;

describe('csvCell', () => {
  it('neutralises a cell that starts like a formula with a leading apostrophe', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-1+1')).toBe("'-1+1");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\t=1')).toBe("'\t=1");
    expect(csvCell('\r=1')).toBe(`"'\r=1"`);
    expect(csvCell('Texto normal')).toBe('Texto normal');
  });

  it('neutralises a formula after a semicolon inside the cell (a spreadsheet that splits on ;)', () => {
    const written = csvCell('x;=HYPERLINK("http://evil")');
    expect(written).toBe(`"x;'=HYPERLINK(""http://evil"")"`);
    expect(splitPieces(written, ';').filter((p) => RUNNABLE.test(p))).toEqual([]);
    expect(csvCell('a; @SUM(1)')).toBe(`"a; '@SUM(1)"`);
    expect(csvCell('a;;+1')).toBe(`"a;;'+1"`);
  });

  it('neutralises a formula after a comma inside the cell (a spreadsheet that splits on ,)', () => {
    const written = csvCell('x,=1+1');
    expect(written).toBe(`"x,'=1+1"`);
    expect(splitPieces(written, ',').filter((p) => RUNNABLE.test(p))).toEqual([]);
    expect(csvCell('=A1,-2;@B,\t=C')).toBe(`"'=A1,'-2;'@B,'\t=C"`);
  });

  it('leaves separators followed by anything else as they were (only quoted)', () => {
    expect(csvCell('Caja, 10 piezas; azul')).toBe('"Caja, 10 piezas; azul"');
    expect(csvCell('a,b;c')).toBe('"a,b;c"');
  });

  it('writes every text as its rules say, the plain ones untouched (20,000 random texts of the characters that matter)', () => {
    // The rules of decision 0036 applied to every cell, as csvCell did before it skipped the plain ones.
    const everyRule = (text: string) => {
      const neutral = (RUNNABLE.test(text) ? `'${text}` : text).replace(/([,;] *)(?=[=+\-@\t\r])/g, "$1'");
      const quoted = /[",;\r\n]/.test(neutral) || neutral.trim() !== neutral;
      return quoted ? `"${neutral.replaceAll('"', '""')}"` : neutral;
    };
    const alphabet = [
      'a',
      'Ñ',
      '1',
      '.',
      '-',
      '=',
      '+',
      '@',
      ' ',
      '\t',
      '\r',
      '\n',
      ',',
      ';',
      '"',
      '\u00a0',
      '\u3000',
    ];
    let seed = 42;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      for (let n = next() % 7; n > 0; n--) text += alphabet[next() % alphabet.length];
      expect(csvCell(text), JSON.stringify(text)).toBe(everyRule(text));
    }
  });

  it('never touches numbers: negative amounts stay numeric', () => {
    expect(csvCell(-1250.5)).toBe('-1250.5');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(0)).toBe('0');
    expect(csvRow([1, -2, 'x;=1'])).toBe(`1,-2,"x;'=1"\r\n`);
    expect(csvMoney(-125050)).toBe('-1250.50');
  });
});
