/**
 * An área's figures as the buyer's budget answers and the order review carry them (decision 0123): apart from
 * the áreas' other schemas (areas.ts), which only their screens load.
 */
import { z } from 'zod';

/** An área's figures beside a buyer's own (the cart, the order review). */
export const AreaBudgetDto = z.object({
  id: z.number().int(),
  nombre: z.string(),
  codigo: z.string(),
  presupuesto: z.number(),
  utilizado: z.number(),
  /** The área's remaining: budget − used (− the buyer's cart, or − this order). */
  restante: z.number(),
});
export type AreaBudgetDto = z.infer<typeof AreaBudgetDto>;
