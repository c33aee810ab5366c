import { createHash, randomBytes } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { IMAGE_MAX_BYTES, PDF_MAX_BYTES } from '@portal/shared/domain/files';
import { and, asc, eq, gte, like, lt } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db, Tx } from '../db/client.ts';
import { storedFileParts, storedFiles } from '../db/schema/index.ts';
import { MSG } from '../messages.ts';

export { IMAGE_MAX_BYTES, PDF_MAX_BYTES };
/** Width of the catalogue thumbnails. */
export const THUMB_WIDTH = 320;
/** Decoding guard against decompression bombs (a 48 MP photo fits). */
const MAX_INPUT_PIXELS = 100_000_000;

/**
 * `foto`: a photo of a receipt or a claim (decision 0127), never served as a public image; `factura`: a
 * CFDI's XML or PDF (decision 0131), served only to who may see its order.
 */
export type FileKind = 'imagen' | 'documento' | 'importacion' | 'foto' | 'factura';
export type AllowedType = 'image' | 'pdf' | 'csv';
export type DetectedMime = 'image/jpeg' | 'image/png' | 'application/pdf';
export type DetectedExt = 'jpg' | 'png' | 'pdf';
export type PhotoMime = 'image/jpeg' | 'image/png' | 'image/heic';
export type StoredMime = DetectedMime | 'text/csv' | 'image/heic' | 'application/xml';
export type StoredExt = DetectedExt | 'csv' | 'heic' | 'xml';

export type FileRejectionCode = 'FILE_TYPE' | 'FILE_SIZE' | 'FILE_EMPTY';

/** A file refused on upload; `message` is the Spanish text to show. */
export class FileRejectedError extends Error {
  readonly code: FileRejectionCode;

  constructor(code: FileRejectionCode, message: string) {
    super(message);
    this.name = 'FileRejectedError';
    this.code = code;
  }
}

/** The spec's text for image uploads, word for word. */
export const IMAGE_TYPE_MESSAGE = MSG.soloJpgPng;
export const PDF_TYPE_MESSAGE = 'Solo se permiten archivos PDF.';
export const CSV_TYPE_MESSAGE = 'Solo se permiten archivos CSV.';
export const EMPTY_FILE_MESSAGE = 'El archivo está vacío.';

export function sizeMessage(maxBytes: number): string {
  const mb = maxBytes / (1024 * 1024);
  const shown = Number.isInteger(mb) ? String(mb) : mb.toFixed(1);
  return `El archivo excede el tamaño máximo de ${shown} MB.`;
}

