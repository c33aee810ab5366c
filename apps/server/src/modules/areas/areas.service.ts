/**
 * Áreas (cost centres) of a client (decision 0123, docs/domain.md "Áreas"): the distributor's administrator
 * (any client) and a client administrator (its own, with the `presupuestos` permission) create, change and
 * remove them and move this month's budget between them. Another client's área answers like a missing one.
 */
import { centavosToPesos, formatCentavos, formatMXN, pesosToCentavos } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import { businessMonth } from '@portal/shared/domain/time';
import type {
  AreaBody,
  AreaDto,
  AreaResponse,
  AreasResponse,
  AreaTransferBody,
} from '@portal/shared/schemas/areas';
import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { isForeignKeyViolation, isUniqueViolation } from '../../db/errors.ts';
import { areas, budgetAdjustments, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { requiredClient, scopedClient } from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound, unprocessable } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { announceBudgets, areaMonths, lockAreas } from './area-budget.ts';

const areaNotFound = () => notFound(MSG.areaNoEncontrada, 'AREA_NOT_FOUND');

/** The business month (its first day) of now. */
function monthOfNow(deps: Pick<Deps, 'clock' | 'config'>) {
  const m = businessMonth(deps.clock.now(), deps.config.BUSINESS_TZ);
  return { key: m.key, mes: `${m.key}-01` };
}

/** The client the request works on: a client administrator's own; the distributor's must be named and exist. */
const clientFor = requiredClient;

/** An área the caller reaches (a client administrator: its own client's), or 404. */
async function reachableArea(db: Db | Tx, auth: AuthContext, id: number) {
  const [row] = await db.select().from(areas).where(eq(areas.id, id));
  if (!row) throw areaNotFound();
  const own = scopedClient(auth, undefined);
  if (own !== undefined && row.idCliente !== own) throw areaNotFound();
  return row;
}

/** The responsible approver must be an active authorizer (rol 2 or 3) of the área's client. */
async function checkResponsible(db: Db | Tx, idCliente: number, id: number | null | undefined) {
  if (id === null || id === undefined) return null;
  const [u] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, id),
        eq(users.idCliente, idCliente),
        eq(users.activo, true),
        inArray(users.rol, [ROLES.autorizador, ROLES.superAutorizador]),
      ),
    );
  if (!u)
    throw badRequest('VALIDATION', MSG.areaResponsableInvalido, {
      id_responsable: MSG.areaResponsableInvalido,
    });
  return id;
}

/** The client's áreas with this month's figures, by name. */
async function areasOf(
  db: Db | Tx,
  deps: Pick<Deps, 'clock' | 'config'>,
  idCliente: number,
  only?: number,
): Promise<AreaDto[]> {
  const { key, mes } = monthOfNow(deps);
  const rows = await db
    .select({
      id: areas.id,
      idCliente: areas.idCliente,
      nombre: areas.nombre,
      codigo: areas.codigo,
      cuentaContable: areas.cuentaContable,
      presupuesto: areas.presupuesto,
      idResponsable: areas.idResponsable,
      responsable: users.nombre,
      usuarios: sql<number>`(select count(*)::int from ${users} b
        where b.id_area = "areas"."id" and b.activo and b.rol = ${ROLES.usuario})`.mapWith(Number),
    })
    .from(areas)
    .leftJoin(users, eq(users.id, areas.idResponsable))
    .where(and(eq(areas.idCliente, idCliente), only !== undefined ? eq(areas.id, only) : undefined))
    .orderBy(asc(sql`lower(${areas.nombre})`), asc(areas.id));
  const months = await areaMonths(
    db,
    rows.map((r) => r.id),
    mes,
  );
  return rows.map((r) => {
    const m = months.get(r.id);
    const presupuestoMes = m?.presupuesto ?? r.presupuesto;
    const utilizado = m?.utilizado ?? 0;
    return {
      id: r.id,
      id_cliente: r.idCliente,
      nombre: r.nombre,
      codigo: r.codigo,
      cuenta_contable: r.cuentaContable,
      presupuesto: centavosToPesos(r.presupuesto),
      responsable: r.idResponsable !== null ? { id: r.idResponsable, nombre: r.responsable ?? '' } : null,
      usuarios: r.usuarios,
      mes: key,
      ampliaciones: centavosToPesos(m?.ajustes ?? 0),
      presupuesto_mes: centavosToPesos(presupuestoMes),
      utilizado: centavosToPesos(utilizado),
      restante: centavosToPesos(presupuestoMes - utilizado),
    };
  });
}

/** GET /api/areas */
export async function listAreas(
  deps: Deps,
  auth: AuthContext,
  query: { id_cliente?: number | undefined },
): Promise<AreasResponse> {
  const idCliente = await clientFor(deps.db, auth, query.id_cliente);
  return { areas: await areasOf(deps.db, deps, idCliente) };
}

function duplicate(err: unknown): never {
  if (isUniqueViolation(err)) throw conflict('AREA_DUPLICATE', MSG.areaRepetida);
  throw err;
}

/** POST /api/areas */
export async function createArea(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: AreaBody,
): Promise<AreaResponse> {
  const created = await deps.db.transaction(async (tx) => {
    const idCliente = await clientFor(tx, auth, body.id_cliente);
    const idResponsable = await checkResponsible(tx, idCliente, body.id_responsable);
    const [row] = await tx
      .insert(areas)
      .values({
        idCliente,
        nombre: body.nombre,
        codigo: body.codigo,
        cuentaContable: body.cuenta_contable || null,
        presupuesto: pesosToCentavos(body.presupuesto),
        idResponsable,
      })
      .returning()
      .catch(duplicate);
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'area_creada',
      description: `Área creada: ${row!.nombre} (${row!.codigo}), presupuesto ${formatCentavos(row!.presupuesto)}`,
      metadata: { id_area: row!.id, id_cliente: idCliente, ...requestMeta(request) },
    });
    return row!;
  });
  const [area] = await areasOf(deps.db, deps, created.idCliente, created.id);
  return { status: 'ok', msg: MSG.creadoCorrectamente, area: area! };
}

