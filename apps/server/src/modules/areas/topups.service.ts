/**
 * Top-ups (decision 0123, docs/domain.md "Top-ups"): a buyer refused for budget asks for more of this month's
 * budget — their own (one category's in category mode) or their área's. The área's responsible approver, a
 * super authorizer or a client administrator (with `presupuestos`) of the client, or the distributor,
 * approves or refuses it; never the buyer who asked. An approval writes a budget adjustment of that month:
 * that buyer's (or área's) budget of that month only grows. A decision is conditional on the request still
 * pending: of two at once, the second answers 409. A decision reaches the buyer's open screens live (and, for
 * an área's approved top-up, those of the área's buyers): `announceBudgets`.
 */
import { centavosToPesos, formatCentavos, pesosToCentavos } from '@portal/shared/domain/money';
import { ROLES } from '@portal/shared/domain/roles';
import { businessMonth } from '@portal/shared/domain/time';
import type {
  TopupBody,
  TopupDto,
  TopupResponse,
  TopupState,
  TopupsResponse,
} from '@portal/shared/schemas/areas';
import { and, count, desc, eq, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import {
  areas,
  budgetAdjustments,
  budgetTopups,
  categories,
  clients,
  userCategoryBudgets,
  users,
} from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { clientAllows, requireClientPermission } from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { orderEmail } from '../../lib/emails.ts';
import { badRequest, conflict, forbidden, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/form.ts';
import { addressOf, enqueueEmails } from '../../lib/mailer.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { announceBudgets } from './area-budget.ts';

export const TOPUPS_PER_PAGE = 20;

const topupNotFound = () => notFound(MSG.ampliacionNoEncontrada, 'TOPUP_NOT_FOUND');

/** POST /api/ampliaciones (rol 1). */
export async function requestTopup(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: TopupBody,
): Promise<TopupResponse> {
  const buyer = auth.user;
  if (buyer.idCliente === null) throw forbidden();
  const idCliente = buyer.idCliente;
  const m = businessMonth(deps.clock.now(), deps.config.BUSINESS_TZ);
  const mes = `${m.key}-01`;
  const id = await deps.db.transaction(async (tx) => {
    // The buyer's row, locked: two requests of one buyer at once cannot both pass the one-pending check.
    const [me] = await tx
      .select({ idArea: users.idArea, modo: clients.modoPresupuesto })
      .from(users)
      .innerJoin(clients, eq(clients.id, users.idCliente))
      .where(eq(users.id, buyer.id))
      .for('update', { of: users });
    let idArea: number | null = null;
    let idCategoria: number | null = null;
    if (body.destino === 'area') {
      if (!me?.idArea)
        throw badRequest('VALIDATION', MSG.ampliacionSinArea, { destino: MSG.ampliacionSinArea });
      idArea = me.idArea;
    } else if (me?.modo === 'categoria') {
      const [b] = body.id_categoria
        ? await tx
            .select({ p: userCategoryBudgets.presupuesto })
            .from(userCategoryBudgets)
            .where(
              and(
                eq(userCategoryBudgets.userId, buyer.id),
                eq(userCategoryBudgets.categoryId, body.id_categoria),
              ),
            )
        : [];
      if (!b || b.p <= 0)
        throw badRequest('VALIDATION', MSG.ampliacionCategoriaRequerida, {
          id_categoria: MSG.ampliacionCategoriaRequerida,
        });
      idCategoria = body.id_categoria!;
    }
    const [pending] = await tx
      .select({ n: count() })
      .from(budgetTopups)
      .where(
        and(
          eq(budgetTopups.userId, buyer.id),
          eq(budgetTopups.estado, 'pendiente'),
          idArea === null ? sql`${budgetTopups.idArea} is null` : eq(budgetTopups.idArea, idArea),
          idCategoria === null
            ? sql`${budgetTopups.idCategoria} is null`
            : eq(budgetTopups.idCategoria, idCategoria),
        ),
      );
    if (pending?.n) throw conflict('TOPUP_PENDING', MSG.ampliacionPendienteExiste);
    const importe = pesosToCentavos(body.importe);
    const [row] = await tx
      .insert(budgetTopups)
      .values({ idCliente, userId: buyer.id, idArea, idCategoria, mes, importe, motivo: body.motivo })
      .returning({ id: budgetTopups.id });
    await tellDeciders(tx, deps, {
      idCliente,
      idArea: idArea ?? me?.idArea ?? null,
      buyer,
      importe,
      motivo: body.motivo,
      paraArea: idArea !== null,
    });
    await audit(tx, {
      userId: buyer.id,
      eventType: 'ampliacion_solicitada',
      description: `Ampliación de presupuesto solicitada: ${formatCentavos(importe)}${
        idArea !== null ? ' para su área' : ''
      }`,
      metadata: { id_ampliacion: row!.id, id_cliente: idCliente, ...requestMeta(request) },
    });
    return row!.id;
  });
  void deps.mailer.flush();
  const [dto] = await readTopups(deps.db, auth, sql`${budgetTopups.id} = ${id}`, 1, 0);
  return { status: 'ok', msg: MSG.ampliacionSolicitada, ampliacion: dto! };
}

/**
 * Whoever decides a new request hears of it (e-mail and bell, as their preferences say): the responsible
 * approver of the área concerned, else the client's super authorizers.
 */
async function tellDeciders(
  tx: Tx,
  deps: Deps,
  r: {
    idCliente: number;
    idArea: number | null;
    buyer: { id: number; nombre: string };
    importe: number;
    motivo: string;
    paraArea: boolean;
  },
): Promise<void> {
  const [area] = r.idArea
    ? await tx
        .select({ nombre: areas.nombre, responsable: areas.idResponsable })
        .from(areas)
        .where(eq(areas.id, r.idArea))
    : [];
  const people = await tx
    .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
    .from(users)
    .where(
      and(
        eq(users.idCliente, r.idCliente),
        eq(users.activo, true),
        area?.responsable ? eq(users.id, area.responsable) : eq(users.rol, ROLES.superAutorizador),
      ),
    );
  await enqueueEmails(
    tx,
    people
      .filter((p) => p.id !== r.buyer.id)
      .map((p) =>
        orderEmail(addressOf(p) ?? '', p.nombre, {
          subject: MSG.ampliacionPorDecidir(r.buyer.nombre, formatCentavos(r.importe)),
          paragraphs: [MSG.ampliacionPorDecidirDestino(r.paraArea ? (area?.nombre ?? null) : null), r.motivo],
          url: `${deps.config.PUBLIC_URL}/autorizador/ampliaciones`,
          label: 'Ver las ampliaciones',
          para: { userId: p.id, tipo: 'presupuesto' },
        }),
      ),
  );
}

const buyerT = alias(users, 'comprador');
const decider = alias(users, 'decidio');

/**
 * What the caller sees: a buyer their own requests; an authorizer (rol 2) those of the áreas it is
 * responsible for (the área asked for, or the buyer's área for a buyer's own budget); a super authorizer and
 * a client administrator their client's; the distributor every client's.
 */
function visibleTo(auth: AuthContext): SQL {
  const { rol, id, idCliente } = auth.user;
  if (rol === ROLES.administrador) return sql`true`;
  if (rol === ROLES.usuario) return sql`${budgetTopups.userId} = ${id}`;
  const client = sql`${budgetTopups.idCliente} = ${idCliente}`;
  if (rol === ROLES.autorizador)
    return sql`${client} and ${id} = (select a.id_responsable from ${areas} a
      where a.id = coalesce(${budgetTopups.idArea}, ${buyerT.idArea}))`;
  return client;
}

async function readTopups(
  db: Db | Tx,
  auth: AuthContext,
  where: SQL,
  limit: number,
  offset: number,
): Promise<TopupDto[]> {
  const mayDecideAll = await mayDecideInScope(db, auth);
  const rows = await db
    .select({
      id: budgetTopups.id,
      userId: budgetTopups.userId,
      usuario: buyerT.usuario,
      nombre: buyerT.nombre,
      idArea: budgetTopups.idArea,
      areaNombre: areas.nombre,
      areaCodigo: areas.codigo,
      idCategoria: budgetTopups.idCategoria,
      categoria: categories.nombre,
      mes: budgetTopups.mes,
      importe: budgetTopups.importe,
      motivo: budgetTopups.motivo,
      estado: budgetTopups.estado,
      respuesta: budgetTopups.respuesta,
      decidedBy: decider.nombre,
      decidedAt: budgetTopups.decidedAt,
      createdAt: budgetTopups.createdAt,
    })
    .from(budgetTopups)
    .innerJoin(buyerT, eq(buyerT.id, budgetTopups.userId))
    .leftJoin(areas, eq(areas.id, budgetTopups.idArea))
    .leftJoin(categories, eq(categories.id, budgetTopups.idCategoria))
    .leftJoin(decider, eq(decider.id, budgetTopups.decidedBy))
    .where(and(where, visibleTo(auth)))
    .orderBy(desc(budgetTopups.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => ({
    id: r.id,
    usuario: { id: r.userId, nombre: r.nombre, usuario: r.usuario },
    area: r.idArea !== null ? { id: r.idArea, nombre: r.areaNombre ?? '', codigo: r.areaCodigo ?? '' } : null,
    categoria: r.idCategoria !== null ? { id: r.idCategoria, nombre: r.categoria ?? '' } : null,
    mes: r.mes.slice(0, 7),
    importe: centavosToPesos(r.importe),
    motivo: r.motivo,
    estado: r.estado as TopupState,
    respuesta: r.respuesta,
    decidido_por: r.decidedBy,
    decidido_en: r.decidedAt ? iso(r.decidedAt) : null,
    created_at: iso(r.createdAt),
    // Whoever sees a pending request of someone else may decide it (the visibility is the deciding rule),
    // except a buyer and a client administrator whose client does not allow budget changes.
    puede_decidir:
      r.estado === 'pendiente' &&
      r.userId !== auth.user.id &&
      auth.user.rol !== ROLES.usuario &&
      mayDecideAll,
  }));
}

/** A client administrator decides only with its client's `presupuestos` permission; other deciders always. */
async function mayDecideInScope(db: Db | Tx, auth: AuthContext): Promise<boolean> {
  return clientAllows(db, auth, 'presupuestos');
}

/** GET /api/ampliaciones */
export async function listTopups(
  deps: Deps,
  auth: AuthContext,
  query: { estado?: TopupState | undefined; id_cliente?: number | undefined; page: number },
): Promise<TopupsResponse> {
  // A client named narrows what the caller sees (the distributor's chosen client); it never widens it.
  const where =
    and(
      query.estado ? eq(budgetTopups.estado, query.estado) : undefined,
      query.id_cliente !== undefined ? eq(budgetTopups.idCliente, query.id_cliente) : undefined,
    ) ?? sql`true`;
  const ampliaciones = await readTopups(
    deps.db,
    auth,
    where,
    TOPUPS_PER_PAGE,
    (query.page - 1) * TOPUPS_PER_PAGE,
  );
  const [t] = await deps.db
    .select({ n: count() })
    .from(budgetTopups)
    .innerJoin(buyerT, eq(buyerT.id, budgetTopups.userId))
    .where(and(where, visibleTo(auth)));
  return { ampliaciones, total: t?.n ?? 0, page: query.page, per_page: TOPUPS_PER_PAGE };
}

/** POST /api/ampliaciones/{id}/aprobar|rechazar */
export async function decideTopup(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  decision: 'aprobada' | 'rechazada',
  respuesta: string | undefined,
): Promise<TopupResponse> {
  await deps.db.transaction(async (tx) => {
    // The request, if the caller sees it (another client's, or one it is not responsible for, is missing).
    const [row] = await tx
      .select({
        id: budgetTopups.id,
        idCliente: budgetTopups.idCliente,
        userId: budgetTopups.userId,
        idArea: budgetTopups.idArea,
        idCategoria: budgetTopups.idCategoria,
        mes: budgetTopups.mes,
        importe: budgetTopups.importe,
        estado: budgetTopups.estado,
      })
      .from(budgetTopups)
      .innerJoin(buyerT, eq(buyerT.id, budgetTopups.userId))
      .where(and(eq(budgetTopups.id, id), visibleTo(auth)))
      .for('update', { of: budgetTopups });
    if (!row || auth.user.rol === ROLES.usuario) throw topupNotFound();
    if (row.userId === auth.user.id) throw forbidden(MSG.ampliacionPropia, 'OWN_TOPUP');
    await requireClientPermission(tx, auth, 'presupuestos');
    if (row.estado !== 'pendiente') throw conflict('TOPUP_DECIDED', MSG.ampliacionYaDecidida);
    await tx
      .update(budgetTopups)
      .set({ estado: decision, respuesta: respuesta || null, decidedBy: auth.user.id, decidedAt: sql`now()` })
      .where(and(eq(budgetTopups.id, id), eq(budgetTopups.estado, 'pendiente')));
    if (decision === 'aprobada')
      await tx.insert(budgetAdjustments).values({
        idCliente: row.idCliente,
        mes: row.mes,
        userId: row.idArea === null ? row.userId : null,
        idArea: row.idArea,
        idCategoria: row.idCategoria ?? 0,
        importe: row.importe,
        tipo: 'ampliacion',
        idTopup: row.id,
        createdBy: auth.user.id,
      });
    // The buyer who asked sees the answer, and with an approval the figures of everyone it raises, live.
    await announceBudgets(tx, {
      users: [row.userId],
      areas: decision === 'aprobada' && row.idArea !== null ? [row.idArea] : [],
    });
    await audit(tx, {
      userId: auth.user.id,
      eventType: decision === 'aprobada' ? 'ampliacion_aprobada' : 'ampliacion_rechazada',
      description: `Ampliación de presupuesto ${decision}: ${formatCentavos(row.importe)}${
        row.idArea !== null ? ' para un área' : ''
      }`,
      metadata: {
        id_ampliacion: row.id,
        id_usuario: row.userId,
        id_area: row.idArea,
        id_cliente: row.idCliente,
        ...requestMeta(request),
      },
    });
  });
  const [dto] = await readTopups(deps.db, auth, sql`${budgetTopups.id} = ${id}`, 1, 0);
  return {
    status: 'ok',
    msg: decision === 'aprobada' ? MSG.ampliacionAprobada : MSG.ampliacionRechazada,
    ampliacion: dto!,
  };
}