function typeMessage(allowed: readonly AllowedType[]): string {
  const set = new Set(allowed);
  if (set.size === 1 && set.has('image')) return IMAGE_TYPE_MESSAGE;
  if (set.size === 1 && set.has('pdf')) return PDF_TYPE_MESSAGE;
  if (set.size === 1 && set.has('csv')) return CSV_TYPE_MESSAGE;
  const names: string[] = [];
  if (set.has('image')) names.push('JPG', 'PNG');
  if (set.has('pdf')) names.push('PDF');
  if (set.has('csv')) names.push('CSV');
  const last = names.pop();
  return `Solo se permiten archivos ${names.length ? `${names.join(', ')} o ${last}` : last}.`;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const PDF_SIGNATURE = Buffer.from('%PDF-', 'latin1');

/** Recognises JPG, PNG and PDF by their first bytes only (never by name). */
export function detectFileType(buf: Buffer): { mime: DetectedMime; ext: DetectedExt } | null {
  if (buf.length >= 3 && buf[0] === 0xff && buf[1] === 0xd8 && buf[2] === 0xff) {
    return { mime: 'image/jpeg', ext: 'jpg' };
  }
  if (buf.length >= PNG_SIGNATURE.length && buf.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) {
    return { mime: 'image/png', ext: 'png' };
  }
  if (buf.length >= PDF_SIGNATURE.length && buf.subarray(0, PDF_SIGNATURE.length).equals(PDF_SIGNATURE)) {
    return { mime: 'application/pdf', ext: 'pdf' };
  }
  return null;
}

/**
 * The ISO-BMFF major brands of a HEIC/HEIF still image (the `ftyp` box that opens the file): what a phone's
 * camera writes. Other ISO-BMFF files (AVIF, MP4, QuickTime) have other brands and are refused.
 */
const HEIC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis', 'mif1', 'msf1']);

/** Recognises a photo (JPEG, PNG, HEIC) by its first bytes only (never by name or declared type). */
export function detectPhotoType(buf: Buffer): { mime: PhotoMime; ext: 'jpg' | 'png' | 'heic' } | null {
  const detected = detectFileType(buf);
  if (detected?.mime === 'image/jpeg' || detected?.mime === 'image/png')
    return { mime: detected.mime, ext: detected.ext as 'jpg' | 'png' };
  // An ISO-BMFF file starts with a box: 4 bytes of size, then its type 'ftyp' and the major brand.
  if (buf.length >= 12 && buf.subarray(4, 8).toString('latin1') === 'ftyp') {
    const size = buf.readUInt32BE(0);
    const brand = buf.subarray(8, 12).toString('latin1');
    if (size >= 16 && HEIC_BRANDS.has(brand)) return { mime: 'image/heic', ext: 'heic' };
  }
  return null;
}

/** Bytes of a file checked or hashed at a time before the event loop gets a turn (a 20 MB import: issue 38). */
const SLICE_BYTES = 1024 * 1024;

/** Runs `step` over the buffer a slice at a time, with a turn of the event loop between slices. */
async function inSlices(data: Buffer, step: (slice: Buffer, last: boolean) => void): Promise<void> {
  for (let at = 0; at < data.length; at += SLICE_BYTES) {
    const last = at + SLICE_BYTES >= data.length;
    step(data.subarray(at, at + SLICE_BYTES), last);
    if (!last) await nextTurn();
  }
}

/** Plain UTF-8 text (with or without BOM) with no NUL bytes, fed a slice at a time: what a CSV can be. */
function textCheck(): { write: (slice: Buffer) => boolean; end: () => boolean } {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let ok = true;
  const step = (slice: Buffer, last: boolean) => {
    if (!ok) return false;
    try {
      if (slice.includes(0)) throw new Error('binario');
      decoder.decode(slice, { stream: !last });
    } catch {
      ok = false;
    }
    return ok;
  };
  return { write: (slice) => step(slice, false), end: () => step(Buffer.alloc(0), true) };
}

async function looksLikeText(buf: Buffer): Promise<boolean> {
  const check = textCheck();
  await inSlices(buf, (slice) => check.write(slice));
  return check.end();
}

/** True when the whole image decodes (a truncated or corrupt one does not). */
async function imageDecodes(buf: Buffer, mime: DetectedMime): Promise<boolean> {
  try {
    const image = sharp(buf, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS });
    const meta = await image.metadata();
    const expected = mime === 'image/jpeg' ? 'jpeg' : 'png';
    if (meta.format !== expected) return false;
    // Decodes every pixel (a truncated file fails here) into a tiny output, so memory stays small.
    await image.resize(16, 16, { fit: 'fill' }).raw().toBuffer();
    return true;
  } catch {
    return false;
  }
}

/** The file's SHA-256 (its name), hashed a slice at a time; `salt` first when given. */
export async function sha256Hex(data: Buffer, salt?: string): Promise<string> {
  const hash = createHash('sha256');
  if (salt) hash.update(salt);
  await inSlices(data, (slice) => hash.update(slice));
  return hash.digest('hex');
}

/** A checked file ready to insert (`stored_files` row). */
export interface PreparedFile {
  id: string;
  idCliente: number | null;
  kind: FileKind;
  mime: StoredMime;
  size: number;
  data: Buffer;
}

export interface StoreFileInput {
  data: Buffer;
  kind: FileKind;
  idCliente: number | null;
  allowed: AllowedType[];
  maxBytes: number;
}

/** Checks a file (emptiness, size, content type, that an image decodes) and names it by its content. */
export async function prepareFile(input: StoreFileInput): Promise<PreparedFile> {
  const { data, allowed, maxBytes } = input;
  if (data.length === 0) throw new FileRejectedError('FILE_EMPTY', EMPTY_FILE_MESSAGE);
  if (data.length > maxBytes) throw new FileRejectedError('FILE_SIZE', sizeMessage(maxBytes));

  const refuse = () => new FileRejectedError('FILE_TYPE', typeMessage(allowed));
  const detected = detectFileType(data);
  let mime: StoredMime;
  let ext: StoredExt;
  if (detected) {
    const family: AllowedType = detected.mime === 'application/pdf' ? 'pdf' : 'image';
    if (!allowed.includes(family)) throw refuse();
    if (family === 'image' && !(await imageDecodes(data, detected.mime))) throw refuse();
    mime = detected.mime;
    ext = detected.ext;
  } else if (allowed.includes('csv') && (await looksLikeText(data))) {
    mime = 'text/csv';
    ext = 'csv';
  } else {
    throw refuse();
  }
  return {
    id: `${await sha256Hex(data)}.${ext}`,
    idCliente: input.idCliente,
    kind: input.kind,
    mime,
    size: data.length,
    data,
  };
}

