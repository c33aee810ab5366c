import { z } from 'zod';
import { MAX_ID } from '../limits.ts';

/** Every 4xx/5xx body: a stable code and a Spanish message (`msg`, shown as is). */
export const ErrorBody = z.object({
  code: z.string(),
  msg: z.string(),
  /** Field-level messages of a validation error. */
  errors: z.record(z.string(), z.string()).optional(),
  /** On a 5xx: the request's id (`X-Request-Id`), shown as 'Código de soporte' so support finds the call. */
  soporte: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

/** A route's error answers: the same `{code, msg, errors?}` body for each status it may give. */
export function errorResponses<const C extends readonly number[]>(
  ...codes: C
): { [K in C[number]]: typeof ErrorBody } {
  return Object.fromEntries(codes.map((c) => [c, ErrorBody])) as { [K in C[number]]: typeof ErrorBody };
}

export const OkMessage = z.object({ status: z.literal('ok'), msg: z.string() });
export type OkMessage = z.infer<typeof OkMessage>;

/** A positive integer id in a path. */
export const IdParam = z.object({ id: z.coerce.number().int().positive().max(MAX_ID) });
