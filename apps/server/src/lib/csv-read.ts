import { parse as parseStream } from 'csv-parse';
import { CsvError, parse } from 'csv-parse/sync';
import { MSG } from '../messages.ts';
import { type AppError, badRequest } from './errors.ts';
import type { ByteSink } from './files.ts';

/** Most data rows one import may carry. */
export const IMPORT_MAX_ROWS = 100_000;

export type Delimiter = ',' | ';';

export interface CsvRecord {
  /** Row number in the file as a spreadsheet shows it (the header is row 1). */
  fila: number;
  cells: string[];
}

export interface CsvTable {
  delimiter: Delimiter;
  /** Header cells as written (trimmed). */
  header: string[];
  records: CsvRecord[];
}

const BINARY_MAGIC: Buffer[] = [
  Buffer.from([0x50, 0x4b, 0x03, 0x04]), // zip: xlsx, ods, docx
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0]), // ole2: xls
  Buffer.from('%PDF-', 'latin1'),
  Buffer.from([0x89, 0x50, 0x4e, 0x47]), // png
  Buffer.from([0xff, 0xd8, 0xff]), // jpg
];

/** Control characters other than tab and line breaks do not belong in a CSV. */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if ((c < 32 && c !== 9 && c !== 10 && c !== 13) || c === 127) return true;
  }
  return false;
}

/** Text without control characters (for names shown back, such as a file name). */
export function withoutControlCharacters(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 32 && c !== 127) out += text[i];
  }
  return out;
}

/** Comma or semicolon, whichever separates more cells of the first line (outside quotes). */
export function detectDelimiter(text: string): Delimiter {
  let commas = 0;
  let semicolons = 0;
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') quoted = !quoted;
    else if (!quoted && (c === '\n' || c === '\r')) break;
    else if (!quoted && c === ',') commas++;
    else if (!quoted && c === ';') semicolons++;
  }
  return semicolons > commas ? ';' : ',';
}

/**
 * The rows of a CSV text, read by csv-parse: quoted cells may hold separators, doubled quotes and line
 * breaks; CRLF, LF or CR end a row (even mixed in one file); spaces around a cell are dropped; a quote
 * inside an unquoted cell is a plain character. The first row with any text is the header. Rows whose
 * cells are all empty (Excel leaves them at the end) are skipped but still counted.
 *
 * `fila` is the spreadsheet's row: one per record, so a cell with line breaks stays one row and the rows
 * after it keep their numbers. (csv-parse's `info.lines` counts lines of text, a quoted CRLF even twice,
 * so it would push every later row down.)
 */
export function parseCsv(text: string): CsvTable {
  const delimiter = detectDelimiter(text);
  let rows: string[][];
  try {
    rows = parse(text, parserOptions(delimiter));
  } catch (err) {
    throw err instanceof CsvError ? syntaxError(err) : err;
  }
  return tableOf(rows, delimiter);
}

/** csv-parse's options for an import file (the same for the whole text and for a stream). */
function parserOptions(delimiter: Delimiter) {
  return {
    delimiter,
    record_delimiter: ['\r\n', '\n', '\r'],
    bom: true,
    trim: true,
    relax_quotes: true,
    relax_column_count: true,
  };
}

/** A row with any text (Excel leaves rows of empty cells at the end). */
const hasText = (cells: string[]) => cells.some((v) => v.trim() !== '');

/** The table of csv-parse's rows: the first row with any text is the header; empty rows are counted, not kept. */
function tableOf(rows: string[][], delimiter: Delimiter): CsvTable {
  const head = rows.findIndex(hasText);
  const records: CsvRecord[] = [];
  for (let i = head + 1; head >= 0 && i < rows.length; i++) {
    const cells = rows[i]!;
    if (hasText(cells)) records.push({ fila: i + 1, cells });
  }
  return { delimiter, header: (rows[head] ?? []).map((h) => h.trim()), records };
}

