/**
 * Comments on orders (docs/domain.md "Order comments", decision 0047): the buyer and the approvers of the
 * order's client write plain text on any status; each new comment e-mails the other side, at most once per
 * order and recipient every 10 minutes.
 */
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { ROLES } from '@portal/shared/domain/roles';
import { COMENTARIOS_PAGINA, COMENTARIOS_POR_HORA, COMENTARIOS_POR_PEDIDO } from '@portal/shared/limits';
import type {
  CommentsResponse,
  OlderCommentsResponse,
  OrderCommentDto,
} from '@portal/shared/schemas/comments';
import { and, count, desc, eq, gt, inArray, lt, min, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { orderCommentNotices, orderComments, orderEvents, orders, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { orderEmail } from '../../lib/emails.ts';
import { conflict, forbidden, notFound, tooMany } from '../../lib/errors.ts';
import { addressOf, enqueueEmail } from '../../lib/mailer.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';

/** At most one e-mail about new comments per order and recipient in this many minutes. */
export const COMMENT_NOTICE_MINUTES = 10;

const commentColumns = {
  id: orderComments.id,
  texto: orderComments.texto,
  createdAt: orderComments.createdAt,
  nombre: users.nombre,
  rol: users.rol,
};

function commentDto(r: { id: number; texto: string; createdAt: Date; nombre: string; rol: number }) {
  return {
    id: r.id,
    autor: { nombre: r.nombre, rol: r.rol },
    texto: r.texto,
    fecha: r.createdAt.toISOString(),
  };
}

/**
 * A page of an order's comments, oldest first: the latest COMENTARIOS_PAGINA, or with `before` the ones
 * just older than that comment; `more` says older ones remain (issue 38, finding 6).
 */
export async function commentsOf(
  db: Db | Tx,
  orderId: number,
  before?: number,
): Promise<{ comentarios: OrderCommentDto[]; more: boolean }> {
  const conditions = [eq(orderComments.orderId, orderId)];
  if (before !== undefined) conditions.push(lt(orderComments.id, before));
  const rows = await db
    .select(commentColumns)
    .from(orderComments)
    .innerJoin(users, eq(users.id, orderComments.authorId))
    .where(and(...conditions))
    .orderBy(desc(orderComments.id))
    .limit(COMENTARIOS_PAGINA + 1);
  const more = rows.length > COMENTARIOS_PAGINA;
  return { comentarios: rows.slice(0, COMENTARIOS_PAGINA).reverse().map(commentDto), more };
}

interface CommentOrder {
  id: number;
  idUser: number;
  idCliente: number;
  status: string;
}

/** Writes a comment in the caller's transaction; the caller has checked who may write it. */
export async function insertComment(tx: Tx, orderId: number, authorId: number, texto: string, at: Date) {
  const [row] = await tx
    .insert(orderComments)
    .values({ orderId, authorId, texto, createdAt: at })
    .returning({ id: orderComments.id });
  return row!.id;
}

interface Recipient {
  id: number;
  email: string;
  usuario: string;
  nombre: string;
}

const recipientColumns = {
  id: users.id,
  email: users.email,
  usuario: users.usuario,
  nombre: users.nombre,
};

/**
 * Who hears of a buyer's comment: the active approvers of the level that holds the order (rol 2 while
 * pendiente, rol 3 while espera); on a final status, the approver who approved or cancelled it, while they
 * are still an active approver of the client (nobody after a withdrawal).
 */
async function approversFor(tx: Tx, order: CommentOrder): Promise<Recipient[]> {
  const holding =
    order.status === 'pendiente'
      ? ROLES.autorizador
      : order.status === 'espera'
        ? ROLES.superAutorizador
        : null;
  if (holding !== null)
    return tx
      .select(recipientColumns)
      .from(users)
      .where(and(eq(users.idCliente, order.idCliente), eq(users.rol, holding), eq(users.activo, true)));
  const [last] = await tx
    .select({ actorId: orderEvents.actorId, tipo: orderEvents.tipo })
    .from(orderEvents)
    .where(and(eq(orderEvents.orderId, order.id), eq(orderEvents.toStatus, order.status)))
    .orderBy(desc(orderEvents.id))
    .limit(1);
  if (!last?.actorId || (last.tipo !== 'aprobado' && last.tipo !== 'cancelado')) return [];
  return tx
    .select(recipientColumns)
    .from(users)
    .where(
      and(
        eq(users.id, last.actorId),
        eq(users.idCliente, order.idCliente),
        inArray(users.rol, [ROLES.autorizador, ROLES.superAutorizador]),
        eq(users.activo, true),
      ),
    );
}

/**
 * Claims the right to e-mail a recipient about an order's comments: true when nobody was e-mailed about
 * this order in the last 10 minutes (the row is then stamped now). One statement, so two comments at
 * once claim it once; the row is in the database, so the window survives restarts and instances.
 */
async function claimNotice(tx: Tx, orderId: number, userId: number): Promise<boolean> {
  const claimed = await tx
    .insert(orderCommentNotices)
    .values({ orderId, userId, sentAt: sql`now()` })
    .onConflictDoUpdate({
      target: [orderCommentNotices.orderId, orderCommentNotices.userId],
      set: { sentAt: sql`now()` },
      setWhere: sql`${orderCommentNotices.sentAt} <= now() - make_interval(mins => ${COMMENT_NOTICE_MINUTES})`,
    })
    .returning({ userId: orderCommentNotices.userId });
  return claimed.length > 0;
}

/**
 * E-mails the other side of a new comment (buyer → approvers of the holding level; approver → buyer),
 * throttled per order and recipient. The e-mail names the author and links to the order; it does not carry
 * the text (the order page shows it to whoever may read it).
 */
export async function notifyComment(
  tx: Tx,
  publicUrl: string,
  order: CommentOrder,
  author: { id: number; nombre: string; rol: number },
): Promise<void> {
  const fromBuyer = author.id === order.idUser;
  const recipients = fromBuyer
    ? await approversFor(tx, order)
    : await tx.select(recipientColumns).from(users).where(eq(users.id, order.idUser));
  const numero = orderNumber(order.id);
  for (const r of recipients) {
    if (r.id === author.id) continue;
    // Without an address the person still gets the bell's item (decision 0114).
    const to = addressOf(r) ?? '';
    if (!(await claimNotice(tx, order.id, r.id))) continue;
    await enqueueEmail(
      tx,
      orderEmail(to, r.nombre, {
        subject: `Nuevo comentario en el pedido #${numero}`,
        paragraphs: [
          `${author.nombre} comentó el pedido #${numero}.`,
          'Abre el pedido para leer la conversación y responder.',
        ],
        url: fromBuyer
          ? `${publicUrl}/autorizador/orden/${order.id}`
          : `${publicUrl}/usuario/historial/${order.id}`,
        label: 'Ver pedido',
        para: { userId: r.id, tipo: 'comentario' },
      }),
    );
  }
}

/** The order a comment goes on, within the caller's scope; out of scope answers like a missing order. */
async function scopedOrder(
  db: Db | Tx,
  id: number,
  scope: { idUser?: number; idCliente?: number },
  /** In a comment's transaction: the order's row is locked, so its count is exact until it commits. */
  lock = false,
) {
  const conditions = [eq(orders.id, id)];
  if (scope.idUser !== undefined) conditions.push(eq(orders.idUser, scope.idUser));
  if (scope.idCliente !== undefined) conditions.push(eq(orders.idCliente, scope.idCliente));
  const query = db
    .select({
      id: orders.id,
      idUser: orders.idUser,
      idCliente: orders.idCliente,
      status: orders.status,
      comentarios: orders.comentarios,
    })
    .from(orders)
    .where(and(...conditions))
    .limit(1);
  const [order] = await (lock ? query.for('update') : query);
  if (!order) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  return order;
}

async function addComment(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  texto: string,
  scope: { idUser?: number; idCliente?: number },
): Promise<CommentsResponse> {
  const author = { id: auth.user.id, nombre: auth.user.nombre, rol: auth.user.rol };
  const { commentId, total } = await deps.db.transaction(async (tx) => {
    const order = await scopedOrder(tx, id, scope, true);
    const now = await checkCommentCaps(deps, tx, order, author.id);
    const newId = await insertComment(tx, order.id, author.id, texto, now);
    await audit(tx, {
      userId: author.id,
      eventType: 'pedido_comentado',
      description: `Comentario en el pedido #${orderNumber(order.id)}`,
      metadata: {
        id_pedido: order.id,
        id_comentario: newId,
        caracteres: texto.length,
        ...requestMeta(request),
      },
    });
    await notifyComment(tx, deps.config.PUBLIC_URL, order, author);
    return { commentId: newId, total: order.comentarios + 1 };
  });
  void deps.mailer.flush();
  const { comentarios } = await commentsOf(deps.db, id);
  return {
    status: 'ok',
    msg: MSG.comentarioAgregado,
    comentario: comentarios.find((c) => c.id === commentId)!,
    comentarios,
    comentarios_total: total,
  };
}

/**
 * The caps on comments (issue 38, finding 6): an order takes at most COMENTARIOS_POR_PEDIDO (409), a person
 * writes at most COMENTARIOS_POR_HORA an hour (429 with Retry-After: the seconds until the oldest of them
 * leaves the hour). Exact under concurrency: the order's row is locked (the comment count's trigger locks it
 * anyway) and the author's comments are counted under a lock of the author's own. Answers now (the clock's),
 * the comment's time.
 */
async function checkCommentCaps(
  deps: Pick<Deps, 'clock'>,
  tx: Tx,
  order: CommentOrder & { comentarios: number },
  authorId: number,
): Promise<Date> {
  if (order.comentarios >= COMENTARIOS_POR_PEDIDO) throw conflict('COMMENTS_FULL', MSG.comentariosLlenos);
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`comentarios|${authorId}`}, 0))`);
  const now = deps.clock.now();
  const hourAgo = new Date(now.getTime() - 3_600_000);
  const [written] = await tx
    .select({ n: count(), oldest: min(orderComments.createdAt) })
    .from(orderComments)
    .where(and(eq(orderComments.authorId, authorId), gt(orderComments.createdAt, hourAgo)));
  if ((written?.n ?? 0) >= COMENTARIOS_POR_HORA) {
    const oldest = written?.oldest ? new Date(written.oldest).getTime() : now.getTime();
    const retryAfter = Math.max(1, Math.ceil((oldest + 3_600_000 - now.getTime()) / 1000));
    throw tooMany(MSG.comentariosPorHora, 'COMMENTS_RATE', retryAfter);
  }
  return now;
}

/** GET …/{id}/comentarios?antes=: the page of an order's comments older than one, within the caller's scope. */
async function olderComments(
  deps: Pick<Deps, 'db'>,
  id: number,
  before: number,
  scope: { idUser?: number; idCliente?: number },
): Promise<OlderCommentsResponse> {
  const order = await scopedOrder(deps.db, id, scope);
  const { comentarios, more } = await commentsOf(deps.db, order.id, before);
  return { comentarios, mas: more };
}

/** GET /api/historial/{id}/comentarios: older comments of the buyer's own order. */
export function buyerOlderComments(deps: Deps, auth: AuthContext, id: number, before: number) {
  return olderComments(deps, id, before, { idUser: auth.user.id });
}

/** GET /api/pedidos/{id}/comentarios: older comments of an order of the approver's client. */
export function authorizerOlderComments(deps: Deps, auth: AuthContext, id: number, before: number) {
  if (!auth.client) throw forbidden();
  return olderComments(deps, id, before, { idCliente: auth.client.id });
}

/** GET /api/admin/pedidos/{id}/comentarios: older comments of any order (the administrator's read-only view). */
export function adminOlderComments(deps: Deps, id: number, before: number) {
  return olderComments(deps, id, before, {});
}

/** POST /api/historial/{id}/comentarios: the buyer comments on their own order, on any status. */
export function buyerAddComment(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  texto: string,
): Promise<CommentsResponse> {
  if (auth.user.rol !== ROLES.usuario) throw forbidden(MSG.soloUsuarios);
  return addComment(deps, request, auth, id, texto, { idUser: auth.user.id });
}

/** POST /api/pedidos/{id}/comentarios: an approver (rol 2 or 3) comments on an order of their client. */
export function authorizerAddComment(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  texto: string,
): Promise<CommentsResponse> {
  const { user, client } = auth;
  if ((user.rol !== ROLES.autorizador && user.rol !== ROLES.superAutorizador) || !client) throw forbidden();
  return addComment(deps, request, auth, id, texto, { idCliente: client.id });
}
