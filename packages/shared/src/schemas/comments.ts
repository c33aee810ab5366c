import { z } from 'zod';
import { COMENTARIO_MAX, COMENTARIOS_PAGINA } from '../limits.ts';
import { MSG } from '../messages.ts';

export { COMENTARIO_MAX };

/** Control characters other than tab and line breaks. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is this pattern's purpose.
const CONTROL_CHARS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/**
 * A comment's text: plain text (never read as HTML), trimmed, line breaks as \n, 1 to 1,000 characters
 * after trimming.
 */
export const CommentText = z
  .string({ error: MSG.comentarioVacio })
  .trim()
  .min(1, MSG.comentarioVacio)
  .max(COMENTARIO_MAX, MSG.comentarioLargo)
  .refine((t) => !CONTROL_CHARS.test(t), MSG.comentarioInvalido)
  .transform((t) => t.replace(/\r\n?/g, '\n'));

/** POST /api/historial/{id}/comentarios and POST /api/pedidos/{id}/comentarios. */
export const CommentBody = z.object({ texto: CommentText });
export type CommentBody = z.infer<typeof CommentBody>;

/** One comment of an order's thread. `rol` is the author's role now (1 buyer, 2 or 3 approver). */
export const OrderCommentDto = z.object({
  id: z.number().int(),
  autor: z.object({ nombre: z.string(), rol: z.number().int() }),
  texto: z.string(),
  fecha: z.string(),
});
export type OrderCommentDto = z.infer<typeof OrderCommentDto>;

/**
 * The answer to a new comment: the order's latest comments (at most COMENTARIOS_PAGINA), oldest first, and
 * how many the order has in all.
 */
export const CommentsResponse = z.object({
  status: z.literal('ok'),
  msg: z.string(),
  comentario: OrderCommentDto,
  comentarios: z.array(OrderCommentDto),
  comentarios_total: z.number().int(),
});

/** GET …/{id}/comentarios?antes={id}: the page of comments older than a comment (the thread's start first). */
export const OlderCommentsQuery = z.object({
  antes: z.coerce
    .number({ error: MSG.comentarioAnteriorInvalido })
    .int(MSG.comentarioAnteriorInvalido)
    .positive(MSG.comentarioAnteriorInvalido)
    .max(2_147_483_647, MSG.comentarioAnteriorInvalido),
});
export type OlderCommentsQuery = z.infer<typeof OlderCommentsQuery>;

/** At most COMENTARIOS_PAGINA comments, oldest first; `mas`: there are older ones still. */
export const OlderCommentsResponse = z.object({
  comentarios: z.array(OrderCommentDto),
  mas: z.boolean(),
});
export type OlderCommentsResponse = z.infer<typeof OlderCommentsResponse>;
export { COMENTARIOS_PAGINA };
export type CommentsResponse = z.infer<typeof CommentsResponse>;
