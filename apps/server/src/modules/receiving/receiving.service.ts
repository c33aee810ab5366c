/**
 * Receivers named by the client (issue 41 item 4, decision 0130, docs/domain.md "Receipts and claims"): the
 * administrators mark a user of roles 1–3 «Receptor de mercancía», optionally for some of the client's
 * addresses; the receiver lists its client's shipments to receive and receives them with the buyer's own
 * rule (fulfilment's receiveShipment and uploadPhoto, scoped to the receiver's reach).
 */
import type { ClaimState, ReceiptReason } from '@portal/shared/domain/claims';
import { deliveryAddress } from '@portal/shared/domain/delivery';
import { ROLES } from '@portal/shared/domain/roles';
import type { OrderPhotoDto } from '@portal/shared/schemas/claims';
import {
  RECEIVER_MSG,
  RECEIVING_PER_PAGE,
  type ReceivableShipmentDetail,
  type ReceivableShipmentDto,
  type ReceivingListResponse,
  type ReceivingQuery,
  type UserReceiverBody,
  type UserReceiverResponse,
} from '@portal/shared/schemas/receiving';
import { and, asc, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { COUNT_ROWS_TO_MERGE, mergeKeptCounts } from '../../db/kept-counts.ts';
import { attachedPhotos } from '../../db/order-claims.ts';
import { pageWindow, preparedOnce, searchStatement } from '../../db/prepared.ts';
import { receiverReach } from '../../db/receivers.ts';
import {
  clientAddresses,
  clientShipmentsToReceive,
  orderClaims,
  orderLines,
  orderReceiptLines,
  orderReceipts,
  orderShipmentLines,
  orderShipments,
  orders,
  receiverAddresses,
  users,
} from '../../db/schema/index.ts';
import { foldedLike, foldedPattern } from '../../db/search.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, forbidden, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { addressNotFound, reachableUser } from '../addresses/addresses.service.ts';
import { orderIdOf } from '../fulfilment/fulfilment.service.ts';
import type { OrderScope } from '../orders/order.repository.ts';

/** The roles a receiver may have: a buyer, or an approver who also receives at the dock. */
const RECEIVER_ROLES: ReadonlySet<number> = new Set([
  ROLES.usuario,
  ROLES.autorizador,
  ROLES.superAutorizador,
]);

/**
 * The signed-in receiver's reach: its client's orders sent to its addresses. A user who is not a receiver
 * (the flag, read with the session's principal, so its removal applies at the next request) gets 403.
 */
export function receiverScope(auth: AuthContext): Required<Pick<OrderScope, 'idCliente' | 'receiver'>> {
  if (!auth.user.receptor || auth.client === null || !RECEIVER_ROLES.has(auth.user.rol))
    throw forbidden(RECEIVER_MSG.soloReceptores, 'NOT_RECEIVER');
  return { idCliente: auth.client.id, receiver: auth.user.id };
}

async function receiverOf(db: Db | Tx, userId: number): Promise<UserReceiverResponse> {
  const [[user], direcciones] = await Promise.all([
    db.select({ receptor: users.receptor }).from(users).where(eq(users.id, userId)),
    db
      .select({ id: clientAddresses.id, nombre: clientAddresses.nombre, activa: clientAddresses.activo })
      .from(receiverAddresses)
      .innerJoin(clientAddresses, eq(clientAddresses.id, receiverAddresses.addressId))
      .where(eq(receiverAddresses.userId, userId))
      .orderBy(asc(sql`lower(${clientAddresses.nombre})`), asc(clientAddresses.id)),
  ]);
  return { receptor: user?.receptor ?? false, direcciones };
}

/** GET /api/usuarios/{id}/receptor */
export async function userReceiver(
  deps: Deps,
  auth: AuthContext,
  userId: number,
): Promise<UserReceiverResponse> {
  await reachableUser(deps.db, auth, userId);
  return receiverOf(deps.db, userId);
}

/**
 * PUT /api/usuarios/{id}/receptor: the flag and the addresses it covers, replaced whole. Only roles 1–3
 * receive (400); addresses need the flag (400); another client's or a missing address is 404, an inactive
 * one 400. The change of `users` announces itself to the session caches (decision 0071): a receiver whose
 * flag is removed is refused at its next request.
 */
export async function setUserReceiver(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  userId: number,
  body: UserReceiverBody,
): Promise<UserReceiverResponse & { status: 'ok'; msg: string }> {
  const result = await deps.db.transaction(async (tx) => {
    const user = await reachableUser(tx, auth, userId);
    if (body.receptor && !RECEIVER_ROLES.has(user.rol))
      throw badRequest('VALIDATION', RECEIVER_MSG.receptorSoloRoles, {
        receptor: RECEIVER_MSG.receptorSoloRoles,
      });
    if (!body.receptor && body.direcciones.length > 0)
      throw badRequest('VALIDATION', RECEIVER_MSG.direccionesSinReceptor, {
        direcciones: RECEIVER_MSG.direccionesSinReceptor,
      });
    const found =
      body.direcciones.length === 0
        ? []
        : await tx
            .select({
              id: clientAddresses.id,
              nombre: clientAddresses.nombre,
              activo: clientAddresses.activo,
            })
            .from(clientAddresses)
            .where(
              and(
                inArray(clientAddresses.id, body.direcciones),
                eq(clientAddresses.idCliente, user.idCliente ?? -1),
              ),
            )
            .for('share');
    // Another client's address answers like a missing one.
    if (found.length !== body.direcciones.length) throw addressNotFound();
    if (found.some((f) => !f.activo))
      throw badRequest('VALIDATION', RECEIVER_MSG.direccionInactiva, {
        direcciones: RECEIVER_MSG.direccionInactiva,
      });
    await tx
      .update(users)
      .set({ receptor: body.receptor, updatedAt: sql`now()` })
      .where(eq(users.id, userId));
    await tx.delete(receiverAddresses).where(eq(receiverAddresses.userId, userId));
    if (found.length > 0)
      await tx.insert(receiverAddresses).values(found.map((f) => ({ userId, addressId: f.id })));
    const names = found.map((f) => f.nombre).join(', ');
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'usuario_receptor',
      description: body.receptor
        ? `${user.nombre} es receptor de mercancía (${names ? `direcciones: ${names}` : 'todas las direcciones'})`
        : `${user.nombre} ya no es receptor de mercancía`,
      metadata: {
        id_usuario: userId,
        id_cliente: user.idCliente,
        receptor: body.receptor,
        direcciones: found.map((f) => f.id),
        ...requestMeta(request),
      },
    });
    return receiverOf(tx, userId);
  });
  return { status: 'ok', msg: RECEIVER_MSG.guardado, ...result };
}

