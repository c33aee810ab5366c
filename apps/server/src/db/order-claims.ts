/**
 * Orders' receipts per shipment and claims (decision 0127), read where every screen and the integrations'
 * serializer need them: the order's detail (modules/orders/order.repository.ts), the operator's queue of
 * claims, the v1 order and the v1 list of claims (modules/integration). Each is one query per kind of row
 * (receipts with their lines, claims, claims' lines, photos), whatever the number of orders.
 */
import type { ClaimReason, ClaimResolution, ClaimState, ReceiptReason } from '@portal/shared/domain/claims';
import { centavosToPesos } from '@portal/shared/domain/money';
import type { ClaimDto, OrderPhotoDto, ShipmentReceiptDto } from '@portal/shared/schemas/claims';
import { and, asc, eq, inArray, isNotNull, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from './client.ts';
import { isTransaction } from './prepared.ts';
import {
  clients,
  orderClaimLines,
  orderClaims,
  orderLines,
  orderPhotos,
  orderReceiptLines,
  orderReceipts,
  orderShipments,
  orders,
  users,
} from './schema/index.ts';

const photo = (p: { id: number; nombre: string; tipo: string }): OrderPhotoDto => ({
  id: p.id,
  nombre: p.nombre,
  tipo: p.tipo,
});

/**
 * The photos the given orders' receipts or claims have, by receipt or by claim (read by the orders: the
 * photos' order index serves it).
 */
export async function attachedPhotos(
  db: Db | Tx,
  by: 'receipt' | 'claim',
  orderIds: readonly number[],
): Promise<Map<number, OrderPhotoDto[]>> {
  const out = new Map<number, OrderPhotoDto[]>();
  if (orderIds.length === 0) return out;
  const column = by === 'receipt' ? orderPhotos.receiptId : orderPhotos.claimId;
  const rows = await db
    .select({ owner: column, id: orderPhotos.id, nombre: orderPhotos.nombre, tipo: orderPhotos.tipo })
    .from(orderPhotos)
    .where(and(inArray(orderPhotos.orderId, [...new Set(orderIds)]), isNotNull(column)))
    .orderBy(asc(orderPhotos.id));
  for (const r of rows) {
    const list = out.get(r.owner!) ?? [];
    list.push(photo(r));
    out.set(r.owner!, list);
  }
  return out;
}

/** The receipts of the orders' shipments, by shipment id (a shipment has at most one). */
export async function receiptsOf(
  db: Db | Tx,
  orderIds: readonly number[],
): Promise<Map<number, ShipmentReceiptDto>> {
  const out = new Map<number, ShipmentReceiptDto>();
  if (orderIds.length === 0) return out;
  const rows = await db
    .select({
      id: orderReceipts.id,
      shipmentId: orderReceipts.shipmentId,
      createdAt: orderReceipts.createdAt,
      nota: orderReceipts.nota,
      por: users.nombre,
      idLinea: orderReceiptLines.lineId,
      recibido: orderReceiptLines.recibido,
      motivo: orderReceiptLines.motivo,
    })
    .from(orderReceipts)
    .innerJoin(users, eq(users.id, orderReceipts.userId))
    .innerJoin(orderReceiptLines, eq(orderReceiptLines.receiptId, orderReceipts.id))
    .where(inArray(orderReceipts.orderId, [...orderIds]))
    .orderBy(asc(orderReceipts.id), asc(orderReceiptLines.lineId));
  for (const r of rows) {
    let receipt = out.get(r.shipmentId);
    if (!receipt) {
      receipt = {
        id: r.id,
        fecha: r.createdAt.toISOString(),
        por: r.por,
        nota: r.nota,
        lineas: [],
        fotos: [],
      };
      out.set(r.shipmentId, receipt);
    }
    receipt.lineas.push({
      id_linea: r.idLinea,
      recibido: r.recibido,
      motivo: r.motivo as ReceiptReason | null,
    });
  }
  const photos = await attachedPhotos(db, 'receipt', orderIds);
  for (const receipt of out.values()) receipt.fotos = photos.get(receipt.id) ?? [];
  return out;
}

/** The shipment a claim came from, and the replacement that served it. */
const fromShipment = alias(orderShipments, 'from_shipment');
const replacement = alias(orderShipments, 'replacement');

/** The lines of claims, with their order line's product name and clave, in claim and line order. */
export function claimLinesOf(db: Db | Tx, claimIds: readonly number[]) {
  return db
    .select({
      claimId: orderClaimLines.claimId,
      id: orderClaimLines.lineId,
      cantidad: orderClaimLines.cantidad,
      motivo: sql<ClaimReason>`${orderClaimLines.motivo}`,
      nombre: orderLines.nombre,
      claveInterna: orderLines.claveInterna,
    })
    .from(orderClaimLines)
    .innerJoin(orderLines, eq(orderLines.id, orderClaimLines.lineId))
    .where(inArray(orderClaimLines.claimId, [...claimIds]))
    .orderBy(asc(orderClaimLines.claimId), asc(orderClaimLines.lineId));
}

/** A claim as read, with its order (the queue and the v1 list name it). */
export interface ClaimRead extends ClaimDto {
  orderId: number;
}

/** Claims chosen by `where` (on `order_claims`), in the order asked, each with its lines and photos. */
export async function readClaims(db: Db | Tx, where: SQL, orderBy: SQL[]): Promise<ClaimRead[]> {
  const heads = await db
    .select({
      id: orderClaims.id,
      orderId: orderClaims.orderId,
      numero: orderClaims.numero,
      estado: orderClaims.estado,
      resolucionSolicitada: orderClaims.resolucionSolicitada,
      resolucion: orderClaims.resolucion,
      nota: orderClaims.nota,
      respuesta: orderClaims.respuesta,
      guiaDevolucion: orderClaims.guiaDevolucion,
      paqueteriaDevolucion: orderClaims.paqueteriaDevolucion,
      credito: orderClaims.credito,
      envio: fromShipment.numero,
      envioReposicion: replacement.numero,
      autor: users.nombre,
      createdAt: orderClaims.createdAt,
      updatedAt: orderClaims.updatedAt,
    })
    .from(orderClaims)
    .innerJoin(users, eq(users.id, orderClaims.userId))
    .leftJoin(fromShipment, eq(fromShipment.id, orderClaims.shipmentId))
    // Through the order's shipments (their order index), not a scan of every shipment.
    .leftJoin(
      replacement,
      and(eq(replacement.orderId, orderClaims.orderId), eq(replacement.idReclamo, orderClaims.id)),
    )
    .where(where)
    .orderBy(...orderBy);
  if (heads.length === 0) return [];
  const ids = heads.map((h) => h.id);
  const claimLines = claimLinesOf(db, ids);
  // At once on the pool; one after the other on a transaction's one connection (`allOn`).
  const [lines, photos] = isTransaction(db)
    ? [
        await claimLines,
        await attachedPhotos(
          db,
          'claim',
          heads.map((h) => h.orderId),
        ),
      ]
    : await Promise.all([
        claimLines,
        attachedPhotos(
          db,
          'claim',
          heads.map((h) => h.orderId),
        ),
      ]);
  const linesOf = new Map<number, ClaimDto['lineas']>();
  for (const l of lines) {
    const list = linesOf.get(l.claimId) ?? [];
    list.push({
      id_linea: l.id,
      nombre: l.nombre,
      clave_interna: l.claveInterna,
      cantidad: l.cantidad,
      motivo: l.motivo,
    });
    linesOf.set(l.claimId, list);
  }
  return heads.map((h) => ({
    id: h.id,
    orderId: h.orderId,
    numero: h.numero,
    estado: h.estado as ClaimState,
    resolucion_solicitada: h.resolucionSolicitada as ClaimResolution,
    resolucion: h.resolucion as ClaimResolution | null,
    nota: h.nota,
    respuesta: h.respuesta,
    guia_devolucion: h.guiaDevolucion,
    paqueteria_devolucion: h.paqueteriaDevolucion,
    credito: centavosToPesos(h.credito),
    envio: h.envio,
    envio_reposicion: h.envioReposicion,
    autor: h.autor,
    creado: h.createdAt.toISOString(),
    actualizado: h.updatedAt.toISOString(),
    lineas: linesOf.get(h.id) ?? [],
    fotos: photos.get(h.id) ?? [],
  }));
}

/** The orders' claims in number order, by order id. */
export async function claimsOf(db: Db | Tx, orderIds: readonly number[]): Promise<Map<number, ClaimDto[]>> {
  const out = new Map<number, ClaimDto[]>();
  if (orderIds.length === 0) return out;
  const claims = await readClaims(db, inArray(orderClaims.orderId, [...orderIds]), [
    asc(orderClaims.orderId),
    asc(orderClaims.numero),
  ]);
  for (const { orderId, ...claim } of claims) {
    const list = out.get(orderId) ?? [];
    list.push(claim);
    out.set(orderId, list);
  }
  return out;
}

/** Whose claims these are: the order's client and buyer, by claim id (the queue and the v1 list name them). */
export async function claimParties(
  db: Db | Tx,
  claimIds: readonly number[],
): Promise<Map<number, { idCliente: number; cliente: string; comprador: string }>> {
  if (claimIds.length === 0) return new Map();
  const rows = await db
    .select({
      id: orderClaims.id,
      idCliente: clients.id,
      cliente: clients.nombre,
      comprador: users.nombre,
    })
    .from(orderClaims)
    .innerJoin(orders, eq(orders.id, orderClaims.orderId))
    .innerJoin(clients, eq(clients.id, orders.idCliente))
    .innerJoin(users, eq(users.id, orders.idUser))
    .where(inArray(orderClaims.id, [...claimIds]));
  return new Map(rows.map(({ id, ...p }) => [id, p]));
}
