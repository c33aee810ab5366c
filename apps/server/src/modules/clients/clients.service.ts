import { type ApprovalRules, rulesProblem } from '@portal/shared/domain/approval-rules';
import { CLIENT_PERMISSIONS_DEFAULT, isClientPermission } from '@portal/shared/domain/client-admin';
import { creditPolicyOf, DIAS_CREDITO_DEFAULT } from '@portal/shared/domain/credit';
import { centavosToPesos, centavosToPesosOrNull, pesosToCentavos } from '@portal/shared/domain/money';
import { UMBRAL_EXISTENCIA_DEFAULT } from '@portal/shared/domain/stock';
import {
  ALERTAS_PRESUPUESTO_DEFAULT,
  CLIENTS_PER_PAGE,
  RECORDATORIO_HORAS_DEFAULT,
  VENTANA_REGLAS_HORAS_DEFAULT,
} from '@portal/shared/limits';
import {
  type ClientAdminHomeResponse,
  type ClientDto,
  ClientForm,
  type ClientRulesBody,
  type ClientSummaryResponse,
  type ClientsResponse,
  ClientsSort,
  type ClientUpdateResponse,
} from '@portal/shared/schemas/clients';
import { splitSort } from '@portal/shared/schemas/sort';
import { and, asc, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { budgetChangeRequests, clients, orders, users } from '../../db/schema/index.ts';
import { foldedSearch, offsetOf } from '../../db/search.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import {
  IMAGE_MAX_BYTES,
  insertPreparedFiles,
  PDF_MAX_BYTES,
  type PreparedFile,
  type ReceivedFile,
  type StagedFile,
} from '../../lib/files.ts';
import {
  acceptReceived,
  discardReceived,
  fileReceiver,
  iso,
  parseForm,
  prepareUpload,
} from '../../lib/form.ts';
import { type MultipartBody, readMultipart } from '../../lib/multipart.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { fiscalColumns, fiscalDto } from './client-fiscal.ts';

type ClientRow = typeof clients.$inferSelect;

const centavosOrNull = (pesos: number | null) => (pesos === null ? null : pesosToCentavos(pesos));

/** The rules a form leaves on the client (absent keeps `before`'s); a 400 on its field when they clash. */
function approvalRulesOf(
  form: Pick<ClientForm, 'aprobacion_automatica_hasta' | 'segundo_nivel_desde'>,
  levels: number,
  before: ApprovalRules = { autoHasta: null, segundoNivelDesde: null },
): ApprovalRules {
  const rules: ApprovalRules = {
    autoHasta:
      form.aprobacion_automatica_hasta === undefined
        ? before.autoHasta
        : centavosOrNull(form.aprobacion_automatica_hasta),
    segundoNivelDesde:
      form.segundo_nivel_desde === undefined
        ? before.segundoNivelDesde
        : centavosOrNull(form.segundo_nivel_desde),
  };
  const problem = rulesProblem(levels, rules);
  if (problem === 'SECOND_NEEDS_TWO_LEVELS')
    throw badRequest('VALIDATION', MSG.reglaSegundoNivelSinNiveles, {
      segundo_nivel_desde: MSG.reglaSegundoNivelSinNiveles,
    });
  if (problem === 'AUTO_NOT_BELOW_SECOND')
    throw badRequest('VALIDATION', MSG.reglaAutomaticaNoMenor, {
      aprobacion_automatica_hasta: MSG.reglaAutomaticaNoMenor,
    });
  return rules;
}

export function clientDto(row: ClientRow): ClientDto {
  return {
    id: row.id,
    nombre: row.nombre,
    imagen: row.imagen ? `/api/img/${row.imagen}` : null,
    color: row.color,
    color2: row.color2,
    calendario: row.calendario ? `/api/resource/${row.id}/calendario` : null,
    manual: row.manual ? `/api/resource/${row.id}/manual` : null,
    presupuesto_default: centavosToPesos(row.presupuestoDefault),
    cantidad_autorizadores: row.cantidadAutorizadores,
    limite_de_compras: row.limiteDeCompras,
    limite_por_defecto: row.limitePorDefecto,
    modo_presupuesto: row.modoPresupuesto === 'categoria' ? 'categoria' : 'regular',
    mostrar_presupuesto_a_usuarios: row.mostrarPresupuestoAUsuarios,
    activo: row.activo,
    requiere_2fa: row.requiere2fa,
    aprobacion_automatica_hasta: centavosToPesosOrNull(row.aprobacionAutomaticaHasta),
    segundo_nivel_desde: centavosToPesosOrNull(row.segundoNivelDesde),
    recordatorio_horas: row.recordatorioHoras,
    ventana_reglas_horas: row.ventanaReglasHoras,
    escalar_horas: row.escalarHoras,
    alertas_presupuesto: row.alertasPresupuesto,
    avisar_autorizadores: row.avisarAutorizadores,
    permisos_cliente: row.permisosCliente.filter(isClientPermission),
    tope_presupuesto: centavosToPesosOrNull(row.topePresupuesto),
    permitir_sobre_pedido: row.permitirSobrePedido,
    umbral_existencia: row.umbralExistencia,
    limite_credito: centavosToPesosOrNull(row.limiteCredito),
    dias_credito: row.diasCredito,
    politica_credito: creditPolicyOf(row.politicaCredito),
    ...fiscalDto(row),
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
  };
}

