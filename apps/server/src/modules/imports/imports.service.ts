import type { ClientPermission } from '@portal/shared/domain/client-admin';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate } from '@portal/shared/domain/time';
import { IMPORT_MAX_BYTES, IMPORTS_PER_PAGE, MAX_ID } from '@portal/shared/limits';
import type {
  ImportAccepted,
  ImportDetail,
  ImportJobDto,
  ImportKind,
  ImportListResponse,
  ImportPricePreview,
  ImportRowError,
  ImportStatus,
} from '@portal/shared/schemas/imports';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { categories, clients, importJobs, products, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { clientPermissions, ownClientOf, scopedClient } from '../../lib/client-scope.ts';
import { BOM, csvMoney, csvRow } from '../../lib/csv.ts';
import {
  type CsvTable,
  checkSummary,
  csvSummarizer,
  csvTableReader,
  IMPORT_MAX_ROWS,
  mapHeader,
  readCsvFile,
  summaryOf,
  withoutControlCharacters,
} from '../../lib/csv-read.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, badRequest, notFound } from '../../lib/errors.ts';
import { insertPreparedFiles, openFile, sizeMessage } from '../../lib/files.ts';
import { acceptReceived, discardReceived, fileReceiver } from '../../lib/form.ts';
import type { JobContext } from '../../lib/jobs.ts';
import { type FileReceiver, readMultipart } from '../../lib/multipart.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { priceChangeEffects } from '../inventory/scheduled-prices.service.ts';
import { ASSIGNMENT_COLUMNS, upsertAssignments, validateAssignmentRows } from './assignment-import.ts';
import { isLegendRow, legendRow, spanishHeader, specHeader, withSpecColumns } from './columns.ts';
import {
  type BatchResult,
  ensureCategories,
  importPricePlan,
  PRODUCT_COLUMNS,
  PRODUCT_OPTIONAL_COLUMNS,
  upsertProducts,
  validateProductRows,
} from './product-import.ts';
import {
  CATEGORY_BUDGET_PREFIX,
  categoryColumns,
  type ImportActorLimits,
  USER_COLUMNS,
  type UserImportClient,
  upsertUsers,
  validateUserRows,
} from './user-import.ts';

export const IMPORT_QUEUE = 'importaciones';
/** Rows written per transaction. */
export const IMPORT_BATCH_ROWS = 500;
/** Error entries kept per import (error_rows still counts them all). */
export const MAX_STORED_ERRORS = 10_000;

interface ImportJobData {
  id: number;
}

// ---------------------------------------------------------------------------------------------------------
// Client and header

async function loadImportClient(db: Db, idCliente: number): Promise<UserImportClient | null> {
  const [client] = await db
    .select({
      id: clients.id,
      cantidadAutorizadores: clients.cantidadAutorizadores,
      limiteDeCompras: clients.limiteDeCompras,
      presupuestoDefault: clients.presupuestoDefault,
      modoPresupuesto: clients.modoPresupuesto,
    })
    .from(clients)
    .where(eq(clients.id, idCliente))
    .limit(1);
  if (!client) return null;
  const cats = await db
    .select({ id: categories.id, nombre: categories.nombre })
    .from(categories)
    .where(eq(categories.idCliente, idCliente))
    .orderBy(asc(categories.nombre), asc(categories.id));
  return { ...client, categorias: cats };
}

/** The column index of a file, checked against the template of its kind (Spanish 400 otherwise). */
function headerIndex(kind: ImportKind, client: UserImportClient, header: string[]): Map<string, number> {
  if (kind === 'productos') return mapHeader(header, PRODUCT_COLUMNS, PRODUCT_OPTIONAL_COLUMNS);
  if (kind === 'asignaciones') return mapHeader(header, ASSIGNMENT_COLUMNS);
  return mapHeader(header, USER_COLUMNS, [...categoryColumns(client).keys()]);
}

/**
 * A client administrator's import (decision 0122): its kinds are its client's people and their products,
 * each behind the permission the same change needs on the screens; products (prices) stay the
 * distributor's.
 */
export const CLIENT_ADMIN_IMPORTS: Partial<Record<ImportKind, ClientPermission>> = {
  usuarios: 'usuarios',
  asignaciones: 'asignaciones',
};
const CLIENT_ADMIN_KINDS = Object.keys(CLIENT_ADMIN_IMPORTS) as ImportKind[];

/** The client an upload or a template names, as the actor may reach it (another client's: 404). */
function importClientOf(auth: AuthContext, named: unknown): number {
  const idCliente = named === undefined || named === '' ? undefined : Number(named);
  if (idCliente !== undefined && (!Number.isInteger(idCliente) || idCliente <= 0 || idCliente > MAX_ID)) {
    throw badRequest('VALIDATION', MSG.invClienteRequerido, { id_cliente: MSG.invClienteRequerido });
  }
  const scoped = scopedClient(auth, idCliente);
  if (scoped === undefined) {
    throw badRequest('VALIDATION', MSG.invClienteRequerido, { id_cliente: MSG.invClienteRequerido });
  }
  return scoped;
}

/** What the import's author may change, read as the job runs: null for the distributor's administrator. */
async function importActorLimits(
  db: Db,
  createdBy: number | null,
  idCliente: number,
): Promise<ImportActorLimits | null> {
  if (createdBy === null) return null;
  const [author] = await db
    .select({ rol: users.rol, tope: clients.topePresupuesto })
    .from(users)
    .innerJoin(clients, eq(clients.id, idCliente))
    .where(eq(users.id, createdBy))
    .limit(1);
  if (!author || author.rol !== ROLES.administradorCliente) return null;
  const permisos = await clientPermissions(db, idCliente);
  return { presupuestos: permisos.includes('presupuestos'), tope: author.tope };
}

// ---------------------------------------------------------------------------------------------------------
// Templates

export async function templateCsv(
  deps: Pick<Deps, 'db'>,
  kind: ImportKind,
  idCliente: number,
): Promise<{ filename: string; body: string }> {
  const client = await loadImportClient(deps.db, idCliente);
  if (!client) throw notFound(MSG.invClienteInexistente, 'CLIENT_NOT_FOUND');
  if (kind === 'productos') {
    const categoria = client.categorias[0]?.nombre ?? 'Papelería';
    const example = [
      'PAP-0001',
      'CLI-0001',
      'Lápiz amarillo No. 2',
      'Caja con 12 piezas',
      'Caja',
      '45.50',
      '1',
      '1',
      categoria,
    ];
    return {
      filename: 'plantilla.csv',
      body: BOM + csvRow(spanishHeader(PRODUCT_COLUMNS)) + csvRow(example),
    };
  }
  if (kind === 'asignaciones') {
    // The example names one of the client's buyers and products when it has them.
    const [buyer] = await deps.db
      .select({ usuario: users.usuario })
      .from(users)
      .where(and(eq(users.idCliente, idCliente), eq(users.rol, ROLES.usuario)))
      .orderBy(asc(users.usuario))
      .limit(1);
    const [product] = await deps.db
      .select({ claveInterna: products.claveInterna })
      .from(products)
      .where(eq(products.idCliente, idCliente))
      .orderBy(asc(products.claveInterna))
      .limit(1);
    const example = [buyer?.usuario ?? 'jperez', product?.claveInterna ?? 'PAP-0001', '1', '5'];
    return {
      filename: 'plantilla_asignaciones.csv',
      body: BOM + csvRow(spanishHeader(ASSIGNMENT_COLUMNS)) + csvRow(example),
    };
  }
  const categoryMode = client.modoPresupuesto === 'categoria';
  const budgetColumns = categoryMode
    ? client.categorias.map((c) => `${CATEGORY_BUDGET_PREFIX}${c.nombre}`)
    : [];
  const example: (string | number)[] = [
    'jperez',
    'juan.perez@empresa.com',
    'Juan Pérez',
    1,
    'Oficina central',
    'Av. Reforma 100',
    'Centro',
    'Ciudad de México',
    '06000',
    'Ciudad de México',
    'Compras',
    'Oficina central',
    'Centro',
    'Coordinación 1',
    1,
    2,
    client.limiteDeCompras,
    categoryMode ? '' : csvMoney(client.presupuestoDefault),
    ...budgetColumns.map(() => '1000.00'),
  ];
  const columns = [...USER_COLUMNS, ...budgetColumns];
  // What each rol number means, under the header (an import skips this row).
  const legend = legendRow(columns, {
    usuario: MSG.leyendaFila,
    rol: client.cantidadAutorizadores === 2 ? MSG.leyendaRolSuper : MSG.leyendaRol,
  });
  return {
    filename: 'plantilla_carga_de_usuarios.csv',
    body: BOM + csvRow(spanishHeader(columns)) + csvRow(legend) + csvRow(example),
  };
}

// ---------------------------------------------------------------------------------------------------------
// Upload

/**
 * Checks an uploaded CSV (encoding, separator, header, row count) while it streams into the database a part
 * at a time (issue 38, finding 7: never one 20 MB buffer, never one 20 MB statement), stores it under its
 * content name, records the import and enqueues its job in one transaction, and answers at once.
 */
export async function acceptUpload(
  deps: Pick<Deps, 'db' | 'jobs'>,
  request: FastifyRequest,
  kind: ImportKind,
): Promise<ImportAccepted> {
  const auth = request.auth!;
  const { fields, received } = await readMultipart(
    request,
    fileReceiver(deps.db, () => ({
      kind: 'importacion',
      allowed: ['csv'],
      maxBytes: IMPORT_MAX_BYTES,
      // Read a slice at a time as it arrives, keeping no row.
      inspect: csvSummarizer(IMPORT_MAX_ROWS, undefined, isLegendRow),
    })),
  );
  try {
    const idCliente = importClientOf(auth, fields.id_cliente);
    const upload = received.file ?? received.archivo ?? Object.values(received)[0];
    if (!upload) throw badRequest('NO_FILE', MSG.archivoNoSeleccionado, { file: MSG.archivoNoSeleccionado });
    const client = await loadImportClient(deps.db, idCliente);
    if (!client) throw notFound(MSG.invClienteInexistente, 'CLIENT_NOT_FOUND');
    // Too big (FILE_SIZE), not a usable CSV (the summary's refusals), or staged with its summary.
    const file = acceptReceived('file', upload.value);
    const summary = upload.value.inspected!;
    headerIndex(kind, client, specHeader(summary.header));
    checkSummary(summary);
    await insertPreparedFiles(deps.db, [{ ...file, idCliente }]);
    const fileName = withoutControlCharacters(upload.filename || `${kind}.csv`).slice(0, 200);
    const id = await deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(importJobs)
        .values({
          idCliente,
          tipo: kind,
          status: 'procesando',
          fileId: file.id,
          fileName,
          createdBy: auth.user.id,
          totalRows: summary.rows,
        })
        .returning({ id: importJobs.id });
      const id = row!.id;
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'importacion_iniciada',
        description: `Importación #${id} de ${kind} recibida (${summary.rows} registros)`,
        metadata: {
          id_importacion: id,
          id_cliente: idCliente,
          tipo: kind,
          archivo: fileName,
          registros: summary.rows,
          ...requestMeta(request),
        },
      });
      await deps.jobs.send<ImportJobData>(IMPORT_QUEUE, { id }, tx);
      return id;
    });
    return { status: 'ok', msg: MSG.procesandoArchivo, detalle: MSG.procesandoDetalle, id_importacion: id };
  } finally {
    // A file refused after it arrived (no client, a header that is not the template's) is not kept.
    await discardReceived(deps.db, received);
  }
}

