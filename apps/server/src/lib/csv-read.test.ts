import { describe, expect, it } from 'vitest';
import { MSG } from '../messages.ts';
import { fixture } from '../test/fixture-files.ts';
import {
  type CsvTable,
  checkSummary,
  csvSummarizer,
  parseCsv,
  readCsvFile,
  summarizeCsvFile,
} from './csv-read.ts';
import { AppError } from './errors.ts';

/** The 400 a call throws, as code and message. */
function refusal(fn: () => unknown): { status: number; code: string; msg: string } {
  try {
    fn();
  } catch (err) {
    if (err instanceof AppError) return { status: err.statusCode, code: err.code, msg: err.message };
    throw err;
  }
  throw new Error('no refusal');
}

/** The 400 an async call rejects with. */
async function asyncRefusal(fn: () => Promise<unknown>) {
  try {
    await fn();
  } catch (err) {
    if (err instanceof AppError) return { status: err.statusCode, code: err.code, msg: err.message };
    throw err;
  }
  throw new Error('no refusal');
}

/** Records as [row, cells] pairs. */
const rowsOf = (table: CsvTable) => table.records.map((r) => [r.fila, r.cells]);

describe('CSV reading', () => {
  it('a separator inside quotes is text, in comma and in semicolon files', () => {
    const commas = parseCsv('clave,nombre,precio\r\nA-1,"Pintura, blanca","1,250.00"\r\n');
    expect(commas.delimiter).toBe(',');
    expect(rowsOf(commas)).toEqual([[2, ['A-1', 'Pintura, blanca', '1,250.00']]]);
    const semicolons = parseCsv('clave;nombre;precio\r\nA-1;"Pintura; blanca";189,90\r\n');
    expect(semicolons.delimiter).toBe(';');
    expect(rowsOf(semicolons)).toEqual([[2, ['A-1', 'Pintura; blanca', '189,90']]]);
  });

  it('a doubled quote inside quotes is one quote; a quote inside an unquoted cell is kept as written', () => {
    const table = parseCsv('a,b,c\r\n"Lápiz ""amarillo"" No. 2","""",Tubo 3/4"\r\n');
    expect(rowsOf(table)).toEqual([[2, ['Lápiz "amarillo" No. 2', '"', 'Tubo 3/4"']]]);
  });

  it('CRLF, LF and CR files give the same rows, also mixed in one file', () => {
    const expected = [
      [2, ['1', 'uno']],
      [3, ['2', 'dos']],
    ];
    for (const eol of ['\r\n', '\n', '\r']) {
      expect(rowsOf(parseCsv(`a,b${eol}1,uno${eol}2,dos${eol}`)), JSON.stringify(eol)).toEqual(expected);
    }
    expect(rowsOf(parseCsv('a,b\n1,uno\r\n2,dos\r'))).toEqual(expected);
  });

  it('a cell with line breaks is one spreadsheet row: the rows after it keep their numbers', () => {
    for (const eol of ['\r\n', '\n']) {
      const text = `a,b${eol}1,"Línea 1${eol}Línea 2${eol}Línea 3"${eol}2,dos${eol}${eol}3,tres${eol}`;
      expect(rowsOf(parseCsv(text)), JSON.stringify(eol)).toEqual([
        [2, ['1', `Línea 1${eol}Línea 2${eol}Línea 3`]],
        [3, ['2', 'dos']],
        [5, ['3', 'tres']],
      ]);
    }
  });

  it('blank rows, also before the header and rows of empty cells, are skipped but counted', () => {
    const table = parseCsv(
      '\r\n,,\r\nclave,nombre,precio\r\n,,\r\nA-1,Uno,1\r\n  ,"",\r\nA-2,Dos,2\r\n\r\n\r\n',
    );
    expect(table.header).toEqual(['clave', 'nombre', 'precio']);
    expect(rowsOf(table)).toEqual([
      [5, ['A-1', 'Uno', '1']],
      [7, ['A-2', 'Dos', '2']],
    ]);
  });

  it('a UTF-8 BOM is removed and spaces around cells, quoted or not, are dropped', async () => {
    const data = Buffer.from('\uFEFFclave , nombre\r\n  A-1 ,  "Uno, dos"  \r\n', 'utf8');
    expect(data.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
    const table = await readCsvFile(data);
    expect(table.header).toEqual(['clave', 'nombre']);
    expect(rowsOf(table)).toEqual([[2, ['A-1', 'Uno, dos']]]);
    expect(await asyncRefusal(() => readCsvFile(Buffer.from('clave\r\nLápiz\r\n', 'latin1')))).toEqual({
      status: 400,
      code: 'CSV_NOT_UTF8',
      msg: MSG.csvNoUtf8,
    });
  });

  it('a file read a slice at a time gives the rows of the whole text, however the slices cut it', async () => {
    // Random files of the characters that matter (multi-byte letters cut between slices, quoted separators
    // and line breaks, doubled quotes, blank rows), read in slices of 1 to 9 bytes and at once.
    const pieces = ['a', 'ñ', 'é', '€', '1', ' ', ',', ';', '"', '""', '\r\n', '\n', '\r'];
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed;
    };
    for (let n = 0; n < 300; n++) {
      const rows: string[] = ['clave,nombre'];
      for (let r = next() % 6; r > 0; r--) {
        let cell = '';
        for (let k = next() % 6; k > 0; k--) cell += pieces[next() % pieces.length];
        rows.push(`K${r},"${cell.replaceAll('"', '""')}"`);
      }
      const text = `${rows.join('\r\n')}\r\n`;
      const whole = parseCsv(text);
      const sliced = await readCsvFile(Buffer.from(text, 'utf8'), 1000, 1 + (next() % 9));
      expect(sliced, JSON.stringify(text)).toEqual(whole);
    }
  });

  it('a file that comes in parts (a stored file read back, an upload as it arrives) reads as the whole, and is refused the same', async () => {
    /** The bytes in pieces of the given sizes, in turn (the last one repeated). */
    async function* inPieces(data: Buffer, sizes: number[]) {
      for (let at = 0, i = 0; at < data.length; i++) {
        const n = sizes[Math.min(i, sizes.length - 1)]!;
        yield data.subarray(at, at + n);
        at += n;
      }
    }
    const text = `\uFEFFclave;nombre\r\nA-1;"Señal, ""ñandú""\r\ncon salto"\r\nA-2;Café\r\n`;
    const whole = await readCsvFile(Buffer.from(text));
    expect(whole.records).toHaveLength(2);
    for (const sizes of [[1], [2, 1, 3], [4, 7], [5, 100]])
      expect(await readCsvFile(inPieces(Buffer.from(text), sizes), 1000, 3), sizes.join()).toEqual(whole);
    // The first bytes tell a spreadsheet or a PDF even when they come one at a time.
    for (const data of [fixture('products.xlsx'), fixture('calendario.pdf'), fixture('red-40x30.png')])
      expect((await asyncRefusal(() => readCsvFile(inPieces(data, [1, 1, 2, 64])))).code).toBe(
        'CSV_NOT_TEXT',
      );
    // A character cut between two parts is read whole; one left unfinished at the end is not UTF-8.
    expect((await readCsvFile(inPieces(Buffer.from('a,b\nñ,é\n'), [5, 1]))).records[0]!.cells).toEqual([
      'ñ',
      'é',
    ]);
    expect(
      (await asyncRefusal(() => readCsvFile(inPieces(Buffer.from('a,b\n1,ñ').subarray(0, 7), [3])))).code,
    ).toBe('CSV_NOT_UTF8');
    // The summary as an upload feeds it, a part at a time.
    const summarizer = csvSummarizer(1000, 4);
    for await (const part of inPieces(Buffer.from(text), [3, 9])) await summarizer.write(part);
    expect(await summarizer.end()).toEqual({
      delimiter: ';',
      header: ['clave', 'nombre'],
      rows: 2,
      misaligned: null,
    });
  });

  it('a file with too many rows, binary bytes or control characters is refused while it is read', async () => {
    const rows = Array.from({ length: 60 }, (_, i) => `K${i},x`).join('\n');
    expect(await asyncRefusal(() => readCsvFile(Buffer.from(`a,b\n${rows}\n`), 50, 16))).toEqual({
      status: 400,
      code: 'CSV_TOO_MANY_ROWS',
      msg: MSG.csvDemasiadasFilas(50),
    });
    for (const data of [
      Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14]),
      Buffer.from('a,b\n1,\u0000\n'),
      Buffer.from('a,b\n1,\u0007\n'),
    ])
      expect((await asyncRefusal(() => readCsvFile(data))).code).toBe('CSV_NOT_TEXT');
    expect((await asyncRefusal(() => readCsvFile(Buffer.from('')))).code).toBe('CSV_EMPTY');
    expect((await asyncRefusal(() => readCsvFile(Buffer.from(' \r\n  \n')))).code).toBe('CSV_EMPTY');
    expect(await asyncRefusal(() => readCsvFile(Buffer.from('a,b\r\n1,"dos\r\n'), 10, 3))).toEqual({
      status: 400,
      code: 'CSV_QUOTES',
      msg: MSG.csvComillas(2),
    });
  });

  it('unclosed quotes name the row where they open, counted as the spreadsheet does', () => {
    expect(refusal(() => parseCsv('a,b\r\n1,"dos\r\ntres"\r\n\r\n3,"cuatro\r\n4,cinco\r\n'))).toEqual({
      status: 400,
      code: 'CSV_QUOTES',
      msg: MSG.csvComillas(4),
    });
  });

  it('text after a closing quote is refused with its row', () => {
    expect(refusal(() => parseCsv('a,b\n1,uno\n2,"dos" y medio\n'))).toEqual({
      status: 400,
      code: 'CSV_QUOTES',
      msg: MSG.csvComillasMal(3),
    });
  });

  it('a row with more or fewer cells than the header is refused, naming its row and both counts', async () => {
    /** The refusal of an upload of `text` (its summary checked), or null when it passes. */
    const uploadRefusal = async (text: string) => {
      const summary = await summarizeCsvFile(Buffer.from(text), 1000, 7);
      try {
        checkSummary(summary);
        return null;
      } catch (err) {
        if (err instanceof AppError) return { status: err.statusCode, code: err.code, msg: err.message };
        throw err;
      }
    };
    expect(
      await uploadRefusal('clave,nombre,precio\r\nA-1,"Uno\r\nlargo",1\r\nA-2,Dos,1,250.00\r\n'),
    ).toEqual({
      status: 400,
      code: 'CSV_ROW_WIDTH',
      msg: MSG.csvAnchoFila(3, 4, 3),
    });
    expect(await uploadRefusal('clave;nombre;precio\nA-1;Uno;1\nA-2\n')).toEqual({
      status: 400,
      code: 'CSV_ROW_WIDTH',
      msg: MSG.csvAnchoFila(3, 1, 3),
    });
    expect(MSG.csvAnchoFila(3, 1, 3)).toContain('tiene 1 valor y el encabezado tiene 3 columnas');
    // A header that ends in a separator allows rows with or without the trailing one.
    expect(await uploadRefusal('clave,nombre,\r\nA-1,Uno,\r\nA-2,Dos\r\n')).toBeNull();
    expect((await uploadRefusal('clave,nombre,\r\nA-1,Uno,,\r\n'))?.msg).toBe(MSG.csvAnchoFila(2, 4, 2));
    // Empty rows count for the row numbers but are no rows; a header alone has none.
    expect(await uploadRefusal('\r\nclave,nombre\r\n,\r\nA-1,Uno\r\nA-2\r\n')).toEqual({
      status: 400,
      code: 'CSV_ROW_WIDTH',
      msg: MSG.csvAnchoFila(5, 1, 2),
    });
    expect((await uploadRefusal('clave,nombre\r\n,\r\n'))?.code).toBe('CSV_NO_ROWS');
  });

  it("an upload's summary agrees with the table the import reads", async () => {
    const text = '\uFEFFclave;nombre\r\n\r\nA-1;"Uno; dos"\r\n;\r\nA-2;Tres\r\n';
    const table = await readCsvFile(Buffer.from(text));
    const summary = await summarizeCsvFile(Buffer.from(text), 1000, 5);
    expect(summary).toEqual({
      delimiter: table.delimiter,
      header: table.header,
      rows: table.records.length,
      misaligned: null,
    });
    expect(summary.header).toEqual(['clave', 'nombre']);
    expect(summary.rows).toBe(2);
  });
});
