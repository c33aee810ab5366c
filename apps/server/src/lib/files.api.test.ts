import { createHash, randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, count, eq, inArray, like, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, MIGRATIONS_DIR, runMigrations } from '../db/client.ts';
import { storedFileParts, storedFiles } from '../db/schema/index.ts';
import { DB_KINDS, type DbKind, freshDatabase, type TestDatabase } from '../test/databases.ts';
import { fixture } from '../test/fixture-files.ts';
import {
  CSV_TYPE_MESSAGE,
  discardStaged,
  FILE_PART_BYTES,
  FileRejectedError,
  insertPreparedFiles,
  isSafeFileId,
  openFile,
  PDF_MAX_BYTES,
  PDF_TYPE_MESSAGE,
  purgeAbandonedUploads,
  readFile,
  receiveFile,
  STAGED_MAX_AGE_MS,
  sizeMessage,
} from './files.ts';

/** Bytes handed over in uneven pieces, as a socket and a multipart parser do. */
async function* pieces(data: Buffer, sizes = [1, 7, 1_000, 65_536, 300_000, 12_345]) {
  for (let at = 0, i = 0; at < data.length; i++) {
    const n = sizes[i % sizes.length]!;
    yield data.subarray(at, at + n);
    at += n;
  }
}

/** A PDF by its first bytes (what the upload checks), of about `bytes` bytes that do not compress. */
const bigPdf = (bytes: number) => Buffer.concat([fixture('calendario.pdf'), randomBytes(bytes)]);

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const pdfInput = { kind: 'documento' as const, allowed: ['pdf' as const], maxBytes: PDF_MAX_BYTES };