// ---------------------------------------------------------------------------------------------------------
// The price preview of a product file (a dry run)

/** An upload read as it arrives into the import's table, or why it is refused; nothing is stored. */
type ReadUpload = { table: CsvTable; refusal: null } | { table: null; refusal: unknown };

/**
 * A multipart receiver that feeds the file's bytes to the import's own CSV reader as they arrive, with the
 * upload's size limit; after a refusal the rest is only counted (the size still decides the message).
 */
function csvTableReceiver(maxBytes: number): FileReceiver<ReadUpload> {
  return {
    receive: async (bytes) => {
      const reader = csvTableReader(IMPORT_MAX_ROWS);
      let size = 0;
      let refusal: unknown = null;
      for await (const chunk of bytes) {
        size += chunk.length;
        if (refusal !== null || size > maxBytes) continue;
        try {
          await reader.write(chunk);
        } catch (err) {
          refusal = err;
        }
      }
      if (size === 0) return null;
      if (size > maxBytes) {
        const message = sizeMessage(maxBytes);
        return { table: null, refusal: badRequest('FILE_SIZE', message, { file: message }) };
      }
      if (refusal !== null) return { table: null, refusal };
      try {
        return { table: await reader.end(), refusal: null };
      } catch (err) {
        return { table: null, refusal: err };
      }
    },
    discard: async () => undefined,
  };
}

