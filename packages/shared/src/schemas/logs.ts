/** Administration (rol 4): the system log. */
import { z } from 'zod';
import { isIsoDate } from '../domain/time.ts';
import { SEARCH_MAX_LENGTH } from '../limits.ts';
import { MSG } from '../messages.ts';
import { idQuery, PageQuery } from './form-fields.ts';
import { OrderNumberText } from './orders.ts';

const IsoDate = z.string().refine(isIsoDate, MSG.logsFechaInvalida);
/** An empty query value is no filter (what a cleared form field sends). */
const blankIsNone = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? undefined : v);

/** The log's filters, shared by the page (GET /api/logs) and the export (GET /api/logs/exportar). */
export const LogFiltersQuery = z
  .object({
    event_type: z.preprocess(blankIsNone, z.string().trim().max(100, MSG.logsTipoInvalido).optional()),
    /** The acting user's id (the links of older screens). */
    user_id: z.preprocess(blankIsNone, idQuery(MSG.logsUsuarioInvalido).optional()),
    /** The acting user's username or name contains it, case and accents ignored. */
    usuario: z.preprocess(
      blankIsNone,
      z.string().trim().min(2, MSG.busquedaMuyCorta).max(SEARCH_MAX_LENGTH, MSG.busquedaMuyLarga).optional(),
    ),
    /** The client the entry concerns. */
    id_cliente: z.preprocess(blankIsNone, idQuery(MSG.logsClienteInvalido).optional()),
    /** The order the entry names: "#00012", "00012" or "12". */
    pedido: z.preprocess(
      blankIsNone,
      OrderNumberText.transform((v) => Number(v.replace('#', ''))).optional(),
    ),
    desde: z.preprocess(blankIsNone, IsoDate.optional()),
    hasta: z.preprocess(blankIsNone, IsoDate.optional()),
  })
  .refine((q) => !q.desde || !q.hasta || q.desde <= q.hasta, {
    message: MSG.logsRangoInvalido,
    path: ['hasta'],
  });
export type LogFiltersQuery = z.infer<typeof LogFiltersQuery>;

export const LogsQuery = z.intersection(LogFiltersQuery, z.object({ page: PageQuery }));
export type LogsQuery = z.infer<typeof LogsQuery>;

export const LogDto = z.object({
  id: z.number().int(),
  /** Null for events without a signed-in user (the UI shows N/A). */
  user_id: z.number().int().nullable(),
  usuario: z.string().nullable(),
  /** The acting user's name. */
  nombre: z.string().nullable(),
  event_type: z.string(),
  description: z.string(),
  metadata: z.unknown(),
  /** The client the entry concerns, and the order it names (see decision 0062). */
  id_cliente: z.number().int().nullable(),
  cliente: z.string().nullable(),
  id_pedido: z.number().int().nullable(),
  created_at: z.string(),
});
export type LogDto = z.infer<typeof LogDto>;

export const LogsResponse = z.object({
  logs: z.array(LogDto),
  total: z.number().int(),
  /** A filtered count stops at 10,000: true when there are more (the screen says "más de 10,000"). */
  total_limitado: z.boolean(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type LogsResponse = z.infer<typeof LogsResponse>;

export const LogTypesResponse = z.object({ tipos: z.array(z.string()) });

/** The columns of the log's CSV export. */
export const LOG_EXPORT_HEADER = [
  '#',
  'Fecha',
  'ID de usuario',
  'Usuario',
  'Nombre',
  'Cliente',
  'Pedido',
  'Tipo de evento',
  'Clave del evento',
  'Descripción',
  'Metadatos',
] as const;