/** PUT /api/areas/{id} */
export async function updateArea(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: AreaBody,
): Promise<AreaResponse> {
  const idCliente = await deps.db.transaction(async (tx) => {
    const before = await reachableArea(tx, auth, id);
    if (body.id_cliente !== undefined && body.id_cliente !== before.idCliente) throw areaNotFound();
    const idResponsable =
      body.id_responsable === undefined
        ? before.idResponsable
        : await checkResponsible(tx, before.idCliente, body.id_responsable);
    const presupuesto = pesosToCentavos(body.presupuesto);
    await tx
      .update(areas)
      .set({
        nombre: body.nombre,
        codigo: body.codigo,
        cuentaContable:
          body.cuenta_contable === undefined ? before.cuentaContable : body.cuenta_contable || null,
        presupuesto,
        idResponsable,
        updatedAt: sql`now()`,
      })
      .where(eq(areas.id, id))
      .catch(duplicate);
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'area_modificada',
      description: `Área modificada: ${body.nombre} (${body.codigo})${
        presupuesto !== before.presupuesto
          ? `, presupuesto ${formatCentavos(before.presupuesto)} → ${formatCentavos(presupuesto)}`
          : ''
      }`,
      metadata: { id_area: id, id_cliente: before.idCliente, ...requestMeta(request) },
    });
    return before.idCliente;
  });
  const [area] = await areasOf(deps.db, deps, idCliente, id);
  return { status: 'ok', msg: MSG.modificadoCorrectamente, area: area! };
}

/** DELETE /api/areas/{id}: only an área nobody belongs to and nothing was ever charged to. */
export async function deleteArea(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<{ status: 'ok'; msg: string }> {
  await deps.db
    .transaction(async (tx) => {
      const before = await reachableArea(tx, auth, id);
      await tx.delete(areas).where(eq(areas.id, id));
      await audit(tx, {
        userId: auth.user.id,
        eventType: 'area_eliminada',
        description: `Área eliminada: ${before.nombre} (${before.codigo})`,
        metadata: { id_area: id, id_cliente: before.idCliente, ...requestMeta(request) },
      });
    })
    .catch((err: unknown) => {
      if (isForeignKeyViolation(err)) throw conflict('AREA_IN_USE', MSG.areaEnUso);
      throw err;
    });
  return { status: 'ok', msg: MSG.eliminadoCorrectamente };
}

/**
 * POST /api/areas/transferencias: moves part of this month's budget from one área to another of the same
 * client. Both áreas are locked (in id order, as purchases and approvals lock them), so the giving área can
 * never end below what its orders already spend.
 */
export async function transferBetweenAreas(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: AreaTransferBody,
): Promise<AreasResponse> {
  if (body.de === body.a)
    throw badRequest('VALIDATION', MSG.transferenciaMismaArea, { a: MSG.transferenciaMismaArea });
  const importe = pesosToCentavos(body.importe);
  const { mes } = monthOfNow(deps);
  const idCliente = await deps.db.transaction(async (tx) => {
    const from = await reachableArea(tx, auth, body.de);
    const to = await reachableArea(tx, auth, body.a);
    if (to.idCliente !== from.idCliente) throw areaNotFound();
    await lockAreas(tx, [from.id, to.id]);
    const month = (await areaMonths(tx, [from.id], mes)).get(from.id)!;
    const disponible = month.presupuesto - month.utilizado;
    if (disponible - importe < 0)
      throw unprocessable(
        'TRANSFER_EXCEEDS',
        MSG.transferenciaExcede(from.nombre, formatMXN(centavosToPesos(Math.max(0, disponible)), false)),
      );
    await tx.insert(budgetAdjustments).values([
      {
        idCliente: from.idCliente,
        mes,
        idArea: from.id,
        importe: -importe,
        tipo: 'transferencia',
        createdBy: auth.user.id,
      },
      {
        idCliente: from.idCliente,
        mes,
        idArea: to.id,
        importe,
        tipo: 'transferencia',
        createdBy: auth.user.id,
      },
    ]);
    // Both áreas' buyers see their área's new month without a reload.
    await announceBudgets(tx, { areas: [from.id, to.id] });
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'area_transferencia',
      description: `Presupuesto transferido: ${formatCentavos(importe)} de ${from.nombre} a ${to.nombre}${
        body.motivo ? ` (${body.motivo})` : ''
      }`,
      metadata: {
        de: from.id,
        a: to.id,
        importe: centavosToPesos(importe),
        mes: mes.slice(0, 7),
        id_cliente: from.idCliente,
        ...requestMeta(request),
      },
    });
    return from.idCliente;
  });
  return { areas: await areasOf(deps.db, deps, idCliente) };
}

/** A user's área must be one of the user's client (400 on the field otherwise). */
export async function checkUserArea(
  db: Db | Tx,
  idCliente: number,
  idArea: number | null | undefined,
): Promise<number | null | undefined> {
  if (idArea === null || idArea === undefined) return idArea;
  const [a] = await db
    .select({ n: count() })
    .from(areas)
    .where(and(eq(areas.id, idArea), eq(areas.idCliente, idCliente)));
  if (!a?.n) throw badRequest('VALIDATION', MSG.areaInvalida, { id_area: MSG.areaInvalida });
  return idArea;
}