/**
 * POST /api/importaciones/productos/vista_previa: a product file read and checked as its upload and its job
 * read it (the same reader, header, row checks and limits), then what its prices would touch, the preview
 * of decision 0132; nothing is written, not even the file.
 */
export async function previewProductImport(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  request: FastifyRequest,
): Promise<ImportPricePreview> {
  const { fields, received } = await readMultipart(request, csvTableReceiver(IMPORT_MAX_BYTES));
  const idCliente = importClientOf(request.auth!, fields.id_cliente);
  const upload = received.file ?? received.archivo ?? Object.values(received)[0];
  if (!upload) throw badRequest('NO_FILE', MSG.archivoNoSeleccionado, { file: MSG.archivoNoSeleccionado });
  const client = await loadImportClient(deps.db, idCliente);
  if (!client) throw notFound(MSG.invClienteInexistente, 'CLIENT_NOT_FOUND');
  if (!upload.value.table) throw upload.value.refusal;
  const table = withSpecColumns(upload.value.table);
  const index = headerIndex('productos', client, table.header);
  checkSummary(summaryOf(table));
  const validated = await validateProductRows(table, index);
  const today = businessDate(deps.clock.now(), deps.config.BUSINESS_TZ);
  const plan = await importPricePlan(deps.db, client.id, validated.rows, today);
  return {
    ...(await priceChangeEffects(deps.db, client.id, plan.changes)),
    filas: table.records.length,
    filas_con_error: validated.badRows.size + plan.refused,
    precios_ahora: plan.ahora,
    precios_programados: plan.programados,
    productos_nuevos: plan.nuevos,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The job

function sortErrors(errors: ImportRowError[]): ImportRowError[] {
  return errors.sort((a, b) => a.fila - b.fila).slice(0, MAX_STORED_ERRORS);
}

/**
 * PGlite runs in this thread and its queries resolve without giving the event loop a turn: the job lets
 * waiting requests through between its steps, so a long import never freezes the server.
 */
function yieldToRequests(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** Marks an unfinished import as failed (and logs it); nothing already written is undone. */
export async function markImportFailed(
  deps: Pick<Deps, 'clock' | 'db'>,
  id: number,
  motivo: string,
): Promise<void> {
  await deps.db.transaction(async (tx) => {
    const [job] = await tx
      .update(importJobs)
      .set({
        status: 'fallido',
        finishedAt: deps.clock.now(),
        errors: sql`${importJobs.errors} || ${JSON.stringify([{ fila: 0, campo: 'archivo', motivo }])}::jsonb`,
      })
      .where(and(eq(importJobs.id, id), inArray(importJobs.status, ['pendiente', 'procesando'])))
      .returning();
    if (!job) return;
    await audit(tx, {
      userId: job.createdBy,
      eventType: 'importacion_fallida',
      description: `Importación #${id} de ${job.tipo} fallida: ${motivo}`,
      metadata: {
        id_importacion: id,
        id_cliente: job.idCliente,
        tipo: job.tipo,
        total: job.totalRows,
        correctos: job.okRows,
        con_error: job.errorRows,
      },
    });
  });
}

/**
 * Processes an import: validates every row, writes the valid ones in batches of IMPORT_BATCH_ROWS (one
 * transaction each, so a failure keeps what was committed and a re-run finds it in place), then records
 * counts and per-row errors and logs the outcome.
 */
export async function runImport(deps: Deps, id: number, ctx: JobContext): Promise<void> {
  const [job] = await deps.db.select().from(importJobs).where(eq(importJobs.id, id)).limit(1);
  if (!job || job.status === 'terminado' || job.status === 'fallido') return;
  const kind = job.tipo as ImportKind;
  const started = performance.now();
  try {
    const client = await loadImportClient(deps.db, job.idCliente);
    const file = job.fileId ? await openFile(deps.db, job.fileId) : null;
    if (!client || !file) {
      await markImportFailed(deps, id, MSG.importacionInexistente);
      return;
    }
    await yieldToRequests();
    let table: CsvTable;
    let index: Map<string, number>;
    try {
      // Read back a part at a time: the file is never one buffer here either.
      table = withSpecColumns(await readCsvFile(file.parts()));
      index = headerIndex(kind, client, table.header);
    } catch (err) {
      // The file no longer fits (e.g. a category column renamed since the upload): final, no retry.
      if (err instanceof AppError) {
        await markImportFailed(deps, id, err.message);
        return;
      }
      throw err;
    }

    let creados = 0;
    let actualizados = 0;
    let programados = 0;
    let written = 0;
    const errors: ImportRowError[] = [];
    const badRows = new Set<number>();
    const checkpoint = async () => {
      await yieldToRequests();
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('trabajo interrumpido');
    };
    const startProgress = (v: { errors: ImportRowError[]; badRows: Set<number> }) => {
      errors.push(...v.errors);
      for (const fila of v.badRows) badRows.add(fila);
      return deps.db
        .update(importJobs)
        .set({ totalRows: table.records.length, okRows: 0, errorRows: badRows.size })
        .where(eq(importJobs.id, id));
    };

    /**
     * Writes the valid rows in batches of IMPORT_BATCH_ROWS, one transaction each; rows a batch refuses
     * (a user of another client, an unknown product...) are added to the errors.
     */
    const writeInBatches = async <T>(
      rows: readonly T[],
      write: (tx: Tx, batch: readonly T[]) => Promise<BatchResult & { errors?: ImportRowError[] }>,
    ) => {
      for (let i = 0; i < rows.length; i += IMPORT_BATCH_ROWS) {
        await checkpoint();
        const batch = rows.slice(i, i + IMPORT_BATCH_ROWS);
        await deps.db.transaction(async (tx) => {
          const res = await write(tx, batch);
          creados += res.creados;
          actualizados += res.actualizados;
          programados += res.programados ?? 0;
          for (const e of res.errors ?? []) {
            errors.push(e);
            badRows.add(e.fila);
          }
          written += batch.length - (res.errors?.length ?? 0);
          await tx
            .update(importJobs)
            .set({ okRows: written, errorRows: badRows.size })
            .where(eq(importJobs.id, id));
        });
      }
    };

    if (kind === 'productos') {
      const validated = await validateProductRows(table, index);
      await yieldToRequests();
      await startProgress(validated);
      const names = new Map<string, string>();
      for (const r of validated.rows) {
        const key = r.categoria.toLowerCase();
        if (!names.has(key)) names.set(key, r.categoria);
      }
      const categoryIds = await deps.db.transaction((tx) => ensureCategories(tx, client.id, names.values()));
      const now = deps.clock.now();
      const moment = { now, today: businessDate(now, deps.config.BUSINESS_TZ), createdBy: job.createdBy };
      await writeInBatches(validated.rows, (tx, batch) =>
        upsertProducts(tx, client.id, batch, categoryIds, moment),
      );
    } else if (kind === 'asignaciones') {
      const validated = await validateAssignmentRows(table, index);
      await yieldToRequests();
      await startProgress(validated);
      await writeInBatches(validated.rows, (tx, batch) => upsertAssignments(tx, client.id, batch));
    } else {
      const validated = await validateUserRows(table, index, client);
      await yieldToRequests();
      await startProgress(validated);
      const limits = await importActorLimits(deps.db, job.createdBy, client.id);
      await writeInBatches(validated.rows, (tx, batch) =>
        upsertUsers(tx, client, batch, deps.config.PUBLIC_URL, deps.clock.now(), limits),
      );
    }

    const sinCambios = written - creados - actualizados;
    await deps.db.transaction(async (tx) => {
      await tx
        .update(importJobs)
        .set({
          status: 'terminado',
          totalRows: table.records.length,
          okRows: written,
          errorRows: badRows.size,
          errors: sortErrors(errors),
          finishedAt: deps.clock.now(),
        })
        .where(eq(importJobs.id, id));
      await audit(tx, {
        userId: job.createdBy,
        eventType: 'importacion_terminada',
        description: `Importación #${id} de ${kind} terminada: ${written} de ${table.records.length} registros procesados, ${badRows.size} con errores`,
        metadata: {
          id_importacion: id,
          id_cliente: job.idCliente,
          tipo: kind,
          archivo: job.fileName,
          total: table.records.length,
          correctos: written,
          con_error: badRows.size,
          creados,
          actualizados,
          ...(kind === 'productos' ? { precios_programados: programados } : {}),
          sin_cambios: sinCambios,
          duracion_ms: Math.round(performance.now() - started),
        },
      });
    });
    if (kind === 'usuarios' && creados > 0) void deps.mailer.flush();
  } catch (err) {
    deps.log.error({ err, id_importacion: id }, 'importación interrumpida');
    if (ctx.lastAttempt) await markImportFailed(deps, id, MSG.impInterrumpida).catch(() => undefined);
    throw err;
  }
}

/** Declares the import queue (called while the app is built). */
export function defineImportJobs(deps: Deps): void {
  deps.jobs.define<ImportJobData>({
    name: IMPORT_QUEUE,
    retryLimit: 2,
    retryDelay: 10,
    expireInSeconds: 30 * 60,
    handler: (data, ctx) => runImport(deps, data.id, ctx),
    onDeadLetter: (data) => markImportFailed(deps, data.id, MSG.impInterrumpida),
  });
}

// ---------------------------------------------------------------------------------------------------------
// Reading

function toDto(row: {
  id: number;
  idCliente: number;
  cliente: string | null;
  tipo: string;
  status: string;
  fileName: string;
  totalRows: number;
  okRows: number;
  errorRows: number;
  usuario: string | null;
  createdAt: Date;
  finishedAt: Date | null;
}): ImportJobDto {
  return {
    id: row.id,
    id_cliente: row.idCliente,
    cliente: row.cliente ?? '',
    tipo: row.tipo as ImportKind,
    status: row.status as ImportStatus,
    archivo: row.fileName,
    total_rows: row.totalRows,
    ok_rows: row.okRows,
    error_rows: row.errorRows,
    usuario: row.usuario,
    created_at: row.createdAt.toISOString(),
    finished_at: row.finishedAt ? row.finishedAt.toISOString() : null,
  };
}

const jobColumns = {
  id: importJobs.id,
  idCliente: importJobs.idCliente,
  cliente: clients.nombre,
  tipo: importJobs.tipo,
  status: importJobs.status,
  fileName: importJobs.fileName,
  totalRows: importJobs.totalRows,
  okRows: importJobs.okRows,
  errorRows: importJobs.errorRows,
  usuario: users.usuario,
  createdAt: importJobs.createdAt,
  finishedAt: importJobs.finishedAt,
};

/** What a client administrator may read: its own client's imports of the kinds it may make. */
function readableBy(auth: AuthContext): SQL | undefined {
  const own = ownClientOf(auth);
  if (own === null) return undefined;
  return and(eq(importJobs.idCliente, own), inArray(importJobs.tipo, CLIENT_ADMIN_KINDS));
}

export async function listImports(
  deps: Pick<Deps, 'db'>,
  auth: AuthContext,
  query: { id_cliente?: number; page: number },
): Promise<ImportListResponse> {
  const idCliente = scopedClient(auth, query.id_cliente);
  const where = and(idCliente ? eq(importJobs.idCliente, idCliente) : undefined, readableBy(auth));
  const [rows, totals] = await Promise.all([
    deps.db
      .select(jobColumns)
      .from(importJobs)
      .leftJoin(clients, eq(clients.id, importJobs.idCliente))
      .leftJoin(users, eq(users.id, importJobs.createdBy))
      .where(where)
      .orderBy(desc(importJobs.id))
      .limit(IMPORTS_PER_PAGE)
      .offset((query.page - 1) * IMPORTS_PER_PAGE),
    deps.db.select({ n: count() }).from(importJobs).where(where),
  ]);
  return {
    importaciones: rows.map(toDto),
    total: totals[0]?.n ?? 0,
    page: query.page,
    per_page: IMPORTS_PER_PAGE,
  };
}

export async function importDetail(
  deps: Pick<Deps, 'db'>,
  auth: AuthContext,
  id: number,
): Promise<ImportDetail> {
  const [row] = await deps.db
    .select({ ...jobColumns, errors: importJobs.errors })
    .from(importJobs)
    .leftJoin(clients, eq(clients.id, importJobs.idCliente))
    .leftJoin(users, eq(users.id, importJobs.createdBy))
    .where(and(eq(importJobs.id, id), readableBy(auth)))
    .limit(1);
  if (!row) throw notFound(MSG.importacionInexistente, 'IMPORT_NOT_FOUND');
  return { ...toDto(row), errores: (row.errors as ImportRowError[]) ?? [] };
}

/** The per-row error report (UTF-8 with BOM, formula-safe). */
export async function importErrorsCsv(deps: Deps, auth: AuthContext, id: number): Promise<string> {
  const detail = await importDetail(deps, auth, id);
  let body = BOM + csvRow(['fila', 'campo', 'motivo', 'valor']);
  for (const e of detail.errores) body += csvRow([e.fila, e.campo, e.motivo, e.valor ?? '']);
  return body;
}
