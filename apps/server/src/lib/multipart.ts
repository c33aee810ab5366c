import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import { isUnsafeText, unsafeTextError } from './safe-text.ts';

export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

export interface MultipartBody<R = never> {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
  /** The files a receiver took as they arrived (`readMultipart`'s second argument), by field name. */
  received: Record<string, ReceivedPart<R>>;
}

/** A file part a receiver took: what the form said of it, and what the receiver made of its bytes. */
export interface ReceivedPart<R> {
  field: string;
  filename: string;
  mimetype: string;
  value: R;
}

/**
 * Takes file parts as their bytes arrive instead of gathering each into one buffer (a 20 MB import or PDF
 * goes to the database a part at a time: lib/files.ts `receiveFile`).
 */
export interface FileReceiver<R> {
  /** The file fields it takes (default: every one); the others are buffered. */
  fields?: readonly string[];
  /** Reads a file part's bytes to their end; null: nothing arrived (an empty file, as if none was sent). */
  receive: (bytes: AsyncIterable<Buffer>) => Promise<R | null>;
  /** Lets go of what was received and will not be used: a file sent twice, a form refused after it. */
  discard: (received: readonly R[]) => Promise<void>;
}

/** Largest single upload accepted by the parser (PDFs are 20 MB; each use-case checks its own limit). */
export const MULTIPART_MAX_FILE_BYTES = 25 * 1024 * 1024;

/**
 * Reads a multipart/form-data body into plain fields, buffered files (one per field name) and, with a
 * receiver, the files it took as they arrived. Images are small by rule (5 MB) and are decoded whole, so
 * buffering them is fine; PDFs and CSV imports (20 MB) go to a receiver. A file over the parser's limit is a
 * Spanish 413, never a 500; when the form is refused, what a receiver took is discarded first.
 */
export async function readMultipart<R = never>(
  request: FastifyRequest,
  receiver?: FileReceiver<R>,
): Promise<MultipartBody<R>> {
  if (!request.isMultipart()) {
    throw new AppError(
      415,
      'NOT_MULTIPART',
      'La solicitud debe enviarse como formulario con archivos (multipart/form-data).',
    );
  }
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  const received: Record<string, ReceivedPart<R>> = {};
  const taken: R[] = [];
  /** The file stream a receiver is reading: when it fails with no fault of that stream, the receiver's own. */
  let receiving: { errored: unknown } | null = null;
  try {
    for await (const part of request.parts({
      limits: { fileSize: MULTIPART_MAX_FILE_BYTES, files: 5, fields: 80, fieldSize: 1024 * 1024 },
    })) {
      if (isUnsafeText(part.fieldname)) throw unsafeTextError();
      if (part.type === 'file') {
        if (isUnsafeText(part.filename)) throw unsafeTextError();
        if (receiver && (!receiver.fields || receiver.fields.includes(part.fieldname))) {
          receiving = part.file;
          const got = await receiver.receive(part.file);
          receiving = null;
          if (got !== null) taken.push(got);
          // The parser stopped at its limit: the stream ended early, the file is cut.
          if (part.file.truncated)
            throw Object.assign(new Error('archivo cortado'), { code: FILE_TOO_LARGE });
          if (got !== null)
            received[part.fieldname] = {
              field: part.fieldname,
              filename: part.filename,
              mimetype: part.mimetype,
              value: got,
            };
          continue;
        }
        const data = await part.toBuffer();
        if (data.length > 0)
          files[part.fieldname] = {
            field: part.fieldname,
            filename: part.filename,
            mimetype: part.mimetype,
            data,
          };
      } else {
        const value = typeof part.value === 'string' ? part.value : String(part.value ?? '');
        if (isUnsafeText(value)) throw unsafeTextError();
        fields[part.fieldname] = value;
      }
    }
  } catch (err) {
    await receiver?.discard(taken).catch(() => undefined);
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === FILE_TOO_LARGE) {
      throw new AppError(413, 'FILE_SIZE', 'El archivo excede el tamaño máximo permitido.');
    }
    // The receiver failed while the bytes were fine (the database): the server's error, not the form's.
    if (receiving && !receiving.errored) throw err;
    // Anything else here is the form itself (no boundary, a truncated or malformed body): the client's fault.
    throw new AppError(400, 'BAD_MULTIPART', 'No se pudo leer el formulario enviado.');
  }
  const kept = new Set(Object.values(received).map((r) => r.value));
  const unused = taken.filter((r) => !kept.has(r));
  if (unused.length) await receiver?.discard(unused);
  return { fields, files, received };
}

/** @fastify/multipart's code for a file over `limits.fileSize`. */
const FILE_TOO_LARGE = 'FST_REQ_FILE_TOO_LARGE';
