/**
 * Budget changes waiting for the distributor (decision 0122): a client administrator's budget for a user
 * above its client's `tope_presupuesto`. Amounts in pesos.
 */
import { z } from 'zod';
import { BUDGET_REQUEST_STATES } from '../domain/client-admin.ts';
import { MSG } from '../messages.ts';
import { optionalIdNumber, PageQuery } from './form-fields.ts';

/** GET /api/presupuestos/solicitudes */
export const BudgetRequestsQuery = z.object({
  /** The distributor: only this client's (a client administrator always sees its own). */
  id_cliente: optionalIdNumber(MSG.debesSeleccionarCliente),
  /** Only this state; absent: the pending ones for the distributor, every state for a client administrator. */
  estado: z.enum(BUDGET_REQUEST_STATES, { error: MSG.datosInvalidos }).optional(),
  page: PageQuery,
});
export type BudgetRequestsQuery = z.infer<typeof BudgetRequestsQuery>;

export const BudgetRequestDto = z.object({
  id: z.number().int(),
  cliente: z.object({ id: z.number().int(), nombre: z.string() }),
  usuario: z.object({ id: z.number().int(), usuario: z.string(), nombre: z.string() }),
  /** The monthly budget asked for, and the one the user had when it was asked. */
  presupuesto: z.number(),
  presupuesto_anterior: z.number(),
  /** Category mode: the budgets asked for per category; null in regular mode. */
  categorias: z
    .array(z.object({ id: z.number().int(), nombre: z.string(), presupuesto: z.number() }))
    .nullable(),
  estado: z.enum(BUDGET_REQUEST_STATES),
  solicitado_por: z.string(),
  decidido_por: z.string().nullable(),
  decidido_en: z.string().nullable(),
  created_at: z.string(),
});
export type BudgetRequestDto = z.infer<typeof BudgetRequestDto>;

export const BudgetRequestsResponse = z.object({
  solicitudes: z.array(BudgetRequestDto),
  total: z.number().int(),
  page: z.number().int(),
  per_page: z.number().int(),
});
export type BudgetRequestsResponse = z.infer<typeof BudgetRequestsResponse>;

export const BudgetRequestDecisionResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  solicitud: BudgetRequestDto,
});
export type BudgetRequestDecisionResponse = z.infer<typeof BudgetRequestDecisionResponse>;
