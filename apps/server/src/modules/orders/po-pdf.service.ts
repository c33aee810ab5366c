import { deliveryAddress, deliveryContact } from '@portal/shared/domain/delivery';
import { formatCentavos, pesosToCentavos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { formatDate, formatDateTime } from '@portal/shared/domain/time';
import type { OrderDetailDto } from '@portal/shared/schemas/orders';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { clients, users } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { conflict } from '../../lib/errors.ts';
import { readFile } from '../../lib/files.ts';
import {
  type Cursor,
  drawTable,
  MARGIN,
  newDocument,
  numberPages,
  type PdfColumn,
  pdfBuffer,
  room,
  rule,
} from '../../lib/pdf-layout.ts';
import { MSG } from '../../messages.ts';
import { type OrderScope, orderDetail, orderOf } from './order.repository.ts';

/** Everything printed on a purchase order (docs/domain.md "Purchase-order PDF", decision 0056). */
export interface PurchaseOrderData {
  pedido: OrderDetailDto;
  cliente: { nombre: string; color: string; logo: Buffer | null };
  /** `recibe`: who receives, the phone and the window of an address book copy (decision 0126), else ''. */
  comprador: { nombre: string; area: string; direccion: string; recibe: string; semana: number };
}

/** The file name of an order's PDF: OC-00042.pdf. */
export const purchaseOrderFileName = (id: number) => `OC-${orderNumber(id)}.pdf`;

const HEX_COLOR = /^#[0-9a-f]{6}$/i;

/** The approved order within the caller's scope: out of scope → 404 like a missing one; not approved → 409. */
export async function purchaseOrderData(db: Db, id: number, scope: OrderScope): Promise<PurchaseOrderData> {
  const order = await orderOf(db, id, scope);
  if (order.status !== 'aprobado') throw conflict('ORDER_NOT_APPROVED', MSG.soloAprobadosOrdenCompra);
  const [pedido, [client], [buyer]] = await Promise.all([
    orderDetail(db, id, {}),
    db
      .select({ nombre: clients.nombre, color: clients.color, imagen: clients.imagen })
      .from(clients)
      .where(eq(clients.id, order.idCliente))
      .limit(1),
    db.select().from(users).where(eq(users.id, order.idUser)).limit(1),
  ]);
  let logo: Buffer | null = null;
  if (client?.imagen) {
    const file = await readFile(db, client.imagen);
    if (file && (file.mime === 'image/png' || file.mime === 'image/jpeg')) logo = file.data;
  }
  // The address copied onto the order when it was placed, never the profile as it is now (decision 0094).
  const direccion = deliveryAddress(order.entrega);
  return {
    pedido,
    cliente: {
      nombre: client?.nombre ?? '',
      color: client && HEX_COLOR.test(client.color) ? client.color : '#1c7ed6',
      logo,
    },
    comprador: {
      nombre: buyer?.nombre ?? '',
      area: buyer?.area ?? '',
      direccion,
      recibe: deliveryContact(order.entrega),
      semana: buyer?.entregaWeek ?? 1,
    },
  };
}

/** Table columns: title, width, alignment. */
const COLUMNS: readonly PdfColumn[] = [
  { title: 'Clave interna', width: 62, align: 'left' },
  { title: 'Clave cliente', width: 62, align: 'left' },
  { title: 'Producto', width: 160, align: 'left' },
  { title: 'Unidad', width: 50, align: 'left' },
  { title: 'Cantidad', width: 46, align: 'right' },
  { title: 'Precio unitario', width: 72, align: 'right' },
  { title: 'Importe', width: 80, align: 'right' },
];

/** The logo (if any), the client's name in its colour, the title and number, and a rule in the colour. */
function drawHeading(c: Cursor, cliente: PurchaseOrderData['cliente'], numero: string): void {
  const { doc, left, width } = c;
  if (cliente.logo) {
    try {
      doc.image(cliente.logo, left, c.y, { fit: [120, 50] });
    } catch {
      // An image pdfkit cannot read is left out; the order still prints.
    }
  }
  doc
    .fillColor(cliente.color)
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(cliente.nombre, left + 130, c.y, { width: width - 130, align: 'right' });
  doc
    .fillColor('black')
    .fontSize(20)
    .text(`Orden de compra ${numero}`, left + 130, doc.y + 4, { width: width - 130, align: 'right' });
  c.y = Math.max(doc.y, MARGIN + 55) + 10;
  rule(c, 2, cliente.color);
  c.y += 10;
}

/** The order's facts: dates, buyer, área, delivery address and week. */
function drawFacts(c: Cursor, data: PurchaseOrderData, tz: string): void {
  const { pedido, comprador } = data;
  const finalApproval = [...pedido.eventos]
    .reverse()
    .find((e) => e.tipo === 'aprobado' && e.a === 'aprobado');
  const facts: [string, string][] = [
    ['Fecha del pedido', formatDate(pedido.transaction_date, tz)],
    ['Fecha de aprobación', finalApproval ? formatDate(finalApproval.fecha, tz) : '—'],
    ['Comprador', comprador.nombre],
    ['Área', comprador.area || '—'],
    ['Dirección de entrega', comprador.direccion || '—'],
    ...(comprador.recibe ? [['Contacto de entrega', comprador.recibe] as [string, string]] : []),
    ['Semana de entrega', `Semana ${comprador.semana}`],
  ];
  c.doc.fontSize(10);
  for (const [label, value] of facts) {
    c.doc.font('Helvetica-Bold').text(`${label}:`, c.left, c.y, { width: 130 });
    c.doc.font('Helvetica').text(value, c.left + 135, c.y, { width: c.width - 135 });
    c.y = c.doc.y + 3;
  }
  c.y += 8;
}

/** The lines' table; its header repeats on every page it continues on. */
function drawLines(c: Cursor, lineas: PurchaseOrderData['pedido']['lineas']): void {
  drawTable(
    c,
    COLUMNS,
    lineas.map((l) => [
      l.clave_interna,
      l.clave_cliente || '—',
      l.nombre,
      l.unidad_de_medida,
      String(l.cantidad),
      formatCentavos(pesosToCentavos(l.costo), false),
      formatCentavos(pesosToCentavos(l.importe), false),
    ]),
  );
}

/** Subtotal, IVA and total: the stored snapshot, to the centavo. */
function drawTotals(c: Cursor, pedido: PurchaseOrderData['pedido']): void {
  const totals: [string, number][] = [
    ['Subtotal', pedido.subtotal],
    ['IVA', pedido.iva],
    ['Total', pedido.total],
  ];
  room(c, totals.length * 16);
  for (const [label, pesos] of totals) {
    const bold = label === 'Total';
    c.doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 10);
    c.doc.text(`${label}:`, c.left + c.width - 240, c.y, { width: 100, align: 'right' });
    c.doc.text(formatCentavos(pesosToCentavos(pesos)), c.left + c.width - 135, c.y, {
      width: 135,
      align: 'right',
    });
    c.y = c.doc.y + 4;
  }
  c.y += 10;
}