/**
 * The clients list's order (decision 0067), then the id in the same direction. No index: the clients are a
 * few hundred rows at most, sorted in memory.
 */
function clientsOrder(orden: ClientsSort) {
  const { field, direction } = splitSort(orden);
  const dir = direction === 'asc' ? asc : desc;
  return field === 'creado'
    ? [dir(clients.createdAt), dir(clients.id)]
    : [dir(sql`lower(${clients.nombre})`), dir(clients.id)];
}

/** Every client (active or not), by name or creation date, 10 per page unless asked otherwise; search by name. */
export async function listClients(
  db: Db | Tx,
  query: { page: number; per_page: number; q?: string; orden?: ClientsSort },
): Promise<ClientsResponse> {
  const where = foldedSearch([clients.nombre], query.q);
  const [rows, totals] = await Promise.all([
    db
      .select()
      .from(clients)
      .where(where)
      .orderBy(...clientsOrder(query.orden ?? ClientsSort.byDefault))
      .limit(query.per_page)
      .offset(offsetOf(query.page, query.per_page)),
    db.select({ n: count() }).from(clients).where(where),
  ]);
  return {
    clientes: rows.map(clientDto),
    total: totals[0]?.n ?? 0,
    page: query.page,
    per_page: query.per_page,
  };
}

/**
 * The client's active users and how many of them have an open session (the session store's definition of
 * open); a missing client: 404.
 */
export async function clientSummary(
  db: Db | Tx,
  openSession: SQL,
  id: number,
): Promise<ClientSummaryResponse> {
  const [client] = await db.select({ id: clients.id }).from(clients).where(eq(clients.id, id));
  if (!client) throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
  // Columns spelled out: a one-table select writes its columns unqualified, and inside the subquery an
  // unqualified "id" would be the session's.
  const [row] = await db
    .select({
      activos: count(),
      conSesion: sql<number>`count(*) filter (where exists (
        select 1 from sessions where sessions.user_id = users.id and ${openSession}
      ))`.mapWith(Number),
    })
    .from(users)
    .where(and(eq(users.idCliente, id), eq(users.activo, true)));
  return { status: 'ok', usuarios_activos: row?.activos ?? 0, usuarios_con_sesion: row?.conSesion ?? 0 };
}

interface ClientUploads {
  imagen?: PreparedFile;
  calendario?: StagedFile;
  manual?: StagedFile;
}

type ClientMultipart = MultipartBody<ReceivedFile>;

/**
 * Reads the client form, then runs `use` on it; the documents (PDFs of up to 20 MB) go to the database as
 * they arrive (decision 0119) and are removed when `use` does not store them (a refused form, a rollback).
 */
async function withClientForm<T>(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  use: (form: ClientMultipart) => Promise<T>,
): Promise<T> {
  const form = await readMultipart(
    request,
    fileReceiver<undefined>(
      deps.db,
      () => ({ kind: 'documento', allowed: ['pdf'], maxBytes: PDF_MAX_BYTES }),
      ['calendario', 'manual'],
    ),
  );
  try {
    return await use(form);
  } finally {
    await discardReceived(deps.db, form.received);
  }
}

/** Checks the optional logo (JPG/PNG ≤ 5 MB) and documents (PDF ≤ 20 MB, checked as they arrived) by content. */
async function prepareClientFiles({ files, received }: ClientMultipart): Promise<ClientUploads> {
  const out: ClientUploads = {};
  if (files.imagen) {
    out.imagen = await prepareUpload('imagen', {
      data: files.imagen.data,
      kind: 'imagen',
      idCliente: null,
      allowed: ['image'],
      maxBytes: IMAGE_MAX_BYTES,
    });
  }
  for (const field of ['calendario', 'manual'] as const) {
    const file = received[field];
    if (file) out[field] = acceptReceived(field, file.value);
  }
  return out;
}