describe.each(DB_KINDS)('stored files in parts (%s)', (kind) => {
  let fresh: TestDatabase;
  let database: Database;
  const db = () => database.db;
  beforeAll(async () => {
    fresh = await freshDatabase(kind);
    database = fresh.database;
  });
  afterAll(async () => {
    await fresh?.drop();
  });

  /** Uploads still staged, and parts of staged uploads: none once an upload is stored or refused. */
  const staged = async () => {
    const [files] = await db()
      .select({ n: count() })
      .from(storedFiles)
      .where(like(storedFiles.id, 'subida-%'));
    const [parts] = await db()
      .select({ n: count() })
      .from(storedFileParts)
      .where(like(storedFileParts.fileId, 'subida-%'));
    return files!.n + parts!.n;
  };

  const partSizes = async (id: string) =>
    (
      await db()
        .select({ part: storedFileParts.part, n: sql<number>`length(${storedFileParts.data})` })
        .from(storedFileParts)
        .where(eq(storedFileParts.fileId, id))
        .orderBy(asc(storedFileParts.part))
    ).map((r) => [r.part, Number(r.n)]);

  it('a PDF received in uneven pieces is staged, stored in 256 kB parts under its content name and read back byte for byte', async () => {
    // Five parts: the first statement of openFile reads four, a second one the fifth.
    const pdf = bigPdf(4 * FILE_PART_BYTES + 1_000);
    const received = await receiveFile(db(), pieces(pdf), pdfInput);
    expect(received).toMatchObject({ size: pdf.length, refusal: null });
    const file = received!.file!;
    expect(file).toMatchObject({ id: `${sha256(pdf)}.pdf`, mime: 'application/pdf', size: pdf.length });
    // Staged under a name no route serves, its parts already written.
    expect(isSafeFileId(file.staged)).toBe(false);
    expect(await openFile(db(), file.staged)).toBeNull();
    expect(await partSizes(file.staged)).toHaveLength(5);
    expect(await openFile(db(), file.id)).toBeNull();

    await insertPreparedFiles(db(), [{ ...file, idCliente: null }]);
    expect(await staged()).toBe(0);
    const last = pdf.length - 4 * FILE_PART_BYTES;
    expect(await partSizes(file.id)).toEqual([
      [0, FILE_PART_BYTES],
      [1, FILE_PART_BYTES],
      [2, FILE_PART_BYTES],
      [3, FILE_PART_BYTES],
      [4, last],
    ]);
    const opened = await openFile(db(), file.id);
    expect(opened).toMatchObject({ mime: 'application/pdf', size: pdf.length, kind: 'documento' });
    const back: Buffer[] = [];
    for await (const part of opened!.parts()) back.push(part);
    expect(back.map((p) => p.length)).toEqual([...Array(4).fill(FILE_PART_BYTES), last]);
    expect(Buffer.concat(back).equals(pdf)).toBe(true);
    expect((await readFile(db(), file.id))!.data.equals(pdf)).toBe(true);
  });

  it('the same content received again is stored once; a staged upload not stored is discarded with its parts', async () => {
    const pdf = bigPdf(FILE_PART_BYTES + 10);
    const first = (await receiveFile(db(), pieces(pdf), pdfInput))!.file!;
    await insertPreparedFiles(db(), [{ ...first, idCliente: null }]);
    const again = (await receiveFile(db(), pieces(pdf, [FILE_PART_BYTES]), pdfInput))!.file!;
    expect(again.id).toBe(first.id);
    expect(again.staged).not.toBe(first.staged);
    await insertPreparedFiles(db(), [{ ...again, idCliente: null }]);
    const [rows] = await db().select({ n: count() }).from(storedFiles).where(eq(storedFiles.id, first.id));
    expect(rows!.n).toBe(1);
    expect(await partSizes(first.id)).toEqual([
      [0, FILE_PART_BYTES],
      [1, pdf.length - FILE_PART_BYTES],
    ]);
    expect(await staged()).toBe(0);

    // Received, then the form it came with is refused: discarded, nothing stored.
    const other = bigPdf(2 * FILE_PART_BYTES);
    const dropped = (await receiveFile(db(), pieces(other), pdfInput))!.file!;
    expect(await staged()).toBe(4); // the staged row and its three parts
    await discardStaged(db(), [dropped, null, undefined]);
    expect(await staged()).toBe(0);
    expect(await readFile(db(), dropped.id)).toBeNull();
  });

  it('refusals: the wrong type, too big (even after parts were written), an inspector’s, empty; nothing stays staged', async () => {
    const png = fixture('red-40x30.png');
    const wrongType = await receiveFile(db(), pieces(png), pdfInput);
    expect(wrongType).toMatchObject({ size: png.length, file: null });
    expect(wrongType!.refusal).toBeInstanceOf(FileRejectedError);
    expect(wrongType!.refusal).toMatchObject({ code: 'FILE_TYPE', message: PDF_TYPE_MESSAGE });

    // Parts are written until the limit is passed; then the rest is only counted, and they are removed.
    const pdf = bigPdf(4 * FILE_PART_BYTES);
    const limit = 3 * FILE_PART_BYTES + 5;
    const tooBig = await receiveFile(db(), pieces(pdf), { ...pdfInput, maxBytes: limit });
    expect(tooBig).toMatchObject({ size: pdf.length, file: null });
    expect(tooBig!.refusal).toMatchObject({ code: 'FILE_SIZE', message: sizeMessage(limit) });

    const csvInput = { kind: 'importacion' as const, allowed: ['csv' as const], maxBytes: PDF_MAX_BYTES };
    // Latin-1 accents after the first part: not UTF-8, so not a CSV.
    const latin1 = Buffer.concat([Buffer.alloc(FILE_PART_BYTES + 3, 'a'), Buffer.from('Peña\n', 'latin1')]);
    const notText = await receiveFile(db(), pieces(latin1), csvInput);
    expect(notText!.refusal).toMatchObject({ code: 'FILE_TYPE', message: CSV_TYPE_MESSAGE });

    // What the inspector throws is the file's refusal, before the type's; what it answers comes back.
    const seen: number[] = [];
    const inspect = (failAt: number) => ({
      write: async (bytes: Buffer) => {
        seen.push(bytes.length);
        if (seen.length === failAt) throw new Error('fila de más');
      },
      end: async () => seen.reduce((a, b) => a + b, 0),
    });
    const refusedByInspector = await receiveFile(db(), pieces(latin1), { ...csvInput, inspect: inspect(1) });
    expect((refusedByInspector!.refusal as Error).message).toBe('fila de más');
    seen.length = 0;
    const text = Buffer.alloc(2 * FILE_PART_BYTES + 17, 'x');
    const inspected = await receiveFile(db(), pieces(text), { ...csvInput, inspect: inspect(0) });
    expect(inspected).toMatchObject({ refusal: null, inspected: text.length });
    // The inspector sees the file a part at a time.
    expect(seen).toEqual([FILE_PART_BYTES, FILE_PART_BYTES, 17]);
    await discardStaged(db(), [inspected!.file]);

    expect(await receiveFile(db(), pieces(Buffer.alloc(0)), pdfInput)).toBeNull();
    expect(await staged()).toBe(0);
  });

  it('an upload cut off while it arrives leaves nothing staged', async () => {
    async function* cut() {
      yield* pieces(bigPdf(2 * FILE_PART_BYTES));
      throw new Error('conexión cortada');
    }
    await expect(receiveFile(db(), cut(), pdfInput)).rejects.toThrow('conexión cortada');
    expect(await staged()).toBe(0);
  });

  it('uploads still staged an hour after they began are purged with their parts; stored files never', async () => {
    const now = new Date();
    const old = new Date(now.getTime() - STAGED_MAX_AGE_MS - 60_000);
    const recent = new Date(now.getTime() - STAGED_MAX_AGE_MS + 60_000);
    const stored = `${'e'.repeat(64)}.csv`;
    await db()
      .insert(storedFiles)
      .values([
        { id: 'subida-viejo', kind: 'importacion', mime: 'text/csv', size: 0, createdAt: old },
        { id: 'subida-reciente', kind: 'importacion', mime: 'text/csv', size: 0, createdAt: recent },
        { id: stored, kind: 'importacion', mime: 'text/csv', size: 1, createdAt: old },
      ]);
    await db()
      .insert(storedFileParts)
      .values([
        { fileId: 'subida-viejo', part: 0, data: Buffer.from('a') },
        { fileId: 'subida-reciente', part: 0, data: Buffer.from('b') },
        { fileId: stored, part: 0, data: Buffer.from('c') },
      ]);
    expect(await purgeAbandonedUploads(db(), now)).toBe(1);
    const left = await db()
      .select({ id: storedFileParts.fileId })
      .from(storedFileParts)
      .where(inArray(storedFileParts.fileId, ['subida-viejo', 'subida-reciente', stored]));
    expect(left.map((r) => r.id).sort()).toEqual([stored, 'subida-reciente'].sort());
    expect((await readFile(db(), stored))!.data.toString()).toBe('c');
    await discardStaged(db(), ['subida-reciente']);
    expect(await staged()).toBe(0);
  });
});

