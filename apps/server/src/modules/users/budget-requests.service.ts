/**
 * Budget changes a client administrator made above its client's cap wait here for the distributor's
 * administrator (decision 0122): approving applies the budget as the users form would; refusing leaves
 * the user's budget as it is. Each decision is conditional on the request still pending: of two at once,
 * the second answers 409.
 */
import type { BudgetRequestState } from '@portal/shared/domain/client-admin';
import { centavosToPesos, formatCentavos } from '@portal/shared/domain/money';
import type {
  BudgetRequestDecisionResponse,
  BudgetRequestDto,
  BudgetRequestsQuery,
  BudgetRequestsResponse,
} from '@portal/shared/schemas/budget-requests';
import { and, count, desc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { budgetChangeRequests, categories, clients, users } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import { isClientAdmin, scopedClient } from '../../lib/client-scope.ts';
import type { Deps } from '../../lib/deps.ts';
import { conflict, notFound } from '../../lib/errors.ts';
import { iso } from '../../lib/form.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { storeCategoryBudgets } from './users.repository.ts';

export const BUDGET_REQUESTS_PER_PAGE = 20;

interface Budget {
  /** centavos */
  presupuestoDefault: number;
  categorias?: { id: number; presupuesto: number }[];
}

/**
 * The user's pending request, if any, replaced by a newer budget of its client administrator (in the caller's
 * transaction, with the user's row locked): a newer request, or a budget applied at once, which approving
 * the older request would undo.
 */
export async function replacePendingBudgetRequest(tx: Tx, userId: number): Promise<void> {
  await tx
    .update(budgetChangeRequests)
    .set({ estado: 'reemplazada', decidedAt: sql`now()` })
    .where(and(eq(budgetChangeRequests.userId, userId), eq(budgetChangeRequests.estado, 'pendiente')));
}

/**
 * Queues a client administrator's budget for a user (in the caller's transaction, with the user's row
 * locked or just created): a pending request of the same user is replaced.
 */
export async function queueBudgetRequest(
  tx: Tx,
  request: FastifyRequest,
  auth: AuthContext,
  target: { idCliente: number; userId: number },
  asked: Budget,
  kept: Budget,
): Promise<void> {
  await replacePendingBudgetRequest(tx, target.userId);
  const [row] = await tx
    .insert(budgetChangeRequests)
    .values({
      idCliente: target.idCliente,
      userId: target.userId,
      presupuesto: asked.presupuestoDefault,
      presupuestoAnterior: kept.presupuestoDefault,
      categorias: asked.categorias ?? null,
      requestedBy: auth.user.id,
    })
    .returning({ id: budgetChangeRequests.id });
  await audit(tx, {
    userId: auth.user.id,
    eventType: 'presupuesto_solicitado',
    description: `Presupuesto por encima del tope solicitado: ${formatCentavos(asked.presupuestoDefault)} (de ${formatCentavos(kept.presupuestoDefault)})`,
    metadata: {
      id_solicitud: row!.id,
      id_usuario: target.userId,
      id_cliente: target.idCliente,
      presupuesto: centavosToPesos(asked.presupuestoDefault),
      presupuesto_anterior: centavosToPesos(kept.presupuestoDefault),
      ...requestMeta(request),
    },
  });
}

const requester = alias(users, 'requester');
const decider = alias(users, 'decider');

function requestsQuery(db: Db | Tx, where: SQL | undefined) {
  const r = budgetChangeRequests;
  return db
    .select({
      request: r,
      cliente: { id: clients.id, nombre: clients.nombre },
      usuario: { id: users.id, usuario: users.usuario, nombre: users.nombre },
      solicitadoPor: requester.nombre,
      decididoPor: decider.nombre,
    })
    .from(r)
    .innerJoin(clients, eq(clients.id, r.idCliente))
    .innerJoin(users, eq(users.id, r.userId))
    .innerJoin(requester, eq(requester.id, r.requestedBy))
    .leftJoin(decider, eq(decider.id, r.decidedBy))
    .where(where);
}

type RequestRow = Awaited<ReturnType<typeof requestsQuery>>[number];

async function toDtos(db: Db | Tx, rows: RequestRow[]): Promise<BudgetRequestDto[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.request.categorias ?? []).map((c) => c.id)))];
  const names = new Map(
    ids.length === 0
      ? []
      : (
          await db
            .select({ id: categories.id, nombre: categories.nombre })
            .from(categories)
            .where(inArray(categories.id, ids))
        ).map((c) => [c.id, c.nombre]),
  );
  return rows.map((row) => ({
    id: row.request.id,
    cliente: row.cliente,
    usuario: row.usuario,
    presupuesto: centavosToPesos(row.request.presupuesto),
    presupuesto_anterior: centavosToPesos(row.request.presupuestoAnterior),
    categorias:
      row.request.categorias?.map((c) => ({
        id: c.id,
        nombre: names.get(c.id) ?? `Categoría ${c.id}`,
        presupuesto: centavosToPesos(c.presupuesto),
      })) ?? null,
    estado: row.request.estado as BudgetRequestState,
    solicitado_por: row.solicitadoPor,
    decidido_por: row.decididoPor,
    decidido_en: row.request.decidedAt ? iso(row.request.decidedAt) : null,
    created_at: iso(row.request.createdAt),
  }));
}

