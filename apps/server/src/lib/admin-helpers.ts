import { MSG } from '@portal/shared/messages';
import { inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { z } from 'zod';
import type { Db, Tx } from '../db/client.ts';
import { sessions, users } from '../db/schema/index.ts';
import { badRequest } from './errors.ts';
import { FileRejectedError, type PreparedFile, prepareFile, type StoreFileInput } from './files.ts';

const ACCENTED = 'áàäâéèëêíìïîóòöôúùüûñç';
const PLAIN = 'aaaaeeeeiiiioooouuuunc';

function fold(text: string): string {
  return text
    .toLowerCase()
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '');
}

/** The LIKE pattern of a case- and accent-insensitive "contains"; undefined for an empty search. */
export function foldedPattern(q: string | undefined): string | undefined {
  const term = fold(q?.trim() ?? '');
  return term ? `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%` : undefined;
}

/** Any of the columns, lower-cased and without accents, matches the pattern of foldedPattern. */
export function foldedLike(columns: AnyPgColumn[], like: string | Placeholder): SQL {
  const parts = columns.map((c) => sql`translate(lower(${c}), ${ACCENTED}, ${PLAIN}) like ${like}`);
  return sql`(${sql.join(parts, sql` or `)})`;
}

/** Case- and accent-insensitive "contains" over any of the columns; undefined for an empty search. */
export function foldedSearch(columns: AnyPgColumn[], q: string | undefined): SQL | undefined {
  const like = foldedPattern(q);
  return like === undefined ? undefined : foldedLike(columns, like);
}

/** True for a unique-constraint violation (23505), through Drizzle's wrapping. */
export function isUniqueViolation(err: unknown, constraint?: string): boolean {
  let e = err as { code?: string; constraint?: string; message?: string; cause?: unknown } | undefined;
  for (let depth = 0; e && depth < 5; depth++) {
    if (e.code === '23505') {
      if (!constraint) return true;
      return e.constraint === constraint || String(e.message ?? '').includes(constraint);
    }
    e = e.cause as typeof e;
  }
  return false;
}

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

/** Ends every session of these users at once (deactivation, password reset). */
export async function endSessionsOfUsers(db: Db | Tx, userIds: number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db.delete(sessions).where(inArray(sessions.userId, userIds));
}

/** Ends every session of every user of a client (client deactivation). */
export async function endSessionsOfClient(db: Db | Tx, idCliente: number): Promise<void> {
  await db
    .delete(sessions)
    .where(
      inArray(
        sessions.userId,
        db.select({ id: users.id }).from(users).where(sql`${users.idCliente} = ${idCliente}`),
      ),
    );
}

export const offsetOf = (page: number, perPage: number) => (page - 1) * perPage;
export const iso = (d: Date) => d.toISOString();
