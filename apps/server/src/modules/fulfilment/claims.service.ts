/**
 * Claims on shipped units (issue 41 item 5, decision 0127, docs/domain.md "Receipts and claims"): the buyer
 * opens one by hand, the operator (rol 4) reads every client's and decides each. Every write locks the order
 * first (then the claim), decides from what it read and hands the change to the order's lifecycle seam, which
 * writes it conditionally (409 to the loser of a race) with its event, log entry, webhook and e-mails.
 */
import {
  CLAIM_OPEN_STATES,
  CLAIM_STATE_LABELS,
  type ClaimState,
  claimNext,
} from '@portal/shared/domain/claims';
import { knownCarrier } from '@portal/shared/domain/fulfilment';
import type { LogEventType } from '@portal/shared/domain/log-events';
import { centavosToPesos, formatCentavos } from '@portal/shared/domain/money';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import type {
  ClaimBody,
  ClaimCreatedResponse,
  ClaimDecisionBody,
  ClaimDecisionResponse,
  ClaimQueueQuery,
  ClaimQueueResponse,
} from '@portal/shared/schemas/claims';
import { and, count, desc, eq, inArray, type SQL } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Tx } from '../../db/client.ts';
import { claimLinesOf, claimParties, readClaims } from '../../db/order-claims.ts';
import { orderClaims, orderLines } from '../../db/schema/index.ts';
import { requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { type ClaimDecision, type ClaimLine, lifecycleDeps, orderChanged } from '../orders/lifecycle.ts';
import { lockOrder } from '../orders/order.repository.ts';

export const CLAIMS_PAGE_SIZE = 50;

/** The names of an order's lines given by id; one that is not the order's: 400. */
export async function linesNamed(
  tx: Tx,
  orderId: number,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const rows = await tx
    .select({ id: orderLines.id, nombre: orderLines.nombre })
    .from(orderLines)
    .where(and(eq(orderLines.orderId, orderId), inArray(orderLines.id, [...ids])));
  if (rows.length !== new Set(ids).size)
    throw badRequest('LINE_NOT_FOUND', MSG.lineaNoEncontrada, { lineas: MSG.lineaNoEncontrada });
  return new Map(rows.map((r) => [r.id, r.nombre]));
}

/** POST /api/historial/{id}/reclamos: the buyer claims shipped units of an own approved order by hand. */
export async function buyerOpenClaim(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: ClaimBody,
): Promise<ClaimCreatedResponse> {
  const claim = await deps.db.transaction(async (tx) => {
    const order = await lockOrder(tx, id, { idUser: auth.user.id });
    if (order.status !== 'aprobado') throw conflict('ORDER_NOT_APPROVED', MSG.surtidoNoAprobado);
    const names = await linesNamed(
      tx,
      id,
      body.lineas.map((l) => l.id),
    );
    const lineas: ClaimLine[] = body.lineas.map((l) => ({ ...l, nombre: names.get(l.id)! }));
    return orderChanged(tx, lifecycleDeps(deps), {
      kind: 'reclamo',
      order,
      lineas,
      resolucion: body.resolucion,
      nota: body.nota ?? null,
      fotos: body.fotos ?? [],
      actorId: auth.user.id,
      log: {
        eventType: 'reclamo_abierto',
        description: `Pedido #${orderNumber(order.id)}: reclamo abierto por el comprador`,
        metadata: { lineas: body.lineas, resolucion: body.resolucion, ...requestMeta(request) },
      },
    });
  });
  void deps.mailer.flush();
  return { status: 'ok', msg: MSG.reclamoAbierto(claim.numero), reclamo: claim };
}

/** GET /api/surtido/reclamos: every client's claims, newest first, 50 a page; `pendientes` by default. */
export async function claimQueue(
  deps: Pick<Deps, 'db'>,
  query: ClaimQueueQuery,
): Promise<ClaimQueueResponse> {
  const where: SQL | undefined =
    query.estado === 'todos'
      ? undefined
      : query.estado === 'pendientes'
        ? inArray(orderClaims.estado, [...CLAIM_OPEN_STATES])
        : eq(orderClaims.estado, query.estado);
  const [page, [total]] = await Promise.all([
    deps.db
      .select({ id: orderClaims.id })
      .from(orderClaims)
      .where(where)
      .orderBy(desc(orderClaims.createdAt), desc(orderClaims.id))
      .limit(CLAIMS_PAGE_SIZE)
      .offset((query.page - 1) * CLAIMS_PAGE_SIZE),
    deps.db.select({ n: count() }).from(orderClaims).where(where),
  ]);
  const ids = page.map((p) => p.id);
  const [claims, parties] =
    ids.length === 0
      ? [[], new Map<number, { cliente: string; comprador: string }>()]
      : await Promise.all([
          readClaims(deps.db, inArray(orderClaims.id, ids), [
            desc(orderClaims.createdAt),
            desc(orderClaims.id),
          ]),
          claimParties(deps.db, ids),
        ]);
  return {
    items: claims.map(({ orderId, ...claim }) => ({
      ...claim,
      id_pedido: orderId,
      cliente: parties.get(claim.id)?.cliente ?? '',
      comprador: parties.get(claim.id)?.comprador ?? '',
    })),
    total: total?.n ?? 0,
    page: query.page,
    per_page: CLAIMS_PAGE_SIZE,
  };
}

/** The claim, locked after its order (the lock order of every write: the order first, then the claim). */
async function lockClaim(tx: Tx, id: number) {
  const [head] = await tx
    .select({ orderId: orderClaims.orderId })
    .from(orderClaims)
    .where(eq(orderClaims.id, id));
  if (!head) throw notFound(MSG.reclamoNoEncontrado, 'CLAIM_NOT_FOUND');
  const order = await lockOrder(tx, head.orderId, {});
  const [claim] = await tx
    .select({ id: orderClaims.id, numero: orderClaims.numero, estado: orderClaims.estado })
    .from(orderClaims)
    .where(eq(orderClaims.id, id))
    .for('update');
  const lineas = await claimLinesOf(tx, [id]);
  return {
    order,
    claim: {
      id: claim!.id,
      numero: claim!.numero,
      from: claim!.estado as ClaimState,
      lineas: lineas.map(({ id, cantidad, motivo, nombre }) => ({ id, cantidad, motivo, nombre })),
    },
  };
}

/** The decision as the seam takes it (the carrier written as the carriers' table spells it, when known). */
function decisionOf(body: ClaimDecisionBody): ClaimDecision {
  if (body.accion === 'aceptar')
    return { accion: 'aceptar', resolucion: body.resolucion, nota: body.nota ?? null };
  if (body.accion === 'rechazar') return { accion: 'rechazar', motivo: body.motivo };
  const paqueteria = body.paqueteria ? (knownCarrier(body.paqueteria)?.nombre ?? body.paqueteria) : null;
  return { accion: 'devolucion', guia: body.guia, paqueteria, nota: body.nota ?? null };
}

/** Each decision's log entry type. */
const DECISION_LOG = {
  aceptar: 'reclamo_aceptado' satisfies LogEventType,
  rechazar: 'reclamo_rechazado' satisfies LogEventType,
  devolucion: 'reclamo_devolucion' satisfies LogEventType,
} as const;

/** POST /api/surtido/reclamos/{id}: the operator accepts (replacement or credit), refuses, or asks for a return. */
export async function operatorDecideClaim(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
  body: ClaimDecisionBody,
): Promise<ClaimDecisionResponse> {
  const decision = decisionOf(body);
  const written = await deps.db.transaction(async (tx) => {
    const { order, claim } = await lockClaim(tx, id);
    if (order.status !== 'aprobado') throw conflict('ORDER_NOT_APPROVED', MSG.surtidoNoAprobado);
    if (!claimNext(claim.from, body.accion))
      throw conflict('CLAIM_ALREADY_DECIDED', MSG.reclamoYaDecidido(CLAIM_STATE_LABELS[claim.from]));
    return orderChanged(tx, lifecycleDeps(deps), {
      kind: 'reclamo_decidido',
      order,
      claim,
      decision,
      actorId: auth.user.id,
      log: {
        eventType: DECISION_LOG[body.accion],
        description: `Pedido #${orderNumber(order.id)}: reclamo ${claim.numero} ${
          body.accion === 'aceptar'
            ? `aceptado (${body.resolucion === 'credito' ? 'crédito' : 'reposición'})`
            : body.accion === 'rechazar'
              ? 'rechazado'
              : 'con devolución solicitada'
        }`,
        metadata: requestMeta(request),
      },
    });
  });
  void deps.mailer.flush();
  const msg =
    decision.accion === 'rechazar'
      ? MSG.reclamoRechazado
      : decision.accion === 'devolucion'
        ? MSG.reclamoDevolucion
        : written.envio
          ? MSG.reclamoAceptadoReposicion(written.envio.numero)
          : MSG.reclamoAceptadoCredito(formatCentavos(written.credito));
  return {
    status: 'ok',
    msg,
    reclamo: { id, estado: written.estado },
    envio: written.envio,
    credito: centavosToPesos(written.credito),
  };
}