/**
 * Bytes of an import file checked and parsed at a time before the event loop gets a turn: csv-parse holds
 * the loop under 10–15 ms over 64 kB on a 2-core machine, and a new parser's first slice, before V8 has
 * optimised that parser's own closures, about 40 ms (decision 0119; 128 kB held it for twice that).
 */
const CHUNK_BYTES = 64 * 1024;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * An import file's table, or a Spanish 400: empty, binary (spreadsheet, PDF, image, UTF-16), not UTF-8
 * (Latin-1 / Windows-1252 accents) or with control characters; a UTF-8 BOM is removed; rows as `parseCsv`
 * reads them. A slice at a time with a turn of the event loop between slices (issue 38, finding 7): a 20 MB
 * file never holds every other request for the seconds a whole-file parse takes. More than `maxRows` rows
 * with text stops the reading at once (400). The bytes may be one buffer or come in parts (a stored file
 * read back part by part, lib/files.ts `fileParts`).
 */
export async function readCsvFile(
  data: Buffer | AsyncIterable<Buffer>,
  maxRows = IMPORT_MAX_ROWS,
  chunkBytes = CHUNK_BYTES,
): Promise<CsvTable> {
  const reader = csvTableReader(maxRows, chunkBytes);
  if (Buffer.isBuffer(data)) await reader.write(data);
  else for await (const part of data) await reader.write(part);
  return reader.end();
}

/**
 * `readCsvFile` fed as the bytes arrive: a product import's price preview reads the upload's rows as they
 * stream in, storing nothing (imports.service.ts `previewProductImport`).
 */
export function csvTableReader(maxRows = IMPORT_MAX_ROWS, chunkBytes = CHUNK_BYTES): ByteSink<CsvTable> {
  const rows: string[][] = [];
  const reader = csvRowReader((cells) => rows.push(cells), maxRows, chunkBytes);
  return {
    write: (bytes) => reader.write(bytes),
    end: async () => tableOf(rows, await reader.end()),
  };
}

/** What an upload is checked on: the header, how many rows have text, the first misaligned row. */
export interface CsvSummary {
  delimiter: Delimiter;
  header: string[];
  rows: number;
  misaligned: { fila: number; cells: number } | null;
}

/**
 * The summary of an import file, read like `readCsvFile` but keeping no row: the upload answers from it
 * without holding the whole file's cells (and the collection of them) on the request's thread.
 */
export async function summarizeCsvFile(
  data: Buffer,
  maxRows = IMPORT_MAX_ROWS,
  chunkBytes = CHUNK_BYTES,
  /** Rows that are not data (a template's legend row): neither counted nor checked. */
  skip: (cells: string[]) => boolean = () => false,
): Promise<CsvSummary> {
  const summarizer = csvSummarizer(maxRows, chunkBytes, skip);
  await summarizer.write(data);
  return summarizer.end();
}

/**
 * `summarizeCsvFile` fed as the bytes arrive: an upload is checked while it streams into the database in
 * parts (imports.service.ts), never gathered into one buffer.
 */
export function csvSummarizer(
  maxRows = IMPORT_MAX_ROWS,
  chunkBytes = CHUNK_BYTES,
  skip: (cells: string[]) => boolean = () => false,
): ByteSink<CsvSummary> {
  let header: string[] | null = null;
  let fila = 0;
  let rows = 0;
  let misaligned: CsvSummary['misaligned'] = null;
  let widths: { width: number; named: number } | null = null;
  const reader = csvRowReader(
    (cells) => {
      fila++;
      if (!hasText(cells)) return;
      if (!header) {
        header = cells.map((h) => h.trim());
        widths = widthsOf(header);
        return;
      }
      if (skip(cells)) return;
      rows++;
      if (!misaligned && cells.length !== widths!.width && cells.length !== widths!.named) {
        misaligned = { fila, cells: cells.length };
      }
    },
    maxRows,
    chunkBytes,
  );
  return {
    write: (bytes) => reader.write(bytes),
    end: async () => {
      const delimiter = await reader.end();
      return { delimiter, header: header ?? [], rows, misaligned };
    },
  };
}

