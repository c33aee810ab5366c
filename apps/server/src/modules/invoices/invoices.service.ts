/**
 * CFDI 4.0 invoices received (issue 42 item 2, decision 0131, docs/domain.md "Invoices"): the ERP's v1 post
 * and the operator's upload register a stamped CFDI for an order; a credit note (E) and a payment complement
 * (P) take what they apply from the saldo of the invoices they name. The XML is read and checked first
 * (cfdi.ts); then, in one transaction: the order locked within the caller's reach (another client's: 404),
 * the receptor's RFC against the client's, the UUID not yet registered, the named invoices locked (by id, so
 * two payments of one invoice queue) and their saldos, the files, the rows, and the order's lifecycle seam
 * (event, log entry, webhooks). Two posts of one UUID at once: the unique index lets one in; the other 409.
 * An invoice (I) is matched against the order and what arrived of it (invoice-match.ts, decision 0133); a
 * credit note may resolve its invoice's differences; the operator may accept them (`acceptDifference`).
 */
import { INVOICE_PDF_MAX_BYTES, INVOICE_TYPE_LABELS } from '@portal/shared/domain/invoices';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import type { InvoiceDto, InvoiceRegistered } from '@portal/shared/schemas/invoices';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import {
  clients,
  invoiceApplications,
  invoiceLines,
  invoices,
  orderShipments,
} from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import {
  FileRejectedError,
  insertPreparedFiles,
  type PreparedFile,
  prepareFile,
  sha256Hex,
} from '../../lib/files.ts';
import { MSG } from '../../messages.ts';
import { lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';
import { lockOrder } from '../orders/order.repository.ts';
import { type Cfdi, cfdiRefused, readCfdi } from './cfdi.ts';
import { matchRegistered, resolveByCredit } from './invoice-match.ts';
import { invoiceDtos } from './invoices.repository.ts';

/** Who registers: the operator (rol 4) or an integration token (its client's orders only, when it has one). */
export interface Registrar {
  actorId: number | null;
  tokenId: number | null;
  /** The token's client, when it has one: another client's order answers 404. */
  idCliente?: number;
  meta: Record<string, unknown>;
}

export interface InvoiceUpload {
  pedido: number;
  envio?: number | null;
  xml: Buffer;
  pdf: Buffer | null;
}

/** Salt of the stored files' names: a CFDI's file never shares a row (or a guessable name) with another upload. */
const FILE_SALT = 'cfdi:';

/** The XML and the PDF as stored files of kind `factura` (the PDF checked as a PDF, ≤ 5 MB). */
async function invoiceFiles(idCliente: number, xml: Buffer, pdf: Buffer | null): Promise<PreparedFile[]> {
  const files: PreparedFile[] = [
    {
      id: `${await sha256Hex(xml, FILE_SALT)}.xml`,
      idCliente,
      kind: 'factura',
      mime: 'application/xml',
      size: xml.length,
      data: xml,
    },
  ];
  if (pdf) {
    try {
      const checked = await prepareFile({
        data: pdf,
        kind: 'factura',
        idCliente,
        allowed: ['pdf'],
        maxBytes: INVOICE_PDF_MAX_BYTES,
      });
      files.push({ ...checked, id: `${await sha256Hex(pdf, FILE_SALT)}.pdf` });
    } catch (err) {
      if (err instanceof FileRejectedError) throw badRequest('CFDI_PDF', err.message, { pdf: err.message });
      throw err;
    }
  }
  return files;
}

/** The XML's text: UTF-8 (with or without BOM), else a 400 like any text that is not XML. */
function xmlText(xml: Buffer): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(xml);
  } catch {
    throw cfdiRefused(MSG.cfdiXmlMalFormado, 'CFDI_XML');
  }
}

/** The invoices (tipo I) of the client a credit note or a payment names, locked in id order, by UUID. */
async function lockNamed(tx: Tx, idCliente: number, uuids: readonly string[]) {
  if (uuids.length === 0) return new Map<string, { id: number; orderId: number; saldo: number }>();
  const rows = await tx
    .select({ id: invoices.id, uuid: invoices.uuid, orderId: invoices.orderId, saldo: invoices.saldo })
    .from(invoices)
    .where(and(inArray(invoices.uuid, [...uuids]), eq(invoices.idCliente, idCliente), eq(invoices.tipo, 'I')))
    .orderBy(invoices.id)
    .for('update');
  return new Map(rows.map((r) => [r.uuid, { id: r.id, orderId: r.orderId, saldo: r.saldo ?? 0 }]));
}

