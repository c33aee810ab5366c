/**
 * The remisión (packing slip) of one shipment of an order (issue 41 item 7, decision 0125): what that shipment
 * carries, line by line with its units and no prices, where it goes, the carrier and guía, and a box for
 * whoever receives it to sign. The buyer, the client's approvers and the operator download it.
 */
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { formatDate, formatIsoDate } from '@portal/shared/domain/time';
import type { OrderShipmentDto } from '@portal/shared/schemas/orders';
import type { FastifyReply } from 'fastify';
import type { Deps } from '../../lib/deps.ts';
import { notFound } from '../../lib/errors.ts';
import {
  type Cursor,
  drawTable,
  MARGIN,
  newDocument,
  numberPages,
  type PdfColumn,
  room,
  rule,
} from '../../lib/pdf-layout.ts';
import { MSG } from '../../messages.ts';
import { type OrderScope, orderOf } from '../orders/order.repository.ts';
import { type PurchaseOrderData, purchaseOrderData } from '../orders/po-pdf.service.ts';

/** One line of the shipment as the remisión prints it: the order line's frozen snapshot and the units sent. */
export interface RemisionLine {
  claveInterna: string;
  claveCliente: string;
  nombre: string;
  unidad: string;
  cantidad: number;
}

/** Everything printed on a remisión: the order's heading and parties (as its purchase order's), the shipment. */
export interface RemisionData {
  order: PurchaseOrderData;
  envio: Omit<OrderShipmentDto, 'lineas' | 'recepcion'>;
  /** How many shipments the order has so far ("Envío 2 de 3"). */
  envios: number;
  /** A replacement's claim number (decision 0127: "Reposición del reclamo 1"), else null. */
  reclamo: number | null;
  lineas: RemisionLine[];
}

/** The remisión's number: the order's and the shipment's, "00042-2". */
export const remisionNumber = (id: number, numero: number) => `${orderNumber(id)}-${numero}`;

/** The file name of a shipment's remisión: remision-00042-2.pdf. */
export const remisionFileName = (id: number, numero: number) => `remision-${remisionNumber(id, numero)}.pdf`;

const shipmentNotFound = () => notFound(MSG.remisionNoEncontrada, 'SHIPMENT_NOT_FOUND');

/**
 * Shipment `numero` of order `id` within the caller's scope: an order out of scope answers 404 like a missing
 * one; an order without that shipment (not approved, or not shipped that far), 404 too.
 */
export async function remisionData(
  deps: Pick<Deps, 'db'>,
  id: number,
  numero: number,
  scope: OrderScope,
): Promise<RemisionData> {
  const head = await orderOf(deps.db, id, scope);
  if (head.status !== 'aprobado') throw shipmentNotFound();
  // In scope and approved: the purchase order's own data (client's branding, buyer, the delivery copy).
  const order = await purchaseOrderData(deps.db, id, {});
  const shipments = order.pedido.envios ?? [];
  const envio = shipments.find((s) => s.numero === numero);
  if (!envio) throw shipmentNotFound();
  const byId = new Map(order.pedido.lineas.map((l) => [l.id, l]));
  const lineas = envio.lineas.flatMap(({ id_linea, cantidad }) => {
    const l = byId.get(id_linea);
    return l
      ? [
          {
            claveInterna: l.clave_interna,
            claveCliente: l.clave_cliente,
            nombre: l.nombre,
            unidad: l.unidad_de_medida,
            cantidad,
          },
        ]
      : [];
  });
  const { lineas: _, recepcion: __, ...shipment } = envio;
  const reclamo = envio.reposicion
    ? ((order.pedido.reclamos ?? []).find((r) => r.envio_reposicion === numero)?.numero ?? null)
    : null;
  return { order, envio: shipment, envios: shipments.length, reclamo, lineas };
}

/** The table's columns (Letter width less the margins: 532 points); a packing slip has no prices. */
const COLUMNS: readonly PdfColumn[] = [
  { title: 'Clave interna', width: 80, align: 'left' },
  { title: 'Clave cliente', width: 80, align: 'left' },
  { title: 'Producto', width: 242, align: 'left' },
  { title: 'Unidad', width: 60, align: 'left' },
  { title: 'Cantidad enviada', width: 70, align: 'right' },
];

/**
 * The client's logo and name in its colour on the left; "Remisión 00042-2" and "Envío 2 de 3" on the right,
 * and under them "Reposición del reclamo 1" for a replacement (decision 0127).
 */
