import { businessDate } from '@portal/shared/domain/time';
import {
  type GeneratedWeek,
  generateWeeks,
  WEEK_GENERATOR_MAX_WEEKS,
} from '@portal/shared/domain/week-generator';
import { WEEKS_PER_PAGE } from '@portal/shared/limits';
import type {
  WeekDto,
  WeekGenerateBody,
  WeekGenerateResponse,
  WeekPreviewItem,
  WeekPreviewResponse,
  WeeksMonthResponse,
  WeeksMutationResponse,
  WeeksResponse,
} from '@portal/shared/schemas/weeks';
import dayjs from 'dayjs';
import { and, asc, count, desc, eq, gte, lte, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { clientExists } from '../../db/clients.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { clients, weeks } from '../../db/schema/index.ts';
import { offsetOf } from '../../db/search.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { ownClientOf } from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/form.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';

type WeekRow = typeof weeks.$inferSelect;

export function weekDto(w: WeekRow): WeekDto {
  return {
    id: w.id,
    id_cliente: w.idCliente,
    inicio: w.inicio,
    fin: w.fin,
    activo: w.activo,
    created_at: iso(w.createdAt),
    updated_at: iso(w.updatedAt),
  };
}

const clientNotFound = () => notFound(MSG.clienteNoEncontrado, 'CLIENT_NOT_FOUND');
const weekNotFound = () => notFound(MSG.semanaNoEncontrada, 'WEEK_NOT_FOUND');

/** A week of another client is, for a client administrator, a week that does not exist. */
const inOwnClient = (auth: AuthContext, idCliente: number) => {
  const own = ownClientOf(auth);
  return own === null || own === idCliente;
};
const duplicateWeek = () => conflict('WEEK_DUPLICATE', MSG.semanaDuplicada);

/** The client's row, locked until the transaction ends: week changes of one client run one at a time. */
async function lockClient(tx: Tx, idCliente: number) {
  const [client] = await tx
    .select({ id: clients.id, nombre: clients.nombre })
    .from(clients)
    .where(eq(clients.id, idCliente))
    .for('update');
  if (!client) throw clientNotFound();
  return client;
}

/**
 * A client's weeks, newest start first, 5 per page, with the page holding `today` (a business date): the
 * week in course sorts right after every week that starts later (weeks never overlap); without one, the
 * next week to start is the last of those; with neither, page 1.
 */
export async function listWeeks(
  db: Db | Tx,
  idCliente: number,
  page: number,
  today: string,
): Promise<WeeksResponse> {
  const where = eq(weeks.idCliente, idCliente);
  const [rows, totals, around] = await Promise.all([
    db
      .select()
      .from(weeks)
      .where(where)
      .orderBy(desc(weeks.inicio), desc(weeks.id))
      .limit(WEEKS_PER_PAGE)
      .offset(offsetOf(page, WEEKS_PER_PAGE)),
    db.select({ n: count() }).from(weeks).where(where),
    db
      .select({
        later: sql<number>`count(*) filter (where ${weeks.inicio} > ${today}::date)`.mapWith(Number),
        current:
          sql<number>`count(*) filter (where ${weeks.inicio} <= ${today}::date and ${weeks.fin} >= ${today}::date)`.mapWith(
            Number,
          ),
      })
      .from(weeks)
      .where(where),
  ]);
  const later = around[0]?.later ?? 0;
  const index = around[0]?.current ? later : Math.max(0, later - 1);
  return {
    semanas: rows.map(weekDto),
    total: totals[0]?.n ?? 0,
    page,
    per_page: WEEKS_PER_PAGE,
    pagina_hoy: Math.floor(index / WEEKS_PER_PAGE) + 1,
  };
}

/** Today's business date by the app's clock. */
function todayOf(deps: Pick<Deps, 'clock' | 'config'>): string {
  return businessDate(deps.clock.now(), deps.config.BUSINESS_TZ);
}

/** 404 unless the client exists. */
async function assertClient(db: Db, idCliente: number) {
  if (!(await clientExists(db, idCliente))) throw clientNotFound();
}

export async function clientWeeks(deps: Deps, idCliente: number, page: number) {
  await assertClient(deps.db, idCliente);
  return listWeeks(deps.db, idCliente, page, todayOf(deps));
}

/**
 * POST /api/calendario_semanas. The client's row is locked (SELECT … FOR UPDATE) while the duplicate
 * and overlap checks run and the week is inserted, so two simultaneous creates cannot both pass.
 */
export async function createWeek(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  body: { inicio: string; fin: string; id_cliente: number; activo?: boolean },
): Promise<WeekDto> {
  try {
    return await deps.db.transaction(async (tx) => {
      const client = await lockClient(tx, body.id_cliente);
      const [same] = await tx
        .select({ id: weeks.id })
        .from(weeks)
        .where(and(eq(weeks.idCliente, client.id), eq(weeks.inicio, body.inicio), eq(weeks.fin, body.fin)))
        .limit(1);
      if (same) throw duplicateWeek();
      // Inclusive ranges [inicio, fin] overlap when each starts no later than the other ends.
      const [overlap] = await tx
        .select({ id: weeks.id })
        .from(weeks)
        .where(and(eq(weeks.idCliente, client.id), lte(weeks.inicio, body.fin), gte(weeks.fin, body.inicio)))
        .limit(1);
      if (overlap) throw conflict('WEEK_OVERLAP', MSG.semanaEmpalmada);
      const [row] = await tx
        .insert(weeks)
        .values({ idCliente: client.id, inicio: body.inicio, fin: body.fin, activo: body.activo ?? true })
        .returning();
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'semana_creada',
        description: `Semana de acceso ${row!.inicio} a ${row!.fin} creada para ${client.nombre}`,
        metadata: {
          id_semana: row!.id,
          id_cliente: client.id,
          inicio: row!.inicio,
          fin: row!.fin,
          activo: row!.activo,
          ...requestMeta(request),
        },
      });
      return weekDto(row!);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicateWeek();
    throw err;
  }
}

/** PUT /api/calendario_semanas/{id}: activates or deactivates a week. */
export async function toggleWeek(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  activo: boolean,
  page: number,
): Promise<WeeksMutationResponse> {
  const row = await deps.db.transaction(async (tx) => {
    const [before] = await tx.select().from(weeks).where(eq(weeks.id, id)).for('update');
    if (!before || !inOwnClient(auth, before.idCliente)) throw weekNotFound();
    const [after] = await tx
      .update(weeks)
      .set({ activo, updatedAt: deps.clock.now() })
      .where(eq(weeks.id, id))
      .returning();
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'semana_actualizada',
      description: `Semana de acceso ${before.inicio} a ${before.fin} ${activo ? 'activada' : 'desactivada'}`,
      metadata: {
        id_semana: id,
        id_cliente: before.idCliente,
        activo_antes: before.activo,
        activo,
        ...requestMeta(request),
      },
    });
    return after!;
  });
  const list = await listWeeks(deps.db, row.idCliente, page, todayOf(deps));
  return { status: 'ok', msg: MSG.actualizadoCorrectamente, ...list };
}