/** What the CFDI applies, by invoice UUID: a credit note's total to its one related invoice, a payment's ImpPagado. */
function applicationsOf(cfdi: Cfdi): Map<string, number> {
  const out = new Map<string, number>();
  if (cfdi.tipo === 'E') {
    const groups = cfdi.relacionados.filter((r) => r.tipoRelacion === '01');
    const uuids = groups.flatMap((g) => g.uuids);
    if (groups.length !== 1 || uuids.length !== 1)
      throw cfdiRefused(MSG.cfdiEgresoSinRelacion, 'CFDI_RELATED');
    if (cfdi.total > 0) out.set(uuids[0]!, cfdi.total);
  }
  for (const d of cfdi.pagados) out.set(d.uuid, (out.get(d.uuid) ?? 0) + d.impPagado);
  return out;
}

/** Takes each application from its invoice's saldo (400 naming the invoice when it exceeds it). */
async function applyAll(
  tx: Tx,
  idCliente: number,
  sourceId: number,
  cfdi: Cfdi,
  wanted: Map<string, number>,
) {
  const named = await lockNamed(tx, idCliente, [...wanted.keys()]);
  const applied: { orderId: number; uuid: string; importe: number; saldo: number }[] = [];
  for (const [uuid, importe] of wanted) {
    const target = named.get(uuid);
    if (!target)
      throw cfdiRefused(
        cfdi.tipo === 'E' ? MSG.cfdiRelacionNoRegistrada(uuid) : MSG.cfdiDocumentoDesconocido(uuid),
        'CFDI_RELATED',
      );
    if (importe > target.saldo)
      throw cfdiRefused(MSG.cfdiExcedeSaldo(uuid, importe, target.saldo), 'CFDI_OVER_BALANCE');
    // Conditional on the saldo read under the lock: it can never go below 0 (the table's check agrees).
    const [after] = await tx
      .update(invoices)
      .set({ saldo: sql`${invoices.saldo} - ${importe}` })
      .where(and(eq(invoices.id, target.id), sql`${invoices.saldo} >= ${importe}`))
      .returning({ saldo: invoices.saldo });
    if (!after) throw conflict('CFDI_BALANCE_CHANGED', MSG.cfdiExcedeSaldo(uuid, importe, target.saldo));
    await tx.insert(invoiceApplications).values({ sourceId, invoiceId: target.id, importe });
    applied.push({ orderId: target.orderId, uuid, importe, saldo: after.saldo ?? 0 });
  }
  return applied;
}

/** The receptor's RFC against the client's fiscal data (400 when the client has none or another). */
async function checkReceptor(tx: Tx, idCliente: number, cfdi: Cfdi): Promise<void> {
  const [client] = await tx.select({ rfc: clients.rfc }).from(clients).where(eq(clients.id, idCliente));
  if (!client?.rfc) throw cfdiRefused(MSG.cfdiClienteSinRfc, 'CFDI_RECEPTOR');
  if (client.rfc !== cfdi.receptor.rfc)
    throw cfdiRefused(MSG.cfdiReceptorRfc(cfdi.receptor.rfc, client.rfc), 'CFDI_RECEPTOR');
}

/** The order's shipment `envio` (its id), or 400 naming `envio` when it is not one of the order's. */
async function shipmentOf(tx: Tx, orderId: number, envio: number | null | undefined): Promise<number | null> {
  if (envio === null || envio === undefined) return null;
  const [row] = await tx
    .select({ id: orderShipments.id })
    .from(orderShipments)
    .where(and(eq(orderShipments.id, envio), eq(orderShipments.orderId, orderId)));
  if (!row)
    throw badRequest('CFDI_SHIPMENT', MSG.cfdiEnvioNoEncontrado, { envio: MSG.cfdiEnvioNoEncontrado });
  return row.id;
}

