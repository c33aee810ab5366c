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
    expect(csvCell('\t=1')).toBe("'\t'=1");
    expect(csvCell('\r=1')).toBe(`"'\r'=1"`);
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
    expect(csvCell('=A1,-2;@B,\t=C')).toBe(`"'=A1,'-2;'@B,\t'=C"`);
  });

  it('neutralises a formula after a tab, a vertical bar, a vertical tab or any control character, and after leading whitespace (issue 38, finding 5)', () => {
    expect(csvCell('x\t=1+1')).toBe("x\t'=1+1");
    expect(csvCell('x|=1+1')).toBe("x|'=1+1");
    expect(csvCell('x\v=1+1')).toBe("x\v'=1+1");
    expect(csvCell('x\u0000@SUM(1)')).toBe("x\u0000'@SUM(1)");
    expect(csvCell('x| \t -2+3')).toBe("x| \t '-2+3");
    expect(csvCell(' =1+1')).toBe("' =1+1");
    expect(csvCell('\v=1')).toBe("'\v'=1");
    expect(csvCell('\u3000+1')).toBe("'\u3000+1");
    // Plain text with a dash between spaces is not a formula.
    expect(csvCell('Caja - azul')).toBe('Caja - azul');
    for (const sep of ['\t', '|', '\v']) {
      const written = csvCell(`x${sep}=HYPERLINK("http://evil")`);
      expect(
        written.split(sep).filter((p) => /^[\s\p{Cc}"]*[=+\-@]/u.test(p)),
        JSON.stringify(written),
      ).toEqual([]);
    }
  });

  it('leaves separators followed by anything else as they were (only quoted)', () => {
    expect(csvCell('Caja, 10 piezas; azul')).toBe('"Caja, 10 piezas; azul"');
    expect(csvCell('a,b;c')).toBe('"a,b;c"');
  });

  it('writes every text as its rules say, the plain ones untouched (20,000 random texts of the characters that matter)', () => {
    // The rules of decision 0036 applied to every cell, as csvCell did before it skipped the plain ones.
    const everyRule = (text: string) => {
      const atStart = /^[\s\p{Cc}]*[=+\-@]|^[\t\r]/u.test(text);
      const rest = text.replace(/([,;|\p{Cc}][\s\p{Cc}]*)(?=[=+\-@])/gu, "$1'");
      const neutral = atStart ? `'${rest}` : rest;
      const quoted = /[",;\r\n]/.test(neutral) || neutral.trim() !== neutral;
      return quoted ? `"${neutral.replaceAll('"', '""')}"` : neutral;
    };
    const alphabet = [
      'a',
      '|',
      '\v',
      '\f',
      '\u0000',
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
