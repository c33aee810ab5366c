import { deliveryAddress } from '@portal/shared/domain/delivery';
import { formatCentavos, pesosToCentavos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { formatDate, formatDateTime } from '@portal/shared/domain/time';
import type { OrderDetailDto } from '@portal/shared/schemas/orders';
import { eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import PDFDocument from 'pdfkit';
import type { Db } from '../../db/client.ts';
import { clients, users } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { conflict } from '../../lib/errors.ts';
import { readFile } from '../../lib/files.ts';
import { MSG } from '../../messages.ts';
import { type OrderScope, orderDetail, orderOf } from './order.repository.ts';

/** Everything printed on a purchase order (docs/domain.md "Purchase-order PDF", decision 0056). */
export interface PurchaseOrderData {
  pedido: OrderDetailDto;
  cliente: { nombre: string; color: string; logo: Buffer | null };
  comprador: { nombre: string; area: string; direccion: string; semana: number };
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
      semana: buyer?.entregaWeek ?? 1,
    },
  };
}

const MARGIN = 40;
const FOOTER = 30;
/** Table columns: title, width, alignment. */
const COLUMNS = [
  { title: 'Clave interna', width: 62, align: 'left' },
  { title: 'Clave cliente', width: 62, align: 'left' },
  { title: 'Producto', width: 160, align: 'left' },
  { title: 'Unidad', width: 50, align: 'left' },
  { title: 'Cantidad', width: 46, align: 'right' },
  { title: 'Precio unitario', width: 72, align: 'right' },
  { title: 'Importe', width: 80, align: 'right' },
] as const;
const CELL_PAD = 3;
const TABLE_SIZE = 8;

/**
 * The purchase order as a PDF stream (pdfkit, standard Helvetica: WinAnsi covers á, é, ñ, ¿, ¡). The caller
 * pipes or sends it; it is already ended. Letter size; the table header repeats on every page; the footer
 * numbers the pages "Página n de m".
 */
