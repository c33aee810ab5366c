/**
 * The HTTP side of CFDI invoices (decision 0131): the ERP's v1 post (JSON, the PDF in base64, at most once
 * per `Idempotency-Key`) and reads, and the operator's upload (multipart), list and downloads.
 */
import { Readable } from 'node:stream';
import type {
  AcceptDifferenceBody,
  InvoiceAccepted,
  InvoiceBody,
  InvoiceDto,
  InvoiceRegistered,
  InvoicesPage,
  InvoicesQuery,
} from '@portal/shared/schemas/invoices';
import { eq, type SQL } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { invoices, orders } from '../../db/schema/index.ts';
import { requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { openFile } from '../../lib/files.ts';
import { idempotentWrite } from '../../lib/idempotency.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import type { ApiCaller } from '../integration/api-auth.ts';
import { decodeCursor, encodeCursor } from '../integration/v1.service.ts';
import { type OrderScope, orderOf } from '../orders/order.repository.ts';
import { invoiceDtos, invoiceFileId, invoiceIds } from './invoices.repository.ts';
import { acceptDifference, registerInvoice } from './invoices.service.ts';

/** Strict base64 (what `pdf_base64` must be); Node's decoder would skip what is not. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** POST /api/v1/facturas: a CFDI by an integration token (facturas:escribir); 201 with it. */
export async function postInvoice(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: ApiCaller,
  body: InvoiceBody,
): Promise<InvoiceRegistered> {
  let pdf: Buffer | null = null;
  if (body.pdf_base64) {
    const clean = body.pdf_base64.replace(/\s+/g, '');
    if (!BASE64.test(clean) || clean.length % 4 !== 0)
      throw badRequest('CFDI_PDF', MSG.cfdiPdf, { pdf_base64: MSG.cfdiPdf });
    pdf = Buffer.from(clean, 'base64');
  }
  const result = await idempotentWrite(deps.db, request, reply, caller.tokenId, (tx) =>
    registerInvoice(
      tx,
      deps,
      { pedido: body.pedido, envio: body.envio ?? null, xml: Buffer.from(body.xml, 'utf8'), pdf },
      {
        actorId: null,
        tokenId: caller.tokenId,
        ...(caller.idCliente !== null ? { idCliente: caller.idCliente } : {}),
        meta: { ...requestMeta(request), id_token: caller.tokenId },
      },
    ),
  );
  // «Factura disponible» to the client's billing addresses, once committed (decision 0133).
  void deps.mailer.flush();
  reply.code(201);
  return result;
}

/** GET /api/v1/facturas: the CFDIs the token may read, oldest registration first, by cursor. */
export async function listInvoices(
  deps: Pick<Deps, 'db'>,
  caller: ApiCaller,
  query: InvoicesQuery,
): Promise<InvoicesPage> {
  const where: SQL[] = [];
  if (caller.idCliente !== null) where.push(eq(invoices.idCliente, caller.idCliente));
  if (query.pedido) where.push(eq(invoices.orderId, query.pedido));
  if (query.tipo) where.push(eq(invoices.tipo, query.tipo));
  const after = query.cursor ? decodeCursor(query.cursor) : 0;
  const ids = await invoiceIds(deps.db, where, after, query.limite + 1);
  const page = ids.slice(0, query.limite);
  return {
    facturas: await invoiceDtos(deps.db, page),
    siguiente: ids.length > query.limite ? encodeCursor(page[page.length - 1]!) : null,
  };
}

/** POST /api/surtido/{id}/facturas: the operator uploads a CFDI's XML (field `xml`) and optionally its PDF. */
export async function uploadInvoice(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<InvoiceRegistered> {
  // A missing order answers 404 before the files are read.
  const [order] = await deps.db.select({ id: orders.id }).from(orders).where(eq(orders.id, id));
  if (!order) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  const { files, fields } = await readMultipart(request);
  const xml = files.xml?.data;
  if (!xml || xml.length === 0)
    throw badRequest('NO_FILE', MSG.archivoNoSeleccionado, { xml: MSG.archivoNoSeleccionado });
  const envio = fields.envio?.trim() ? Number(fields.envio) : null;
  if (envio !== null && !(Number.isSafeInteger(envio) && envio > 0))
    throw badRequest('CFDI_SHIPMENT', MSG.cfdiEnvioNoEncontrado, { envio: MSG.cfdiEnvioNoEncontrado });
  const result = await deps.db.transaction((tx) =>
    registerInvoice(
      tx,
      deps,
      { pedido: id, envio, xml, pdf: files.pdf?.data.length ? files.pdf.data : null },
      { actorId: auth.user.id, tokenId: null, meta: requestMeta(request) },
    ),
  );
  void deps.mailer.flush();
  return result;
}

/**
 * The order's CFDIs, in registration order: the operator's (any order), the buyer's, the approvers' and the
 * client administrator's (decision 0133), within `scope` as the order itself (out of it: 404).
 */
export async function orderInvoices(
  deps: Pick<Deps, 'db'>,
  id: number,
  scope: OrderScope,
): Promise<{ facturas: InvoiceDto[] }> {
  await orderOf(deps.db, id, scope);
  const ids = await invoiceIds(deps.db, [eq(invoices.orderId, id)], 0, 1000);
  return { facturas: await invoiceDtos(deps.db, ids) };
}

/** GET …/{id}/facturas/{uuid}/{xml|pdf}: the stored file, as a download (404 when absent or out of `scope`). */
export async function sendInvoiceFile(
  deps: Pick<Deps, 'db'>,
  reply: FastifyReply,
  params: { id: number; uuid: string },
  which: 'xml' | 'pdf',
  scope: OrderScope,
): Promise<FastifyReply> {
  const { id, uuid } = params;
  await orderOf(deps.db, id, scope);
  const fileId = await invoiceFileId(deps.db, id, uuid, which);
  const file = fileId ? await openFile(deps.db, fileId) : null;
  if (!file) throw notFound(MSG.facturaNoEncontrada, 'INVOICE_NOT_FOUND');
  return reply
    .header('content-type', which === 'xml' ? 'application/xml; charset=utf-8' : 'application/pdf')
    .header('content-length', file.size)
    .header('content-disposition', `attachment; filename="${uuid}.${which}"`)
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'private, no-store')
    .send(Readable.from(file.parts()));
}

/** POST /api/surtido/{id}/facturas/{uuid}/aceptar-diferencia: the operator accepts an invoice's differences. */
export async function acceptInvoiceDifference(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  params: { id: number; uuid: string },
  body: AcceptDifferenceBody,
): Promise<InvoiceAccepted> {
  const factura = await deps.db.transaction((tx) =>
    acceptDifference(
      tx,
      deps,
      { pedido: params.id, uuid: params.uuid, motivo: body.motivo },
      { actorId: auth.user.id, meta: requestMeta(request) },
    ),
  );
  return { status: 'ok', msg: MSG.diferenciaAceptada, factura };
}
