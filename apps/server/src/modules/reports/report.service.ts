import { Readable } from 'node:stream';
import { ivaOf } from '@portal/shared/domain/money';
import { orderNumber, statusTitle } from '@portal/shared/domain/order-workflow';
import { businessDateRange, formatDate } from '@portal/shared/domain/time';
import type { ReportBody } from '@portal/shared/schemas/orders';
import { sql } from 'drizzle-orm';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { areas, orderLines, orders, users } from '../../db/schema/index.ts';
import { BOM, csvCell, csvMoney, csvRow } from '../../lib/csv.ts';
import type { Deps } from '../../lib/deps.ts';

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

/** The detail report's columns: each line's, then its order's área code and GL account (decision 0123). */
const AREA_HEADER = ['Clave de área', 'Cuenta contable'];

interface ReportOrder {
  id: number;
  status: string;
  /** bigint centavos: a string from node-postgres, a number from PGlite. */
  subtotal: string | number;
  iva: string | number;
  total: string | number;
  /** Milliseconds since the epoch (both drivers give a number for float8, not both a Date). */
  transaction_ms: number;
  usuario: string;
  nombre: string;
  direccion_entrega: string;
  calle: string;
  colonia: string;
  ciudad: string;
  cp: string;
  estado: string;
  area: string;
  region: string;
  entrega_week: number;
  area_codigo: string;
  cuenta_contable: string;
}

/**
 * The delivery address as the order copied it when it was placed (decision 0094): a later edit of the
 * buyer's profile never changes a past order's report.
 */
const DELIVERY_FIELDS = ['direccion_entrega', 'calle', 'colonia', 'ciudad', 'cp', 'estado'] as const;

/**
 * Orders of one client in an inclusive range of business dates, in id order, a batch at a time. The
 * report reads the driver's plain rows: mapping a million lines through the query builder's column
 * decoders cost a fifth of its CPU.
 */
async function* orderBatches(db: Db, idCliente: number, range: { start: Date; end: Date }) {
  const o = orders;
  const u = users;
  let lastId = 0;
  for (;;) {
    const batch = await rowsOf<ReportOrder>(
      db,
      sql`
      select ${o.id}, ${o.status}, ${o.subtotal}, ${o.iva}, ${o.total},
        (extract(epoch from ${o.transactionDate}) * 1000)::float8 as transaction_ms,
        ${u.usuario}, ${u.nombre},
        ${sql.join(
          DELIVERY_FIELDS.map((f) => sql`coalesce(${o.entrega} ->> ${f}, '') as ${sql.identifier(f)}`),
          sql`, `,
        )},
        ${u.area}, ${u.region}, ${u.entregaWeek},
        coalesce(a.codigo, '') as area_codigo, coalesce(a.cuenta_contable, '') as cuenta_contable
      from ${o} inner join ${u} on ${u.id} = ${o.idUser}
        left join ${areas} a on a.id = ${o.idArea}
      where ${o.idCliente} = ${idCliente} and ${o.transactionDate} >= ${range.start}
        and ${o.transactionDate} < ${range.end} and ${o.id} > ${lastId}
      order by ${o.id} limit ${BATCH}`,
    );
    if (batch.length === 0) return;
    yield batch;
    lastId = batch[batch.length - 1]!.id;
    if (batch.length < BATCH) return;
  }
}

export interface DetailLine {
  order_id: number;
  clave_interna: string;
  clave_cliente: string;
  nombre: string;
  categoria: string;
  unidad_de_medida: string;
  cantidad: number;
  /** bigint: a string from node-postgres, a number from PGlite. */
  precio: string | number;
  impuesto: boolean;
}

