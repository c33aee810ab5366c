import type { FastifyRequest } from 'fastify';
import { AppError } from './errors.ts';
import { isUnsafeText, unsafeTextError } from './safe-text.ts';

export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

export interface MultipartBody {
  fields: Record<string, string>;
  files: Record<string, UploadedFile>;
}

/** Largest single upload accepted by the parser (PDFs are 20 MB; each use-case checks its own limit). */
export const MULTIPART_MAX_FILE_BYTES = 25 * 1024 * 1024;

/**
 * Reads a multipart/form-data body into plain fields and buffered files (one per field name).
 * Files are small by rule (images 5 MB, PDFs 20 MB, CSV imports 25 MB), so buffering is fine; a file over
 * the parser's limit is a Spanish 413, never a 500.
 */
export async function readMultipart(request: FastifyRequest): Promise<MultipartBody> {
  if (!request.isMultipart()) {
    throw new AppError(
      415,
      'NOT_MULTIPART',
      'La solicitud debe enviarse como formulario con archivos (multipart/form-data).',
    );
  }
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedFile> = {};
  try {
    for await (const part of request.parts({
      limits: { fileSize: MULTIPART_MAX_FILE_BYTES, files: 5, fields: 80, fieldSize: 1024 * 1024 },
    })) {
      if (isUnsafeText(part.fieldname)) throw unsafeTextError();
      if (part.type === 'file') {
        if (isUnsafeText(part.filename)) throw unsafeTextError();
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
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code ?? '';
    if (code === 'FST_REQ_FILE_TOO_LARGE') {
      throw new AppError(413, 'FILE_SIZE', 'El archivo excede el tamaño máximo permitido.');
    }
    // Anything else here is the form itself (no boundary, a truncated or malformed body): the client's fault.
    throw new AppError(400, 'BAD_MULTIPART', 'No se pudo leer el formulario enviado.');
  }
  return { fields, files };
}
