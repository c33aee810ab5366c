/** Administration (rol 4): the access weeks of a client. */
import { z } from 'zod';
import { isMonthKey } from '../domain/months.ts';
import { isIsoDate } from '../domain/time.ts';
import {
  generatorRangeEnd,
  WEEK_GENERATOR_MODES,
  WEEK_OF_MONTH,
  type WeekOfMonth,
} from '../domain/week-generator.ts';
import { MSG } from '../messages.ts';
import {
  blankToUndefined,
  idNumber,
  idQuery,
  integer,
  optionalBoolean,
  optionalInteger,
  PageQuery,
  requiredBoolean,
} from './form-fields.ts';

const WeekDate = z.preprocess(
  blankToUndefined,
  z.string({ error: MSG.semanaFechasRequeridas }).refine(isIsoDate, MSG.semanaFechaInvalida),
);

export const WeekCreateBody = z
  .object({
    inicio: WeekDate,
    fin: WeekDate,
    id_cliente: idNumber(MSG.debesSeleccionarCliente),
    activo: optionalBoolean(MSG.semanaActivoRequerido),
  })
  .refine((b) => !isIsoDate(String(b.inicio)) || !isIsoDate(String(b.fin)) || b.fin >= b.inicio, {
    message: MSG.semanaRango,
    path: ['fin'],
  });
export type WeekCreateBody = z.infer<typeof WeekCreateBody>;

export const WeekToggleBody = z.object({
  activo: requiredBoolean(MSG.semanaActivoRequerido),
});

export const WeeksQuery = z.object({
  id_cliente: idNumber(MSG.debesSeleccionarCliente),
  page: PageQuery,
});

/** PUT and destroy: which page of the client's weeks to answer with. */
export const WeeksPageQuery = z.object({ page: PageQuery });

export const WeekDto = z.object({
  id: z.number().int(),
  id_cliente: z.number().int(),
  inicio: z.string(),
  fin: z.string(),
  activo: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type WeekDto = z.infer<typeof WeekDto>;

export const WeeksResponse = z.object({
  semanas: z.array(WeekDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
  /** The page holding today: the week in course, else the next one to start, else 1 (decision 0097). */
  pagina_hoy: z.number().int(),
});
export type WeeksResponse = z.infer<typeof WeeksResponse>;

export const WeekCreateResponse = z.object({ status: z.literal('ok'), msg: z.string(), semana: WeekDto });
export type WeekCreateResponse = z.infer<typeof WeekCreateResponse>;

export const WeeksMutationResponse = WeeksResponse.extend({ status: z.literal('ok'), msg: z.string() });
export type WeeksMutationResponse = z.infer<typeof WeeksMutationResponse>;

const PeriodDate = z.preprocess(
  blankToUndefined,
  z.string({ error: MSG.semanaPeriodoRequerido }).refine(isIsoDate, MSG.semanaFechaInvalida),
);

/**
 * POST /api/calendario_semanas/generar (and its preview): a rule and the range it covers, two years at
 * most (docs/domain.md "Access weeks"). Weeks start on Monday; `dias` is their length (5 by default).
 */
export const WeekGenerateBody = z
  .object({
    id_cliente: idNumber(MSG.debesSeleccionarCliente),
    desde: PeriodDate,
    hasta: PeriodDate,
    modo: z.enum(WEEK_GENERATOR_MODES, { error: MSG.semanaModoInvalido }),
    semana_del_mes: z.preprocess(
      (v) => (blankToUndefined(v) === undefined ? undefined : String(v).trim().toLowerCase()),
      z.enum(WEEK_OF_MONTH, { error: MSG.semanaDelMesInvalida }).optional(),
    ),
    cada: optionalInteger({ invalid: MSG.semanaCadaInvalida, min: 2, max: 12 }),
    dias: integer({ required: MSG.semanaDiasInvalidos, invalid: MSG.semanaDiasInvalidos, min: 1, max: 7 })
      .optional()
      .transform((v) => v ?? 5),
    activo: optionalBoolean(MSG.semanaActivoRequerido),
  })
  .superRefine((b, ctx) => {
    const dates = isIsoDate(String(b.desde)) && isIsoDate(String(b.hasta));
    if (dates && b.hasta < b.desde)
      ctx.addIssue({ code: 'custom', message: MSG.semanaPeriodoRango, path: ['hasta'] });
    else if (dates && b.hasta > generatorRangeEnd(b.desde))
      ctx.addIssue({ code: 'custom', message: MSG.semanaPeriodoLargo, path: ['hasta'] });
    if (b.modo === 'mensual' && !b.semana_del_mes)
      ctx.addIssue({ code: 'custom', message: MSG.semanaDelMesInvalida, path: ['semana_del_mes'] });
    if (b.modo === 'cada_n' && b.cada === undefined)
      ctx.addIssue({ code: 'custom', message: MSG.semanaCadaInvalida, path: ['cada'] });
  });
export type WeekGenerateInput = z.input<typeof WeekGenerateBody>;
export type WeekGenerateBody = z.infer<typeof WeekGenerateBody>;
export type { WeekOfMonth };

/** A week the rule would make: `nueva` is created on saving; the others are skipped. */
export const WEEK_PREVIEW_STATES = ['nueva', 'existente', 'empalmada'] as const;
export const WeekPreviewItem = z.object({
  inicio: z.string(),
  fin: z.string(),
  estado: z.enum(WEEK_PREVIEW_STATES),
});
export type WeekPreviewItem = z.infer<typeof WeekPreviewItem>;

export const WeekPreviewResponse = z.object({
  semanas: z.array(WeekPreviewItem),
  nuevas: z.number().int(),
  omitidas: z.number().int(),
  /**
   * Saving leaves today outside every active week of the client (which has weeks, so its buyers are
   * shut out today); `proximo_acceso` is the first later day inside an active week, or null (decision 0097).
   */
  hoy_sin_acceso: z.boolean(),
  proximo_acceso: z.string().nullable(),
});
export type WeekPreviewResponse = z.infer<typeof WeekPreviewResponse>;

export const WeekGenerateResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  creadas: z.number().int(),
  omitidas: z.number().int(),
  semanas: z.array(WeekDto),
});
export type WeekGenerateResponse = z.infer<typeof WeekGenerateResponse>;

/** GET /api/calendario_semanas/mes: the weeks of a client that touch a month ('AAAA-MM'). */
export const WeeksMonthQuery = z.object({
  id_cliente: idQuery(MSG.debesSeleccionarCliente),
  mes: z.string({ error: MSG.mesInvalido }).refine(isMonthKey, MSG.mesInvalido),
});

export const WeeksMonthResponse = z.object({ mes: z.string(), semanas: z.array(WeekDto) });
export type WeeksMonthResponse = z.infer<typeof WeeksMonthResponse>;