/**
 * Shipments of the receiver's reach that have no receipt yet, read from the shipments alone: their partial
 * index `order_shipments_por_recibir_idx` holds the client's shipments not received, newest first, with the
 * address each went to (decision 0139). An order with a shipment is approved and stays `parcial`, `enviado`
 * or `entregado` (its fulfilment moves forward only, and nobody cancels an approved order). Every value is a
 * placeholder (`cliente`, `receptor`; with a search `id`, the order number or null, and `like`). Unsearched,
 * or searched by a term with a trigram, the list is a named statement kept on one plan: that index for the
 * page, or the order's shipments and the trigram index of the guías still to receive
 * (`order_shipments_guia_trgm_idx`) for a search, whatever its term (docs/benchmarks.md finding 66). A
 * shorter term gives the trigrams nothing to narrow: it is planned for its pattern, and reads the client's
 * shipments to receive.
 */
function waitingShipments(search: boolean) {
  const p = sql.placeholder;
  return and(
    eq(orderShipments.idCliente, p('cliente')),
    sql`not ${orderShipments.recibido}`,
    receiverReach(p('receptor'), orderShipments.idDireccion),
    // The search: an order number (42, 00042, #00042) or part of the guía.
    search
      ? sql`(${orderShipments.orderId} = ${p('id')} or ${foldedLike([orderShipments.guia], p('like'))})`
      : undefined,
  );
}

/** A search's values: the folded pattern and the order number it names (null when none); none when empty. */
function searchValues(q: string | undefined): { like: string; id: number | null } | undefined {
  const like = q ? foldedPattern(q) : undefined;
  return like === undefined ? undefined : { like, id: orderIdOf(q!.trim()) };
}

