import { FULFILMENT_LABELS, type FulfilmentState, onPickList } from '@portal/shared/domain/fulfilment';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { businessDate, formatDate } from '@portal/shared/domain/time';
import type { PickListBody } from '@portal/shared/schemas/fulfilment';
import { and, asc, inArray, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { allOn } from '../../db/prepared.ts';
import { orderLines, orders } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { BOM, csvRow } from '../../lib/csv.ts';
import type { Deps } from '../../lib/deps.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { drawTable, newDocument, numberPages, type PdfColumn } from '../../lib/pdf-layout.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';

/** One product of the pick list: the lines' frozen snapshot, the total and the orders it serves. */
export interface PickListProduct {
  claveInterna: string;
  claveCliente: string;
  nombre: string;
  unidadDeMedida: string;
  cantidad: number;
  pedidos: { id: number; cantidad: number }[];
}

const numero = (id: number) => `#${orderNumber(id)}`;

/** The orders a product serves, as the list writes them: "#00012 (3); #00015 (1)". */
const ordersCell = (p: PickListProduct) => p.pedidos.map((o) => `${numero(o.id)} (${o.cantidad})`).join('; ');

const byClave = (a: PickListProduct, b: PickListProduct) =>
  a.claveInterna.localeCompare(b.claveInterna, 'es', { numeric: true }) ||
  a.nombre.localeCompare(b.nombre, 'es') ||
  a.claveCliente.localeCompare(b.claveCliente, 'es') ||
  a.unidadDeMedida.localeCompare(b.unidadDeMedida, 'es');

/**
 * The pick list of the selected orders (docs/domain.md "Fulfilment", decision 0109): two reads, the orders'
 * states and their lines summed per product snapshot and order. A missing id is 404; an order that is not
 * approved, or already shipped or delivered, 409; each names the first such order of the selection.
 */
export async function pickList(deps: Pick<Deps, 'db'>, ids: number[]): Promise<PickListProduct[]> {
  const key = [
    orderLines.claveInterna,
    orderLines.claveCliente,
    orderLines.nombre,
    orderLines.unidadDeMedida,
  ];
  const [heads, lines] = await allOn(deps.db, [
    deps.db
      .select({ id: orders.id, status: orders.status, surtido: orders.surtidoEstatus })
      .from(orders)
      .where(inArray(orders.id, ids)),
    deps.db
      .select({
        claveInterna: orderLines.claveInterna,
        claveCliente: orderLines.claveCliente,
        nombre: orderLines.nombre,
        unidadDeMedida: orderLines.unidadDeMedida,
        orderId: orderLines.orderId,
        // What is left to ship (decision 0125): a partly shipped order lists only its remaining units.
        cantidad: sql<number>`sum(${orderLines.cantidad} - ${orderLines.enviado})::int`,
      })
      .from(orderLines)
      .where(and(inArray(orderLines.orderId, ids), sql`${orderLines.cantidad} > ${orderLines.enviado}`))
      .groupBy(...key, orderLines.orderId)
      .orderBy(asc(orderLines.orderId)),
  ]);
  const byId = new Map(heads.map((h) => [h.id, h]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing !== undefined) throw notFound(MSG.listaSurtidoNoExiste(numero(missing)), 'ORDER_NOT_FOUND');
  for (const id of ids) {
    const h = byId.get(id)!;
    if (h.status !== 'aprobado' || !h.surtido)
      throw conflict('ORDER_NOT_APPROVED', MSG.listaSurtidoNoAprobado(numero(id)));
    const state = h.surtido as FulfilmentState;
    if (!onPickList(state))
      throw conflict(
        'ORDER_ALREADY_SHIPPED',
        MSG.listaSurtidoYaEnviado(numero(id), FULFILMENT_LABELS[state]),
      );
  }

  const products = new Map<string, PickListProduct>();
  for (const l of lines) {
    const k = JSON.stringify([l.claveInterna, l.claveCliente, l.nombre, l.unidadDeMedida]);
    let p = products.get(k);
    if (!p) {
      p = {
        claveInterna: l.claveInterna,
        claveCliente: l.claveCliente,
        nombre: l.nombre,
        unidadDeMedida: l.unidadDeMedida,
        cantidad: 0,
        pedidos: [],
      };
      products.set(k, p);
    }
    const cantidad = Number(l.cantidad);
    p.cantidad += cantidad;
    p.pedidos.push({ id: l.orderId, cantidad });
  }
  return [...products.values()].sort(byClave);
}

/** The CSV's columns, one row per product. */
export const PICK_LIST_HEADER = [
  'Clave interna',
  'Clave cliente',
  'Producto',
  'Unidad de medida',
  'Cantidad total',
  'Pedidos',
];

function pickListCsv(products: PickListProduct[]): string {
  const rows = products.map((p) =>
    csvRow([p.claveInterna, p.claveCliente, p.nombre, p.unidadDeMedida, p.cantidad, ordersCell(p)]),
  );
  return BOM + csvRow(PICK_LIST_HEADER) + rows.join('');
}

/** The PDF's table (Letter width less the margins: 532 points). */
const PDF_COLUMNS: readonly PdfColumn[] = [
  { title: 'Clave', width: 82, align: 'left' },
  { title: 'Producto', width: 180, align: 'left' },
  { title: 'Unidad', width: 58, align: 'left' },
  { title: 'Cantidad', width: 50, align: 'right' },
  { title: 'Pedidos', width: 162, align: 'left' },
];

/** The pick list to print: title, date, counts, then the products' table over as many pages as it takes. */
function pickListPdf(products: PickListProduct[], pedidos: number, fecha: string): PDFKit.PDFDocument {
  const title = 'Lista de surtido';
  const c = newDocument({ Title: `${title} ${fecha}` });
  const { doc } = c;
  doc.fillColor('black').font('Helvetica-Bold').fontSize(20).text(title, c.left, c.y, { width: c.width });
  doc
    .font('Helvetica')
    .fontSize(10)
    .text(`Fecha: ${fecha}`, c.left, doc.y + 4, { width: c.width })
    .text(`${pedidos} pedido(s) · ${products.length} producto(s)`, c.left, doc.y + 2, { width: c.width });
  c.y = doc.y + 12;
  drawTable(
    c,
    PDF_COLUMNS,
    products.map((p) => [
      p.claveCliente ? `${p.claveInterna}\nCliente: ${p.claveCliente}` : p.claveInterna,
      p.nombre,
      p.unidadDeMedida,
      String(p.cantidad),
      ordersCell(p),
    ]),
  );
  numberPages(c, `${title} ${fecha}`);
  doc.end();
  return doc;
}

/**
 * POST /api/surtido/lista: the pick list of the selection as a download (`lista-de-surtido-<fecha>.pdf` or
 * `.csv`, the business date), recorded in the system log. It changes no order.
 */
export async function sendPickList(
  deps: Pick<Deps, 'config' | 'db' | 'clock'>,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: AuthContext,
  body: PickListBody,
): Promise<FastifyReply> {
  const products = await pickList(deps, body.ids);
  const now = deps.clock.now();
  const tz = deps.config.BUSINESS_TZ;
  await audit(deps.db, {
    userId: auth.user.id,
    eventType: 'surtido_lista',
    description: `Lista de surtido (${body.formato.toUpperCase()}): ${body.ids.length} pedido(s), ${products.length} producto(s)`,
    metadata: {
      pedidos: body.ids.length,
      productos: products.length,
      formato: body.formato,
      ids: body.ids,
      ...requestMeta(request),
    },
  });
  const fileName = `lista-de-surtido-${businessDate(now, tz)}.${body.formato}`;
  reply
    .header('Cache-Control', 'private, no-store')
    .header('Content-Disposition', `attachment; filename="${fileName}"`);
  if (body.formato === 'csv')
    return reply.header('Content-Type', 'text/csv; charset=utf-8').send(pickListCsv(products));
  return reply
    .header('Content-Type', 'application/pdf')
    .send(pickListPdf(products, body.ids.length, formatDate(now, tz)));
}