const duplicate = (uuid: string) => conflict('CFDI_DUPLICATE', MSG.cfdiDuplicado(uuid));

/** Registers a CFDI in the caller's transaction (see the file's head); answers it as the v1 API shows it. */
export async function registerInvoice(
  tx: Tx,
  deps: Pick<Deps, 'config' | 'clock' | 'jobs'>,
  upload: InvoiceUpload,
  who: Registrar,
): Promise<InvoiceRegistered> {
  const cfdi = readCfdi(xmlText(upload.xml));
  const order = await lockOrder(
    tx,
    upload.pedido,
    who.idCliente === undefined ? {} : { idCliente: who.idCliente },
  );
  if (order.status !== 'aprobado') throw conflict('ORDER_NOT_APPROVED', MSG.cfdiPedidoNoAprobado);
  const shipmentId = await shipmentOf(tx, order.id, upload.envio);
  await checkReceptor(tx, order.idCliente, cfdi);
  const [seen] = await tx.select({ id: invoices.id }).from(invoices).where(eq(invoices.uuid, cfdi.uuid));
  if (seen) throw duplicate(cfdi.uuid);
  const wanted = applicationsOf(cfdi);
  const files = await invoiceFiles(order.idCliente, upload.xml, upload.pdf);
  await insertPreparedFiles(tx, files);
  const [row] = await tx
    .insert(invoices)
    .values({
      idCliente: order.idCliente,
      orderId: order.id,
      shipmentId,
      tipo: cfdi.tipo,
      uuid: cfdi.uuid,
      serie: cfdi.serie,
      folio: cfdi.folio,
      fecha: cfdi.fecha,
      fechaTimbrado: cfdi.fechaTimbrado,
      emisorRfc: cfdi.emisor.rfc,
      emisorNombre: cfdi.emisor.nombre,
      receptorRfc: cfdi.receptor.rfc,
      receptorNombre: cfdi.receptor.nombre,
      usoCfdi: cfdi.receptor.usoCfdi,
      subtotal: cfdi.subtotal,
      descuento: cfdi.descuento,
      traslados: cfdi.traslados,
      retenciones: cfdi.retenciones,
      total: cfdi.total,
      metodoPago: cfdi.metodoPago,
      formaPago: cfdi.formaPago,
      saldo: cfdi.tipo === 'I' ? cfdi.total : null,
      xmlFileId: files[0]!.id,
      pdfFileId: files[1]?.id ?? null,
      createdBy: who.actorId,
      tokenId: who.tokenId,
      createdAt: deps.clock.now(),
      verificacionSat: cfdi.verificacion,
    })
    // Another registration of this UUID that committed first (or waits on ours): the loser's 409.
    .onConflictDoNothing({ target: invoices.uuid })
    .returning({ id: invoices.id });
  if (!row) throw duplicate(cfdi.uuid);
  await tx.insert(invoiceLines).values(
    cfdi.conceptos.map((c, i) => ({
      invoiceId: row.id,
      numero: i + 1,
      claveProdServ: c.claveProdServ,
      noIdentificacion: c.noIdentificacion,
      cantidad: c.cantidad,
      claveUnidad: c.claveUnidad,
      unidad: c.unidad,
      descripcion: c.descripcion,
      valorUnitario: c.valorUnitario,
      importe: c.importe,
      descuento: c.descuento,
    })),
  );
  const aplicaciones = await applyAll(tx, order.idCliente, row.id, cfdi, wanted);
  // The three-way match of an invoice; a credit note may resolve its invoice's differences (decision 0133).
  const cotejo =
    cfdi.tipo === 'I'
      ? await matchRegistered(
          tx,
          { id: row.id, orderId: order.id, shipmentId, total: cfdi.total },
          cfdi.conceptos.map((c, i) => ({ ...c, numero: i + 1 })),
        )
      : null;
  const resuelta =
    cfdi.tipo === 'E' && aplicaciones[0]
      ? await resolveByCredit(tx, { id: row.id, total: cfdi.total }, aplicaciones[0].uuid, deps.clock.now())
      : null;
  const [factura] = await invoiceDtos(tx, [row.id]);
  const label = INVOICE_TYPE_LABELS[cfdi.tipo];
  await orderChanged(tx, lifecycleDeps(deps), {
    kind: 'factura',
    order,
    factura: { uuid: cfdi.uuid, tipo: cfdi.tipo, serie: cfdi.serie, folio: cfdi.folio, total: cfdi.total },
    aplicaciones,
    cotejo: cotejo && { estado: cotejo.estado, diferencias: cotejo.diferencias },
    resuelta,
    verificacion: cfdi.verificacion,
    body: factura!,
    actorId: who.actorId,
    log: {
      eventType: 'factura_registrada',
      description: `Pedido #${orderNumber(order.id)}: CFDI registrado, ${label} ${[cfdi.serie, cfdi.folio].filter(Boolean).join('-') || cfdi.uuid}${who.actorId === null ? ' (integración)' : ''}`,
      metadata: {
        total: cfdi.total,
        aplicaciones: aplicaciones.map((a) => ({ uuid: a.uuid, importe: a.importe })),
        ...who.meta,
      },
    },
  });
  return { status: 'ok', msg: MSG.facturaRegistrada(label, cfdi.uuid), factura: factura! };
}