/** POST /api/calendario_semanas/destroy/{id}: deletes a week permanently. */
export async function deleteWeek(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  page: number,
): Promise<WeeksMutationResponse> {
  const row = await deps.db.transaction(async (tx) => {
    const own = ownClientOf(auth);
    const [deleted] = await tx
      .delete(weeks)
      .where(own === null ? eq(weeks.id, id) : and(eq(weeks.id, id), eq(weeks.idCliente, own)))
      .returning();
    if (!deleted) throw weekNotFound();
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'semana_eliminada',
      description: `Semana de acceso ${deleted.inicio} a ${deleted.fin} eliminada`,
      metadata: {
        id_semana: id,
        id_cliente: deleted.idCliente,
        inicio: deleted.inicio,
        fin: deleted.fin,
        ...requestMeta(request),
      },
    });
    return deleted;
  });
  const list = await listWeeks(deps.db, row.idCliente, page, todayOf(deps));
  return { status: 'ok', msg: MSG.eliminadoCorrectamente, ...list };
}

/** GET /api/calendario_semanas/mes: the client's weeks that touch a month, oldest first (a handful). */
export async function monthWeeks(
  deps: Pick<Deps, 'db'>,
  idCliente: number,
  mes: string,
): Promise<WeeksMonthResponse> {
  await assertClient(deps.db, idCliente);
  const first = `${mes}-01`;
  const last = dayjs(first).endOf('month').format('YYYY-MM-DD');
  const rows = await deps.db
    .select()
    .from(weeks)
    .where(and(eq(weeks.idCliente, idCliente), lte(weeks.inicio, last), gte(weeks.fin, first)))
    .orderBy(asc(weeks.inicio), asc(weeks.id));
  return { mes, semanas: rows.map(weekDto) };
}

/** The rule's weeks, or a 400 when it makes more than the generator allows. */
function ruleWeeks(body: WeekGenerateBody): GeneratedWeek[] {
  const made = generateWeeks(body);
  if (made.length > WEEK_GENERATOR_MAX_WEEKS)
    throw badRequest('WEEK_GENERATOR_TOO_MANY', MSG.semanaGeneradorDemasiadas(WEEK_GENERATOR_MAX_WEEKS), {
      hasta: MSG.semanaGeneradorDemasiadas(WEEK_GENERATOR_MAX_WEEKS),
    });
  return made;
}

/**
 * Each generated week against the client's stored weeks of the range: the same dates (`existente`), an
 * overlap with another (`empalmada`), or `nueva`. Two passes over two sorted lists.
 */
