import type { z } from 'zod';
import type { Db } from '../db/client.ts';
import { MSG } from '../messages.ts';
import { badRequest } from './errors.ts';
import {
  discardStaged,
  FileRejectedError,
  type PreparedFile,
  prepareFile,
  type ReceivedFile,
  type ReceiveInput,
  receiveFile,
  type StagedFile,
  type StoreFileInput,
} from './files.ts';
import type { FileReceiver, ReceivedPart } from './multipart.ts';

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

/**
 * A multipart receiver (`readMultipart`'s second argument) that streams file parts into the database as they
 * arrive (`receiveFile`, decision 0119); `input` is called for each file (an inspector reads one file only).
 */
export function fileReceiver<T>(
  db: Db,
  input: () => ReceiveInput<T>,
  fields?: readonly string[],
): FileReceiver<ReceivedFile<T>> {
  return {
    ...(fields ? { fields } : {}),
    receive: (bytes) => receiveFile(db, bytes, input()),
    discard: (files) =>
      discardStaged(
        db,
        files.map((f) => f.file),
      ),
  };
}

/** A received upload, accepted; a refusal is a 400 with the file's Spanish message, like `prepareUpload`'s. */
export function acceptReceived(field: string, received: ReceivedFile<unknown>): StagedFile {
  const { refusal, file } = received;
  if (refusal instanceof FileRejectedError)
    throw badRequest(refusal.code, refusal.message, { [field]: refusal.message });
  if (refusal || !file) throw refusal;
  return file;
}

/**
 * Removes what a form's receiver staged and was not stored: the form was refused after its files arrived, or
 * the transaction that stored them rolled back. A stored file's staged row is already gone.
 */
export function discardReceived(
  db: Db,
  received: Record<string, ReceivedPart<ReceivedFile<unknown>>>,
): Promise<void> {
  return discardStaged(
    db,
    Object.values(received).map((r) => r.value.file),
  );
}

/** An instant as its ISO 8601 text, for a response. */
export const iso = (d: Date) => d.toISOString();