/** The text that refuses a photo of another type (decision 0127). */
export const PHOTO_TYPE_MESSAGE = MSG.soloFotos;

/**
 * Checks a photo of a receipt or a claim (decision 0127): not empty, at most `maxBytes`, a JPEG or PNG whose
 * header the image library reads, or a HEIC by its `ftyp` brand (HEIC is not decoded: the server only stores
 * it and serves it back as a download). Its stored name is its content's hash salted with `foto:`, so a
 * photo never shares a row with a product picture of the same bytes (pictures are public by name; photos
 * are served only to who may see their order). Throws FileRejectedError.
 */
export async function preparePhoto(
  data: Buffer,
  maxBytes: number,
): Promise<PreparedFile & { mime: PhotoMime }> {
  if (data.length === 0) throw new FileRejectedError('FILE_EMPTY', EMPTY_FILE_MESSAGE);
  if (data.length > maxBytes) throw new FileRejectedError('FILE_SIZE', sizeMessage(maxBytes));
  const refuse = () => new FileRejectedError('FILE_TYPE', PHOTO_TYPE_MESSAGE);
  const detected = detectPhotoType(data);
  if (!detected) throw refuse();
  if (detected.mime !== 'image/heic') {
    try {
      const meta = await sharp(data, { limitInputPixels: MAX_INPUT_PIXELS }).metadata();
      if (meta.format !== (detected.mime === 'image/jpeg' ? 'jpeg' : 'png')) throw refuse();
    } catch {
      throw refuse();
    }
  }
  return {
    id: `${await sha256Hex(data, 'foto:')}.${detected.ext}`,
    idCliente: null,
    kind: 'foto',
    mime: detected.mime,
    size: data.length,
    data,
  };
}

/** Bytes of one stored part (decision 0119): no statement carries more of a file, whatever its size. */
export const FILE_PART_BYTES = 256 * 1024;
/** Parts one statement reads back (1 MB). */
const PARTS_PER_READ = 4;
/** How an upload still arriving is named (`stored_files.id`) until its content names it. */
const STAGED_PREFIX = 'subida-';
/** An upload still arriving this long after it began was cut off (the process ended): its rows are removed. */
export const STAGED_MAX_AGE_MS = 60 * 60_000;

/**
 * Writes `data` as the parts of `fileId`, numbered from `first`: one statement a part, with a turn of the
 * event loop after each (the embedded database runs each statement on the server's own thread).
 */
async function insertParts(db: Db | Tx, fileId: string, data: Buffer, first = 0): Promise<void> {
  for (let at = 0, part = first; at < data.length; at += FILE_PART_BYTES, part++) {
    await db.insert(storedFileParts).values({ fileId, part, data: data.subarray(at, at + FILE_PART_BYTES) });
    await nextTurn();
  }
}

/**
 * An upload whose bytes are already in the database, as the parts of a staged row (`receiveFile`), checked
 * and named by its content: `insertPreparedFiles` stores it under that name.
 */
export interface StagedFile {
  id: string;
  /** The staged row (`subida-…`) its parts were written under. */
  staged: string;
  idCliente: number | null;
  kind: FileKind;
  mime: StoredMime;
  size: number;
}

/**
 * Stores files under their content names; the same content is the same row (nothing happens the second
 * time). A file in memory is written a part at a time; a staged one is renamed: its parts move to the name
 * (or, when the name is already stored, are dropped with the staged row). Each file in one transaction, so a
 * stored file always has all its parts.
 */