async function classify(db: Db | Tx, idCliente: number, body: WeekGenerateBody): Promise<WeekPreviewItem[]> {
  const made = ruleWeeks(body);
  if (made.length === 0) return [];
  const stored = await db
    .select({ inicio: weeks.inicio, fin: weeks.fin })
    .from(weeks)
    .where(and(eq(weeks.idCliente, idCliente), lte(weeks.inicio, body.hasta), gte(weeks.fin, body.desde)))
    .orderBy(asc(weeks.inicio));
  return made.map((w) => {
    const hit = stored.find((s) => s.inicio <= w.fin && s.fin >= w.inicio);
    const estado = !hit ? 'nueva' : hit.inicio === w.inicio && hit.fin === w.fin ? 'existente' : 'empalmada';
    return { ...w, estado };
  });
}

function counts(items: WeekPreviewItem[]) {
  const nuevas = items.filter((w) => w.estado === 'nueva').length;
  return { nuevas, omitidas: items.length - nuevas };
}

/** POST /api/calendario_semanas/generar/vista_previa: what saving the rule would create; changes nothing. */
export async function previewWeeks(deps: Deps, body: WeekGenerateBody): Promise<WeekPreviewResponse> {
  await assertClient(deps.db, body.id_cliente);
  const semanas = await classify(deps.db, body.id_cliente, body);
  return { semanas, ...counts(semanas), ...(await accessAfterSaving(deps, body, semanas)) };
}

/**
 * Whether saving the rule leaves today outside every active week of the client while the client has
 * weeks (its buyers cannot sign in today), and the first later day inside an active week: the stored
 * active weeks and, when the new ones are created active, the new ones (decision 0097).
 */
async function accessAfterSaving(
  deps: Deps,
  body: WeekGenerateBody,
  items: WeekPreviewItem[],
): Promise<Pick<WeekPreviewResponse, 'hoy_sin_acceso' | 'proximo_acceso'>> {
  const today = todayOf(deps);
  const where = eq(weeks.idCliente, body.id_cliente);
  const [row] = await deps.db
    .select({
      any: sql<number>`count(*)`.mapWith(Number),
      inside:
        sql<number>`count(*) filter (where ${weeks.activo} and ${weeks.inicio} <= ${today}::date and ${weeks.fin} >= ${today}::date)`.mapWith(
          Number,
        ),
      next: sql<
        string | null
      >`(min(${weeks.inicio}) filter (where ${weeks.activo} and ${weeks.inicio} > ${today}::date))::text`,
    })
    .from(weeks)
    .where(where);
  const fresh = items.filter((w) => w.estado === 'nueva');
  const freshActive = body.activo === false ? [] : fresh;
  const hasAny = (row?.any ?? 0) > 0 || fresh.length > 0;
  const inside = (row?.inside ?? 0) > 0 || freshActive.some((w) => w.inicio <= today && w.fin >= today);
  if (!hasAny || inside) return { hoy_sin_acceso: false, proximo_acceso: null };
  const starts = [row?.next ?? null, ...freshActive.map((w) => w.inicio).filter((d) => d > today)]
    .filter((d): d is string => d !== null)
    .sort();
  return { hoy_sin_acceso: true, proximo_acceso: starts[0] ?? null };
}

/**
 * POST /api/calendario_semanas/generar: creates the rule's new weeks in one transaction. The client's row
 * is locked as createWeek locks it, so a simultaneous identical save waits and then finds every week
 * existing; the insert also skips rows the unique (client, inicio, fin) index already holds.
 */
export async function generateClientWeeks(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  body: WeekGenerateBody,
): Promise<WeekGenerateResponse> {
  return deps.db.transaction(async (tx) => {
    const client = await lockClient(tx, body.id_cliente);
    const items = await classify(tx, client.id, body);
    const fresh = items.filter((w) => w.estado === 'nueva');
    const rows = fresh.length
      ? await tx
          .insert(weeks)
          .values(
            fresh.map((w) => ({
              idCliente: client.id,
              inicio: w.inicio,
              fin: w.fin,
              activo: body.activo ?? true,
            })),
          )
          .onConflictDoNothing()
          .returning()
      : [];
    const creadas = rows.length;
    const omitidas = items.length - creadas;
    if (creadas > 0) {
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'semanas_generadas',
        description: `${creadas} semana(s) de acceso generadas para ${client.nombre} del ${body.desde} al ${body.hasta}`,
        metadata: {
          id_cliente: client.id,
          modo: body.modo,
          semana_del_mes: body.semana_del_mes ?? null,
          cada: body.cada ?? null,
          dias: body.dias,
          desde: body.desde,
          hasta: body.hasta,
          creadas,
          omitidas,
          ...requestMeta(request),
        },
      });
    }
    return {
      status: 'ok' as const,
      msg: MSG.semanasGeneradas(creadas, omitidas),
      creadas,
      omitidas,
      semanas: rows.sort((a, b) => a.inicio.localeCompare(b.inicio)).map(weekDto),
    };
  });
}
