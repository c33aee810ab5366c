import { approvalOutcome, approvalTarget } from '@portal/shared/domain/approval-rules';
import { withTopups } from '@portal/shared/domain/budget';
import { approverQuantityProblem } from '@portal/shared/domain/cart';
import { actionableStatuses, transitionAs } from '@portal/shared/domain/delegation';
import { FULFILMENT_START } from '@portal/shared/domain/fulfilment';
import {
  centavosToPesos,
  centavosToPesosOrNull,
  pesosToCentavos,
  totalsOf,
} from '@portal/shared/domain/money';
import {
  actionableStatus,
  canEditLines,
  type OrderAction,
  type OrderStatus,
  orderNumber,
} from '@portal/shared/domain/order-workflow';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate, businessDateRange, businessMonth } from '@portal/shared/domain/time';
import { ORDERS_PER_PAGE } from '@portal/shared/limits';
import type {
  AuthorizerOrdersQuery,
  AuthorizerOrdersResponse,
  AuthorizerOrderView,
  BulkResponse,
  OrderNeighbours,
  OrderNeighboursQuery,
  WorkflowResponse,
} from '@portal/shared/schemas/orders';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { orderLines, orders, userProducts, users } from '../../db/schema/index.ts';
import { requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { AppError, conflict, forbidden, notFound, unprocessable } from '../../lib/errors.ts';
import { approvalsTotal } from '../../lib/metrics.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { areaMonth, areaOthers } from '../areas/area-budget.ts';
import { insertComment } from '../orders/comments.service.ts';
import { approvalCredit, type CreditMemo } from '../orders/credit-check.ts';
import { lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';
import type { ReviewSummary } from '../orders/notifications.ts';
import { orderDetail } from '../orders/order.repository.ts';
import {
  type ApprovalLine,
  lockOrderAndBuyerForApproval,
  lockOrderForAction,
  ORDER_BUYER,
  placedBefore,
  placedBeforeEach,
  readApproval,
} from './approval.repository.ts';
import { approvalBudget, approvalFigures, monthWithout, pageBudgetFlags } from './approval-budget.ts';
import {
  levelOneApprover,
  listClientOrders,
  orderNeighbours,
  tookPartIn,
  waitingSince,
} from './authorizer.repository.ts';
import { actorsFrom, actorsOf, levelWithStandIns, today } from './delegation.service.ts';

function clientOf(auth: AuthContext) {
  if ((auth.user.rol !== ROLES.autorizador && auth.user.rol !== ROLES.superAutorizador) || !auth.client)
    throw forbidden();
  return auth.client;
}

export async function authorizerOrders(
  deps: Deps,
  auth: AuthContext,
  query: Partial<AuthorizerOrdersQuery> & Pick<AuthorizerOrdersQuery, 'page' | 'status'>,
): Promise<AuthorizerOrdersResponse> {
  const client = clientOf(auth);
  const own = actionableStatus(auth.user.rol, client.cantidadAutorizadores);
  // With a delegation the user also acts on the delegator's level (decision 0053).
  const actors = await actorsOf(
    deps.db,
    auth.user,
    client.id,
    today(deps),
    deps.sessions.kept(auth.sessionId),
  );
  const actionable = actionableStatuses(actors, client.cantidadAutorizadores);
  const orden = query.orden ?? 'fecha_desc';
  const tz = deps.config.BUSINESS_TZ;
  const { rows, total, suma } = await listClientOrders(deps.db, client.id, {
    ...query,
    orden,
    actionable,
    range: listRange(query, tz),
  });
  const [flags, secondLevel, waiting] = await Promise.all([
    pageBudgetFlags(deps.db, tz, client.modoPresupuesto, rows),
    pageSecondLevel(deps.db, client, rows),
    pageWaiting(deps, client, rows),
  ]);
  return {
    pedidos: rows.map((r) => ({
      id: r.id,
      productos: r.productos,
      total: centavosToPesos(r.total),
      status: r.status as OrderStatus,
      transaction_date: r.transactionDate.toISOString(),
      usuario: r.usuario,
      nombre: r.nombre,
      comentarios: r.comentarios,
      excede_presupuesto: flags.get(r.id)?.over ?? false,
      restante_despues: flags.get(r.id)?.restante ?? 0,
      segundo_nivel: secondLevel.has(r.id),
      esperando_horas: waiting.get(r.id) ?? null,
    })),
    total,
    page: query.page,
    per_page: ORDERS_PER_PAGE,
    status: query.status,
    accionable: own,
    accionables: actionable,
    orden,
    suma: centavosToPesos(suma),
  };
}

/**
 * The open orders of a page that have waited on their level more than the client's escalation hours, with
 * the whole hours they have waited ('Esperando 26 h', decision 0113); none with escalation off.
 */
async function pageWaiting(
  deps: Pick<Deps, 'db' | 'clock'>,
  client: NonNullable<AuthContext['client']>,
  rows: readonly { id: number; status: string }[],
): Promise<Map<number, number>> {
  const open = rows.filter((r) => r.status === 'pendiente' || r.status === 'espera');
  if (client.escalarHoras === 0 || client.cantidadAutorizadores === 0 || open.length === 0) return new Map();
  const now = deps.clock.now().getTime();
  const since = await waitingSince(
    deps.db,
    open.map((r) => r.id),
  );
  const out = new Map<number, number>();
  for (const [id, desde] of since) {
    const waited = now - desde.getTime();
    if (waited > client.escalarHoras * 3_600_000) out.set(id, Math.floor(waited / 3_600_000));
  }
  return out;
}

/**
 * The pendiente orders of a page that a level-1 approval would send to the second level under the client's
 * rule by amount (decision 0100's window included); none without the rule or with one level.
 */
async function pageSecondLevel(
  db: Db,
  client: NonNullable<AuthContext['client']>,
  rows: readonly { id: number; status: string; total: number }[],
): Promise<Set<number>> {
  const pending = rows.filter((r) => r.status === 'pendiente');
  if (client.cantidadAutorizadores !== 2 || client.segundoNivelDesde === null || pending.length === 0)
    return new Set();
  const previos =
    client.ventanaReglasHoras > 0
      ? await placedBeforeEach(
          db,
          pending.map((r) => r.id),
          client.ventanaReglasHoras,
        )
      : new Map<number, number>();
  const rules = { autoHasta: client.aprobacionAutomaticaHasta, segundoNivelDesde: client.segundoNivelDesde };
  return new Set(
    pending
      .filter(
        (r) => approvalTarget('espera', 'pendiente', r.total, rules, previos.get(r.id) ?? 0).to === 'espera',
      )
      .map((r) => r.id),
  );
}

/** The instants of the list's period (`desde`, `hasta`: business dates, both inclusive), if it has one. */
function listRange(query: { desde?: string; hasta?: string }, tz: string) {
  if (!query.desde && !query.hasta) return undefined;
  return {
    start: query.desde ? businessDateRange(query.desde, query.desde, tz).start : undefined,
    end: query.hasta ? businessDateRange(query.hasta, query.hasta, tz).end : undefined,
  };
}

/**
 * "Siguiente pendiente" and j/k of the review screen: the order's neighbours under the list's filter. The
 * order itself must be the client's (another client's id answers like a missing one).
 */
export async function authorizerOrderNeighbours(
  deps: Deps,
  auth: AuthContext,
  id: number,
  query: OrderNeighboursQuery,
): Promise<OrderNeighbours> {
  const client = clientOf(auth);
  await loadScopedOrder(deps.db, id, client.id);
  const actors = await actorsOf(
    deps.db,
    auth.user,
    client.id,
    today(deps),
    deps.sessions.kept(auth.sessionId),
  );
  const actionable = actionableStatuses(actors, client.cantidadAutorizadores);
  const found = await orderNeighbours(deps.db, client.id, id, {
    ...query,
    orden: query.orden ?? 'fecha_desc',
    range: listRange(query, deps.config.BUSINESS_TZ),
    actionable,
    userId: auth.user.id,
  });
  return {
    anterior: found.anterior,
    siguiente: found.siguiente,
    siguiente_accionable: found.siguienteAccionable,
  };
}

/** An order of the client, unlocked (an approval or a cancellation locks it with `lockOrderForAction`). */
async function loadScopedOrder(db: Db, id: number, idCliente: number) {
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.id, id), eq(orders.idCliente, idCliente)))
    .limit(1);
  // Another client's order answers exactly like a missing one.
  if (!order) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  return order;
}

