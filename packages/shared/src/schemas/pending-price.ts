import { z } from 'zod';

/**
 * A product's pending price change (decision 0132): the new price in pesos and the business date
 * (YYYY-MM-DD) it holds from. The inventory, the catalogue, the cart, a saved list and the approvers'
 * order screen carry it beside the current price.
 */
export const PendingPriceDto = z.object({
  precio: z.number(),
  vigente_desde: z.string(),
});
export type PendingPriceDto = z.infer<typeof PendingPriceDto>;