/** "Aprobado por": each approval from the order's events (a delegate "en nombre de", the client's rule). */
function drawApprovals(c: Cursor, pedido: PurchaseOrderData['pedido'], tz: string): void {
  const approverLines = pedido.eventos
    .filter((e) => e.tipo === 'aprobado')
    .map((e) => {
      const who = e.actor
        ? `${e.actor}${e.en_nombre_de ? ` en nombre de ${e.en_nombre_de}` : ''}`
        : MSG.ordenCompraAprobacionAutomatica;
      return `${who} — ${formatDateTime(e.fecha, tz)}`;
    });
  room(c, 20 + approverLines.length * 14);
  c.doc
    .font('Helvetica-Bold')
    .fontSize(10)
    .fillColor('black')
    .text('Aprobado por', c.left, c.y, { width: c.width });
  c.y = c.doc.y + 3;
  c.doc.font('Helvetica').fontSize(10);
  for (const line of approverLines.length > 0 ? approverLines : ['—']) {
    c.doc.text(line, c.left, c.y, { width: c.width });
    c.y = c.doc.y + 2;
  }
}

/**
 * The purchase order as a PDF stream (pdfkit, standard Helvetica: WinAnsi covers á, é, ñ, ¿, ¡). The caller
 * pipes or sends it; it is already ended. Letter size; the table header repeats on every page; the footer
 * numbers the pages "Página n de m".
 */
export function renderPurchaseOrder(data: PurchaseOrderData, tz: string): PDFKit.PDFDocument {
  const numero = orderNumber(data.pedido.id);
  const c = newDocument({ Title: `Orden de compra ${numero}`, Author: data.cliente.nombre });
  drawHeading(c, data.cliente, numero);
  drawFacts(c, data, tz);
  drawLines(c, data.pedido.lineas);
  drawTotals(c, data.pedido);
  drawApprovals(c, data.pedido, tz);
  numberPages(c, `Orden de compra ${numero}`);
  c.doc.end();
  return c.doc;
}

/** The whole PDF in memory (for an e-mail attachment). */
export async function purchaseOrderBuffer(data: PurchaseOrderData, tz: string): Promise<Buffer> {
  return pdfBuffer(renderPurchaseOrder(data, tz));
}

/** Sends an order's purchase order as a download (application/pdf, OC-<número>.pdf). */
export async function sendPurchaseOrder(
  deps: Pick<Deps, 'config' | 'db'>,
  reply: FastifyReply,
  id: number,
  scope: OrderScope,
): Promise<FastifyReply> {
  const data = await purchaseOrderData(deps.db, id, scope);
  const doc = renderPurchaseOrder(data, deps.config.BUSINESS_TZ);
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `attachment; filename="${purchaseOrderFileName(id)}"`)
    .header('Cache-Control', 'private, no-store')
    .send(doc);
}