/** The order's buyer as the review and the e-mails name it (an approval locks it: `lockOrderAndBuyerForApproval`). */
async function loadBuyer(db: Db | Tx, userId: number) {
  const [buyer] = await db.select(ORDER_BUYER).from(users).where(eq(users.id, userId));
  return buyer!;
}

async function limitsFor(db: Db | Tx, userId: number, productIds: number[]) {
  const map = new Map<number, number>();
  if (productIds.length === 0) return map;
  const rows = await db
    .select({ productId: userProducts.productId, cantidadLimite: userProducts.cantidadLimite })
    .from(userProducts)
    .where(and(eq(userProducts.userId, userId), inArray(userProducts.productId, productIds)));
  for (const r of rows) map.set(r.productId, r.cantidadLimite);
  return map;
}

export async function authorizerOrderView(
  deps: Deps,
  auth: AuthContext,
  id: number,
): Promise<AuthorizerOrderView> {
  const client = clientOf(auth);
  const order = await loadScopedOrder(deps.db, id, client.id);
  const buyer = await loadBuyer(deps.db, order.idUser);
  const detail = await orderDetail(deps.db, id, { idCliente: client.id });
  const lines = await deps.db.select().from(orderLines).where(eq(orderLines.orderId, id));
  const budget = await approvalBudget(
    deps.db,
    deps.config.BUSINESS_TZ,
    order,
    buyer,
    client.modoPresupuesto,
    lines,
  );
  const limits = await limitsFor(
    deps.db,
    order.idUser,
    lines.map((l) => l.productId),
  );
  const status = order.status as OrderStatus;
  const levels = client.cantidadAutorizadores;
  const { over, others, ...presupuesto } = budget;
  void over;
  // The buttons follow the server's rules, separation of duties included.
  const own = order.idUser === auth.user.id;
  const actors = await actorsOf(
    deps.db,
    auth.user,
    client.id,
    today(deps),
    deps.sessions.kept(auth.sessionId),
  );
  const approve = transitionAs(actors, status, levels, 'aprobar');
  const levelOne = status === 'espera' ? await levelOneApprover(deps.db, order.id) : null;
  // What the buyer placed in the window before the order, when the second-level rule may apply (decision 0100).
  const previos =
    status === 'pendiente' &&
    levels === 2 &&
    client.segundoNivelDesde !== null &&
    client.ventanaReglasHoras > 0
      ? await placedBefore(deps.db, {
          userId: order.idUser,
          until: order.transactionDate,
          hours: client.ventanaReglasHoras,
          except: order.id,
        })
      : 0;
  // What the client's credit would do to the approval (decision 0134): warned before approving.
  const credit =
    status === 'pendiente' || status === 'espera'
      ? await approvalCredit(deps.db, client.id, order.total, today(deps))
      : null;
  const gaveLevelOne =
    tookPartIn(levelOne, auth.user.id) ||
    (approve.ok && !!approve.actor.onBehalfOf && tookPartIn(levelOne, approve.actor.onBehalfOf.id));
  return {
    pedido: detail,
    usuario: { id: buyer.id, nombre: buyer.nombre, usuario: buyer.usuario },
    presupuesto,
    pedidos_del_mes: others.map((o) => ({
      id: o.id,
      total: centavosToPesos(o.total),
      status: o.status as OrderStatus,
      transaction_date: o.transactionDate.toISOString(),
    })),
    limites: Object.fromEntries(lines.map((l) => [String(l.productId), limits.get(l.productId) ?? 1])),
    reglas: {
      aprobacion_automatica_hasta: centavosToPesosOrNull(client.aprobacionAutomaticaHasta),
      segundo_nivel_desde: centavosToPesosOrNull(client.segundoNivelDesde),
      ventana_horas: client.ventanaReglasHoras,
      previos: centavosToPesos(previos),
    },
    acciones: {
      aprobar: approve.ok && !own && !gaveLevelOne,
      cancelar: transitionAs(actors, status, levels, 'cancelar').ok && !own,
      editar: approve.ok && canEditLines(approve.actor.rol, status, levels) && !own,
      devolver: transitionAs(actors, status, levels, 'devolver').ok && !own,
    },
    credito: credit
      ? {
          aviso: credit.retener ? `${credit.motivo} ${MSG.creditoRetendra}` : credit.motivo,
          retendra: credit.retener,
        }
      : null,
  };
}