/** The committed migrations up to, not including, 0043 (stored files in parts): a copy in a folder of its own. */
function migrationsBeforeParts(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'migraciones-'));
  cpSync(MIGRATIONS_DIR, dir, { recursive: true });
  const journalFile = path.join(dir, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalFile, 'utf8')) as {
    entries: { idx: number; tag: string }[];
  };
  const at = journal.entries.findIndex((e) => e.tag === '0043_stored_file_parts');
  expect(at).toBeGreaterThan(0);
  journal.entries = journal.entries.slice(0, at);
  writeFileSync(journalFile, JSON.stringify(journal));
  for (const name of readdirSync(dir))
    if (name.endsWith('.sql') && !journal.entries.some((e) => `${e.tag}.sql` === name))
      rmSync(path.join(dir, name));
  return dir;
}

async function migrateWith(database: Database, folder: string): Promise<void> {
  if (database.kind === 'pglite') {
    const { drizzle } = await import('drizzle-orm/pglite');
    const { migrate } = await import('drizzle-orm/pglite/migrator');
    await migrate(drizzle(database.pglite!), { migrationsFolder: folder });
    return;
  }
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const { migrate } = await import('drizzle-orm/node-postgres/migrator');
  await migrate(drizzle(database.pool!), { migrationsFolder: folder });
}

describe.each(DB_KINDS)('migration 0043: files stored before move to parts (%s)', (kind: DbKind) => {
  it('every file stored as one value is read back byte for byte from its parts after the migration', async () => {
    const empty = await freshDatabase(kind, { migrated: false });
    const folder = migrationsBeforeParts();
    try {
      const db = empty.database.db;
      await migrateWith(empty.database, folder);
      // Sizes around the part boundary: one byte, exactly one part, one byte more, several parts.
      const files = [1, FILE_PART_BYTES, FILE_PART_BYTES + 1, 2 * FILE_PART_BYTES + 12_345].map((n) => {
        const data = randomBytes(n);
        return { id: `${sha256(data)}.pdf`, data };
      });
      for (const f of files)
        await db.execute(
          sql`insert into stored_files (id, kind, mime, size, data) values (${f.id}, 'documento', 'application/pdf', ${f.data.length}, ${f.data})`,
        );
      await runMigrations(empty.database);
      for (const f of files) {
        const back = await readFile(db, f.id);
        expect(back, f.id).toMatchObject({ mime: 'application/pdf', size: f.data.length });
        expect(back!.data.equals(f.data), `${f.data.length} bytes`).toBe(true);
      }
      const [parts] = await db.select({ n: count() }).from(storedFileParts);
      expect(parts!.n).toBe(1 + 1 + 2 + 3);
      const columns = (await db.execute(
        sql`select column_name from information_schema.columns where table_name = 'stored_files'`,
      )) as unknown as { rows: { column_name: string }[] };
      expect(columns.rows.map((r) => r.column_name)).not.toContain('data');
    } finally {
      rmSync(folder, { recursive: true, force: true });
      await empty.drop();
    }
  }, 120_000);
});