/** One CFDI by UUID within the caller's client (another client's: 404 like a missing one). */
export async function invoiceByUuid(
  db: Tx | Deps['db'],
  uuid: string,
  scope: { idCliente?: number; orderId?: number },
): Promise<InvoiceDto> {
  const conditions = [eq(invoices.uuid, uuid)];
  if (scope.idCliente !== undefined) conditions.push(eq(invoices.idCliente, scope.idCliente));
  if (scope.orderId !== undefined) conditions.push(eq(invoices.orderId, scope.orderId));
  const [row] = await db
    .select({ id: invoices.id })
    .from(invoices)
    .where(and(...conditions));
  const [dto] = row ? await invoiceDtos(db, [row.id]) : [];
  if (!dto) throw notFound(MSG.facturaNoEncontrada, 'INVOICE_NOT_FOUND');
  return dto;
}

/**
 * The operator accepts the differences of an order's invoice with a reason (decision 0133): only from
 * `con_diferencias` (a conditional update under the order's lock: the loser of a race, or an invoice already
 * resolved, 409); another order's invoice or a missing one 404. Through the order's seam (event and log).
 */
export async function acceptDifference(
  tx: Tx,
  deps: Pick<Deps, 'config' | 'clock' | 'jobs'>,
  input: { pedido: number; uuid: string; motivo: string },
  who: { actorId: number; meta: Record<string, unknown> },
): Promise<InvoiceDto> {
  const order = await lockOrder(tx, input.pedido, {});
  const [row] = await tx
    .update(invoices)
    .set({
      cotejo: 'diferencia_aceptada',
      cotejoMotivo: input.motivo,
      cotejoResueltoPor: who.actorId,
      cotejoResueltoAt: deps.clock.now(),
    })
    .where(
      and(
        eq(invoices.orderId, order.id),
        eq(invoices.uuid, input.uuid),
        eq(invoices.cotejo, 'con_diferencias'),
      ),
    )
    .returning({ id: invoices.id, serie: invoices.serie, folio: invoices.folio });
  if (!row) {
    const current = await invoiceByUuid(tx, input.uuid, { orderId: order.id });
    throw conflict(
      'INVOICE_MATCH_NOT_PENDING',
      current.cotejo === null ? MSG.facturaSinCotejo : MSG.facturaSinDiferencias,
    );
  }
  const name = [row.serie, row.folio].filter(Boolean).join('-') || input.uuid;
  await orderChanged(tx, lifecycleDeps(deps), {
    kind: 'factura_cotejo',
    order,
    factura: { uuid: input.uuid, serie: row.serie, folio: row.folio },
    motivo: input.motivo,
    actorId: who.actorId,
    log: {
      eventType: 'factura_diferencia_aceptada',
      description: `Pedido #${orderNumber(order.id)}: diferencia de la factura ${name} aceptada`,
      metadata: who.meta,
    },
  });
  const [dto] = await invoiceDtos(tx, [row.id]);
  return dto!;
}
