/** Administration (rol 4): the access weeks of a client. */
import { z } from 'zod';
import { isIsoDate } from '../domain/time.ts';
import { MSG } from '../messages.ts';
import { blankToUndefined, idNumber, optionalBoolean, PageQuery, requiredBoolean } from './form-fields.ts';

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
});
export type WeeksResponse = z.infer<typeof WeeksResponse>;

export const WeekCreateResponse = z.object({ status: z.literal('ok'), msg: z.string(), semana: WeekDto });
export type WeekCreateResponse = z.infer<typeof WeekCreateResponse>;

export const WeeksMutationResponse = WeeksResponse.extend({ status: z.literal('ok'), msg: z.string() });
export type WeeksMutationResponse = z.infer<typeof WeeksMutationResponse>;
