import { z } from 'zod';
import { DASHBOARD_MAX_MONTHS, isMonthKey, monthsBetween } from '../domain/months.ts';
import { MAX_ID } from '../limits.ts';
import { MSG } from '../messages.ts';

const MonthKey = z.string().refine(isMonthKey, MSG.mesInvalido);

/**
 * GET /api/tablero: business months YYYY-MM, both inclusive, at most 24 (default: the last 12). `cliente`:
 * an administrator's choice of client (none: every client); an authorizer's own client only.
 */
export const DashboardQuery = z
  .object({
    desde: MonthKey.optional(),
    hasta: MonthKey.optional(),
    cliente: z.coerce.number().int().min(1).max(MAX_ID).optional(),
  })
  .refine((q) => !q.desde || !q.hasta || q.desde <= q.hasta, {
    message: MSG.rangoMesesInvalido,
    path: ['hasta'],
  })
  .refine((q) => !q.desde || !q.hasta || monthsBetween(q.desde, q.hasta) <= DASHBOARD_MAX_MONTHS, {
    message: MSG.rangoMesesLargo,
    path: ['hasta'],
  });
export type DashboardQuery = z.infer<typeof DashboardQuery>;

/** Amounts are pesos, IVA included as the budgets count it (order totals), unless said otherwise. */
export const DashboardMonth = z.object({
  mes: z.string(),
  aprobado: z.number(),
  pendiente: z.number(),
  espera: z.number(),
  cancelado: z.number(),
});
export type DashboardMonth = z.infer<typeof DashboardMonth>;

export const DashboardBuyer = z.object({
  id: z.number().int(),
  nombre: z.string(),
  usuario: z.string(),
  id_cliente: z.number().int(),
  /** The month's budget (regular) or the sum of the buyer's category budgets. */
  presupuesto: z.number(),
  /** What the buyer's "Utilizado" card says for the month. */
  utilizado: z.number(),
  /** Non-cancelled orders of the month. */
  pedidos: z.number().int(),
});
export type DashboardBuyer = z.infer<typeof DashboardBuyer>;

export const DashboardCategory = z.object({
  id: z.number().int(),
  nombre: z.string(),
  /** Category budgets: the sum of the buyers' budgets of the category; null without category budgets. */
  presupuesto: z.number().nullable(),
  utilizado: z.number(),
});
export type DashboardCategory = z.infer<typeof DashboardCategory>;

export const DashboardProduct = z.object({
  id: z.number().int(),
  clave: z.string(),
  nombre: z.string(),
  cantidad: z.number().int(),
  /** Price × quantity, before IVA, as the detail report's "Importe". */
  importe: z.number(),
});
export type DashboardProduct = z.infer<typeof DashboardProduct>;

export const DashboardResponse = z.object({
  /** The client the figures are of; null = every client (an administrator's overview). */
  cliente: z.object({ id: z.number().int(), nombre: z.string() }).nullable(),
  desde: z.string(),
  hasta: z.string(),
  /** The current business month: the month of `por_usuario` and `por_categoria`. */
  mes_actual: z.string(),
  modo: z.enum(['regular', 'categoria']).nullable(),
  meses: z.array(DashboardMonth),
  /** The current month's buyers with the highest share of their budget first (at most 50). */
  por_usuario: z.array(DashboardBuyer),
  usuarios: z.object({
    total: z.number().int(),
    /** At or above 80 % of their budget (100 % included). */
    sobre_80: z.number().int(),
    sobre_100: z.number().int(),
  }),
  por_categoria: z.array(DashboardCategory),
  /**
   * One client: its áreas (cost centres, decision 0123) this month — the month's budget (with top-ups and
   * transfers) and what their orders spend — by name; empty without áreas or without a client.
   */
  por_area: z.array(
    z.object({
      id: z.number().int(),
      nombre: z.string(),
      codigo: z.string(),
      presupuesto: z.number(),
      utilizado: z.number(),
    }),
  ),
  /** The range's ten products with the largest amount (non-cancelled orders). */
  top_productos: z.array(DashboardProduct),
  /** Administrators: orders and their totals per business day, the last 30 days (else null). */
  por_dia: z.array(z.object({ fecha: z.string(), pedidos: z.number().int(), total: z.number() })).nullable(),
  /** Administrators, every client: the clients closest to their budgets this month (else null). */
  clientes_cerca: z
    .array(
      z.object({
        id: z.number().int(),
        nombre: z.string(),
        presupuesto: z.number(),
        utilizado: z.number(),
      }),
    )
    .nullable(),
});
export type DashboardResponse = z.infer<typeof DashboardResponse>;

/**
 * GET /api/historial/gasto (rol 1): the buyer's last six business months (the current one last) against
 * today's budget, as the budget cards count them; in category mode also per category with a budget.
 */
export const BuyerSpendResponse = z.object({
  modo: z.enum(['regular', 'categoria']),
  /** Today's monthly budget (regular) or the sum of the category budgets. */
  presupuesto: z.number(),
  meses: z.array(z.object({ mes: z.string(), utilizado: z.number() })),
  categorias: z.array(
    z.object({
      id: z.number().int(),
      nombre: z.string(),
      presupuesto: z.number(),
      meses: z.array(z.object({ mes: z.string(), utilizado: z.number() })),
    }),
  ),
});
export type BuyerSpendResponse = z.infer<typeof BuyerSpendResponse>;