/**
 * Separation of duties (docs/domain.md "Two approvals, two people", decision 0039), whatever the user's
 * role is now: nobody approves, edits or cancels an order they placed (403), and whoever took part in the
 * level-1 approval — gave it, or had it given in their name by a delegate — never gives the level-2 one,
 * with or without a delegation, nor has it given in their name by a delegate (409; they may still cancel
 * it: issue 38, finding 9). The refusal, or null when allowed.
 */
function dutyConflict(
  userId: number,
  order: { id: number; idUser: number; status: string },
  action: OrderAction,
  /** Who gave the order's level-1 approval (read when the order waits for level 2). */
  levelOne: { actorId: number | null; onBehalfOfId: number | null } | null,
  /** In whose name this step would be given (a delegator), if not the user's own. */
  onBehalfOfId: number | null = null,
): AppError | null {
  if (order.idUser === userId) return forbidden(MSG.pedidoPropio, 'OWN_ORDER');
  const inLevelOne = (id: number | null) => id !== null && tookPartIn(levelOne, id);
  if (action === 'aprobar' && order.status === 'espera' && (inLevelOne(userId) || inLevelOne(onBehalfOfId)))
    return conflict('SAME_APPROVER', MSG.segundaAutorizacionOtraPersona);
  return null;
}

