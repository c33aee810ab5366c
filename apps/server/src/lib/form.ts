import type { z } from 'zod';
import { MSG } from '../messages.ts';
import { badRequest } from './errors.ts';
import { FileRejectedError, type PreparedFile, prepareFile, type StoreFileInput } from './files.ts';

/** Parses form values with a schema; the first problem is the message, all of them per field. */
export function parseForm<S extends z.ZodType>(schema: S, data: unknown): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const errors: Record<string, string> = {};
  for (const issue of result.error.issues) errors[issue.path.join('.') || '_'] ??= issue.message;
  throw badRequest('VALIDATION', result.error.issues[0]?.message ?? MSG.datosInvalidos, errors);
}

/** Checks an uploaded file; a refusal is a 400 with the file's Spanish message. */
export async function prepareUpload(field: string, input: StoreFileInput): Promise<PreparedFile> {
  try {
    return await prepareFile(input);
  } catch (err) {
    if (err instanceof FileRejectedError) throw badRequest(err.code, err.message, { [field]: err.message });
    throw err;
  }
}

/** An instant as its ISO 8601 text, for a response. */
export const iso = (d: Date) => d.toISOString();