export async function insertPreparedFiles(
  db: Db | Tx,
  files: readonly (PreparedFile | StagedFile)[],
): Promise<void> {
  for (const f of files) {
    await db.transaction(async (tx) => {
      const added = await tx
        .insert(storedFiles)
        .values({ id: f.id, idCliente: f.idCliente, kind: f.kind, mime: f.mime, size: f.size })
        .onConflictDoNothing({ target: storedFiles.id })
        .returning({ id: storedFiles.id });
      if (!('staged' in f)) {
        if (added.length) await insertParts(tx, f.id, f.data);
        return;
      }
      if (added.length) {
        await tx.update(storedFileParts).set({ fileId: f.id }).where(eq(storedFileParts.fileId, f.staged));
      }
      await tx.delete(storedFiles).where(eq(storedFiles.id, f.staged));
    });
  }
}

/** Checks and stores a file; returns its id (`<sha256>.<ext>`). Throws FileRejectedError. */
export async function storeFile(db: Db | Tx, input: StoreFileInput): Promise<string> {
  const file = await prepareFile(input);
  await insertPreparedFiles(db, [file]);
  return file.id;
}

/** Bytes fed a piece at a time (`write`, in order), then `end`: what an upload checks while it arrives. */
export interface ByteSink<T> {
  /** Refuses the file (throws) as soon as what came so far says it is not usable. */
  write(bytes: Buffer): Promise<void>;
  end(): Promise<T>;
}

export interface ReceiveInput<T> {
  kind: FileKind;
  /** PDFs and CSVs: an image is decoded whole (sharp) and comes through `prepareFile`. */
  allowed: readonly Exclude<AllowedType, 'image'>[];
  maxBytes: number;
  /** Reads the bytes as they arrive (an import's CSV check); what it throws refuses the file. */
  inspect?: ByteSink<T>;
}

/** What `receiveFile` made of an upload. */
export interface ReceivedFile<T = undefined> {
  size: number;
  /**
   * Why the file is refused, the first of: too big (FileRejectedError FILE_SIZE), what the inspector threw,
   * the wrong type (FILE_TYPE). Null when it is accepted.
   */
  refusal: unknown;
  /** The accepted file, staged in the database until `insertPreparedFiles` stores it (null when refused). */
  file: StagedFile | null;
  /** What the inspector answered at the end (accepted files only). */
  inspected: T | undefined;
}

/**
 * Receives an upload as its bytes arrive (a multipart file part's stream, never gathered into one buffer;
 * issue 38, finding 7): a FILE_PART_BYTES part at a time it is typed by its first bytes, checked (a CSV's
 * text, the inspector), hashed and written to the database under a staged row, with turns of the event
 * loop between parts. A refused file's parts are removed before this answers, and what arrives after the
 * refusal is only counted (the size still decides the message). Null when no byte arrived.
 */