function refuseTransition(reason: 'ROLE' | 'STATUS'): never {
  if (reason === 'ROLE') throw forbidden(MSG.accionNoPermitida);
  throw conflict('ORDER_ALREADY_PROCESSED', MSG.pedidoYaProcesado);
}

async function afterTransition(
  deps: Deps,
  auth: AuthContext,
  id: number,
  to: OrderStatus,
  msg: string,
): Promise<WorkflowResponse> {
  const client = clientOf(auth);
  return {
    status: 'ok',
    msg,
    nuevo_estatus: to,
    pedido: await orderDetail(deps.db, id, { idCliente: client.id }),
    pedidos: await authorizerOrders(deps, auth, { page: 1, status: 'accionables' }),
  };
}

type Client = NonNullable<AuthContext['client']>;

/**
 * The one approval of one order, in its own transaction (the single-order route and the bulk route both
 * run it): approves (rol 2 on pendiente, rol 3 on espera) and, for rol 2, saves the edited lines. Without
 * `orden` (bulk) the order's current lines are approved as they stand. The order row is locked and the
 * status change is conditional, so of two simultaneous approvals one wins and the other gets 409 with
 * nothing changed. Answers the new status; a refusal throws its AppError. The caller flushes the mailer.
 */
async function approveOne(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  client: Client,
  id: number,
  {
    orden,
    comment,
    credit,
  }: {
    orden?: { id: number; cantidad: number }[];
    /** A comment sent with the approval (decision 0047); never in bulk. */
    comment?: string;
    /** The bulk approval's clients' credit, read once for all its orders. */
    credit?: CreditMemo;
  } = {},
): Promise<OrderStatus> {
  const tz = deps.config.BUSINESS_TZ;
  const to = await deps.db.transaction(async (tx) => {
    // The order, then its buyer (a purchase of the buyer waits, so the month below is the whole month),
    // then everything else in one read (decision 0090).
    const { order, buyer } = await lockOrderAndBuyerForApproval(tx, id, client.id);
    const day = businessDate(deps.clock.now(), tz);
    const read = await readApproval(tx, {
      orderId: order.id,
      userId: auth.user.id,
      idCliente: client.id,
      day,
      mes: `${businessMonth(order.transactionDate, tz).key}-01`,
    });
    const { levels, lines } = read;
    const status = order.status as OrderStatus;
    const step = transitionAs(actorsFrom(auth.user, read.delegators), status, levels, 'aprobar');
    if (!step.ok) refuseTransition(step.reason);
    const onBehalfOfId = step.actor.onBehalfOf?.id ?? null;
    const refusal = dutyConflict(auth.user.id, order, 'aprobar', read.levelOne, onBehalfOfId);
    if (refusal) throw refusal;

    // The edits: every line of the order, with its new quantity; a missing line is removed.
    const wanted = new Map<number, number>();
    for (const item of orden ?? lines.map((l) => ({ id: l.productId, cantidad: l.cantidad }))) {
      if (wanted.has(item.id)) throw unprocessable('DUPLICATE_LINE', MSG.datosInvalidos);
      if (!lines.some((l) => l.productId === item.id))
        throw unprocessable('NOT_IN_ORDER', MSG.lineaNoEnPedido);
      wanted.set(item.id, item.cantidad);
    }
    const changed = lines.some((l) => wanted.get(l.productId) !== l.cantidad);
    if (changed && !canEditLines(step.actor.rol, status, levels)) throw forbidden(MSG.soloAutorizadorEdita);
    if (wanted.size === 0) throw unprocessable('EMPTY_ORDER', MSG.pedidoSinLineas);
    for (const [productId, cantidad] of wanted) {
      const before = lines.find((l) => l.productId === productId)!.cantidad;
      const problem = approverQuantityProblem(cantidad, read.limits.get(productId) ?? 1, before);
      if (problem) throw unprocessable(problem.code, problem.msg);
    }
    const newLines = lines
      .filter((l) => wanted.has(l.productId))
      .map((l) => ({ ...l, cantidad: wanted.get(l.productId)! }));
    const topped = withTopups(buyer.presupuestoDefault, read.budgets, read.ajustes);
    const budget = approvalFigures({
      modo: read.modo,
      presupuestoDefault: topped.presupuestoDefault,
      budgets: topped.categorias,
      used: monthWithout(read.month, order, lines),
      lines: newLines,
    });
    if (budget.over) throw unprocessable('BUDGET', MSG.presupuestoAutorizador);

    const totals = totalsOf(newLines);
    // The área the order is charged to (decision 0123), locked after the buyer: its other orders of the
    // month and this one as approved must fit in its month's budget.
    if (order.idArea !== null) {
      const area = await areaMonth(tx, order.idArea, `${businessMonth(order.transactionDate, tz).key}-01`, {
        lock: true,
      });
      if (area && area.presupuesto - areaOthers(area, order) - totals.total < 0)
        throw unprocessable('AREA_BUDGET', MSG.presupuestoAreaAutorizador(area.nombre));
    }
    // The client's rule by amount may complete a level-1 approval (decision 0049).
    const target = approvalTarget(
      step.to,
      status,
      totals.total,
      { autoHasta: read.autoHasta, segundoNivelDesde: read.segundoNivelDesde },
      read.previos,
    );
    const removed = lines.filter((l) => !wanted.has(l.productId));
    const edited = newLines.filter((l) => l.cantidad !== lines.find((o) => o.id === l.id)!.cantidad);
    const edits = changed ? lineEdits(order, lines, removed, edited, totals.total) : null;
    // A comment sent with the approval is saved with it and named in its event (decision 0047).
    const comentario = comment
      ? await insertComment(tx, order.id, auth.user.id, comment, deps.clock.now())
      : null;
    const named = {
      ...target.rule,
      ...(comentario ? { id_comentario: comentario } : {}),
    };
    const onBehalf = onBehalfOfId ? { en_nombre_de: onBehalfOfId } : {};
    await orderChanged(
      tx,
      { ...lifecycleDeps(deps), credit },
      {
        kind: 'aprobado',
        order,
        from: status,
        to: target.to,
        buyer,
        reviewers: read.levelTwo,
        summary: target.to === 'espera' ? reviewSummaryAtLevelTwo(newLines, budget, buyer.nombre) : null,
        actor: auth.user,
        onBehalfOfId,
        totals,
        lineas: newLines.length,
        edits: edits && {
          removed: removed.map((l) => l.id),
          edited: edited.map((l) => ({ id: l.id, cantidad: l.cantidad })),
          changes: edits,
          log: {
            eventType: 'pedido_editado',
            description: `Pedido #${orderNumber(order.id)} editado`,
            metadata: { ...edits, ...onBehalf, ...requestMeta(request) },
          },
        },
        comentario,
        changes: comentario || target.rule ? named : null,
        log: {
          description: `Pedido #${orderNumber(order.id)}: ${status} → ${target.to}`,
          metadata: {
            de: status,
            a: target.to,
            total: totals.total,
            ...named,
            ...onBehalf,
            ...requestMeta(request),
          },
        },
        wanting: read.wanting,
        // An approved order starts its fulfilment (decision 0058).
        surtidoInicial: target.to === 'aprobado' ? FULFILMENT_START : null,
      },
    );
    return target.to;
  });
  approvalsTotal.inc({ status: to });
  return to;
}