const buyer = sql<string>`(select ${users.nombre} from ${users} where ${users.id} = ${orders.idUser})`;
const units =
  sql<number>`(select coalesce(sum(${orderShipmentLines.cantidad}), 0)::int from ${orderShipmentLines}
  where ${orderShipmentLines.shipmentId} = ${orderShipments.id})`.mapWith(Number);

const shipmentColumns = {
  id: orderShipments.id,
  idPedido: orders.id,
  numero: orderShipments.numero,
  guia: orderShipments.guia,
  paqueteria: orderShipments.paqueteria,
  fecha: orderShipments.fecha,
  reposicion: orderShipments.reposicion,
  comprador: buyer,
  entrega: orders.entrega,
  unidades: units,
};

type ShipmentRow = {
  idPedido: number;
  numero: number;
  guia: string | null;
  paqueteria: string | null;
  fecha: string;
  reposicion: boolean;
  comprador: string;
  entrega: Parameters<typeof deliveryAddress>[0];
  unidades: number;
};

function shipmentDto(r: ShipmentRow): ReceivableShipmentDto {
  return {
    id_pedido: r.idPedido,
    numero: r.numero,
    guia: r.guia,
    paqueteria: r.paqueteria,
    fecha: r.fecha,
    reposicion: r.reposicion,
    comprador: r.comprador ?? '',
    direccion: r.entrega.nombre || deliveryAddress(r.entrega),
    unidades: r.unidades,
  };
}

/**
 * The unsearched total: the kept counts of the client's addresses in the receiver's reach (decision 0149),
 * summed; the client's rows are merged once they are many.
 */
async function keptTotal(db: Db, values: { cliente: number; receptor: number }): Promise<number> {
  const k = clientShipmentsToReceive;
  const cliente = sql.placeholder('cliente');
  const [kept] = await preparedOnce(db, 'portal_receiving_count_kept', (d) =>
    d
      .select({
        n: sql<number>`coalesce(sum(${k.envios}), 0)::int`,
        rows: sql<number>`(select count(*)::int from ${k} where ${k.idCliente} = ${cliente})`,
      })
      .from(k)
      .where(and(eq(k.idCliente, cliente), receiverReach(sql.placeholder('receptor'), k.idDireccion))),
  ).execute(values);
  if ((kept?.rows ?? 0) > COUNT_ROWS_TO_MERGE) await mergeShipmentsToReceive(db, values.cliente);
  return kept?.n ?? 0;
}

/** One row an address for a client's kept counts of shipments to receive (decision 0149). */
function mergeShipmentsToReceive(db: Db | Tx, idCliente: number): Promise<void> {
  const k = clientShipmentsToReceive;
  return mergeKeptCounts(db, k, [k.idCliente, k.idDireccion], k.envios, eq(k.idCliente, idCliente));
}

/** GET /api/recepcion: the receiver's shipments to receive, newest first, a page at a time. */
export async function receivingList(
  deps: Deps,
  auth: AuthContext,
  query: ReceivingQuery,
): Promise<ReceivingListResponse> {
  const scope = receiverScope(auth);
  const search = searchValues(query.q);
  const window = pageWindow(query.page, RECEIVING_PER_PAGE);
  const values = {
    cliente: scope.idCliente,
    receptor: scope.receiver,
    ...(search && { like: search.like, id: search.id }),
    ...window.values,
  };
  // Kept on one plan (unsearched, or a term with a trigram), or planned for a short term's pattern.
  const statement = <P>(name: string, build: (d: Db) => { prepare(name: string): P }): P =>
    !search
      ? preparedOnce(deps.db, `portal_${name}_all`, build)
      : searchStatement(deps.db, name, query.q!, build);
  // The page and its count side by side (a total riding on the page's rows would compute every row's buyer
  // and units before the limit).
  const [rows, total] = await Promise.all([
    statement(`receiving_${window.shape}`, (d) =>
      d
        .select(shipmentColumns)
        .from(orderShipments)
        .innerJoin(orders, eq(orders.id, orderShipments.orderId))
        .where(waitingShipments(search !== undefined))
        .orderBy(desc(orderShipments.id))
        .limit(window.limit)
        .offset(window.offset),
    ).execute(values),
    // Searched, the matches are counted; unsearched, the kept counts are summed (decision 0149).
    search
      ? statement('receiving_count', (d) =>
          d.select({ n: count() }).from(orderShipments).where(waitingShipments(true)),
        )
          .execute(values)
          .then(([counted]) => counted?.n ?? 0)
      : keptTotal(deps.db, values),
  ]);
  return {
    envios: rows.map(shipmentDto),
    total,
    page: query.page,
    per_page: RECEIVING_PER_PAGE,
  };
}