export async function receiveFile<T = undefined>(
  db: Db,
  bytes: AsyncIterable<Buffer>,
  input: ReceiveInput<T>,
): Promise<ReceivedFile<T> | null> {
  const hash = createHash('sha256');
  const staged = `${STAGED_PREFIX}${randomBytes(16).toString('hex')}`;
  const text = input.allowed.includes('csv') ? textCheck() : null;
  let stagedRow = false;
  let size = 0;
  let part = 0;
  let typed = null as { mime: StoredMime; ext: StoredExt } | null;
  let typeRefused = false;
  let inspectRefusal: unknown = null;
  const tooBig = () => size > input.maxBytes;
  /** Nothing that follows can change the answer: the rest is only counted. */
  const settled = () => tooBig() || inspectRefusal !== null || (typeRefused && !input.inspect);

  const take = async (data: Buffer) => {
    if (part === 0) {
      typed = typeOfUpload(data, input.allowed);
      typeRefused = typed === null;
    }
    if (input.inspect && inspectRefusal === null) {
      try {
        await input.inspect.write(data);
      } catch (err) {
        inspectRefusal = err;
      }
    }
    if (text && !typeRefused && typed?.mime === 'text/csv') typeRefused = !text.write(data);
    if (typeRefused || settled()) return;
    hash.update(data);
    if (!stagedRow) {
      await db.insert(storedFiles).values({
        id: staged,
        idCliente: null,
        kind: input.kind,
        mime: 'application/octet-stream',
        size: 0,
      });
      stagedRow = true;
    }
    await insertParts(db, staged, data, part);
    part++;
  };

  try {
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    for await (const chunk of bytes) {
      size += chunk.length;
      if (settled()) continue;
      pending.push(chunk);
      pendingBytes += chunk.length;
      if (pendingBytes < FILE_PART_BYTES) continue;
      const data = pending.length === 1 ? pending[0]! : Buffer.concat(pending, pendingBytes);
      let at = 0;
      for (; data.length - at >= FILE_PART_BYTES && !settled(); at += FILE_PART_BYTES) {
        await take(data.subarray(at, at + FILE_PART_BYTES));
      }
      pending = at < data.length ? [data.subarray(at)] : [];
      pendingBytes = data.length - at;
    }
    if (size === 0) return null;
    if (pendingBytes && !settled()) await take(Buffer.concat(pending, pendingBytes));
    if (text && !typeRefused && typed?.mime === 'text/csv') typeRefused = !text.end();
    let inspected: T | undefined;
    if (input.inspect && inspectRefusal === null && !tooBig()) {
      try {
        inspected = await input.inspect.end();
      } catch (err) {
        inspectRefusal = err;
      }
    }
    const refusal = tooBig()
      ? new FileRejectedError('FILE_SIZE', sizeMessage(input.maxBytes))
      : (inspectRefusal ??
        (typeRefused ? new FileRejectedError('FILE_TYPE', typeMessage([...input.allowed])) : null));
    if (refusal || !typed) {
      await discardStaged(db, [staged]);
      return { size, refusal, file: null, inspected: undefined };
    }
    const { mime, ext } = typed;
    return {
      size,
      refusal: null,
      inspected,
      file: { id: `${hash.digest('hex')}.${ext}`, staged, idCliente: null, kind: input.kind, mime, size },
    };
  } catch (err) {
    await discardStaged(db, [staged]).catch(() => undefined);
    throw err;
  }
}

/** An upload's type by its first bytes among what is allowed (a PDF, else text for a CSV); null: refused. */
function typeOfUpload(
  first: Buffer,
  allowed: readonly AllowedType[],
): { mime: StoredMime; ext: StoredExt } | null {
  const detected = detectFileType(first);
  if (detected) return detected.mime === 'application/pdf' && allowed.includes('pdf') ? detected : null;
  return allowed.includes('csv') ? { mime: 'text/csv', ext: 'csv' } : null;
}

/**
 * Removes staged uploads (their parts go with them): ids or staged files that were received but not stored
 * (the form was refused after the file arrived). A stored one's staged row is already gone: nothing happens.
 */
export async function discardStaged(
  db: Db | Tx,
  files: readonly (string | StagedFile | null | undefined)[],
): Promise<void> {
  for (const f of files) {
    if (!f) continue;
    const id = typeof f === 'string' ? f : f.staged;
    await db.delete(storedFiles).where(eq(storedFiles.id, id));
  }
}

/**
 * Removes uploads still staged STAGED_MAX_AGE_MS after they began: the process that received them ended
 * before it stored or refused them (lib/housekeeping.ts). Answers how many.
 */
export async function purgeAbandonedUploads(db: Db, now: Date): Promise<number> {
  const gone = await db
    .delete(storedFiles)
    .where(
      and(
        like(storedFiles.id, `${STAGED_PREFIX}%`),
        lt(storedFiles.createdAt, new Date(now.getTime() - STAGED_MAX_AGE_MS)),
      ),
    )
    .returning({ id: storedFiles.id });
  return gone.length;
}

export interface ImageWithThumbInput {
  data: Buffer;
  idCliente: number | null;
  maxBytes?: number;
}

export interface PreparedImageWithThumb {
  original: PreparedFile;
  thumb: PreparedFile;
}

/** The id of an image's thumbnail: `<hash>_t.jpg`. */
export function thumbIdFor(originalId: string): string {
  const hash = originalId.slice(0, originalId.indexOf('.'));
  return `${hash}_t.jpg`;
}