function drawTitle(c: Cursor, data: RemisionData): void {
  const { doc, left, width } = c;
  const { cliente, pedido } = data.order;
  const top = c.y;
  if (cliente.logo) {
    try {
      doc.image(cliente.logo, left, top, { fit: [110, 45] });
    } catch {
      // An image pdfkit cannot read is left out; the remisión still prints.
    }
  }
  const nameTop = cliente.logo ? top + 48 : top;
  doc
    .fillColor(cliente.color)
    .font('Helvetica-Bold')
    .fontSize(13)
    .text(cliente.nombre, left, nameTop, {
      width: width / 2,
    });
  const below = doc.y;
  doc
    .fillColor('black')
    .fontSize(20)
    .text(`Remisión ${remisionNumber(pedido.id, data.envio.numero)}`, left + width / 2, top, {
      width: width / 2,
      align: 'right',
    });
  doc
    .font('Helvetica')
    .fontSize(11)
    .text(`Envío ${data.envio.numero} de ${data.envios}`, left + width / 2, doc.y + 2, {
      width: width / 2,
      align: 'right',
    });
  if (data.envio.reposicion)
    doc
      .font('Helvetica-Bold')
      .text(
        data.reclamo === null ? 'Reposición' : `Reposición del reclamo ${data.reclamo}`,
        left + width / 2,
        doc.y + 2,
        { width: width / 2, align: 'right' },
      );
  c.y = Math.max(below, doc.y, MARGIN + 50) + 8;
  rule(c, 2, cliente.color);
  c.y += 10;
}

/** The order, the buyer, where it goes and who receives, and how it travels. */
function drawShipmentFacts(c: Cursor, data: RemisionData, tz: string): void {
  const { pedido, comprador } = data.order;
  const { envio } = data;
  const facts: [string, string][] = [
    ['Pedido', `#${orderNumber(pedido.id)} del ${formatDate(pedido.transaction_date, tz)}`],
    ['Comprador', comprador.area ? `${comprador.nombre} (${comprador.area})` : comprador.nombre],
    ['Dirección de entrega', comprador.direccion || '—'],
  ];
  if (comprador.recibe) facts.push(['Contacto de entrega', comprador.recibe]);
  facts.push(
    ['Fecha de envío', formatIsoDate(envio.fecha)],
    ['Paquetería', envio.paqueteria || '—'],
    ['Guía', envio.guia || '—'],
  );
  for (const [label, value] of facts) {
    c.doc.fontSize(10).font('Helvetica-Bold').text(`${label}:`, c.left, c.y, { width: 125 });
    const labelBottom = c.doc.y;
    c.doc.font('Helvetica').text(value, c.left + 130, c.y, { width: c.width - 130 });
    c.y = Math.max(labelBottom, c.doc.y) + 3;
  }
  c.y += 8;
}

/** "Total de unidades: n" under the table, on the right. */
function drawUnits(c: Cursor, lineas: RemisionLine[]): void {
  const units = lineas.reduce((sum, l) => sum + l.cantidad, 0);
  room(c, 20);
  c.doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor('black')
    .text(`Total de unidades: ${units}`, c.left, c.y, { width: c.width, align: 'right' });
  c.y = c.doc.y + 16;
}

/** The box whoever receives signs: "Recibí de conformidad", then name, signature and date to fill in. */
function drawSignatureBox(c: Cursor): void {
  const height = 110;
  room(c, height);
  const { doc } = c;
  doc.rect(c.left, c.y, c.width, height).lineWidth(1).strokeColor('#495057').stroke();
  doc
    .font('Helvetica-Bold')
    .fontSize(11)
    .fillColor('black')
    .text('Recibí de conformidad', c.left + 12, c.y + 10, { width: c.width - 24 });
  const blank = (label: string, x: number, y: number, w: number) => {
    doc
      .font('Helvetica')
      .fontSize(10)
      .text(label, x, y - 12, { width: w });
    doc
      .moveTo(x, y + 2)
      .lineTo(x + w, y + 2)
      .lineWidth(0.5)
      .strokeColor('#868e96')
      .stroke();
  };
  const inner = c.width - 24;
  blank('Nombre', c.left + 12, c.y + 55, inner * 0.6);
  blank('Fecha', c.left + 12 + inner * 0.65, c.y + 55, inner * 0.35);
  blank('Firma', c.left + 12, c.y + 95, inner * 0.6);
  c.y += height + 10;
}

/**
 * The remisión as a PDF stream, already ended (pdfkit, the purchase order's layout: Letter, standard
 * Helvetica, the table's header on every page it continues on, "Página n de m" in the footer).
 */
export function renderRemision(data: RemisionData, tz: string): PDFKit.PDFDocument {
  const title = `Remisión ${remisionNumber(data.order.pedido.id, data.envio.numero)}`;
  const c = newDocument({ Title: title, Author: data.order.cliente.nombre });
  drawTitle(c, data);
  drawShipmentFacts(c, data, tz);
  drawTable(
    c,
    COLUMNS,
    data.lineas.map((l) => [l.claveInterna, l.claveCliente || '—', l.nombre, l.unidad, String(l.cantidad)]),
  );
  drawUnits(c, data.lineas);
  drawSignatureBox(c);
  numberPages(c, title);
  c.doc.end();
  return c.doc;
}

/** Sends a shipment's remisión as a download (application/pdf, remision-<pedido>-<envío>.pdf). */
export async function sendRemision(
  deps: Pick<Deps, 'config' | 'db'>,
  reply: FastifyReply,
  id: number,
  numero: number,
  scope: OrderScope,
): Promise<FastifyReply> {
  const data = await remisionData(deps, id, numero, scope);
  return reply
    .header('Content-Type', 'application/pdf')
    .header('Content-Disposition', `attachment; filename="${remisionFileName(id, numero)}"`)
    .header('Cache-Control', 'private, no-store')
    .send(renderRemision(data, deps.config.BUSINESS_TZ));
}