async function storeUploads(tx: Tx, idCliente: number, uploads: ClientUploads) {
  const list = Object.values(uploads).filter((f): f is PreparedFile | StagedFile => Boolean(f));
  await insertPreparedFiles(
    tx,
    list.map((f) => ({ ...f, idCliente })),
  );
  return {
    imagen: uploads.imagen?.id,
    calendario: uploads.calendario?.id,
    manual: uploads.manual?.id,
  };
}

/** GET /api/cliente: the signed-in client administrator's client and its home's figures. */
export async function clientAdminHome(db: Db, idCliente: number): Promise<ClientAdminHomeResponse> {
  const [client] = await db.select().from(clients).where(eq(clients.id, idCliente));
  if (!client) throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
  const [byRole, [pending]] = await Promise.all([
    db
      .select({
        rol: users.rol,
        activos: sql<number>`count(*) filter (where ${users.activo})`.mapWith(Number),
        inactivos: sql<number>`count(*) filter (where not ${users.activo})`.mapWith(Number),
      })
      .from(users)
      .where(eq(users.idCliente, idCliente))
      .groupBy(users.rol)
      .orderBy(users.rol),
    db
      .select({ n: count() })
      .from(budgetChangeRequests)
      .where(
        and(eq(budgetChangeRequests.idCliente, idCliente), eq(budgetChangeRequests.estado, 'pendiente')),
      ),
  ]);
  return { cliente: clientDto(client), usuarios_por_rol: byRole, solicitudes_pendientes: pending?.n ?? 0 };
}

/** POST /api/clientes (multipart). */
export function createClient(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
): Promise<ClientDto> {
  return withClientForm(deps, request, (multipart) => createClientFrom(deps, request, auth, multipart));
}

async function createClientFrom(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  multipart: ClientMultipart,
): Promise<ClientDto> {
  const form = parseForm(ClientForm, multipart.fields);
  const rules = approvalRulesOf(form, form.cantidad_autorizadores ?? 1);
  const fiscal = fiscalColumns(form);
  const uploads = await prepareClientFiles(multipart);
  const row = await deps.db.transaction(async (tx) => {
    const [created] = await tx
      .insert(clients)
      .values({
        nombre: form.nombre,
        color: form.color ?? undefined,
        color2: form.color2 ?? undefined,
        presupuestoDefault: pesosToCentavos(form.presupuesto_default),
        limiteDeCompras: form.limite_de_compras,
        limitePorDefecto: form.limite_por_defecto ?? 1,
        permisosCliente: form.permisos_cliente ?? [...CLIENT_PERMISSIONS_DEFAULT],
        topePresupuesto: centavosOrNull(form.tope_presupuesto ?? null),
        modoPresupuesto: form.modo_presupuesto ?? 'regular',
        cantidadAutorizadores: form.cantidad_autorizadores ?? 1,
        mostrarPresupuestoAUsuarios: form.mostrar_presupuesto_a_usuarios ?? true,
        activo: form.activo ?? true,
        requiere2fa: form.requiere_2fa ?? false,
        aprobacionAutomaticaHasta: rules.autoHasta,
        segundoNivelDesde: rules.segundoNivelDesde,
        recordatorioHoras: form.recordatorio_horas ?? RECORDATORIO_HORAS_DEFAULT,
        ventanaReglasHoras: form.ventana_reglas_horas ?? VENTANA_REGLAS_HORAS_DEFAULT,
        escalarHoras: form.escalar_horas ?? 0,
        alertasPresupuesto: form.alertas_presupuesto ?? [...ALERTAS_PRESUPUESTO_DEFAULT],
        avisarAutorizadores: form.avisar_autorizadores ?? false,
        permitirSobrePedido: form.permitir_sobre_pedido ?? true,
        umbralExistencia: form.umbral_existencia ?? UMBRAL_EXISTENCIA_DEFAULT,
        limiteCredito: centavosOrNull(form.limite_credito ?? null),
        diasCredito: form.dias_credito ?? DIAS_CREDITO_DEFAULT,
        politicaCredito: form.politica_credito ?? 'avisar',
        ...fiscal,
      })
      .returning();
    let client = created!;
    const stored = await storeUploads(tx, client.id, uploads);
    if (stored.imagen || stored.calendario || stored.manual) {
      const [updated] = await tx
        .update(clients)
        .set({
          imagen: stored.imagen ?? null,
          calendario: stored.calendario ?? null,
          manual: stored.manual ?? null,
        })
        .where(eq(clients.id, client.id))
        .returning();
      client = updated!;
    }
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'cliente_creado',
      description: `Cliente creado: ${client.nombre}`,
      metadata: {
        id_cliente: client.id,
        imagen: Boolean(client.imagen),
        calendario: Boolean(client.calendario),
        manual: Boolean(client.manual),
        ...requestMeta(request),
      },
    });
    return client;
  });
  return clientDto(row);
}