/**
 * GET /api/presupuestos/solicitudes: the distributor's queue (pending, oldest first, of every client or
 * one), or a client administrator's requests of its own client (every state, newest first).
 */
export async function listBudgetRequests(
  db: Db,
  auth: AuthContext,
  query: BudgetRequestsQuery,
): Promise<BudgetRequestsResponse> {
  const r = budgetChangeRequests;
  const idCliente = scopedClient(auth, query.id_cliente);
  const estado = query.estado ?? (isClientAdmin(auth) ? undefined : 'pendiente');
  const where = and(
    idCliente === undefined ? undefined : eq(r.idCliente, idCliente),
    estado === undefined ? undefined : eq(r.estado, estado),
  );
  const oldestFirst = estado === 'pendiente';
  const [rows, [total]] = await Promise.all([
    requestsQuery(db, where)
      .orderBy(oldestFirst ? r.createdAt : desc(r.createdAt), oldestFirst ? r.id : desc(r.id))
      .limit(BUDGET_REQUESTS_PER_PAGE)
      .offset((query.page - 1) * BUDGET_REQUESTS_PER_PAGE),
    db.select({ n: count() }).from(r).where(where),
  ]);
  return {
    solicitudes: await toDtos(db, rows),
    total: total?.n ?? 0,
    page: query.page,
    per_page: BUDGET_REQUESTS_PER_PAGE,
  };
}

/**
 * POST /api/presupuestos/solicitudes/{id}/aprobar|rechazar (the distributor's administrator). Approving
 * writes the budget asked for (and the categories' budgets in category mode) to the user.
 */
export async function decideBudgetRequest(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  decision: 'aprobada' | 'rechazada',
): Promise<BudgetRequestDecisionResponse> {
  const r = budgetChangeRequests;
  const solicitud = await deps.db.transaction(async (tx) => {
    const [asked] = await tx.select({ userId: r.userId }).from(r).where(eq(r.id, id));
    if (!asked) throw notFound(MSG.solicitudPresupuestoNoEncontrada, 'BUDGET_REQUEST_NOT_FOUND');
    // The user's row first, as the users form takes it before replacing the request: a decision and a new
    // request of the same user run one after the other instead of deadlocking.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, asked.userId)).for('update');
    const [decided] = await tx
      .update(r)
      .set({ estado: decision, decidedBy: auth.user.id, decidedAt: deps.clock.now() })
      .where(and(eq(r.id, id), eq(r.estado, 'pendiente')))
      .returning();
    if (!decided) throw conflict('BUDGET_REQUEST_DECIDED', MSG.solicitudPresupuestoYaDecidida);
    if (decision === 'aprobada') {
      await tx
        .update(users)
        .set({ presupuestoDefault: decided.presupuesto, updatedAt: deps.clock.now() })
        .where(eq(users.id, decided.userId));
      if (decided.categorias) {
        // A category removed since the request no longer takes a budget.
        const asked = decided.categorias;
        const live = new Set(
          asked.length === 0
            ? []
            : (
                await tx
                  .select({ id: categories.id })
                  .from(categories)
                  .where(
                    and(
                      eq(categories.idCliente, decided.idCliente),
                      inArray(
                        categories.id,
                        asked.map((c) => c.id),
                      ),
                    ),
                  )
              ).map((c) => c.id),
        );
        await storeCategoryBudgets(tx, decided.userId, { categorias: asked.filter((c) => live.has(c.id)) });
      }
    }
    await audit(tx, {
      userId: auth.user.id,
      eventType: decision === 'aprobada' ? 'presupuesto_aprobado' : 'presupuesto_rechazado',
      description: `Solicitud de presupuesto ${decision}: ${formatCentavos(decided.presupuesto)}`,
      metadata: {
        id_solicitud: decided.id,
        id_usuario: decided.userId,
        id_cliente: decided.idCliente,
        presupuesto: centavosToPesos(decided.presupuesto),
        ...requestMeta(request),
      },
    });
    const [row] = await toDtos(tx, await requestsQuery(tx, eq(r.id, decided.id)));
    return row!;
  });
  return {
    status: 'ok',
    msg: decision === 'aprobada' ? MSG.solicitudPresupuestoAprobada : MSG.solicitudPresupuestoRechazada,
    solicitud,
  };
}
