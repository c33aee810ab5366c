/** Administration (rol 4): the system log. */
import { z } from 'zod';
import { isIsoDate } from '../domain/time.ts';
import { MAX_ID, MAX_PAGE } from '../limits.ts';
import { MSG } from '../messages.ts';

const IsoDate = z.string().refine(isIsoDate, MSG.logsFechaInvalida);

export const LogsQuery = z
  .object({
    page: z.coerce.number().int().min(1).max(MAX_PAGE).default(1),
    event_type: z.string().trim().max(100).optional(),
    user_id: z.coerce.number().int().positive().max(MAX_ID).optional(),
    desde: IsoDate.optional(),
    hasta: IsoDate.optional(),
  })
  .refine((q) => !q.desde || !q.hasta || q.desde <= q.hasta, {
    message: MSG.logsRangoInvalido,
    path: ['hasta'],
  });
export type LogsQuery = z.infer<typeof LogsQuery>;

export const LogDto = z.object({
  id: z.number().int(),
  /** Null for events without a signed-in user (the UI shows N/A). */
  user_id: z.number().int().nullable(),
  usuario: z.string().nullable(),
  event_type: z.string(),
  description: z.string(),
  metadata: z.unknown(),
  created_at: z.string(),
});
export type LogDto = z.infer<typeof LogDto>;

export const LogsResponse = z.object({
  logs: z.array(LogDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type LogsResponse = z.infer<typeof LogsResponse>;

export const LogTypesResponse = z.object({ tipos: z.array(z.string()) });