/** Bytes at the start of a file that say whether it is one of BINARY_MAGIC's formats. */
const MAGIC_BYTES = Math.max(...BINARY_MAGIC.map((m) => m.length));

/**
 * Feeds an import file's rows (every row, empty ones too, in order) to `onRow` as its bytes are written,
 * checking them a `chunkBytes` slice at a time with a turn of the event loop after each; `end` answers the
 * separator. The refusals of `readCsvFile`, each as soon as the bytes that cause it have been written (too
 * many rows included), except an empty file's and a syntax error's, which `end` throws.
 */
function csvRowReader(
  onRow: (cells: string[]) => void,
  maxRows: number,
  chunkBytes: number,
): ByteSink<Delimiter> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  let withText = 0;
  let failure: unknown = null;
  let parser: ReturnType<typeof parseStream> | null = null;
  let delimiter: Delimiter = ',';
  let start = '';
  let anyText = false;
  let received = 0;
  /** The first bytes, until there are enough to tell a binary format (or the file ends). */
  let head: Buffer | null = Buffer.alloc(0);

  const openParser = (text: string) => {
    delimiter = detectDelimiter(text);
    parser = parseStream(parserOptions(delimiter));
    parser.on('data', (cells: string[]) => {
      if (hasText(cells)) withText++;
      onRow(cells);
    });
    parser.on('error', (err) => {
      failure ??= err;
    });
  };

  /** Checks and parses one slice of text; false once the parser has failed (what follows is not read). */
  const take = async (text: string, last: boolean): Promise<boolean> => {
    if (hasControlCharacters(text)) throw badRequest('CSV_NOT_TEXT', MSG.csvNoEsTexto);
    anyText ||= text.trim() !== '';
    if (!parser) {
      // The separator is read from the first line: wait for it (or the end of the file).
      start += text;
      if (!/[\r\n]/.test(start) && !last) return true;
      openParser(start);
      text = start;
    }
    parser!.write(text);
    await nextTurn();
    if (failure) return false;
    // The header and the rows allowed: one more means too many, whatever follows.
    if (withText > maxRows + 1) throw badRequest('CSV_TOO_MANY_ROWS', MSG.csvDemasiadasFilas(maxRows));
    return true;
  };

  const decode = (slice: Buffer, last: boolean): string => {
    try {
      return decoder.decode(slice, { stream: !last });
    } catch {
      throw badRequest('CSV_NOT_UTF8', MSG.csvNoUtf8);
    }
  };

  const checkHead = (bytes: Buffer) => {
    if (BINARY_MAGIC.some((m) => bytes.subarray(0, m.length).equals(m))) {
      throw badRequest('CSV_NOT_TEXT', MSG.csvNoEsTexto);
    }
  };

  const slices = async (bytes: Buffer) => {
    for (let at = 0; at < bytes.length && !failure; at += chunkBytes) {
      const slice = bytes.subarray(at, at + chunkBytes);
      if (slice.includes(0)) throw badRequest('CSV_NOT_TEXT', MSG.csvNoEsTexto);
      if (!(await take(decode(slice, false), false))) return;
    }
  };

  return {
    write: async (bytes) => {
      if (failure) return;
      received += bytes.length;
      if (head) {
        const first = head.length ? Buffer.concat([head, bytes]) : bytes;
        if (first.length < MAGIC_BYTES) {
          head = Buffer.from(first);
          return;
        }
        checkHead(first);
        bytes = first;
        head = null;
      }
      await slices(bytes);
    },
    end: async () => {
      if (received === 0) throw badRequest('CSV_EMPTY', MSG.csvVacio);
      if (head) {
        checkHead(head);
        await slices(head);
        head = null;
      }
      if (!failure) await take(decode(Buffer.alloc(0), true), true);
      if (!anyText) throw badRequest('CSV_EMPTY', MSG.csvVacio);
      if (parser && !failure) {
        await new Promise<void>((resolve) => {
          parser!.once('end', resolve);
          parser!.once('error', () => resolve());
          parser!.end();
        });
      }
      if (failure) throw failure instanceof CsvError ? syntaxError(failure) : failure;
      return delimiter;
    },
  };
}