/**
 * What the level-2 e-mail of an order a level-1 approval sent on says of it (decision 0112): the approved
 * lines, what is left of the buyer's month after it (as the approval checked it) and that approving
 * completes it.
 */
function reviewSummaryAtLevelTwo(
  lines: readonly ApprovalLine[],
  budget: ReturnType<typeof approvalFigures>,
  comprador: string,
): ReviewSummary {
  const touched = new Set(lines.map((l) => l.idCategoria));
  return {
    lineas: lines.map((l) => ({ nombre: l.nombre, cantidad: l.cantidad, importe: l.precio * l.cantidad })),
    queda:
      budget.tipo_presupuesto === 'categoria'
        ? budget.categorias
            .filter((c) => touched.has(c.id))
            .map((c) => ({ categoria: c.nombre, restante: pesosToCentavos(c.restante) }))
        : [{ categoria: null, restante: pesosToCentavos(budget.restante) }],
    resultado: approvalOutcome({
      target: { to: 'aprobado', rule: null },
      total: totalsOf(lines).total,
      previos: 0,
      ventanaHoras: 0,
      comprador,
    }),
  };
}

/** What an approver's edit changed, as its event and log entry name it. */
function lineEdits(
  order: { total: number },
  lines: readonly { id: number; productId: number; nombre: string; cantidad: number }[],
  removed: readonly { productId: number; nombre: string; cantidad: number }[],
  edited: readonly { id: number; productId: number; nombre: string; cantidad: number }[],
  total: number,
) {
  return {
    cantidades: edited.map((l) => ({
      id_producto: l.productId,
      nombre: l.nombre,
      antes: lines.find((o) => o.id === l.id)!.cantidad,
      despues: l.cantidad,
    })),
    eliminados: removed.map((l) => ({ id_producto: l.productId, nombre: l.nombre, cantidad: l.cantidad })),
    total: { antes: order.total, despues: total },
  };
}