/**
 * GET /api/recepcion/{id}/envios/{numero}: one shipment of the receiver's reach with its lines, received or
 * not (the form says who received it first); out of reach or missing: 404.
 */
export async function receivableShipment(
  deps: Deps,
  auth: AuthContext,
  id: number,
  numero: number,
): Promise<ReceivableShipmentDetail> {
  const scope = receiverScope(auth);
  const p = sql.placeholder;
  const receiver = users;
  // Named statements, every value a placeholder: built and planned once (finding 58).
  const [row] = await preparedOnce(deps.db, 'portal_receiving_shipment', (d) =>
    d
      .select({
        ...shipmentColumns,
        recibidoPor: sql<
          string | null
        >`(select ${receiver.nombre} from ${receiver} where ${receiver.id} = ${orderReceipts.userId})`,
        recibidoEn: orderReceipts.createdAt,
        receiptId: orderReceipts.id,
        nota: orderReceipts.nota,
      })
      .from(orderShipments)
      .innerJoin(orders, eq(orders.id, orderShipments.orderId))
      .leftJoin(orderReceipts, eq(orderReceipts.shipmentId, orderShipments.id))
      .where(
        and(
          eq(orders.id, p('id')),
          eq(orderShipments.numero, p('numero')),
          eq(orders.idCliente, p('cliente')),
          sql`${orders.surtidoEstatus} is not null`,
          receiverReach(p('receptor')),
        ),
      ),
  ).execute({ id, numero, cliente: scope.idCliente, receptor: scope.receiver });
  if (!row) throw notFound(MSG.remisionNoEncontrada, 'SHIPMENT_NOT_FOUND');
  // Received: what the receipt said of each line, its photos and the claim its differences opened (decision
  // 0130).
  const received = row.receiptId !== null;
  const [lineas, claims, photos] = await Promise.all([
    preparedOnce(deps.db, `portal_receiving_shipment_lines_${received ? 'received' : 'waiting'}`, (d) =>
      d
        .select({
          id: orderLines.id,
          nombre: orderLines.nombre,
          unidad_de_medida: orderLines.unidadDeMedida,
          cantidad: orderShipmentLines.cantidad,
          recibido: orderReceiptLines.recibido,
          motivo: orderReceiptLines.motivo,
        })
        .from(orderShipmentLines)
        .innerJoin(orderLines, eq(orderLines.id, orderShipmentLines.orderLineId))
        .leftJoin(
          orderReceiptLines,
          and(
            eq(orderReceiptLines.lineId, orderLines.id),
            received ? eq(orderReceiptLines.receiptId, p('receipt')) : sql`false`,
          ),
        )
        .where(eq(orderShipmentLines.shipmentId, p('shipment')))
        .orderBy(asc(orderLines.id)),
    ).execute({ shipment: row.id, ...(received ? { receipt: row.receiptId } : {}) }),
    received
      ? preparedOnce(deps.db, 'portal_receiving_shipment_claim', (d) =>
          d
            .select({ numero: orderClaims.numero, estado: orderClaims.estado })
            .from(orderClaims)
            .where(eq(orderClaims.shipmentId, p('shipment')))
            .orderBy(asc(orderClaims.numero))
            .limit(1),
        ).execute({ shipment: row.id })
      : [],
    received ? attachedPhotos(deps.db, 'receipt', [row.idPedido]) : new Map<number, OrderPhotoDto[]>(),
  ]);
  return {
    ...shipmentDto(row),
    lineas: lineas.map((l) => ({ ...l, motivo: l.motivo as ReceiptReason | null })),
    recepcion:
      row.recibidoEn === null
        ? null
        : {
            por: row.recibidoPor ?? '',
            fecha: row.recibidoEn.toISOString(),
            nota: row.nota,
            fotos: photos.get(row.receiptId ?? 0) ?? [],
            reclamo: claims[0] ? { numero: claims[0].numero, estado: claims[0].estado as ClaimState } : null,
          },
  };
}
