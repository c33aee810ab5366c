/** Administration (rol 4): the overview page's counts. */
import { z } from 'zod';

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
});
export type AdminOverview = z.infer<typeof AdminOverview>;