/** POST /api/update/compra: one approval, with the edits (approveOne). */
export async function authorizerApprove(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: { id: number; orden: { id: number; cantidad: number }[]; comentario?: string },
): Promise<WorkflowResponse> {
  const result = await approveOne(deps, request, auth, clientOf(auth), body.id, {
    orden: body.orden,
    comment: body.comentario,
  });
  void deps.mailer.flush();
  return afterTransition(
    deps,
    auth,
    body.id,
    result,
    result === 'espera' ? MSG.pedidoEnEspera : MSG.pedidoAprobado,
  );
}

/**
 * The one cancellation of one order, in its own transaction (same roles and statuses as approval), with an
 * optional reason; the single-order route and the bulk route both run it. The caller flushes the mailer.
 */
async function cancelOne(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  client: Client,
  id: number,
  motivo: string | undefined,
): Promise<OrderStatus> {
  const reason = motivo?.trim() ? motivo.trim() : null;
  return deps.db.transaction(async (tx) => {
    const order = await lockOrderForAction(tx, id, client.id);
    const status = order.status as OrderStatus;
    const actors = await actorsOf(tx, auth.user, client.id, today(deps));
    const step = transitionAs(actors, status, client.cantidadAutorizadores, 'cancelar');
    if (!step.ok) refuseTransition(step.reason);
    const onBehalfOfId = step.actor.onBehalfOf?.id ?? null;
    const refusal = dutyConflict(auth.user.id, order, 'cancelar', null);
    if (refusal) throw refusal;
    await orderChanged(tx, lifecycleDeps(deps), {
      kind: 'cancelado',
      tipo: 'cancelado',
      order,
      from: status,
      reason,
      actorId: auth.user.id,
      onBehalfOfId,
      log: {
        eventType: 'pedido_cancelado',
        description: `Pedido #${orderNumber(id)} cancelado`,
        metadata: {
          de: status,
          motivo: reason,
          ...(onBehalfOfId ? { en_nombre_de: onBehalfOfId } : {}),
          ...requestMeta(request),
        },
      },
    });
    return 'cancelado' as const;
  });
}

