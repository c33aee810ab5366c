/** The reads of CFDI invoices (decision 0131): as the v1 API and the operator's screen show them. */
import type { InvoiceMatchState, MatchDifference } from '@portal/shared/domain/invoice-match';
import { type InvoiceType, invoiceState } from '@portal/shared/domain/invoices';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import type { InvoiceDto } from '@portal/shared/schemas/invoices';
import { and, asc, eq, gt, inArray, or, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db, Tx } from '../../db/client.ts';
import { invoiceApplications, invoiceLines, invoices, orderShipments } from '../../db/schema/index.ts';

const other = alias(invoices, 'other');
const creditNote = alias(invoices, 'credit_note');

/** The invoices with these ids, in id order, with their concepts and applications. */
export async function invoiceDtos(db: Db | Tx, ids: readonly number[]): Promise<InvoiceDto[]> {
  if (ids.length === 0) return [];
  // One after another: inside a transaction the statements share one connection.
  const rows = await db
    .select({ i: invoices, envio: orderShipments.numero, nota: creditNote.uuid })
    .from(invoices)
    .leftJoin(orderShipments, eq(orderShipments.id, invoices.shipmentId))
    .leftJoin(creditNote, eq(creditNote.id, invoices.cotejoNotaCreditoId))
    .where(inArray(invoices.id, [...ids]))
    .orderBy(asc(invoices.id));
  const lines = await db
    .select()
    .from(invoiceLines)
    .where(inArray(invoiceLines.invoiceId, [...ids]))
    .orderBy(asc(invoiceLines.invoiceId), asc(invoiceLines.numero));
  const applied = await db
    .select({
      sourceId: invoiceApplications.sourceId,
      invoiceId: invoiceApplications.invoiceId,
      importe: invoiceApplications.importe,
      createdAt: invoiceApplications.createdAt,
      otherId: other.id,
      uuid: other.uuid,
      tipo: other.tipo,
    })
    .from(invoiceApplications)
    .innerJoin(
      other,
      or(
        and(eq(other.id, invoiceApplications.sourceId), inArray(invoiceApplications.invoiceId, [...ids])),
        and(eq(other.id, invoiceApplications.invoiceId), inArray(invoiceApplications.sourceId, [...ids])),
      ),
    )
    .orderBy(asc(invoiceApplications.id));
  return rows.map(({ i, envio, nota }) => ({
    id: i.id,
    uuid: i.uuid,
    tipo: i.tipo as InvoiceType,
    serie: i.serie,
    folio: i.folio,
    fecha: i.fecha,
    fecha_timbrado: i.fechaTimbrado,
    id_pedido: i.orderId,
    numero_pedido: orderNumber(i.orderId),
    envio,
    emisor: { rfc: i.emisorRfc, nombre: i.emisorNombre },
    receptor: { rfc: i.receptorRfc, nombre: i.receptorNombre, uso_cfdi: i.usoCfdi },
    subtotal_centavos: i.subtotal,
    descuento_centavos: i.descuento,
    traslados_centavos: i.traslados,
    retenciones_centavos: i.retenciones,
    total_centavos: i.total,
    moneda: 'MXN' as const,
    metodo_pago: i.metodoPago,
    forma_pago: i.formaPago,
    saldo_centavos: i.saldo,
    estado: invoiceState(i.tipo as InvoiceType, i.saldo),
    pdf: i.pdfFileId !== null,
    registrada: i.createdAt.toISOString(),
    conceptos: lines
      .filter((l) => l.invoiceId === i.id)
      .map((l) => ({
        clave_prod_serv: l.claveProdServ,
        no_identificacion: l.noIdentificacion,
        cantidad: l.cantidad,
        clave_unidad: l.claveUnidad,
        unidad: l.unidad,
        descripcion: l.descripcion,
        valor_unitario: l.valorUnitario,
        importe_centavos: l.importe,
        descuento_centavos: l.descuento,
      })),
    aplicaciones: applied
      .filter(
        (a) =>
          (a.invoiceId === i.id && a.otherId === a.sourceId) ||
          (a.sourceId === i.id && a.otherId === a.invoiceId),
      )
      .map((a) => ({
        uuid: a.uuid,
        tipo: a.tipo as InvoiceType,
        importe_centavos: a.importe,
        fecha: a.createdAt.toISOString(),
      })),
    cotejo: i.cotejo as InvoiceMatchState | null,
    diferencias: i.cotejoDiferencias as MatchDifference[],
    exceso_centavos: i.cotejoExceso,
    cotejo_motivo: i.cotejoMotivo,
    cotejo_nota_credito: nota,
    verificacion_sat: i.verificacionSat,
  }));
}

/** Ids of invoices matching `where`, after `afterId`, in id order (keyset), at most `limit`. */
export async function invoiceIds(db: Db, where: SQL[], afterId: number, limit: number): Promise<number[]> {
  const rows = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(...where, gt(invoices.id, afterId)))
    .orderBy(asc(invoices.id))
    .limit(limit);
  return rows.map((r) => r.id);
}

/** The stored XML or PDF of an order's invoice (null when the invoice or the file is not there). */
export async function invoiceFileId(
  db: Db,
  orderId: number,
  uuid: string,
  which: 'xml' | 'pdf',
): Promise<string | null> {
  const [row] = await db
    .select({ xml: invoices.xmlFileId, pdf: invoices.pdfFileId })
    .from(invoices)
    .where(and(eq(invoices.orderId, orderId), eq(invoices.uuid, uuid)));
  return row ? row[which] : null;
}