/** The lines of a batch of orders, in order, as the driver's plain rows. */
export async function detailLines(db: Db | Tx, orderIds: number[]): Promise<DetailLine[]> {
  const l = orderLines;
  return rowsOf<DetailLine>(
    db,
    sql`
    select ${l.orderId}, ${l.claveInterna}, ${l.claveCliente}, ${l.nombre}, ${l.categoria},
      ${l.unidadDeMedida}, ${l.cantidad}, ${l.precio}, ${l.impuesto}
    from ${l} where ${l.orderId} = any(${sql.param(orderIds)}::int4[])
    order by ${l.orderId}, ${l.id}`,
  );
}

/** A line's cells of the detail report, after the order's own (DETAIL_HEADER from "Clave interna"). */
export function detailLineCells(l: DetailLine): (string | number)[] {
  const precio = Number(l.precio);
  const importe = precio * l.cantidad;
  return [
    l.clave_interna,
    l.clave_cliente,
    l.nombre,
    l.categoria,
    l.unidad_de_medida,
    l.cantidad,
    csvMoney(precio),
    csvMoney(l.impuesto ? ivaOf(importe) : 0),
    csvMoney(importe),
  ];
}

/** How many lines each of a batch of orders has. */
export async function lineCounts(db: Db | Tx, orderIds: number[]): Promise<Map<number, number>> {
  const l = orderLines;
  const rows = await rowsOf<{ order_id: number; n: number }>(
    db,
    sql`
    select ${l.orderId} as order_id, count(*)::int as n from ${l}
    where ${l.orderId} = any(${sql.param(orderIds)}::int4[]) group by ${l.orderId}`,
  );
  return new Map(rows.map((r) => [r.order_id, r.n]));
}

/** The report as a stream: rows are read and written a batch at a time, never all in memory. */
export function reportStream(
  deps: Pick<Deps, 'config' | 'reads'>,
  idCliente: number,
  body: ReportBody,
): Readable {
  const tz = deps.config.BUSINESS_TZ;
  const range = businessDateRange(body.fecha_inicio, body.fecha_fin, tz);
  // Off the primary when a replica is configured (decision 0129); keyset batches, so a replica that stops
  // under the report hands the next batch to the primary and the file still completes.
  const db = deps.reads;
  async function* generate() {
    yield BOM;
    if (body.tipo === 'general') {
      // The área (cost centre) the order was charged to and its GL account (decision 0123), after the
      // specification's columns.
      yield csvRow([...GENERAL_HEADER, ...AREA_HEADER]);
      for await (const batch of orderBatches(db, idCliente, range)) {
        const counts = await lineCounts(
          db,
          batch.map((o) => o.id),
        );
        let chunk = '';
        for (const o of batch) {
          chunk += csvRow([
            orderNumber(o.id),
            formatDate(new Date(o.transaction_ms), tz),
            statusTitle(o.status),
            o.usuario,
            o.nombre,
            counts.get(o.id) ?? 0,
            csvMoney(Number(o.subtotal)),
            csvMoney(Number(o.iva)),
            csvMoney(Number(o.total)),
            o.direccion_entrega,
            o.calle,
            o.colonia,
            o.ciudad,
            o.cp,
            o.estado,
            o.area,
            o.region,
            o.entrega_week,
            o.area_codigo,
            o.cuenta_contable,
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
    yield csvRow([...DETAIL_HEADER, ...AREA_HEADER]);
    for await (const batch of orderBatches(db, idCliente, range)) {
      // The order's own cells are formatted once per order, not once per line.
      const orderCells = new Map(
        batch.map((o) => [
          o.id,
          [
            orderNumber(o.id),
            formatDate(new Date(o.transaction_ms), tz),
            statusTitle(o.status),
            o.usuario,
            o.nombre,
          ]
            .map(csvCell)
            .join(','),
        ]),
      );
      const areaCells = new Map(batch.map((o) => [o.id, [o.area_codigo, o.cuenta_contable]]));
      const lines = await detailLines(
        db,
        batch.map((o) => o.id),
      );
      let chunk = '';
      for (const l of lines) {
        chunk += `${orderCells.get(l.order_id)},`;
        chunk += csvRow([...detailLineCells(l), ...areaCells.get(l.order_id)!]);
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