/** POST /api/cancelar/compra/{id}: one cancellation (cancelOne). */
export async function authorizerCancel(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  motivo: string | undefined,
): Promise<WorkflowResponse> {
  await cancelOne(deps, request, auth, clientOf(auth), id, motivo);
  void deps.mailer.flush();
  return afterTransition(deps, auth, id, 'cancelado', MSG.pedidoCancelado);
}

/**
 * POST /api/pedidos/{id}/devolver (decision 0111): the Super Autorizador, or a stand-in, sends an order that
 * waits at level 2 back to level 1 with a required comment, in one transaction: the comment joins the
 * order's comments, the order is `pendiente` again (conditional: 409 to the loser of a race) and level 1
 * is told. Nobody sends back an order they placed (403).
 */
export async function authorizerReturn(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  comentario: string,
): Promise<WorkflowResponse> {
  const client = clientOf(auth);
  await deps.db.transaction(async (tx) => {
    const order = await lockOrderForAction(tx, id, client.id);
    const status = order.status as OrderStatus;
    const day = today(deps);
    const actors = await actorsOf(tx, auth.user, client.id, day);
    const step = transitionAs(actors, status, client.cantidadAutorizadores, 'devolver');
    if (!step.ok) refuseTransition(step.reason);
    const refusal = dutyConflict(auth.user.id, order, 'devolver', null);
    if (refusal) throw refusal;
    const onBehalfOfId = step.actor.onBehalfOf?.id ?? null;
    const buyer = await loadBuyer(tx, order.idUser);
    // Level 1 as it stands today; of it, whoever gave the order's level-1 approval (or had it given in their
    // name) and their stand-ins, or the whole level when none of them is there any more.
    const levelOne = await levelOneApprover(tx, order.id);
    const people = await levelWithStandIns(tx, client.id, ROLES.autorizador, day);
    const gave = people.filter(
      (p) => tookPartIn(levelOne, p.id) || (p.delegatorId !== null && tookPartIn(levelOne, p.delegatorId)),
    );
    const comment = await insertComment(tx, order.id, auth.user.id, comentario, deps.clock.now());
    await orderChanged(tx, lifecycleDeps(deps), {
      kind: 'devuelto',
      order,
      actor: auth.user,
      onBehalfOfId,
      comentario: { id: comment, texto: comentario },
      buyerNombre: buyer.nombre,
      reviewers: gave.length > 0 ? gave : people,
      log: {
        eventType: 'pedido_devuelto',
        description: `Pedido #${orderNumber(id)} devuelto al primer nivel`,
        metadata: {
          de: status,
          a: 'pendiente',
          id_comentario: comment,
          ...(onBehalfOfId ? { en_nombre_de: onBehalfOfId } : {}),
          ...requestMeta(request),
        },
      },
    });
  });
  void deps.mailer.flush();
  return afterTransition(deps, auth, id, 'pendiente', MSG.pedidoDevuelto);
}

/**
 * POST /api/pedidos/aprobar-lote and cancelar-lote: each order, in the order asked, through the same
 * one-order core as the single routes, each in its own transaction; a refusal is that order's row
 * (its Spanish message) and never undoes another order's success. Another client's id reads like a
 * missing one.
 */
async function inBulk(
  deps: Pick<Deps, 'log' | 'mailer'>,
  auth: AuthContext,
  ids: number[],
  one: (client: Client, id: number) => Promise<OrderStatus>,
): Promise<BulkResponse> {
  const client = clientOf(auth);
  const resultados: BulkResponse['resultados'] = [];
  for (const id of ids) {
    try {
      resultados.push({ id, ok: true, estatus: await one(client, id) });
    } catch (err) {
      if (err instanceof AppError) {
        resultados.push({ id, ok: false, error: err.message });
      } else {
        deps.log.error({ err, id_pedido: id }, 'bulk order action failed');
        resultados.push({ id, ok: false, error: MSG.loteErrorInterno });
      }
    }
  }
  void deps.mailer.flush();
  return { resultados };
}

export function authorizerBulkApprove(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  ids: number[],
): Promise<BulkResponse> {
  const credit: CreditMemo = new Map();
  return inBulk(deps, auth, ids, (client, id) => approveOne(deps, request, auth, client, id, { credit }));
}

export function authorizerBulkCancel(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  ids: number[],
  motivo: string | undefined,
): Promise<BulkResponse> {
  return inBulk(deps, auth, ids, (client, id) => cancelOne(deps, request, auth, client, id, motivo));
}
