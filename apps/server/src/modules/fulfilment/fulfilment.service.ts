import { actorOnBehalf } from '@portal/shared/domain/delegation';
import { deliveryAddress } from '@portal/shared/domain/delivery';
import {
  FULFILMENT_LABELS,
  type FulfilmentState,
  GUIA_MAX,
  GUIAS_IMPORT_MAX_BYTES,
  GUIAS_IMPORT_MAX_ROWS,
  isForwardMove,
  knownCarrier,
  PAQUETERIA_MAX,
} from '@portal/shared/domain/fulfilment';
import { centavosToPesos } from '@portal/shared/domain/money';
import { orderNumber, statusTitle } from '@portal/shared/domain/order-workflow';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate, businessDateRange, formatDate } from '@portal/shared/domain/time';
import { MAX_ID } from '@portal/shared/limits';
import type {
  BulkFulfilmentBody,
  BulkFulfilmentResponse,
  ExportBody,
  ExportJsonResponse,
  FulfilmentQueueQuery,
  FulfilmentQueueResponse,
  GuiasImportResponse,
} from '@portal/shared/schemas/fulfilment';
import type { ImportRowError } from '@portal/shared/schemas/imports';
import { and, asc, count, desc, eq, gte, inArray, isNotNull, isNull, lt, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { selectOrdersWithParties } from '../../db/orders-with-parties.ts';
import { allOn } from '../../db/prepared.ts';
import { clients, orderEvents, orderLines, orders, surtidoLoteSeq, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { BOM, csvRow } from '../../lib/csv.ts';
import {
  cellOf,
  checkSummary,
  mapHeader,
  readCsvFile,
  summaryOf,
  withoutControlCharacters,
} from '../../lib/csv-read.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, badRequest, conflict, notFound } from '../../lib/errors.ts';
import { sizeMessage } from '../../lib/files.ts';
import { readMultipart } from '../../lib/multipart.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { type LifecycleDeps, lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';
import { lockOrder, type OrderScope } from '../orders/order.repository.ts';
import { DETAIL_HEADER, detailLineCells, detailLines, lineCounts } from '../reports/report.service.ts';

export const QUEUE_PAGE_SIZE = 50;

/** One fulfilment move (docs/domain.md "Fulfilment", decision 0058). */
export interface FulfilmentMove {
  orderId: number;
  to: FulfilmentState;
  /**
   * Who moves it: the operator (rol 4), the order's buyer confirming receipt (rol 1), or an integration
   * token (no user: `id` null, the operator's rights; the token is named in the log's metadata).
   */
  actor: { id: number | null; rol: number };
  /** Carrier and tracking reference, kept with `enviado`. */
  guia?: string;
  /** The carrier named apart from the guía (the guías file), kept with `enviado`. */
  paqueteria?: string;
  /** The operator's comment on the move. */
  comentario?: string;
  /** The buyer's note on receipt (missing or damaged items), kept with `entregado`. */
  nota?: string;
  /** Which orders the actor may move: a buyer only their own; none = every client's. Out of scope is 404. */
  scope?: OrderScope;
  /** Request metadata for the log entry (address, user agent). */
  meta?: Record<string, unknown>;
}

/** The order as the move left it. */
export interface MovedOrder {
  id: number;
  idUser: number;
  idCliente: number;
  from: FulfilmentState;
  surtido: FulfilmentState;
  guia: string | null;
  notaRecepcion: string | null;
}

const alreadyIn = (state: FulfilmentState) =>
  conflict('FULFILMENT_ALREADY', MSG.surtidoYaEn(FULFILMENT_LABELS[state]));

/**
 * The one way an order's fulfilment moves, inside the caller's transaction: forward only, conditional on
 * the state it was read in (the loser of a race gets 409 'El pedido ya está en …'), with its order event,
 * its log entry and its e-mails in the same transaction. Every move path calls it, so whatever else must
 * happen with a move (an integration event) is added here once.
 */
export async function moveFulfilment(tx: Tx, move: FulfilmentMove, ctx: LifecycleDeps): Promise<MovedOrder> {
  // Locked, as every change of an approved order starts (a shipment racing the move waits for it).
  const order = await lockOrder(tx, move.orderId, move.scope ?? {});
  if (order.status !== 'aprobado' || !order.surtido)
    throw conflict('ORDER_NOT_APPROVED', MSG.surtidoNoAprobado);
  const from = order.surtido as FulfilmentState;
  // Only a shipment of some units makes an order `parcial` (decision 0125).
  if (move.to === 'parcial') throw badRequest('PARTIAL_IS_SHIPMENT', MSG.envioParcialNoEsMovimiento);
  if (!isForwardMove(from, move.to)) throw alreadyIn(from);
  // The buyer only confirms receipt of a shipped order.
  if (move.actor.rol === ROLES.usuario && (move.to !== 'entregado' || from !== 'enviado'))
    throw conflict('FULFILMENT_NOT_SHIPPED', MSG.surtidoNoEnviado);

  const changes = {
    ...(move.to === 'enviado' && move.guia ? { guia: move.guia } : {}),
    ...(move.to === 'enviado' && move.paqueteria ? { paqueteria: move.paqueteria } : {}),
    ...(move.comentario ? { comentario: move.comentario } : {}),
    ...(move.to === 'entregado' && move.nota ? { nota: move.nota } : {}),
  };
  const moved = await orderChanged(tx, ctx, {
    kind: 'surtido',
    order,
    from,
    to: move.to,
    actorId: move.actor.id,
    ...(move.to === 'enviado'
      ? { guia: { guia: move.guia ?? null, paqueteria: move.paqueteria ?? null } }
      : {}),
    ...(move.to === 'entregado' ? { nota: move.nota ?? null } : {}),
    // The buyer's «Recibido» receives every shipment still without a receipt, in full (decision 0127).
    ...(move.to === 'entregado' && move.actor.rol === ROLES.usuario && move.actor.id !== null
      ? { recepcion: { userId: move.actor.id, nota: move.nota ?? null } }
      : {}),
    changes: Object.keys(changes).length > 0 ? changes : null,
    log: {
      eventType: 'pedido_surtido',
      description: `Pedido #${orderNumber(order.id)}: surtido ${FULFILMENT_LABELS[from]} → ${FULFILMENT_LABELS[move.to]}${move.actor.id === null ? ' (integración)' : ''}`,
      metadata: { de: from, a: move.to, ...changes, ...move.meta },
    },
  });
  return {
    id: order.id,
    idUser: order.idUser,
    idCliente: order.idCliente,
    from,
    surtido: moved.surtido as FulfilmentState,
    guia: moved.guia,
    notaRecepcion: moved.notaRecepcion,
  };
}

/** One move in its own transaction (its e-mails wait in the outbox for the caller's flush). */
function moveAlone(deps: Deps, move: FulfilmentMove): Promise<MovedOrder> {
  return deps.db.transaction((tx) => moveFulfilment(tx, move, lifecycleDeps(deps)));
}

/** Runs one move in its own transaction and answers the order's fulfilment as it now stands. */
async function runMove(deps: Deps, move: FulfilmentMove, msg: (moved: MovedOrder) => string) {
  const moved = await moveAlone(deps, move);
  void deps.mailer.flush();
  return {
    status: 'ok' as const,
    msg: msg(moved),
    pedido: {
      id: moved.id,
      surtido: moved.surtido,
      guia: moved.guia,
      nota_recepcion: moved.notaRecepcion,
    },
  };
}

type OperatorMoveBody = { estado: FulfilmentState; guia?: string; comentario?: string };

/** A move with the operator's rules, by the operator or by an integration token. */
function operatorMove(
  deps: Deps,
  id: number,
  body: OperatorMoveBody,
  who: Pick<FulfilmentMove, 'actor' | 'scope' | 'meta'>,
) {
  return runMove(
    deps,
    { orderId: id, to: body.estado, guia: body.guia, comentario: body.comentario, ...who },
    (moved) => MSG.surtidoMovido(FULFILMENT_LABELS[moved.surtido]),
  );
}

/** POST /api/surtido/{id}/estado: the operator's move. */
export function operatorMoveFulfilment(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: OperatorMoveBody,
) {
  return operatorMove(deps, id, body, {
    actor: { id: auth.user.id, rol: auth.user.rol },
    meta: requestMeta(request),
  });
}

/**
 * POST /api/v1/pedidos/{id}/surtido: a move by an integration token (permission surtido:escribir), with the
 * operator's rules; a client-scoped token reaches only its client's orders (another's answers 404).
 */
export function integrationMoveFulfilment(
  deps: Deps,
  request: FastifyRequest,
  caller: { tokenId: number; idCliente: number | null },
  id: number,
  body: OperatorMoveBody,
) {
  return operatorMove(deps, id, body, {
    actor: { id: null, rol: ROLES.administrador },
    ...(caller.idCliente !== null ? { scope: { idCliente: caller.idCliente } } : {}),
    meta: { ...requestMeta(request), id_token: caller.tokenId },
  });
}

/**
 * Moves given orders one by one, each in its own transaction through the single move's core (its rules,
 * its texts, its race check): a refusal is that order's answer and never undoes another's move
 * (docs/domain.md "Fulfilment", decision 0094).
 */
async function eachMoved<T>(
  deps: Deps,
  items: readonly T[],
  moveOf: (item: T) => FulfilmentMove,
): Promise<({ item: T; moved: MovedOrder } | { item: T; error: string })[]> {
  const out: ({ item: T; moved: MovedOrder } | { item: T; error: string })[] = [];
  for (const item of items) {
    const move = moveOf(item);
    try {
      out.push({ item, moved: await moveAlone(deps, move) });
    } catch (err) {
      if (!(err instanceof AppError))
        deps.log.error({ err, id_pedido: move.orderId }, 'bulk fulfilment failed');
      out.push({ item, error: err instanceof AppError ? err.message : MSG.loteErrorInterno });
    }
  }
  void deps.mailer.flush();
  return out;
}

/** POST /api/surtido/estado-lote: each order moved or refused on its own, with the single move's rules. */
export async function operatorBulkMove(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: BulkFulfilmentBody,
): Promise<BulkFulfilmentResponse> {
  const meta = requestMeta(request);
  const results = await eachMoved(deps, body.ids, (id) => ({
    orderId: id,
    to: body.estado,
    guia: body.guia,
    actor: { id: auth.user.id, rol: auth.user.rol },
    meta,
  }));
  return {
    resultados: results.map((r) =>
      'moved' in r
        ? { id: r.item, ok: true, estado: r.moved.surtido }
        : { id: r.item, ok: false, error: r.error },
    ),
  };
}

/**
 * POST /api/surtido/guias: a CSV `pedido,guia,paqueteria`; each valid row moves its order to `enviado`
 * with the guía through the single move's core. Bad rows and refused moves are row errors as the imports
 * report them (fila, campo, motivo, valor); the file itself is checked like an import's.
 */
export async function importGuias(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
): Promise<GuiasImportResponse> {
  const { files } = await readMultipart(request);
  const file = files.file ?? files.archivo ?? Object.values(files)[0];
  if (!file) throw badRequest('NO_FILE', MSG.archivoNoSeleccionado, { file: MSG.archivoNoSeleccionado });
  if (file.data.length > GUIAS_IMPORT_MAX_BYTES)
    throw badRequest('FILE_SIZE', sizeMessage(GUIAS_IMPORT_MAX_BYTES));
  const table = await readCsvFile(file.data, GUIAS_IMPORT_MAX_ROWS);
  const index = mapHeader(table.header, GUIAS_COLUMNS.slice(0, 2), GUIAS_COLUMNS.slice(2));
  checkSummary(summaryOf(table), GUIAS_IMPORT_MAX_ROWS);

  const errores: ImportRowError[] = [];
  const rows: { fila: number; id: number; guia: string; paqueteria?: string }[] = [];
  const seen = new Map<number, number>();
  for (const record of table.records) {
    const fila = record.fila;
    const pedido = cellOf(record, index, 'pedido');
    const guia = cellOf(record, index, 'guia');
    const paqueteria = cellOf(record, index, 'paqueteria');
    const id = orderIdOf(pedido);
    const refuse = (campo: string, motivo: string, valor?: string) =>
      errores.push({ fila, campo, motivo, ...(valor ? { valor } : {}) });
    if (pedido === '') refuse('pedido', MSG.guiasPedidoRequerido);
    else if (id === null) refuse('pedido', MSG.guiasPedidoInvalido, pedido);
    else if (seen.has(id)) refuse('pedido', MSG.guiasPedidoRepetido(seen.get(id)!), pedido);
    else if (guia === '') refuse('guia', MSG.guiasGuiaRequerida);
    else if (guia.length > GUIA_MAX) refuse('guia', MSG.surtidoGuiaLarga, guia);
    else if (paqueteria.length > PAQUETERIA_MAX) refuse('paqueteria', MSG.guiasPaqueteriaLarga, paqueteria);
    else
      rows.push({
        fila,
        id,
        guia,
        ...(paqueteria ? { paqueteria: knownCarrier(paqueteria)?.nombre ?? paqueteria } : {}),
      });
    if (id !== null && !seen.has(id)) seen.set(id, fila);
  }

  const meta = { ...requestMeta(request), archivo: withoutControlCharacters(file.filename).slice(0, 200) };
  const results = await eachMoved(deps, rows, (row) => ({
    orderId: row.id,
    to: 'enviado',
    guia: row.guia,
    paqueteria: row.paqueteria,
    actor: { id: auth.user.id, rol: auth.user.rol },
    meta,
  }));
  for (const r of results)
    if ('error' in r)
      errores.push({ fila: r.item.fila, campo: 'pedido', motivo: r.error, valor: orderNumber(r.item.id) });
  errores.sort((a, b) => a.fila - b.fila);
  const enviados = results.filter((r) => 'moved' in r).length;
  return {
    status: 'ok',
    msg: MSG.guiasImportadas(enviados, table.records.length),
    total: table.records.length,
    enviados,
    errores,
  };
}

/** The columns of a guías file; `paqueteria` may be left out. */
export const GUIAS_COLUMNS = ['pedido', 'guia', 'paqueteria'] as const;

/** An order number as people write it: 42, 00042 or #00042; null when it is not one. */
export function orderIdOf(text: string): number | null {
  const digits = text.replace(/^#/, '');
  if (!/^\d{1,9}$/.test(digits)) return null;
  const id = Number(digits);
  return id > 0 && id <= MAX_ID ? id : null;
}

/**
 * POST /api/historial/{id}/recibido: the buyer confirms receipt of an own shipped order, which also receives
 * in full every shipment still without a receipt (decision 0127).
 */
export function buyerConfirmReceipt(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  nota: string | undefined,
) {
  return runMove(
    deps,
    {
      orderId: id,
      to: 'entregado',
      actor: { id: auth.user.id, rol: auth.user.rol },
      nota,
      scope: { idUser: auth.user.id },
      meta: requestMeta(request),
    },
    () => MSG.surtidoRecibido,
  );
}

/**
 * A late line (decision 0125): promised before `today` (business date) with units left to ship (the partial
 * index order_lines_promesa_abierta_idx).
 */
export const lateLine = (today: string) =>
  sql`${orderLines.fechaPromesa} is not null and ${orderLines.cantidad} > ${orderLines.enviado} and ${orderLines.fechaPromesa} < ${today}::date`;

/** The orders with a late line. */
const lateOrderIds = (today: string) =>
  sql`(select ${orderLines.orderId} from ${orderLines} where ${lateLine(today)})`;

/** GET /api/surtido: approved orders of every client, filtered, 50 a page, newest first. */
export async function fulfilmentQueue(
  deps: Pick<Deps, 'config' | 'db' | 'clock'>,
  query: FulfilmentQueueQuery,
): Promise<FulfilmentQueueResponse> {
  const tz = deps.config.BUSINESS_TZ;
  const conditions: SQL[] = [isNotNull(orders.surtidoEstatus)];
  if (query.cliente) conditions.push(eq(orders.idCliente, query.cliente));
  if (query.surtido !== 'todos') conditions.push(eq(orders.surtidoEstatus, query.surtido));
  if (query.exportado === 'si') conditions.push(isNotNull(orders.exportadoAt));
  if (query.exportado === 'no') conditions.push(isNull(orders.exportadoAt));
  const today = businessDate(deps.clock.now(), tz);
  if (query.atrasado === 'si') conditions.push(inArray(orders.id, lateOrderIds(today)));
  if (query.retenido === 'si') conditions.push(isNotNull(orders.retenidoCredito));
  if (query.retenido === 'no') conditions.push(isNull(orders.retenidoCredito));
  if (query.desde)
    conditions.push(gte(orders.transactionDate, businessDateRange(query.desde, query.desde, tz).start));
  if (query.hasta)
    conditions.push(lt(orders.transactionDate, businessDateRange(query.hasta, query.hasta, tz).end));
  const where = and(...conditions);
  const [rows, [totals]] = await Promise.all([
    selectOrdersWithParties(deps.db, {
      id: orders.id,
      transactionDate: orders.transactionDate,
      total: orders.total,
      idCliente: orders.idCliente,
      cliente: clients.nombre,
      comprador: users.nombre,
      surtido: orders.surtidoEstatus,
      guia: orders.guia,
      paqueteria: orders.paqueteria,
      notaRecepcion: orders.notaRecepcion,
      exportadoAt: orders.exportadoAt,
      lote: orders.loteExportacion,
      retenidoCredito: orders.retenidoCredito,
    })
      .where(where)
      .orderBy(
        ...(query.orden === 'fecha_asc'
          ? [asc(orders.transactionDate), asc(orders.id)]
          : [desc(orders.transactionDate), desc(orders.id)]),
      )
      .limit(QUEUE_PAGE_SIZE)
      .offset((query.page - 1) * QUEUE_PAGE_SIZE),
    deps.db.select({ n: count() }).from(orders).where(where),
  ]);
  const ids = rows.map((r) => r.id);
  const [counts, late] =
    rows.length > 0
      ? await Promise.all([
          lineCounts(deps.db, ids),
          deps.db
            .selectDistinct({ id: orderLines.orderId })
            .from(orderLines)
            .where(and(inArray(orderLines.orderId, ids), lateLine(today))),
        ])
      : [new Map<number, number>(), []];
  const lateIds = new Set(late.map((l) => l.id));
  return {
    pedidos: rows.map((r) => ({
      id: r.id,
      transaction_date: r.transactionDate.toISOString(),
      total: centavosToPesos(r.total),
      productos: counts.get(r.id) ?? 0,
      cliente: { id: r.idCliente, nombre: r.cliente },
      comprador: r.comprador,
      surtido: r.surtido as FulfilmentState,
      guia: r.guia,
      paqueteria: r.paqueteria,
      nota_recepcion: r.notaRecepcion,
      exportado_at: r.exportadoAt?.toISOString() ?? null,
      lote: r.lote,
      atrasado: lateIds.has(r.id),
      retenido_credito: r.retenidoCredito,
    })),
    total: totals?.n ?? 0,
    page: query.page,
    per_page: QUEUE_PAGE_SIZE,
  };
}

/** The export's columns: the detail report's, then the client, delivery, approvers and the batch. */
export const EXPORT_HEADER = [
  ...DETAIL_HEADER,
  'Cliente',
  'Dirección de entrega',
  'Semana de entrega',
  'Autorizadores',
  'Surtido',
  'Guía',
  'Lote',
];

/**
 * POST /api/surtido/exportar: stamps the selected approved orders with the time, the operator and a new
 * batch number, and answers their lines (one row per line). A missing id is 404, an order that is not
 * approved 409, and already-exported ones without `reexportar` 409 naming them; nothing is stamped then.
 */
export async function exportOrders(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: ExportBody,
): Promise<ExportJsonResponse> {
  const tz = deps.config.BUSINESS_TZ;
  return deps.db.transaction(async (tx) => {
    // Locked in id order, so two exports of overlapping selections cannot both stamp as first.
    const found = await tx
      .select({ id: orders.id, status: orders.status, exportadoAt: orders.exportadoAt })
      .from(orders)
      .where(inArray(orders.id, body.ids))
      .orderBy(asc(orders.id))
      .for('update');
    if (found.length !== body.ids.length) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
    if (found.some((o) => o.status !== 'aprobado'))
      throw conflict('ORDER_NOT_APPROVED', MSG.surtidoNoAprobado);
    const exported = found.filter((o) => o.exportadoAt !== null).map((o) => o.id);
    if (exported.length > 0 && !body.reexportar)
      throw conflict(
        'ALREADY_EXPORTED',
        MSG.surtidoYaExportados(exported.map((id) => `#${orderNumber(id)}`).join(', ')),
      );
    const [seq] = await rowsOf<{ lote: number }>(
      tx,
      sql`select nextval(${sql.raw(`'${surtidoLoteSeq.seqName}'`)})::int as lote`,
    );
    const lote = Number(seq!.lote);
    const now = deps.clock.now();
    await tx
      .update(orders)
      .set({ exportadoAt: now, exportadoPor: auth.user.id, loteExportacion: lote })
      .where(inArray(orders.id, body.ids));
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'surtido_exportado',
      description: `Lote ${lote} de surtido: ${body.ids.length} pedido(s)`,
      metadata: {
        lote,
        ids: body.ids,
        ...(exported.length > 0 ? { reexportados: exported } : {}),
        ...requestMeta(request),
      },
    });
    const filas = await exportRows(tx, body.ids, lote, tz);
    return { lote, exportado_at: now.toISOString(), columnas: EXPORT_HEADER, filas };
  });
}

/** The person a delegate approved for (order_events.on_behalf_of_id). */
const delegator = alias(users, 'delegator');

/** The rows of the export, in the order the ids were given, one per order line. */
async function exportRows(db: Db | Tx, ids: number[], lote: number, tz: string) {
  const [heads, lines, approvals] = await allOn(db, [
    selectOrdersWithParties(db, {
      id: orders.id,
      status: orders.status,
      transactionDate: orders.transactionDate,
      surtido: orders.surtidoEstatus,
      guia: orders.guia,
      cliente: clients.nombre,
      usuario: users.usuario,
      nombre: users.nombre,
      entrega: orders.entrega,
      entregaWeek: users.entregaWeek,
    }).where(inArray(orders.id, ids)),
    detailLines(db, ids),
    db
      .select({ orderId: orderEvents.orderId, actor: users.nombre, enNombreDe: delegator.nombre })
      .from(orderEvents)
      .leftJoin(users, eq(users.id, orderEvents.actorId))
      .leftJoin(delegator, eq(delegator.id, orderEvents.onBehalfOfId))
      .where(and(inArray(orderEvents.orderId, ids), eq(orderEvents.tipo, 'aprobado')))
      .orderBy(asc(orderEvents.id)),
  ]);
  const approvers = new Map<number, string[]>();
  for (const a of approvals) {
    const list = approvers.get(a.orderId) ?? [];
    // As the purchase order names them: a delegate "en nombre de" the delegator, the client's rule by name.
    list.push(actorOnBehalf(a.actor, a.enNombreDe) ?? MSG.ordenCompraAprobacionAutomatica);
    approvers.set(a.orderId, list);
  }
  const byId = new Map(heads.map((h) => [h.id, h]));
  const filas: (string | number)[][] = [];
  for (const id of ids) {
    const h = byId.get(id)!;
    const orderCells = [
      orderNumber(h.id),
      formatDate(h.transactionDate, tz),
      statusTitle(h.status),
      h.usuario,
      h.nombre,
    ];
    const tail = [
      h.cliente,
      deliveryAddress(h.entrega),
      h.entregaWeek,
      (approvers.get(h.id) ?? []).join(' / '),
      FULFILMENT_LABELS[h.surtido as FulfilmentState],
      h.guia ?? '',
      lote,
    ];
    for (const l of lines) if (l.order_id === id) filas.push([...orderCells, ...detailLineCells(l), ...tail]);
  }
  return filas;
}

/** The export as the detail CSV, or as JSON when the caller asks for it (Accept: application/json). */
export async function sendExport(
  deps: Deps,
  request: FastifyRequest,
  reply: FastifyReply,
  auth: AuthContext,
  body: ExportBody,
): Promise<FastifyReply> {
  const result = await exportOrders(deps, request, auth, body);
  reply.header('Cache-Control', 'private, no-store');
  if (String(request.headers.accept ?? '').includes('application/json')) return reply.send(result);
  const text = BOM + csvRow(result.columnas) + result.filas.map((f) => csvRow(f)).join('');
  return reply
    .header('content-type', 'text/csv; charset=utf-8')
    .header('content-disposition', `attachment; filename="surtido-lote-${result.lote}.csv"`)
    .send(text);
}