/** A csv-parse error as a Spanish 400 naming the spreadsheet row (the records read before it, plus one). */
function syntaxError(err: CsvError): AppError {
  const fila = Number(err.records) + 1;
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return badRequest('CSV_QUOTES', MSG.csvComillas(fila));
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
    case 'CSV_INVALID_CLOSING_QUOTE':
      return badRequest('CSV_QUOTES', MSG.csvComillasMal(fila));
    default:
      return badRequest('CSV_NOT_TEXT', MSG.csvNoEsTexto);
  }
}

/** Header names compared without case, surrounding spaces or a stray BOM. */
export function normalizeHeader(name: string): string {
  return name
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase();
}

/**
 * Checks that the header holds exactly the required columns (any order) plus, optionally, allowed extra
 * ones; returns each column's index by normalised name. A Spanish 400 names what is missing or unknown.
 */
export function mapHeader(
  header: string[],
  required: readonly string[],
  optional: readonly string[] = [],
): Map<string, number> {
  const index = new Map<string, number>();
  const unknown: string[] = [];
  const allowed = new Set([...required, ...optional].map(normalizeHeader));
  header.forEach((raw, i) => {
    const name = normalizeHeader(raw);
    if (name === '' && i === header.length - 1 && i > 0) return; // trailing separator
    if (index.has(name)) throw badRequest('CSV_HEADER', MSG.csvColumnaRepetida(raw.trim()));
    if (!allowed.has(name)) unknown.push(raw.trim() || `(columna ${i + 1} sin nombre)`);
    index.set(name, i);
  });
  const missing = required.filter((r) => !index.has(normalizeHeader(r)));
  if (missing.length || unknown.length) {
    throw badRequest('CSV_HEADER', MSG.csvEncabezados(missing, unknown));
  }
  return index;
}

/** The summary of a table already read (a small file read whole, such as the guías CSV). */
export function summaryOf(table: CsvTable): CsvSummary {
  const { width, named } = widthsOf(table.header);
  const bad = table.records.find((r) => r.cells.length !== width && r.cells.length !== named);
  return {
    delimiter: table.delimiter,
    header: table.header,
    rows: table.records.length,
    misaligned: bad ? { fila: bad.fila, cells: bad.cells.length } : null,
  };
}

/** A header's width, and its width without a trailing separator (rows may have it or not). */
function widthsOf(header: string[]): { width: number; named: number } {
  const width = header.length;
  return { width, named: header.at(-1) === '' && width > 1 ? width - 1 : width };
}

/**
 * Checks a file at upload, after its header: it has data rows, not too many (`maxRows`), and every row has
 * as many cells as the header has columns (a row with one more or one less is misaligned: its values would
 * land in the wrong columns). A header that ends in a separator allows rows with or without it.
 */
export function checkSummary(summary: CsvSummary, maxRows = IMPORT_MAX_ROWS): void {
  if (summary.rows === 0) throw badRequest('CSV_NO_ROWS', MSG.csvSinRegistros);
  if (summary.rows > maxRows) {
    throw badRequest('CSV_TOO_MANY_ROWS', MSG.csvDemasiadasFilas(maxRows));
  }
  const { fila, cells } = summary.misaligned ?? {};
  if (fila !== undefined && cells !== undefined) {
    throw badRequest('CSV_ROW_WIDTH', MSG.csvAnchoFila(fila, cells, widthsOf(summary.header).named));
  }
}

/** A cell by column name ('' when the row is short). A spreadsheet's formula-guard apostrophe is dropped. */
export function cellOf(record: CsvRecord, index: Map<string, number>, name: string): string {
  const i = index.get(name);
  const raw = i === undefined ? '' : (record.cells[i] ?? '');
  const value = raw.trim();
  return /^'[=+\-@]/.test(value) ? value.slice(1) : value;
}
