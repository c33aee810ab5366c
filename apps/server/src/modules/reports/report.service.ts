import { Readable } from 'node:stream';
import { ivaOf } from '@portal/shared/domain/money';
import { orderNumber, statusTitle } from '@portal/shared/domain/order-workflow';
import { businessDateRange, formatDate } from '@portal/shared/domain/time';
import type { ReportBody } from '@portal/shared/schemas/orders';
import { and, asc, eq, gt, gte, inArray, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { orderLines, orders, users } from '../../db/schema/index.ts';
import { BOM, csvCell, csvMoney, csvRow } from '../../lib/csv.ts';

const BATCH = 250;
/**
 * Text is handed to the response in pieces of about 32 KB. A batch's whole text (about 450 KB) would be a
 * string in V8's large-object space, freed only by a full collection: over a million lines those piled up
 * to 120 MB of heap before one ran. Small strings die young and cheaply.
 */
const CHUNK_CHARS = 32_768;

export const GENERAL_HEADER = [
  'Pedido',
  'Fecha',
  'Estatus',
  'Usuario',
  'Nombre',
  'Productos',
  'Subtotal',
  'IVA',
  'Total',
  'Dirección de entrega',
  'Calle',
  'Colonia',
  'Ciudad',
  'CP',
  'Estado',
  'Área',
  'Región',
  'Semana de entrega',
];

export const DETAIL_HEADER = [
  'Pedido',
  'Fecha',
  'Estatus',
  'Usuario',
  'Nombre',
  'Clave interna',
  'Clave cliente',
  'Producto',
  'Categoría',
  'Unidad',
  'Cantidad',
  'Precio unitario',
  'IVA',
  'Importe',
];

/** Orders of one client in an inclusive range of business dates, in id order, a batch at a time. */
async function* orderBatches(db: Db, idCliente: number, range: { start: Date; end: Date }) {
  let lastId = 0;
  for (;;) {
    const batch = await db
      .select({
        id: orders.id,
        status: orders.status,
        subtotal: orders.subtotal,
        iva: orders.iva,
        total: orders.total,
        transactionDate: orders.transactionDate,
        usuario: users.usuario,
        nombre: users.nombre,
        direccionEntrega: users.direccionEntrega,
        calle: users.calle,
        colonia: users.colonia,
        ciudad: users.ciudad,
        cp: users.cp,
        estado: users.estado,
        area: users.area,
        region: users.region,
        entregaWeek: users.entregaWeek,
      })
      .from(orders)
      .innerJoin(users, eq(users.id, orders.idUser))
      .where(
        and(
          eq(orders.idCliente, idCliente),
          gte(orders.transactionDate, range.start),
          lt(orders.transactionDate, range.end),
          gt(orders.id, lastId),
        ),
      )
      .orderBy(asc(orders.id))
      .limit(BATCH);
    if (batch.length === 0) return;
    yield batch;
    lastId = batch[batch.length - 1]!.id;
    if (batch.length < BATCH) return;
  }
}

/** The report as a stream: rows are read and written a batch at a time, never all in memory. */
export function reportStream(app: FastifyInstance, idCliente: number, body: ReportBody): Readable {
  const tz = app.config.BUSINESS_TZ;
  const range = businessDateRange(body.fecha_inicio, body.fecha_fin, tz);
  const db = app.db;
  async function* generate() {
    yield BOM;
    if (body.tipo === 'general') {
      yield csvRow(GENERAL_HEADER);
      for await (const batch of orderBatches(db, idCliente, range)) {
        const counts = new Map<number, number>();
        const lineRows = await db
          .select({ orderId: orderLines.orderId })
          .from(orderLines)
          .where(
            inArray(
              orderLines.orderId,
              batch.map((o) => o.id),
            ),
          );
        for (const l of lineRows) counts.set(l.orderId, (counts.get(l.orderId) ?? 0) + 1);
        let chunk = '';
        for (const o of batch) {
          chunk += csvRow([
            orderNumber(o.id),
            formatDate(o.transactionDate, tz),
            statusTitle(o.status),
            o.usuario,
            o.nombre,
            counts.get(o.id) ?? 0,
            csvMoney(o.subtotal),
            csvMoney(o.iva),
            csvMoney(o.total),
            o.direccionEntrega,
            o.calle,
            o.colonia,
            o.ciudad,
            o.cp,
            o.estado,
            o.area,
            o.region,
            o.entregaWeek,
          ]);
          if (chunk.length >= CHUNK_CHARS) {
            yield chunk;
            chunk = '';
          }
        }
        yield chunk;
      }
      return;
    }
    yield csvRow(DETAIL_HEADER);
    for await (const batch of orderBatches(db, idCliente, range)) {
      // The order's own cells are formatted once per order, not once per line.
      const orderCells = new Map(
        batch.map((o) => [
          o.id,
          [orderNumber(o.id), formatDate(o.transactionDate, tz), statusTitle(o.status), o.usuario, o.nombre]
            .map(csvCell)
            .join(','),
        ]),
      );
      const lines = await db
        .select({
          orderId: orderLines.orderId,
          claveInterna: orderLines.claveInterna,
          claveCliente: orderLines.claveCliente,
          nombre: orderLines.nombre,
          categoria: orderLines.categoria,
          unidadDeMedida: orderLines.unidadDeMedida,
          cantidad: orderLines.cantidad,
          precio: orderLines.precio,
          impuesto: orderLines.impuesto,
        })
        .from(orderLines)
        .where(
          inArray(
            orderLines.orderId,
            batch.map((o) => o.id),
          ),
        )
        .orderBy(asc(orderLines.orderId), asc(orderLines.id));
      let chunk = '';
      for (const l of lines) {
        const importe = l.precio * l.cantidad;
        chunk += `${orderCells.get(l.orderId)},`;
        chunk += csvRow([
          l.claveInterna,
          l.claveCliente,
          l.nombre,
          l.categoria,
          l.unidadDeMedida,
          l.cantidad,
          csvMoney(l.precio),
          csvMoney(l.impuesto ? ivaOf(importe) : 0),
          csvMoney(importe),
        ]);
        if (chunk.length >= CHUNK_CHARS) {
          yield chunk;
          chunk = '';
        }
      }
      yield chunk;
    }
  }
  return Readable.from(generate(), { objectMode: false });
}
