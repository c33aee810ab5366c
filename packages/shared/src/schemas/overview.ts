/** Administration (rol 4): the overview page's counts. */
import { z } from 'zod';

/** How many clients the overview names with their waiting top-ups. */
export const OVERVIEW_TOPUP_CLIENTS = 5;

export const AdminOverview = z.object({
  clientes_activos: z.number().int(),
  /** Active accounts of roles 1-3. */
  usuarios_activos: z.number().int(),
  /** Business month (YYYY-MM) the order counts cover. */
  mes: z.string(),
  pedidos_mes: z.object({
    pendiente: z.number().int(),
    espera: z.number().int(),
    aprobado: z.number().int(),
    cancelado: z.number().int(),
    total: z.number().int(),
  }),
  importaciones: z.object({
    /** Waiting or running now. */
    en_proceso: z.number().int(),
    /** Failed in the last 7 days. */
    fallidas_7_dias: z.number().int(),
  }),
  /** Budget top-ups waiting for a decision (decision 0123): how many, and the clients with the most. */
  ampliaciones_pendientes: z.object({
    total: z.number().int(),
    /** Up to OVERVIEW_TOPUP_CLIENTS clients, the most waiting first (then by name). */
    clientes: z.array(z.object({ id: z.number().int(), nombre: z.string(), pendientes: z.number().int() })),
  }),
});
export type AdminOverview = z.infer<typeof AdminOverview>;