/** Checks an image (JPG or PNG) and makes its 320 px wide JPEG thumbnail, without storing either. */
export async function prepareImageWithThumb(input: ImageWithThumbInput): Promise<PreparedImageWithThumb> {
  const original = await prepareFile({
    data: input.data,
    kind: 'imagen',
    idCliente: input.idCliente,
    allowed: ['image'],
    maxBytes: input.maxBytes ?? IMAGE_MAX_BYTES,
  });
  const thumbData = await sharp(input.data, { failOn: 'error', limitInputPixels: MAX_INPUT_PIXELS })
    .rotate()
    .resize({ width: THUMB_WIDTH, withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .jpeg({ quality: 80 })
    .toBuffer();
  const thumb: PreparedFile = {
    id: thumbIdFor(original.id),
    idCliente: input.idCliente,
    kind: 'imagen',
    mime: 'image/jpeg',
    size: thumbData.length,
    data: thumbData,
  };
  return { original, thumb };
}

/** Stores a product image and its thumbnail; returns both ids. Throws FileRejectedError. */
export async function storeImageWithThumb(
  db: Db | Tx,
  input: ImageWithThumbInput,
): Promise<{ id: string; thumbId: string }> {
  const { original, thumb } = await prepareImageWithThumb(input);
  await insertPreparedFiles(db, [original, thumb]);
  return { id: original.id, thumbId: thumb.id };
}

const SAFE_FILE_ID = /^[0-9a-f]{64}(_t)?\.(jpg|png|pdf|csv|heic|xml)$/;

/** True for ids this module produces; anything else (paths, other names) is never looked up. */
export function isSafeFileId(id: string): boolean {
  return SAFE_FILE_ID.test(id);
}

/** A stored file: what it is, and its bytes read back part by part. */
export interface OpenedFile {
  mime: string;
  size: number;
  /** Owner, for access checks (null: not tied to a client). */
  idCliente: number | null;
  kind: string;
  /**
   * The bytes in order, PARTS_PER_READ parts (1 MB) a statement with a turn of the event loop between
   * statements: a route streams them to its answer, the import job reads its CSV from them.
   */
  parts(): AsyncGenerator<Buffer>;
}

/**
 * A stored file by its content name (null for any other name, or an upload still arriving). One statement
 * reads the row and its first parts: a picture or a thumbnail is read whole by it.
 */
export async function openFile(db: Db | Tx, id: string): Promise<OpenedFile | null> {
  if (!isSafeFileId(id)) return null;
  const rows = await db
    .select({
      mime: storedFiles.mime,
      size: storedFiles.size,
      idCliente: storedFiles.idCliente,
      kind: storedFiles.kind,
      part: storedFileParts.part,
      data: storedFileParts.data,
    })
    .from(storedFiles)
    .leftJoin(
      storedFileParts,
      and(eq(storedFileParts.fileId, storedFiles.id), lt(storedFileParts.part, PARTS_PER_READ)),
    )
    .where(eq(storedFiles.id, id))
    .orderBy(asc(storedFileParts.part));
  const row = rows[0];
  if (!row) return null;
  const first = rows.flatMap((r) => (r.data ? [r.data] : []));
  const count = Math.ceil(row.size / FILE_PART_BYTES);
  return {
    mime: row.mime,
    size: row.size,
    idCliente: row.idCliente,
    kind: row.kind,
    async *parts() {
      yield* first;
      for (let from = PARTS_PER_READ; from < count; from += PARTS_PER_READ) {
        await nextTurn();
        const next = await db
          .select({ data: storedFileParts.data })
          .from(storedFileParts)
          .where(
            and(
              eq(storedFileParts.fileId, id),
              gte(storedFileParts.part, from),
              lt(storedFileParts.part, from + PARTS_PER_READ),
            ),
          )
          .orderBy(asc(storedFileParts.part));
        for (const r of next) yield r.data;
      }
    },
  };
}

export interface StoredFileContent {
  mime: string;
  size: number;
  data: Buffer;
  /** Owner, for access checks (null: not tied to a client). */
  idCliente: number | null;
  kind: string;
}

/** A stored file with its bytes in one buffer: for small files used whole (a logo drawn on a PDF). */
export async function readFile(db: Db | Tx, id: string): Promise<StoredFileContent | null> {
  const file = await openFile(db, id);
  if (!file) return null;
  const parts: Buffer[] = [];
  for await (const part of file.parts()) parts.push(part);
  const { mime, size, idCliente, kind } = file;
  return { mime, size, idCliente, kind, data: Buffer.concat(parts) };
}

/** The address the web app loads a stored image from, and its thumbnail's (null without an image). */
export const imageUrl = (id: string | null) => (id ? `/api/img/${id}` : null);
export const thumbUrl = (id: string | null) => (id ? `/api/img/${thumbIdFor(id)}` : null);
