/**
 * Photos of receipts and claims (decision 0127, docs/domain.md "Receipts and claims"): the buyer uploads them
 * one at a time to an own approved order, then names them in a receipt's or a claim's body, which attaches
 * them. They are served only to who may see the order: its buyer, the client's approvers, the operator, and a
 * receiver whose reach it is in (decision 0130).
 */
import { Readable } from 'node:stream';
import { CLAIM_PHOTO_MAX_BYTES } from '@portal/shared/domain/claims';
import type { OrderPhotoDto } from '@portal/shared/schemas/claims';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { orderPhotos, orders } from '../../db/schema/index.ts';
import { withoutControlCharacters } from '../../lib/csv-read.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { FileRejectedError, insertPreparedFiles, openFile, preparePhoto } from '../../lib/files.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { type OrderScope, scopeConditions } from '../orders/order.repository.ts';

/** The longest file name kept (the download names the photo by its id anyway). */
const NAME_MAX = 200;

/**
 * POST /api/historial/{id}/fotos: one photo (multipart, field `archivo`) of an own approved order; a
 * receiver's (POST /api/recepcion/{id}/fotos, decision 0130) of an order within its `scope`.
 */
export async function uploadPhoto(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  scope: OrderScope = { idUser: auth.user.id },
): Promise<OrderPhotoDto> {
  // An order out of the scope answers like a missing one, before the file is read.
  const [order] = await deps.db
    .select({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.id, id), ...scopeConditions(scope)));
  if (!order) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  if (order.status !== 'aprobado') throw conflict('ORDER_NOT_APPROVED', MSG.fotoPedidoNoAprobado);
  const { files } = await readMultipart(request);
  const file = files.archivo;
  if (!file) throw badRequest('NO_FILE', MSG.archivoNoSeleccionado, { archivo: MSG.archivoNoSeleccionado });
  let prepared: Awaited<ReturnType<typeof preparePhoto>>;
  try {
    prepared = await preparePhoto(file.data, CLAIM_PHOTO_MAX_BYTES);
  } catch (err) {
    if (err instanceof FileRejectedError) throw badRequest(err.code, err.message, { archivo: err.message });
    throw err;
  }
  const nombre = withoutControlCharacters(file.filename).trim().slice(0, NAME_MAX) || 'foto';
  return deps.db.transaction(async (tx) => {
    await insertPreparedFiles(tx, [prepared]);
    const [row] = await tx
      .insert(orderPhotos)
      .values({ orderId: id, userId: auth.user.id, fileId: prepared.id, nombre, tipo: prepared.mime })
      .returning({ id: orderPhotos.id, nombre: orderPhotos.nombre, tipo: orderPhotos.tipo });
    return row!;
  });
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': 'jpg', 'image/png': 'png', 'image/heic': 'heic' };

/**
 * Sends photo `fotoId` of order `id` within the caller's scope (an order out of reach, a missing one and a
 * photo of another order all answer 404 alike): JPEG and PNG inline, HEIC (which browsers do not show) as a
 * download; never sniffed.
 */
export async function sendPhoto(
  deps: Pick<Deps, 'db'>,
  reply: FastifyReply,
  id: number,
  fotoId: number,
  scope: OrderScope,
): Promise<FastifyReply> {
  const conditions = [eq(orderPhotos.id, fotoId), eq(orderPhotos.orderId, id), ...scopeConditions(scope)];
  const [photo] = await deps.db
    .select({ fileId: orderPhotos.fileId, tipo: orderPhotos.tipo })
    .from(orderPhotos)
    .innerJoin(orders, eq(orders.id, orderPhotos.orderId))
    .where(and(...conditions));
  const file = photo ? await openFile(deps.db, photo.fileId) : null;
  if (!photo || !file) throw notFound(MSG.fotoNoEncontrada, 'PHOTO_NOT_FOUND');
  const inline = photo.tipo === 'image/jpeg' || photo.tipo === 'image/png';
  const name = `foto-${fotoId}.${EXTENSIONS[photo.tipo] ?? 'bin'}`;
  return reply
    .header('content-type', photo.tipo)
    .header('content-length', file.size)
    .header('content-disposition', `${inline ? 'inline' : 'attachment'}; filename="${name}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, max-age=300')
    .send(Readable.from(file.parts()));
}
