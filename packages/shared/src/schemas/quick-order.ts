import { z } from 'zod';
import { parseQuickOrder, QUICK_ORDER_LINES_MAX, QUICK_ORDER_TEXT_MAX } from '../domain/quick-order.ts';
import { MSG } from '../messages.ts';
import { ReorderResponse } from './shopping.ts';

/**
 * POST /api/pedido-rapido: the pasted text. Refused whole (400) when it is empty, too long, has more than
 * 200 lines with content, or no line reads as `clave cantidad` (the message names the first bad line);
 * otherwise the lines that read are added and the others reported (decision 0045).
 */
export const QuickOrderBody = z.object({
  texto: z
    .string({ error: MSG.pedidoRapidoVacio })
    .max(QUICK_ORDER_TEXT_MAX, MSG.pedidoRapidoLargo)
    .superRefine((texto, ctx) => {
      const { lineas, invalidas, conContenido } = parseQuickOrder(texto);
      if (conContenido === 0) ctx.addIssue({ code: 'custom', message: MSG.pedidoRapidoVacio });
      else if (conContenido > QUICK_ORDER_LINES_MAX)
        ctx.addIssue({ code: 'custom', message: MSG.pedidoRapidoLineas });
      else if (lineas.length === 0 && invalidas[0])
        ctx.addIssue({
          code: 'custom',
          message: MSG.pedidoRapidoLinea(invalidas[0].linea, invalidas[0].motivo),
        });
    }),
});
export type QuickOrderBody = z.infer<typeof QuickOrderBody>;

/** The repetir answer, plus the claves that name no product assigned to the buyer and the unreadable lines. */
export const QuickOrderResponse = ReorderResponse.extend({
  desconocidas: z.array(z.object({ linea: z.number().int(), clave: z.string() })),
  invalidas: z.array(z.object({ linea: z.number().int(), texto: z.string(), motivo: z.string() })),
});
export type QuickOrderResponse = z.infer<typeof QuickOrderResponse>;
