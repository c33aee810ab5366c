/** The reads of CFDI invoices (decision 0131): as the v1 API and the operator's screen show them. */
import type { InvoiceMatchState, MatchDifference } from '@portal/shared/domain/invoice-match';
import { type InvoiceType, invoiceState } from '@portal/shared/domain/invoices';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import type { InvoiceDto } from '@portal/shared/schemas/invoices';
import { and, asc, eq, gt, type SQL, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.ts';
import { executeNamedOnce } from '../../db/prepared.ts';
import { invoiceApplications, invoiceLines, invoices, orderShipments } from '../../db/schema/index.ts';

/** An invoice as `invoicesById` reads it: its columns as the DTO names them, its concepts and applications. */
interface InvoiceRow {
  id: number;
  uuid: string;
  tipo: InvoiceType;
  serie: string | null;
  folio: string | null;
  fecha: string;
  fecha_timbrado: string;
  id_pedido: number;
  envio: number | null;
  emisor_rfc: string;
  emisor_nombre: string;
  receptor_rfc: string;
  receptor_nombre: string;
  uso_cfdi: string;
  subtotal: number;
  descuento: number;
  traslados: number;
  retenciones: number;
  total: number;
  metodo_pago: string | null;
  forma_pago: string | null;
  saldo: number | null;
  pdf: boolean;
  registrada: string;
  conceptos: InvoiceDto['conceptos'];
  aplicaciones: InvoiceDto['aplicaciones'];
  cotejo: InvoiceMatchState | null;
  diferencias: MatchDifference[];
  exceso: number | null;
  cotejo_motivo: string | null;
  cotejo_nota_credito: string | null;
  verificacion_sat: string | null;
}

/** A timestamp column as `Date.prototype.toISOString` writes it (UTC, milliseconds, `Z`). */
const isoText = (column: string) => `to_char(${column} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** One of an invoice's applications (`a`, the other invoice `o`) as the DTO shows it. */
const application = sql.raw(
  `json_build_object('uuid', o.uuid, 'tipo', o.tipo, 'importe_centavos', a.importe, 'fecha', ${isoText('a.created_at')})`,
);

/**
 * The invoices of an array of ids in one statement, built and planned once (the v1 API's page of 50 CFDIs and
 * their ~600 concepts had three statements built and their ~700 rows mapped cell by cell on every request,
 * docs/benchmarks.md finding 62): each invoice's concepts (by number) and applications (the credit notes and
 * payments applied to it, or the invoices it was applied to; by application) come as JSON arrays. A concept
 * is a row turned into JSON (its columns named as the DTO names them), not `json_build_object`: a fifth less
 * of PostgreSQL's time for a page, and no spaces around its keys (finding 72).
 */
const invoicesById = () => sql`
  select i.id, i.uuid, i.tipo, i.serie, i.folio, i.fecha, i.fecha_timbrado, i.order_id as id_pedido,
    s.numero as envio, i.emisor_rfc, i.emisor_nombre, i.receptor_rfc, i.receptor_nombre, i.uso_cfdi,
    i.subtotal, i.descuento, i.traslados, i.retenciones, i.total, i.metodo_pago, i.forma_pago, i.saldo,
    i.pdf_file_id is not null as pdf, ${sql.raw(isoText('i.created_at'))} as registrada,
    coalesce((
      select json_agg(c order by l.numero)
      from ${invoiceLines} l
      cross join lateral (
        select l.clave_prod_serv, l.no_identificacion, l.cantidad, l.clave_unidad, l.unidad, l.descripcion,
          l.valor_unitario, l.importe as importe_centavos, l.descuento as descuento_centavos
      ) c
      where l.invoice_id = i.id
    ), '[]') as conceptos,
    coalesce((
      select json_agg(x.j order by x.id) from (
        select a.id, ${application} as j
        from ${invoiceApplications} a join ${invoices} o on o.id = a.source_id where a.invoice_id = i.id
        union all
        select a.id, ${application}
        from ${invoiceApplications} a join ${invoices} o on o.id = a.invoice_id where a.source_id = i.id
      ) x
    ), '[]') as aplicaciones,
    i.cotejo, i.cotejo_diferencias as diferencias, i.cotejo_exceso as exceso, i.cotejo_motivo,
    n.uuid as cotejo_nota_credito, i.verificacion_sat
  from ${invoices} i
  left join ${orderShipments} s on s.id = i.shipment_id
  left join ${invoices} n on n.id = i.cotejo_nota_credito_id
  where i.id = any(${sql.placeholder('ids')}::integer[])
  order by i.id`;

/** The invoices with these ids, in id order, with their concepts and applications. */
export async function invoiceDtos(db: Db | Tx, ids: readonly number[]): Promise<InvoiceDto[]> {
  if (ids.length === 0) return [];
  const rows = await executeNamedOnce<InvoiceRow>(db, 'portal_invoices_by_id', invoicesById, {
    ids: [...ids],
  });
  return rows.map((i) => ({
    id: i.id,
    uuid: i.uuid,
    tipo: i.tipo,
    serie: i.serie,
    folio: i.folio,
    fecha: i.fecha,
    fecha_timbrado: i.fecha_timbrado,
    id_pedido: i.id_pedido,
    numero_pedido: orderNumber(i.id_pedido),
    envio: i.envio,
    emisor: { rfc: i.emisor_rfc, nombre: i.emisor_nombre },
    receptor: { rfc: i.receptor_rfc, nombre: i.receptor_nombre, uso_cfdi: i.uso_cfdi },
    subtotal_centavos: i.subtotal,
    descuento_centavos: i.descuento,
    traslados_centavos: i.traslados,
    retenciones_centavos: i.retenciones,
    total_centavos: i.total,
    moneda: 'MXN' as const,
    metodo_pago: i.metodo_pago,
    forma_pago: i.forma_pago,
    saldo_centavos: i.saldo,
    estado: invoiceState(i.tipo, i.saldo),
    pdf: i.pdf,
    registrada: i.registrada,
    conceptos: i.conceptos,
    aplicaciones: i.aplicaciones,
    cotejo: i.cotejo,
    diferencias: i.diferencias,
    exceso_centavos: i.exceso,
    cotejo_motivo: i.cotejo_motivo,
    cotejo_nota_credito: i.cotejo_nota_credito,
    verificacion_sat: i.verificacion_sat,
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
