import { z } from 'zod';
import { isIsoDate } from '../domain/time.ts';
import { MAX_ID } from '../limits.ts';
import { MSG } from '../messages.ts';

const BusinessDate = z.string({ error: MSG.fechaInvalida }).refine(isIsoDate, MSG.fechaInvalida);

/**
 * PUT /api/delegacion (for oneself) and PUT /api/usuarios/{id}/delegacion (an administrator, for anyone):
 * the delegate and the window, business dates (YYYY-MM-DD), both inclusive. The window's other rules
 * (at most 90 days, not over) depend on today and are checked by the server (domain/delegation.ts).
 */
export const DelegationBody = z
  .object({
    delegado_id: z.coerce
      .number({ error: MSG.delegadoRequerido })
      .int(MSG.delegadoRequerido)
      .min(1, MSG.delegadoRequerido)
      .max(MAX_ID, MSG.delegadoRequerido),
    desde: BusinessDate,
    hasta: BusinessDate,
  })
  .refine((b) => b.desde <= b.hasta, { message: MSG.rangoFechasInvalido, path: ['hasta'] });
export type DelegationBody = z.infer<typeof DelegationBody>;

const Person = z.object({ id: z.number().int(), nombre: z.string(), rol: z.number().int() });

/** One delegation: who acts for whom, when, and whether today lies in its window. */
export const DelegationDto = z.object({
  delegado: Person,
  desde: z.string(),
  hasta: z.string(),
  activa: z.boolean(),
});
export type DelegationDto = z.infer<typeof DelegationDto>;

/**
 * GET, PUT and DELETE /api/delegacion and /api/usuarios/{id}/delegacion: the person's own delegation (or
 * null), the people they act for today, and whom they may name (the client's other active authorizers).
 */
export const DelegationState = z.object({
  delegacion: DelegationDto.nullable(),
  en_nombre_de: z.array(Person.extend({ hasta: z.string() })),
  candidatos: z.array(Person),
  /** The business date the server read "today" as. */
  hoy: z.string(),
});
export type DelegationState = z.infer<typeof DelegationState>;