// biome-ignore lint/complexity/noExcessiveLinesPerFunction: the purchase order's layout, to split by section (docs/code-style.md)
export function renderPurchaseOrder(data: PurchaseOrderData, tz: string): PDFKit.PDFDocument {
  const { pedido, cliente, comprador } = data;
  const numero = orderNumber(pedido.id);
  const doc = new PDFDocument({
    size: 'LETTER',
    margin: MARGIN,
    bufferPages: true,
    info: { Title: `Orden de compra ${numero}`, Author: cliente.nombre },
  });
  const left = MARGIN;
  const width = doc.page.width - 2 * MARGIN;
  const bottom = () => doc.page.height - MARGIN - FOOTER;

  // Header: logo (if any), client name in its colour, title and number.
  let y = MARGIN;
  if (cliente.logo) {
    try {
      doc.image(cliente.logo, left, y, { fit: [120, 50] });
    } catch {
      // An image pdfkit cannot read is left out; the order still prints.
    }
  }
  doc
    .fillColor(cliente.color)
    .font('Helvetica-Bold')
    .fontSize(16)
    .text(cliente.nombre, left + 130, y, { width: width - 130, align: 'right' });
  doc
    .fillColor('black')
    .fontSize(20)
    .text(`Orden de compra ${numero}`, left + 130, doc.y + 4, { width: width - 130, align: 'right' });
  y = Math.max(doc.y, MARGIN + 55) + 10;
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(2)
    .strokeColor(cliente.color)
    .stroke();
  y += 10;

  // Order facts.
  const aprobaciones = pedido.eventos.filter((e) => e.tipo === 'aprobado');
  const finalApproval = [...aprobaciones].reverse().find((e) => e.a === 'aprobado');
  const facts: [string, string][] = [
    ['Fecha del pedido', formatDate(pedido.transaction_date, tz)],
    ['Fecha de aprobación', finalApproval ? formatDate(finalApproval.fecha, tz) : '—'],
    ['Comprador', comprador.nombre],
    ['Área', comprador.area || '—'],
    ['Dirección de entrega', comprador.direccion || '—'],
    ['Semana de entrega', `Semana ${comprador.semana}`],
  ];
  doc.fontSize(10);
  for (const [label, value] of facts) {
    doc.font('Helvetica-Bold').text(`${label}:`, left, y, { width: 130 });
    doc.font('Helvetica').text(value, left + 135, y, { width: width - 135 });
    y = doc.y + 3;
  }
  y += 8;

  // Lines.
  const drawRow = (cells: readonly string[], bold: boolean, shade: boolean) => {
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(TABLE_SIZE);
    const height =
      Math.max(
        ...cells.map((c, i) => doc.heightOfString(c, { width: (COLUMNS[i]?.width ?? 50) - 2 * CELL_PAD })),
      ) +
      2 * CELL_PAD;
    if (y + height > bottom()) {
      doc.addPage();
      y = MARGIN;
      if (!bold) drawHeader();
      // The repeated header leaves its bold font behind.
      doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(TABLE_SIZE);
    }
    if (shade) doc.rect(left, y, width, height).fillColor('#f1f3f5').fill();
    doc.fillColor('black');
    let x = left;
    cells.forEach((c, i) => {
      const col = COLUMNS[i]!;
      doc.text(c, x + CELL_PAD, y + CELL_PAD, { width: col.width - 2 * CELL_PAD, align: col.align });
      x += col.width;
    });
    y += height;
  };
  const drawHeader = () => {
    drawRow(
      COLUMNS.map((c) => c.title),
      true,
      true,
    );
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(0.5)
      .strokeColor('#868e96')
      .stroke();
  };
  drawHeader();
  for (const l of pedido.lineas) {
    drawRow(
      [
        l.clave_interna,
        l.clave_cliente || '—',
        l.nombre,
        l.unidad_de_medida,
        String(l.cantidad),
        formatCentavos(pesosToCentavos(l.costo), false),
        formatCentavos(pesosToCentavos(l.importe), false),
      ],
      false,
      false,
    );
  }
  doc
    .moveTo(left, y)
    .lineTo(left + width, y)
    .lineWidth(0.5)
    .strokeColor('#868e96')
    .stroke();
  y += 6;

  // Totals: the stored snapshot, to the centavo.
  const totals: [string, number][] = [
    ['Subtotal', pedido.subtotal],
    ['IVA', pedido.iva],
    ['Total', pedido.total],
  ];
  if (y + totals.length * 16 > bottom()) {
    doc.addPage();
    y = MARGIN;
  }
  for (const [label, pesos] of totals) {
    const bold = label === 'Total';
    doc.font(bold ? 'Helvetica-Bold' : 'Helvetica').fontSize(bold ? 11 : 10);
    doc.text(`${label}:`, left + width - 240, y, { width: 100, align: 'right' });
    doc.text(formatCentavos(pesosToCentavos(pesos)), left + width - 135, y, { width: 135, align: 'right' });
    y = doc.y + 4;
  }
  y += 10;

  // Approvals, from the order's events.
  const approverLines = aprobaciones.map((e) => {
    const who = e.actor
      ? `${e.actor}${e.en_nombre_de ? ` en nombre de ${e.en_nombre_de}` : ''}`
      : MSG.ordenCompraAprobacionAutomatica;
    return `${who} — ${formatDateTime(e.fecha, tz)}`;
  });
  if (y + 20 + approverLines.length * 14 > bottom()) {
    doc.addPage();
    y = MARGIN;
  }
  doc.font('Helvetica-Bold').fontSize(10).fillColor('black').text('Aprobado por', left, y, { width });
  y = doc.y + 3;
  doc.font('Helvetica').fontSize(10);
  for (const line of approverLines.length > 0 ? approverLines : ['—']) {
    doc.text(line, left, y, { width });
    y = doc.y + 2;
  }

  // Page numbers, written in the bottom margin of each buffered page.
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const margins = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc
      .font('Helvetica')
      .fontSize(8)
      .fillColor('#495057')
      .text(
        `Orden de compra ${numero} · Página ${i - range.start + 1} de ${range.count}`,
        left,
        doc.page.height - MARGIN - 10,
        { width, align: 'center', lineBreak: false },
      );
    doc.page.margins.bottom = margins;
  }
  doc.end();
  return doc;
}

/** The whole PDF in memory (for an e-mail attachment). */
export async function purchaseOrderBuffer(data: PurchaseOrderData, tz: string): Promise<Buffer> {
  const doc = renderPurchaseOrder(data, tz);
  const chunks: Buffer[] = [];
  for await (const chunk of doc) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
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
