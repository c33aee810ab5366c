import { createHash } from 'node:crypto';
import { IMAGE_MAX_BYTES, PDF_MAX_BYTES } from '@portal/shared/domain/files';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import type { Db, Tx } from '../db/client.ts';
import { storedFiles } from '../db/schema/index.ts';
import { MSG } from '../messages.ts';

export { IMAGE_MAX_BYTES, PDF_MAX_BYTES };
/** Width of the catalogue thumbnails. */
export const THUMB_WIDTH = 320;
/** Decoding guard against decompression bombs (a 48 MP photo fits). */
const MAX_INPUT_PIXELS = 100_000_000;

export type FileKind = 'imagen' | 'documento' | 'importacion';
export type AllowedType = 'image' | 'pdf' | 'csv';
export type DetectedMime = 'image/jpeg' | 'image/png' | 'application/pdf';
export type DetectedExt = 'jpg' | 'png' | 'pdf';
export type StoredMime = DetectedMime | 'text/csv';
export type StoredExt = DetectedExt | 'csv';

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

/** Plain UTF-8 text (with or without BOM) with no NUL bytes: what a CSV can be. */
/** Bytes of a file checked or hashed at a time before the event loop gets a turn (a 20 MB import: issue 38). */
const SLICE_BYTES = 1024 * 1024;

/** Runs `step` over the buffer a slice at a time, with a turn of the event loop between slices. */
async function inSlices(data: Buffer, step: (slice: Buffer, last: boolean) => void): Promise<void> {
  for (let at = 0; at < data.length; at += SLICE_BYTES) {
    const last = at + SLICE_BYTES >= data.length;
    step(data.subarray(at, at + SLICE_BYTES), last);
    if (!last) await new Promise((resolve) => setImmediate(resolve));
  }
}

async function looksLikeText(buf: Buffer): Promise<boolean> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    await inSlices(buf, (slice, last) => {
      if (slice.includes(0)) throw new Error('binario');
      decoder.decode(slice, { stream: !last });
    });
    return true;
  } catch {
    return false;
  }
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

/** The file's SHA-256 (its name), hashed a slice at a time. */
export async function sha256Hex(data: Buffer): Promise<string> {
  const hash = createHash('sha256');
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

/** Inserts prepared files; the same content is the same row (nothing happens the second time). */
export async function insertPreparedFiles(db: Db | Tx, files: readonly PreparedFile[]): Promise<void> {
  // Chunks keep each statement's parameter payload moderate.
  const CHUNK = 16;
  for (let i = 0; i < files.length; i += CHUNK) {
    const rows = files.slice(i, i + CHUNK).map((f) => ({
      id: f.id,
      idCliente: f.idCliente,
      kind: f.kind,
      mime: f.mime,
      size: f.size,
      data: f.data,
    }));
    await db.insert(storedFiles).values(rows).onConflictDoNothing({ target: storedFiles.id });
  }
}

/** Checks and stores a file; returns its id (`<sha256>.<ext>`). Throws FileRejectedError. */
export async function storeFile(db: Db | Tx, input: StoreFileInput): Promise<string> {
  const file = await prepareFile(input);
  await insertPreparedFiles(db, [file]);
  return file.id;
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

const SAFE_FILE_ID = /^[0-9a-f]{64}(_t)?\.(jpg|png|pdf|csv)$/;

/** True for ids this module produces; anything else (paths, other names) is never looked up. */
export function isSafeFileId(id: string): boolean {
  return SAFE_FILE_ID.test(id);
}

export interface StoredFileContent {
  mime: string;
  size: number;
  data: Buffer;
  /** Owner, for access checks (null: not tied to a client). */
  idCliente: number | null;
  kind: string;
}

export async function readFile(db: Db | Tx, id: string): Promise<StoredFileContent | null> {
  if (!isSafeFileId(id)) return null;
  const [row] = await db
    .select({
      mime: storedFiles.mime,
      size: storedFiles.size,
      data: storedFiles.data,
      idCliente: storedFiles.idCliente,
      kind: storedFiles.kind,
    })
    .from(storedFiles)
    .where(eq(storedFiles.id, id))
    .limit(1);
  return row ?? null;
}

/** The address the web app loads a stored image from, and its thumbnail's (null without an image). */
export const imageUrl = (id: string | null) => (id ? `/api/img/${id}` : null);
export const thumbUrl = (id: string | null) => (id ? `/api/img/${thumbIdFor(id)}` : null);