/**
 * The lowest authorizer level that still lets every open order be decided: with pendiente orders at
 * least 1 (rol 2 acts on them), with espera orders 2 (only rol 3 with two levels acts on them).
 */
/** The levels a change leaves; lowering them while an open order needs them is refused (409). */
async function checkedLevels(tx: Tx, before: ClientRow, asked: number | undefined): Promise<number> {
  const levels = asked ?? before.cantidadAutorizadores;
  if (levels < before.cantidadAutorizadores && levels < (await minimumLevels(tx, before.id)))
    throw conflict('OPEN_ORDERS', MSG.autorizadoresConPedidos);
  return levels;
}

/**
 * A change to some of a client's settings (a client administrator's rules, the fiscal data), in the
 * caller's transaction: written with the time, and one log entry `cliente_actualizado` — "<what>: <client>"
 * with the names of the fields changed (never their values).
 */
export async function writeClientChange(
  tx: Tx,
  deps: Pick<Deps, 'clock'>,
  request: FastifyRequest,
  auth: AuthContext,
  before: ClientRow,
  values: Partial<ClientRow>,
  change: { what: string; campos: string[] },
): Promise<ClientRow> {
  const [after] = await tx
    .update(clients)
    .set({ ...values, updatedAt: deps.clock.now() })
    .where(eq(clients.id, before.id))
    .returning();
  await audit(tx, {
    userId: auth.user.id,
    eventType: 'cliente_actualizado',
    description: `${change.what}: ${after!.nombre}`,
    metadata: {
      id_cliente: before.id,
      campos: change.campos,
      activo: after!.activo,
      ...requestMeta(request),
    },
  });
  return after!;
}

/**
 * PUT /api/cliente/reglas: a client administrator's own client's approval levels and rules by amount, with
 * the reminders, the rules' window and escalation (when its client allows `reglas`, decision 0122). The
 * same checks as the client form; absent fields keep their value.
 */
export async function updateOwnRules(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: ClientRulesBody,
): Promise<ClientDto> {
  const id = auth.user.idCliente!;
  const row = await deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(clients).where(eq(clients.id, id)).for('update');
    if (!before) throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
    const levels = await checkedLevels(tx, before, body.cantidad_autorizadores);
    const rules = approvalRulesOf(body, levels, {
      autoHasta: before.aprobacionAutomaticaHasta,
      segundoNivelDesde: before.segundoNivelDesde,
    });
    const values = {
      cantidadAutorizadores: levels,
      aprobacionAutomaticaHasta: rules.autoHasta,
      segundoNivelDesde: rules.segundoNivelDesde,
      recordatorioHoras: body.recordatorio_horas ?? before.recordatorioHoras,
      ventanaReglasHoras: body.ventana_reglas_horas ?? before.ventanaReglasHoras,
      escalarHoras: body.escalar_horas ?? before.escalarHoras,
    };
    return writeClientChange(tx, deps, request, auth, before, values, {
      what: 'Reglas de autorización modificadas',
      campos: (Object.keys(values) as (keyof typeof values)[]).filter((k) => values[k] !== before[k]),
    });
  });
  return clientDto(row);
}

async function minimumLevels(tx: Tx, idCliente: number): Promise<number> {
  const rows = await tx
    .selectDistinct({ status: orders.status })
    .from(orders)
    .where(and(eq(orders.idCliente, idCliente), inArray(orders.status, ['pendiente', 'espera'])));
  const statuses = new Set(rows.map((r) => r.status));
  if (statuses.has('espera')) return 2;
  if (statuses.has('pendiente')) return 1;
  return 0;
}

/** POST /api/clientes/update/{id} (multipart). A missing file keeps the stored one. */
export function updateClient(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<ClientUpdateResponse> {
  return withClientForm(deps, request, (multipart) => updateClientFrom(deps, request, auth, id, multipart));
}

async function updateClientFrom(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  multipart: ClientMultipart,
): Promise<ClientUpdateResponse> {
  const form = parseForm(ClientForm, multipart.fields);
  const uploads = await prepareClientFiles(multipart);
  const row = await deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(clients).where(eq(clients.id, id)).for('update');
    if (!before) throw notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
    const levels = await checkedLevels(tx, before, form.cantidad_autorizadores);
    const rules = approvalRulesOf(form, levels, {
      autoHasta: before.aprobacionAutomaticaHasta,
      segundoNivelDesde: before.segundoNivelDesde,
    });
    const stored = await storeUploads(tx, id, uploads);
    const pick = (next: string | undefined, remove: boolean | undefined, current: string | null) =>
      next ?? (remove ? null : current);
    const values = {
      nombre: form.nombre,
      color: form.color ?? before.color,
      color2: form.color2 ?? before.color2,
      presupuestoDefault: pesosToCentavos(form.presupuesto_default),
      limiteDeCompras: form.limite_de_compras,
      limitePorDefecto: form.limite_por_defecto ?? before.limitePorDefecto,
      permisosCliente: form.permisos_cliente ?? before.permisosCliente,
      topePresupuesto:
        form.tope_presupuesto === undefined ? before.topePresupuesto : centavosOrNull(form.tope_presupuesto),
      modoPresupuesto: form.modo_presupuesto ?? before.modoPresupuesto,
      cantidadAutorizadores: levels,
      mostrarPresupuestoAUsuarios: form.mostrar_presupuesto_a_usuarios ?? before.mostrarPresupuestoAUsuarios,
      activo: form.activo ?? before.activo,
      requiere2fa: form.requiere_2fa ?? before.requiere2fa,
      aprobacionAutomaticaHasta: rules.autoHasta,
      segundoNivelDesde: rules.segundoNivelDesde,
      recordatorioHoras: form.recordatorio_horas ?? before.recordatorioHoras,
      ventanaReglasHoras: form.ventana_reglas_horas ?? before.ventanaReglasHoras,
      escalarHoras: form.escalar_horas ?? before.escalarHoras,
      alertasPresupuesto: form.alertas_presupuesto ?? before.alertasPresupuesto,
      avisarAutorizadores: form.avisar_autorizadores ?? before.avisarAutorizadores,
      permitirSobrePedido: form.permitir_sobre_pedido ?? before.permitirSobrePedido,
      umbralExistencia: form.umbral_existencia ?? before.umbralExistencia,
      limiteCredito:
        form.limite_credito === undefined ? before.limiteCredito : centavosOrNull(form.limite_credito),
      diasCredito: form.dias_credito ?? before.diasCredito,
      politicaCredito: form.politica_credito ?? before.politicaCredito,
      ...fiscalColumns(form, before),
      imagen: pick(stored.imagen, form.eliminar_imagen, before.imagen),
      calendario: pick(stored.calendario, form.eliminar_calendario, before.calendario),
      manual: pick(stored.manual, form.eliminar_manual, before.manual),
    };
    const [after] = await tx
      .update(clients)
      .set({ ...values, updatedAt: deps.clock.now() })
      .where(eq(clients.id, id))
      .returning();
    // Values are scalars or, for the alert thresholds, a short list of numbers: compared by their JSON.
    const changed = (Object.keys(values) as (keyof typeof values)[]).filter(
      (k) => JSON.stringify(values[k]) !== JSON.stringify(before[k]),
    );
    const deactivated = before.activo && !after!.activo;
    // Deactivating a client removes access for all its users at once (docs/domain.md "Accounts").
    if (deactivated) await deps.sessions.endSessionsOfClient(id, tx);
    const what = deactivated ? 'desactivado' : !before.activo && after!.activo ? 'activado' : 'modificado';
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'cliente_actualizado',
      description: `Cliente ${what}: ${after!.nombre}`,
      metadata: { id_cliente: id, campos: changed, activo: after!.activo, ...requestMeta(request) },
    });
    return after!;
  });
  const list = await listClients(deps.db, { page: 1, per_page: CLIENTS_PER_PAGE });
  return { status: 'ok', msg: MSG.modificadoCorrectamente, cliente: clientDto(row), ...list };
}
