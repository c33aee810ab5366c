/**
 * The order's lifecycle seam (issue 39, decision 0107): every change of an order's status, lines or
 * fulfilment is one call of `orderChanged`, inside the writer's transaction. The writer decides (who may,
 * from which state, to which) and describes the change; the seam writes it and does what follows from it,
 * in this order:
 *
 * 1. the running totals (sales summary and buyers' months, decisions 0055 and 0072): the order's
 *    contribution out before the write when the write changes it, back in after;
 * 2. the write, conditional on the state the change was decided from (409 to the loser of a race), with its
 *    order event and its log entry;
 * 3. the integration event (webhook outbox, decision 0060), after the event so the body carries it;
 * 4. the buyer's budget alerts, when the buyer's month moved (decision 0054);
 * 5. the e-mails the change sends (into the outbox; the caller flushes the mailer after the commit).
 *
 * Only this file calls the statements of `order-writes.ts` and `claim-writes.ts`; the purchase's one statement (decision 0086)
 * takes its totals (`PLACED_TOTALS`) and its e-mails from here. `lifecycle.test.ts` lists every place that
 * writes an order and fails when one bypasses the seam.
 */

import { monthUsedOf } from '@portal/shared/domain/budget';
import {
  CLAIM_MSG,
  CLAIM_STATE_LABELS,
  type ClaimAction,
  type ClaimReason,
  type ClaimResolution,
  type ClaimState,
  claimNext,
  type ReceiptReason,
} from '@portal/shared/domain/claims';
import { FULFILMENT_LABELS, type FulfilmentState, trackingLink } from '@portal/shared/domain/fulfilment';
import type { WebhookEventType } from '@portal/shared/domain/integration';
import type { InvoiceMatchState, MatchDifference } from '@portal/shared/domain/invoice-match';
import type { LogEventType } from '@portal/shared/domain/log-events';
import { totalsOf } from '@portal/shared/domain/money';
import type { OrderStatus } from '@portal/shared/domain/order-workflow';
import { orderNumber } from '@portal/shared/domain/order-workflow';
import { ROLES } from '@portal/shared/domain/roles';
import { businessDate, businessMonth } from '@portal/shared/domain/time';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { moveCtes, moveOrderTotals } from '../../db/order-totals.ts';
import { clients, orderEvents, orderLines, users } from '../../db/schema/index.ts';
import { audit } from '../../lib/audit.ts';
import type { Clock } from '../../lib/clock.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict } from '../../lib/errors.ts';
import type { JobRunner } from '../../lib/jobs.ts';
import { type Email, enqueueEmails } from '../../lib/mailer.ts';
import { MSG } from '../../messages.ts';
import { announceBudgets } from '../areas/area-budget.ts';
import { recordWebhookEvent } from '../integration/webhook-outbox.ts';
import type { KnownMonth } from './budget-alerts.ts';
import { sendAreaBudgetAlerts, sendBudgetAlerts } from './budget-alerts.ts';
import {
  type ClaimOutcome,
  claimDecidedEmail,
  claimOpenedEmails,
  receivedForBuyerEmail,
} from './claim-emails.ts';
import {
  attachPhotos,
  type ClaimUnits,
  type CreditAdjustment,
  consumeReplacementStock,
  everyShipmentReceived,
  insertClaim,
  insertCreditAdjustments,
  insertFullReceipts,
  insertReceipt,
  insertReplacement,
  releaseClaimUnits,
  writeClaimCredit,
  writeClaimDecision,
  writeClaimUnits,
  writeCredit,
} from './claim-writes.ts';
import { notifyComment } from './comments.service.ts';
import { approvalCredit, type CreditMemo } from './credit-check.ts';
import {
  authorizerEmails,
  buyerEmail,
  invoiceAvailableEmails,
  lineCancelledEmails,
  type Reviewer,
  type ReviewSummary,
  receiptNoteEmails,
  returnedEmails,
  shipmentEmail,
  shippedEmail,
} from './notifications.ts';
import {
  creditHoldOf,
  fulfilmentNow,
  type LineUnits,
  reserveOrderStock,
  type StockShortfall,
  unitsLeft,
  writeApproval,
  writeCancellation,
  writeCreditHold,
  writeCreditRelease,
  writeFulfilmentMove,
  writeLineCancellation,
  writeLineEdits,
  writeLineReleases,
  writeOrderTotals,
  writePromise,
  writeReleases,
  writeReturn,
  writeShipment,
} from './order-writes.ts';

/** What the seam needs besides the transaction: explicit, so a test can place it at any instant. */
export interface LifecycleDeps {
  publicUrl: string;
  /** The business time zone (months of the totals and the budget alerts). */
  tz: string;
  clock: Clock;
  /** The queue that delivers the integration events. */
  jobs: JobRunner;
  /** The clients' credit read once for a batch of final approvals (the bulk approval; credit-check.ts). */
  credit?: CreditMemo;
}

/** The seam's dependencies from the services' (lib/deps.ts). */
export function lifecycleDeps(deps: Pick<Deps, 'config' | 'clock' | 'jobs'>): LifecycleDeps {
  return {
    publicUrl: deps.config.PUBLIC_URL,
    tz: deps.config.BUSINESS_TZ,
    clock: deps.clock,
    jobs: deps.jobs,
  };
}

/** The order a change is about, as the writer read it (locked) before deciding. */
export interface OrderRef {
  id: number;
  idCliente: number;
  idUser: number;
  total: number;
  transactionDate: Date;
  /** The área the order is charged to (decision 0123), when the caller knows it: its alerts run only then. */
  idArea?: number | null;
}

/** Whom an e-mail to the buyer goes to. */
export interface BuyerContact {
  id: number;
  email: string;
  usuario: string;
  nombre: string;
}

/** A log entry of the change (the order's id is added). */
interface LogOf {
  eventType: LogEventType;
  description: string;
  metadata: Record<string, unknown>;
}

/**
 * The purchase (decision 0086): the writer's one statement inserts the order, its lines, events and log
 * entries and empties the cart; the seam gives it the totals' move (`PLACED_TOTALS`, reading the rows the
 * statement inserted) and the e-mails, and does the rest after it.
 */
export interface Placed {
  kind: 'colocado';
  order: OrderRef;
  status: OrderStatus;
  /** Approved at purchase by the client's automatic rule (decision 0049). */
  approvedByRule: boolean;
  buyerNombre: string;
  /** The first level's people and stand-ins, read with the buyer's snapshot (when the order waits). */
  reviewers: readonly Reviewer[] | null;
  /** What their e-mail says of the order (when it waits). */
  summary: ReviewSummary | null;
  /** The buyer's month after the purchase, from the snapshot read under the buyer's lock. */
  month: KnownMonth;
  write: (emails: readonly Email[]) => Promise<{ creado: readonly number[]; aprobado: readonly number[] }>;
}

/**
 * The CTEs that add a just-inserted order to the running totals, from the rows of the statement's `o`
 * (orders) and `l` (lines) CTEs: the purchase's statement includes them.
 */
export const PLACED_TOTALS = moveCtes(sql`true`, 1, { orders: sql`o`, lines: sql`l` });

/** An approval (rol 2 or rol 3, or a delegate), with the approver's line edits when there are any. */
export interface Reviewed {
  kind: 'aprobado';
  order: OrderRef;
  from: OrderStatus;
  to: OrderStatus;
  buyer: BuyerContact;
  /** The second level's people and stand-ins, when the order goes on to wait for them. */
  reviewers: readonly Reviewer[] | null;
  /** What their e-mail says of the order (when it goes on to wait for them). */
  summary: ReviewSummary | null;
  actor: { id: number; nombre: string; rol: number };
  onBehalfOfId: number | null;
  /** The approved lines' totals and count. */
  totals: { subtotal: number; iva: number; total: number };
  lineas: number;
  /** The approver's edits, written before the approval: lines removed, new quantities, the event's changes. */
  edits: {
    removed: readonly number[];
    edited: readonly { id: number; cantidad: number }[];
    changes: Record<string, unknown>;
    log: LogOf;
  } | null;
  /** A comment saved with the approval (decision 0047). */
  comentario: number | null;
  /** The 'aprobado' event's changes (the rule that completed it, the comment), or null. */
  changes: Record<string, unknown> | null;
  log: Omit<LogOf, 'eventType'>;
  /** The endpoints that want `pedido.aprobado` (read with the approval's read). */
  wanting: readonly number[];
  /** Starts the fulfilment when the approval completes the order (decision 0058). */
  surtidoInicial: FulfilmentState | null;
}

/** A cancellation by an approver, or the buyer's withdrawal of a pending order. */
export interface Cancelled {
  kind: 'cancelado';
  order: OrderRef;
  from: OrderStatus;
  reason: string | null;
  /** `retirado`: the buyer withdrew it (no e-mail to the buyer); `cancelado`: an approver cancelled it. */
  tipo: 'cancelado' | 'retirado';
  /** The event's changes: `{baja: true}` when the buyer's account was closed (SCIM, the HR list). */
  changes?: Record<string, unknown>;
  actorId: number;
  onBehalfOfId: number | null;
  log: LogOf;
}

/**
 * The Super Autorizador (or a stand-in) sends an order at level 2 back to level 1 with a required comment
 * (decision 0111): `espera` → `pendiente`, its amount still counting against the budget.
 */
export interface Returned {
  kind: 'devuelto';
  order: OrderRef;
  actor: { id: number; nombre: string };
  onBehalfOfId: number | null;
  /** The comment, already saved in the order's comments: its id and text. */
  comentario: { id: number; texto: string };
  buyerNombre: string;
  /** Who hears of it: the level-1 people who gave its approval and their stand-ins, else the whole level. */
  reviewers: readonly Reviewer[];
  log: LogOf;
}

/** A fulfilment move (forward only: decided by the writer), by the operator, an integration or the buyer. */
export interface FulfilmentMoved {
  kind: 'surtido';
  order: OrderRef;
  from: FulfilmentState;
  to: FulfilmentState;
  actorId: number | null;
  /** Set by a move to `enviado`. */
  guia?: { guia: string | null; paqueteria: string | null };
  /** Set by a move to `entregado`. */
  nota?: string | null;
  /**
   * The buyer's receipt of the whole order (decision 0127): a receipt of every unit, with the note, for each
   * shipment that has none.
   */
  recepcion?: { userId: number; nota: string | null };
  changes: Record<string, unknown> | null;
  log: LogOf;
}

/**
 * A shipment of some units of some lines (decision 0125), by the operator or an integration token: the
 * order goes to `parcial`, or to `enviado` when no unit is left to ship.
 */
export interface Shipped {
  kind: 'envio';
  order: OrderRef;
  /** The fulfilment state the writer read under the order's lock (a shippable one). */
  from: FulfilmentState;
  lineas: LineUnits;
  guia: string | null;
  paqueteria: string | null;
  /** The shipping date (business date). */
  fecha: string;
  actorId: number | null;
  log: LogOf;
}

/**
 * Units of a line the operator cancels as unavailable (decision 0125): their amount leaves the order's total,
 * the buyer's and the área's month at once; the buyer and the approvers hear of it. When no unit is left to
 * ship the order is `enviado` (or, if nothing was ever shipped, cancelled).
 */
export interface LineCancelled {
  kind: 'linea_cancelada';
  order: OrderRef;
  from: FulfilmentState;
  linea: { id: number; cantidad: number; nombre: string };
  motivo: string;
  actorId: number | null;
  log: LogOf;
}

/** The operator's promised date for lines still to ship (decision 0125). */
export interface Promised {
  kind: 'promesa';
  order: OrderRef;
  lineas: readonly number[];
  fecha: string;
  actorId: number | null;
  log: LogOf;
}

/** Units of a line a claim covers, with why and the product's name (its refusal and e-mails name it). */
export interface ClaimLine {
  id: number;
  cantidad: number;
  motivo: ClaimReason;
  nombre: string;
}

/**
 * The buyer's receipt of one shipment (decision 0127): every line of it with the units received in good
 * condition; the differences open a claim in the same change. When the order is `enviado` and every shipment
 * that is not a replacement has its receipt, the order moves to `entregado`.
 */
export interface Received {
  kind: 'recepcion';
  order: OrderRef;
  /** The fulfilment state read under the order's lock (parcial, enviado or entregado). */
  from: FulfilmentState;
  envio: { id: number; numero: number; reposicion: boolean };
  lineas: readonly { id: number; recibido: number; motivo: ReceiptReason | null }[];
  nota: string | null;
  /** Photos uploaded first (their ids), attached to the receipt (and to its claim). */
  fotos: readonly number[];
  /** The claim the differences open, or null when everything arrived. */
  reclamo: { lineas: readonly ClaimLine[]; resolucion: ClaimResolution } | null;
  actorId: number;
  log: LogOf;
}

/** A claim the buyer opens by hand on shipped units (decision 0127). */
export interface ClaimOpened {
  kind: 'reclamo';
  order: OrderRef;
  lineas: readonly ClaimLine[];
  resolucion: ClaimResolution;
  nota: string | null;
  fotos: readonly number[];
  actorId: number;
  log: LogOf;
}

/** The operator's decision on a claim (decision 0127). */
export type ClaimDecision =
  | { accion: 'aceptar'; resolucion: ClaimResolution; nota: string | null }
  | { accion: 'rechazar'; motivo: string }
  | { accion: 'devolucion'; guia: string; paqueteria: string | null; nota: string | null };

/**
 * The operator decides a claim, read (locked after its order) in state `from`; the order with its área
 * (`idArea`: a credit in a month that is over gives the área its amount back too).
 */
export interface ClaimDecided {
  kind: 'reclamo_decidido';
  order: OrderRef & { idArea: number | null };
  claim: { id: number; numero: number; from: ClaimState; lineas: readonly ClaimLine[] };
  decision: ClaimDecision;
  actorId: number;
  log: LogOf;
}

/**
 * A CFDI registered for the order (decision 0131): the invoices module wrote it in the caller's transaction
 * (the invoice, its concepts, and the saldo a credit note or a payment took from the invoices it names); the
 * seam writes the order's event (`factura`; `factura_aplicada` on every other order whose invoice it
 * applied to), the log entry and the webhooks: `factura.registrada` for the order, and for a payment
 * complement `pago.aplicado` for each order whose invoices it paid; for an invoice (I), its three-way match
 * in the event, `factura.con_diferencias` when it found differences, and «Factura disponible» to the client's
 * billing e-mails (decision 0133). The order's status, lines and totals do not change.
 */
export interface InvoiceRegistered {
  kind: 'factura';
  order: OrderRef;
  factura: { uuid: string; tipo: 'I' | 'E' | 'P'; serie: string | null; folio: string | null; total: number };
  /** What a credit note or a payment applied: each invoice's order and UUID, the amount and its saldo after. */
  aplicaciones: readonly { orderId: number; uuid: string; importe: number; saldo: number }[];
  /** An invoice's three-way match (decision 0133); null for E and P. */
  cotejo: { estado: InvoiceMatchState; diferencias: readonly MatchDifference[] } | null;
  /** The invoice with differences a credit note resolved (its UUID), or null. */
  resuelta: { uuid: string } | null;
  /** The SAT's verification link of the CFDI (the e-mail «Factura disponible» gives it). */
  verificacion: string;
  /** The CFDI as the v1 API shows it: the webhooks' `factura`. */
  body: object;
  actorId: number | null;
  log: LogOf;
}

/**
 * The operator accepted the differences of an invoice's match with a reason (decision 0133): the invoices
 * module moved it from `con_diferencias` to `diferencia_aceptada` (conditionally: the loser of a race 409);
 * the seam writes the order's event `factura_cotejo` and the log entry.
 */
export interface InvoiceMatchAccepted {
  kind: 'factura_cotejo';
  order: OrderRef;
  factura: { uuid: string; serie: string | null; folio: string | null };
  motivo: string;
  actorId: number;
  log: LogOf;
}

/**
 * The operator releases an order held for credit (decision 0134): it may move in fulfilment again. The
 * write is conditional on the hold (the loser of a race gets 409).
 */
export interface CreditReleased {
  kind: 'liberado_credito';
  order: OrderRef;
  /** The hold's reason as the writer read it under the order's lock. */
  motivo: string;
  actorId: number;
  log: LogOf;
}

export type OrderChange =
  | CreditReleased
  | InvoiceRegistered
  | InvoiceMatchAccepted
  | Placed
  | Reviewed
  | Cancelled
  | Returned
  | FulfilmentMoved
  | Shipped
  | LineCancelled
  | Promised
  | Received
  | ClaimOpened
  | ClaimDecided;

/** What a receipt wrote: its id, the claim it opened and the order's fulfilment after it. */
export interface ReceiptRow {
  id: number;
  reclamo: { id: number; numero: number } | null;
  surtido: FulfilmentState;
}

/** A claim as opened. */
export interface ClaimRow {
  id: number;
  numero: number;
}

/** What a decision wrote: the claim's state, the replacement shipment and the credit (centavos). */
export interface ClaimDecisionRow {
  estado: ClaimState;
  envio: { id: number; numero: number } | null;
  credito: number;
}

/** What a shipment wrote: its number and the order's fulfilment after it. */
export interface ShipmentRow {
  id: number;
  numero: number;
  surtido: FulfilmentState;
}

/** The order's fulfilment after a move. */
export interface MovedRow {
  surtido: string | null;
  guia: string | null;
  notaRecepcion: string | null;
}

/** Whether an order in this status counts in the totals, the budget and the purchase limit. */
const counts = (status: OrderStatus) => status !== 'cancelado';

const alreadyProcessed = () => conflict('ORDER_ALREADY_PROCESSED', MSG.pedidoYaProcesado);
const alreadyIn = (state: FulfilmentState) =>
  conflict('FULFILMENT_ALREADY', MSG.surtidoYaEn(FULFILMENT_LABELS[state]));

export function orderChanged(tx: Tx, deps: LifecycleDeps, change: FulfilmentMoved): Promise<MovedRow>;
export function orderChanged(tx: Tx, deps: LifecycleDeps, change: Shipped): Promise<ShipmentRow>;
export function orderChanged(tx: Tx, deps: LifecycleDeps, change: Received): Promise<ReceiptRow>;
export function orderChanged(tx: Tx, deps: LifecycleDeps, change: ClaimOpened): Promise<ClaimRow>;
export function orderChanged(tx: Tx, deps: LifecycleDeps, change: ClaimDecided): Promise<ClaimDecisionRow>;
export function orderChanged(
  tx: Tx,
  deps: LifecycleDeps,
  change:
    | Placed
    | Reviewed
    | Cancelled
    | Returned
    | LineCancelled
    | Promised
    | InvoiceRegistered
    | InvoiceMatchAccepted
    | CreditReleased,
): Promise<undefined>;
/** The one seam: see the file's head. A refusal (409 to the loser of a race) throws and the caller rolls back. */
export async function orderChanged(
  tx: Tx,
  deps: LifecycleDeps,
  change: OrderChange,
): Promise<MovedRow | ShipmentRow | ReceiptRow | ClaimRow | ClaimDecisionRow | undefined> {
  switch (change.kind) {
    case 'colocado':
      await placed(tx, deps, change);
      return undefined;
    case 'aprobado':
      await reviewed(tx, deps, change);
      return undefined;
    case 'cancelado':
      await cancelled(tx, deps, change);
      return undefined;
    case 'devuelto':
      await returned(tx, deps, change);
      return undefined;
    case 'surtido':
      return fulfilmentMoved(tx, deps, change);
    case 'envio':
      return shipped(tx, deps, change);
    case 'linea_cancelada':
      await lineCancelled(tx, deps, change);
      return undefined;
    case 'promesa':
      await promised(tx, change);
      return undefined;
    case 'recepcion':
      return received(tx, deps, change);
    case 'reclamo':
      return claimOpened(tx, deps, { ...change, envio: null, receiptId: null });
    case 'reclamo_decidido':
      return claimDecided(tx, deps, change);
    case 'factura':
      await invoiceRegistered(tx, deps, change);
      return undefined;
    case 'factura_cotejo':
      await invoiceMatchAccepted(tx, change);
      return undefined;
    case 'liberado_credito':
      await creditReleased(tx, deps, change);
      return undefined;
  }
}

async function invoiceMatchAccepted(tx: Tx, c: InvoiceMatchAccepted): Promise<void> {
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: 'factura_cotejo',
    changes: { ...c.factura, cotejo: 'diferencia_aceptada', motivo: c.motivo },
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, uuid: c.factura.uuid, motivo: c.motivo, ...c.log.metadata },
  });
}

const heldForCredit = () => conflict('CREDIT_HOLD', MSG.pedidoRetenidoCredito);

/**
 * The credit check of a final approval (decision 0134), after the approval's write: a client over its
 * limit (its balance plus this order) or with an overdue invoice gets, with policy `retener`, the order held
 * (event `retenido_credito`, log entry); with `avisar`, an event `aviso_credito` that says why, which the
 * order's history shows to its approvers. Answers whether it held the order: the caller records the
 * `pedido.retenido_credito` webhook after `pedido.aprobado` (decision 0136).
 */
async function creditOnApproval(
  tx: Tx,
  deps: LifecycleDeps,
  order: { id: number; idCliente: number },
  total: number,
  actorId: number | null,
): Promise<boolean> {
  const found = await approvalCredit(
    tx,
    order.idCliente,
    total,
    businessDate(deps.clock.now(), deps.tz),
    deps.credit,
  );
  if (!found) return false;
  const { problem, motivo, retener, credit } = found;
  const changes = {
    excedido: problem.excedido,
    vencido: problem.vencido,
    saldo: credit.summary.saldo,
    importe_vencido: credit.summary.vencido,
    limite: credit.terms.limite,
    total,
  };
  if (retener && !(await writeCreditHold(tx, { orderId: order.id, motivo, at: deps.clock.now() })))
    throw alreadyProcessed();
  await tx.insert(orderEvents).values({
    orderId: order.id,
    actorId,
    tipo: retener ? 'retenido_credito' : 'aviso_credito',
    reason: motivo,
    changes,
  });
  if (retener)
    await audit(tx, {
      userId: actorId,
      eventType: 'pedido_retenido_credito',
      description: `Pedido #${orderNumber(order.id)} retenido por crédito: ${motivo}`,
      metadata: { id_pedido: order.id, ...changes },
    });
  return retener;
}

async function creditReleased(tx: Tx, deps: LifecycleDeps, c: CreditReleased): Promise<void> {
  if (!(await writeCreditRelease(tx, { orderId: c.order.id, at: deps.clock.now() })))
    throw conflict('CREDIT_NOT_HELD', MSG.pedidoNoRetenido);
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: 'liberado_credito',
    reason: c.motivo,
    changes: null,
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, ...c.log.metadata },
  });
  await recordWebhookEvent(tx, deps, {
    clientId: c.order.idCliente,
    type: 'pedido.liberado_credito',
    orderId: c.order.id,
  });
}

async function invoiceRegistered(tx: Tx, deps: LifecycleDeps, c: InvoiceRegistered): Promise<void> {
  const { uuid, tipo, serie, folio, total } = c.factura;
  const applied = (orderId: number) =>
    c.aplicaciones
      .filter((a) => a.orderId === orderId)
      .map((a) => ({ uuid: a.uuid, importe: a.importe, saldo: a.saldo }));
  const others = [...new Set(c.aplicaciones.map((a) => a.orderId))].filter((id) => id !== c.order.id);
  await tx.insert(orderEvents).values([
    {
      orderId: c.order.id,
      actorId: c.actorId,
      tipo: 'factura',
      changes: {
        uuid,
        tipo,
        serie,
        folio,
        total,
        aplicaciones: applied(c.order.id),
        ...(c.cotejo ? { cotejo: c.cotejo.estado, diferencias: c.cotejo.diferencias.length } : {}),
        ...(c.resuelta ? { resuelve: c.resuelta.uuid } : {}),
      },
    },
    ...others.map((orderId) => ({
      orderId,
      actorId: c.actorId,
      tipo: 'factura_aplicada',
      changes: { uuid, tipo, serie, folio, total, aplicaciones: applied(orderId) },
    })),
  ]);
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, uuid, tipo, ...c.log.metadata },
  });
  const event = { clientId: c.order.idCliente, factura: c.body };
  await recordWebhookEvent(tx, deps, { ...event, type: 'factura.registrada', orderId: c.order.id });
  if (c.cotejo?.estado === 'con_diferencias')
    await recordWebhookEvent(tx, deps, { ...event, type: 'factura.con_diferencias', orderId: c.order.id });
  if (tipo === 'I')
    await enqueueEmails(tx, await invoiceAvailableEmails(tx, c.order, c.factura, c.verificacion));
  if (tipo === 'P')
    for (const orderId of [...new Set(c.aplicaciones.map((a) => a.orderId))])
      await recordWebhookEvent(tx, deps, { ...event, type: 'pago.aplicado', orderId });
}

async function placed(tx: Tx, deps: LifecycleDeps, c: Placed): Promise<void> {
  const info = {
    id: c.order.id,
    total: c.order.total,
    idCliente: c.order.idCliente,
    buyerNombre: c.buyerNombre,
  };
  const emails =
    c.status === 'pendiente'
      ? authorizerEmails(deps.publicUrl, ROLES.autorizador, info, c.reviewers ?? [], c.summary)
      : [];
  const wanting = await c.write(emails);
  if (c.approvedByRule) {
    // The buyer as the database has it now (the session's copy may be older).
    const [me] = await tx
      .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
      .from(users)
      .where(eq(users.id, c.order.idUser));
    if (me) await enqueueEmails(tx, [buyerEmail(deps.publicUrl, me, c.order, 'aprobado')]);
  }
  // Approved at purchase by the client's rule: that approval reserves the stock too (decision 0124).
  let held = false;
  if (c.status === 'aprobado') {
    await reserveStock(tx, deps, c.order.id);
    held = await creditOnApproval(tx, deps, c.order, c.order.total, null);
  }
  const event = { clientId: c.order.idCliente, orderId: c.order.id };
  await recordWebhookEvent(tx, deps, { ...event, type: 'pedido.creado' }, wanting.creado);
  if (c.status === 'aprobado')
    await recordWebhookEvent(tx, deps, { ...event, type: 'pedido.aprobado' }, wanting.aprobado);
  if (held) await recordWebhookEvent(tx, deps, { ...event, type: 'pedido.retenido_credito' });
  await sendBudgetAlerts(tx, alertConfig(deps), c.order.idUser, c.order.transactionDate, c.month);
  if (c.order.idArea) await sendAreaBudgetAlerts(tx, alertConfig(deps), c.order.id, c.order.transactionDate);
}

async function reviewed(tx: Tx, deps: LifecycleDeps, c: Reviewed): Promise<void> {
  const at = deps.clock.now();
  if (c.edits) {
    // The edited lines and total replace the old ones in the totals: out before the lines change, back in
    // once the approval's statement has written the new total.
    await moveOrderTotals(tx, c.order.id, -1);
    await writeLineEdits(tx, c.edits.removed, c.edits.edited);
    await tx.insert(orderEvents).values({
      orderId: c.order.id,
      actorId: c.actor.id,
      onBehalfOfId: c.onBehalfOfId,
      tipo: 'editado',
      fromStatus: c.from,
      toStatus: c.from,
      changes: c.edits.changes,
    });
    await audit(tx, {
      userId: c.actor.id,
      eventType: c.edits.log.eventType,
      description: c.edits.log.description,
      metadata: { id_pedido: c.order.id, ...c.edits.log.metadata },
    });
  }
  const info = {
    id: c.order.id,
    total: c.totals.total,
    idCliente: c.order.idCliente,
    buyerNombre: c.buyer.nombre,
  };
  const emails =
    c.to === 'espera'
      ? authorizerEmails(deps.publicUrl, ROLES.superAutorizador, info, c.reviewers ?? [], c.summary)
      : c.to === 'aprobado'
        ? [buyerEmail(deps.publicUrl, c.buyer, info, 'aprobado')]
        : [];
  // A final approval reserves the approved lines' stock in the same statement (decision 0124), after the
  // edits; a line its client cannot backorder refuses it.
  const { written, short } = await writeApproval(tx, {
    orderId: c.order.id,
    from: c.from,
    to: c.to,
    surtidoEstatus: c.surtidoInicial,
    totals: c.totals,
    lineas: c.lineas,
    at,
    actorId: c.actor.id,
    onBehalfOfId: c.onBehalfOfId,
    changes: c.changes,
    description: c.log.description,
    metadata: c.log.metadata,
    emails,
    today: businessDate(at, deps.tz),
  });
  if (!written) throw alreadyProcessed();
  if (short) throw outOfStock(short);
  const held = c.to === 'aprobado' && (await creditOnApproval(tx, deps, c.order, c.totals.total, c.actor.id));
  if (c.edits) {
    await moveOrderTotals(tx, c.order.id, 1);
    // Edited lines move the buyer's month: the budget alerts of that month (decision 0054).
    await sendBudgetAlerts(tx, alertConfig(deps), c.order.idUser, c.order.transactionDate);
    await sendAreaBudgetAlerts(tx, alertConfig(deps), c.order.id, c.order.transactionDate);
  }
  if (c.to === 'aprobado' && c.wanting.length > 0)
    await recordWebhookEvent(
      tx,
      deps,
      { clientId: c.order.idCliente, type: 'pedido.aprobado', orderId: c.order.id },
      c.wanting,
    );
  // Approved, the buyer already gets an e-mail that links to the order and its comment.
  else if (c.to !== 'aprobado' && c.comentario)
    await notifyComment(tx, deps.publicUrl, { ...c.order, status: c.from }, c.actor);
  // Held for credit at this approval (decision 0136): after `pedido.aprobado`, whose body already shows it.
  if (held)
    await recordWebhookEvent(tx, deps, {
      clientId: c.order.idCliente,
      type: 'pedido.retenido_credito',
      orderId: c.order.id,
    });
}

async function cancelled(tx: Tx, deps: LifecycleDeps, c: Cancelled): Promise<void> {
  // Out of the totals and the buyer's running month before it is cancelled.
  if (counts(c.from)) await moveOrderTotals(tx, c.order.id, -1);
  const written = await writeCancellation(tx, {
    orderId: c.order.id,
    from: c.from,
    reason: c.reason,
    at: deps.clock.now(),
  });
  if (!written) throw alreadyProcessed();
  // What an approved order reserved is available again (decision 0124).
  if (c.from === 'aprobado') await writeReleases(tx, c.order.id, false);
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    onBehalfOfId: c.onBehalfOfId,
    tipo: c.tipo,
    fromStatus: c.from,
    toStatus: 'cancelado',
    reason: c.reason,
    changes: c.changes ?? null,
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, ...c.log.metadata },
  });
  if (c.tipo === 'cancelado') {
    const [buyer] = await tx
      .select({ id: users.id, email: users.email, usuario: users.usuario, nombre: users.nombre })
      .from(users)
      .where(eq(users.id, c.order.idUser));
    if (buyer) await enqueueEmails(tx, [buyerEmail(deps.publicUrl, buyer, c.order, 'cancelado', c.reason)]);
  }
  // For the integrations a withdrawal is a cancellation too (decision 0060): the order is `cancelado`.
  await recordWebhookEvent(tx, deps, {
    clientId: c.order.idCliente,
    type: 'pedido.cancelado',
    orderId: c.order.id,
  });
  // A cancellation only lowers the month; the check still runs (decision 0054) and never re-sends.
  await sendBudgetAlerts(tx, alertConfig(deps), c.order.idUser, c.order.transactionDate);
}

async function returned(tx: Tx, deps: LifecycleDeps, c: Returned): Promise<void> {
  // Both statuses count: the totals, the buyer's month and its alerts stay as they are, and the integrations
  // hear of neither level (only creado, aprobado, cancelado and surtido are events, decision 0060).
  if (!(await writeReturn(tx, { orderId: c.order.id, at: deps.clock.now() }))) throw alreadyProcessed();
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actor.id,
    onBehalfOfId: c.onBehalfOfId,
    tipo: 'devuelto',
    fromStatus: 'espera',
    toStatus: 'pendiente',
    reason: c.comentario.texto,
    changes: { id_comentario: c.comentario.id },
  });
  await audit(tx, {
    userId: c.actor.id,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, ...c.log.metadata },
  });
  const info = {
    id: c.order.id,
    total: c.order.total,
    idCliente: c.order.idCliente,
    buyerNombre: c.buyerNombre,
  };
  await enqueueEmails(
    tx,
    returnedEmails(deps.publicUrl, info, c.actor.nombre, c.comentario.texto, c.reviewers),
  );
}

async function fulfilmentMoved(tx: Tx, deps: LifecycleDeps, c: FulfilmentMoved): Promise<MovedRow> {
  // Held for credit: no move until the operator releases it (decision 0134); the writer locked the order.
  if (await creditHoldOf(tx, c.order.id)) throw heldForCredit();
  const moved = await writeFulfilmentMove(tx, {
    orderId: c.order.id,
    from: c.from,
    to: c.to,
    guia: c.guia,
    nota: c.nota,
    at: deps.clock.now(),
  });
  // Someone moved it first: say where it is now.
  if (!moved) throw alreadyIn(((await fulfilmentNow(tx, c.order.id)) ?? c.from) as FulfilmentState);
  // Shipped (or delivered) at once: every unit left goes in one shipment, which consumes its reservation off
  // the products' stock (decisions 0124 and 0125).
  let envio: number | null = null;
  if (c.to === 'enviado' || c.to === 'entregado') {
    const rest = await unitsLeft(tx, c.order.id);
    if (rest.length > 0) {
      const written = await writeShipment(tx, {
        orderId: c.order.id,
        lines: rest,
        guia: c.guia?.guia ?? null,
        paqueteria: c.guia?.paqueteria ?? null,
        fecha: businessDate(deps.clock.now(), deps.tz),
        actorId: c.actorId,
        at: deps.clock.now(),
      });
      if (!written) throw alreadyIn(c.from);
      envio = written.numero;
      await writeLineReleases(tx, rest, true);
    }
  }
  // The buyer's «Recibido» of the whole order receives every shipment still without a receipt, in full.
  if (c.to === 'entregado' && c.recepcion)
    await insertFullReceipts(tx, { orderId: c.order.id, ...c.recepcion, at: deps.clock.now() });
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: 'surtido',
    fromStatus: c.from,
    toStatus: c.to,
    changes: envio === null ? c.changes : { ...c.changes, envio },
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, ...c.log.metadata },
  });
  await recordWebhookEvent(tx, deps, {
    clientId: c.order.idCliente,
    type: 'pedido.surtido',
    orderId: c.order.id,
  });
  if (c.to === 'enviado') {
    const guia = c.guia?.guia ? trackingLink(c.guia.guia, c.guia.paqueteria) : null;
    await enqueueEmails(tx, await shippedEmail(tx, deps.publicUrl, c.order, guia));
  }
  if (c.to === 'entregado' && c.nota)
    await enqueueEmails(tx, await receiptNoteEmails(tx, deps.publicUrl, c.order, c.nota, c.order.idUser));
  return moved;
}

async function shipped(tx: Tx, deps: LifecycleDeps, c: Shipped): Promise<ShipmentRow> {
  if (await creditHoldOf(tx, c.order.id)) throw heldForCredit();
  const at = deps.clock.now();
  const written = await writeShipment(tx, {
    orderId: c.order.id,
    lines: c.lineas,
    guia: c.guia,
    paqueteria: c.paqueteria,
    fecha: c.fecha,
    actorId: c.actorId,
    at,
  });
  if (!written) throw conflict('SHIPMENT_EXCEEDS', MSG.envioExcede);
  await writeLineReleases(tx, c.lineas, true);
  const to: FulfilmentState = (await unitsLeft(tx, c.order.id)).length === 0 ? 'enviado' : 'parcial';
  // The order's guía is its last shipment's; the state moves only forward (parcial stays parcial).
  const moved = await writeFulfilmentMove(tx, {
    orderId: c.order.id,
    from: c.from,
    to,
    guia: { guia: c.guia, paqueteria: c.paqueteria },
    at,
  });
  if (!moved) throw alreadyIn(((await fulfilmentNow(tx, c.order.id)) ?? c.from) as FulfilmentState);
  const changes = {
    envio: written.numero,
    lineas: c.lineas,
    ...(c.guia ? { guia: c.guia } : {}),
    ...(c.paqueteria ? { paqueteria: c.paqueteria } : {}),
  };
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: 'envio',
    fromStatus: c.from,
    toStatus: to,
    changes,
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, envio: written.numero, ...c.log.metadata },
  });
  const event = { clientId: c.order.idCliente, orderId: c.order.id };
  await recordWebhookEvent(tx, deps, { ...event, type: 'pedido.envio', envio: written.id });
  if (to !== c.from) await recordWebhookEvent(tx, deps, { ...event, type: 'pedido.surtido' });
  const guia = c.guia ? trackingLink(c.guia, c.paqueteria) : null;
  await enqueueEmails(
    tx,
    await shipmentEmail(tx, deps.publicUrl, c.order, { numero: written.numero, id: written.id }, guia, to),
  );
  return { id: written.id, numero: written.numero, surtido: to };
}

async function lineCancelled(tx: Tx, deps: LifecycleDeps, c: LineCancelled): Promise<void> {
  const at = deps.clock.now();
  // The order's contribution out before its line and total change, back in after (its budget released).
  await moveOrderTotals(tx, c.order.id, -1);
  const line = await writeLineCancellation(tx, {
    orderId: c.order.id,
    lineId: c.linea.id,
    cantidad: c.linea.cantidad,
    motivo: c.motivo,
  });
  if (!line) throw conflict('LINE_CANCEL_EXCEEDS', MSG.lineaCancelarExcede);
  await writeLineReleases(tx, [{ id: c.linea.id, cantidad: c.linea.cantidad }], false);
  const lines = await tx
    .select({ precio: orderLines.precio, cantidad: orderLines.cantidad, impuesto: orderLines.impuesto })
    .from(orderLines)
    .where(eq(orderLines.orderId, c.order.id));
  const totals = totalsOf(lines);
  await writeOrderTotals(tx, c.order.id, totals, at);
  await moveOrderTotals(tx, c.order.id, 1);
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: 'linea_cancelada',
    fromStatus: c.from,
    toStatus: c.from,
    reason: c.motivo,
    changes: {
      linea: c.linea.id,
      producto: c.linea.nombre,
      cantidad: c.linea.cantidad,
      total_anterior: c.order.total,
      total: totals.total,
    },
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, ...c.log.metadata },
  });
  await recordWebhookEvent(tx, deps, {
    clientId: c.order.idCliente,
    type: 'pedido.linea_cancelada',
    orderId: c.order.id,
  });
  const info = { ...c.order, total: totals.total };
  await enqueueEmails(
    tx,
    await lineCancelledEmails(tx, deps.publicUrl, info, c.linea, c.motivo, c.order.total),
  );
  // Only lowers the months; the checks still run and never re-send (decision 0054).
  await sendBudgetAlerts(tx, alertConfig(deps), c.order.idUser, c.order.transactionDate);
  if ((await unitsLeft(tx, c.order.id)).length > 0) return;
  // No unit left to ship: shipped if some ever were, else the whole order is cancelled with the reason.
  const [sent] = await tx
    .select({ n: sql<number>`coalesce(sum(${orderLines.enviado}), 0)::int` })
    .from(orderLines)
    .where(eq(orderLines.orderId, c.order.id));
  if (Number(sent?.n ?? 0) > 0) {
    const moved = await writeFulfilmentMove(tx, { orderId: c.order.id, from: c.from, to: 'enviado', at });
    if (!moved) throw alreadyIn(((await fulfilmentNow(tx, c.order.id)) ?? c.from) as FulfilmentState);
    await tx.insert(orderEvents).values({
      orderId: c.order.id,
      actorId: c.actorId,
      tipo: 'surtido',
      fromStatus: c.from,
      toStatus: 'enviado',
    });
    await recordWebhookEvent(tx, deps, {
      clientId: c.order.idCliente,
      type: 'pedido.surtido',
      orderId: c.order.id,
    });
    return;
  }
  await cancelled(tx, deps, {
    kind: 'cancelado',
    order: info,
    from: 'aprobado',
    reason: c.motivo,
    tipo: 'cancelado',
    actorId: c.actorId ?? c.order.idUser,
    onBehalfOfId: null,
    log: {
      eventType: 'pedido_cancelado',
      description: `Pedido #${orderNumber(c.order.id)} cancelado: ninguna línea con existencia`,
      metadata: { motivo: c.motivo },
    },
  });
}

async function promised(tx: Tx, c: Promised): Promise<void> {
  const n = await writePromise(tx, { orderId: c.order.id, lines: c.lineas, fecha: c.fecha });
  if (n !== c.lineas.length) throw conflict('PROMISE_LINES_CLOSED', MSG.promesaLineasCerradas);
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: 'promesa',
    changes: { lineas: c.lineas, fecha: c.fecha },
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, ...c.log.metadata },
  });
}

async function received(tx: Tx, deps: LifecycleDeps, c: Received): Promise<ReceiptRow> {
  const at = deps.clock.now();
  const id = await insertReceipt(tx, {
    orderId: c.order.id,
    shipmentId: c.envio.id,
    userId: c.actorId,
    nota: c.nota,
    at,
    lineas: c.lineas,
  });
  // Received once: the unique index decides between two receipts of one shipment at once.
  if (id === null) throw conflict('RECEIPT_EXISTS', MSG.recepcionExiste);
  const diferencias = c.reclamo?.lineas ?? [];
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: 'recepcion',
    changes: {
      envio: c.envio.numero,
      ...(c.envio.reposicion ? { reposicion: true } : {}),
      lineas: diferencias.map((l) => ({
        linea: l.id,
        producto: l.nombre,
        cantidad: l.cantidad,
        motivo: l.motivo,
      })),
      ...(c.nota ? { nota: c.nota } : {}),
    },
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, envio: c.envio.numero, ...c.log.metadata },
  });
  const reclamo = c.reclamo
    ? await claimOpened(tx, deps, {
        kind: 'reclamo',
        order: c.order,
        lineas: c.reclamo.lineas,
        resolucion: c.reclamo.resolucion,
        nota: c.nota,
        fotos: c.fotos,
        actorId: c.actorId,
        envio: c.envio,
        receiptId: id,
        log: {
          eventType: 'reclamo_abierto',
          description: `Pedido #${orderNumber(c.order.id)}: reclamo abierto al recibir el envío ${c.envio.numero}`,
          metadata: c.log.metadata,
        },
      })
    : null;
  if (!reclamo) await attachAll(tx, c.order, c.actorId, c.fotos, { receiptId: id, claimId: null });
  const surtido = await deliveredWhenAllReceived(tx, deps, c);
  // A note without a claim reaches the operators as the whole order's note does; a claim says it itself.
  if (!reclamo && c.nota)
    await enqueueEmails(tx, await receiptNoteEmails(tx, deps.publicUrl, c.order, c.nota, c.actorId));
  // Received by a receiver the client named (decision 0130): the buyer hears who received it.
  if (c.actorId !== c.order.idUser)
    await enqueueEmails(
      tx,
      await receivedForBuyerEmail(tx, deps.publicUrl, c.order, {
        envio: c.envio.numero,
        receptorId: c.actorId,
        nota: c.nota,
        reclamo:
          reclamo && c.reclamo
            ? { numero: reclamo.numero, envio: c.envio.numero, nota: c.nota, ...c.reclamo }
            : null,
      }),
    );
  return { id, reclamo, surtido };
}

/**
 * After a receipt: an `enviado` order whose every shipment that is not a replacement has its receipt moves to
 * `entregado` (conditional, with its event, log entry and `pedido.surtido`). A replacement's receipt never
 * moves the order.
 */
async function deliveredWhenAllReceived(tx: Tx, deps: LifecycleDeps, c: Received): Promise<FulfilmentState> {
  if (c.from !== 'enviado' || c.envio.reposicion || !(await everyShipmentReceived(tx, c.order.id)))
    return c.from;
  const moved = await writeFulfilmentMove(tx, {
    orderId: c.order.id,
    from: 'enviado',
    to: 'entregado',
    at: deps.clock.now(),
  });
  if (!moved) throw alreadyIn(((await fulfilmentNow(tx, c.order.id)) ?? c.from) as FulfilmentState);
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: 'surtido',
    fromStatus: 'enviado',
    toStatus: 'entregado',
    changes: { envio: c.envio.numero },
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: 'pedido_surtido',
    description: `Pedido #${orderNumber(c.order.id)}: surtido ${FULFILMENT_LABELS.enviado} → ${FULFILMENT_LABELS.entregado} (todos los envíos recibidos)`,
    metadata: { id_pedido: c.order.id, de: 'enviado', a: 'entregado', envio: c.envio.numero },
  });
  await recordWebhookEvent(tx, deps, {
    clientId: c.order.idCliente,
    type: 'pedido.surtido',
    orderId: c.order.id,
  });
  return 'entregado';
}

/** Attaches the named photos (none: nothing); one that is not the buyer's own loose photo of this order: 400. */
async function attachAll(
  tx: Tx,
  order: OrderRef,
  userId: number,
  fotos: readonly number[],
  to: { receiptId: number | null; claimId: number | null },
): Promise<void> {
  if (fotos.length === 0) return;
  const n = await attachPhotos(tx, { orderId: order.id, userId, ids: fotos, ...to });
  if (n !== fotos.length)
    throw badRequest('CLAIM_PHOTOS', CLAIM_MSG.reclamoFotos, { fotos: CLAIM_MSG.reclamoFotos });
}

/**
 * Opens a claim (by hand, or by a receipt's differences): its units go under claim only where the lines still
 * have that many shipped units not claimed (409 naming the product otherwise), numbered after the order's
 * last claim, with its event, log entry, `reclamo.abierto` and the operators' e-mail.
 */
async function claimOpened(
  tx: Tx,
  deps: LifecycleDeps,
  c: ClaimOpened & { envio: { id: number; numero: number } | null; receiptId: number | null },
): Promise<ClaimRow> {
  const units = c.lineas.map((l) => ({ id: l.id, cantidad: l.cantidad }));
  const written = await writeClaimUnits(tx, c.order.id, units);
  if (written.length !== units.length) {
    const failed = c.lineas.find((l) => !written.includes(l.id))!;
    const [left] = await tx
      .select({ n: sql<number>`${orderLines.enviado} + ${orderLines.acreditado} - ${orderLines.reclamado}` })
      .from(orderLines)
      .where(eq(orderLines.id, failed.id));
    throw conflict('CLAIM_EXCEEDS', MSG.reclamoExcede(failed.nombre, Math.max(Number(left?.n ?? 0), 0)));
  }
  const claim = await insertClaim(tx, {
    orderId: c.order.id,
    userId: c.actorId,
    shipmentId: c.envio?.id ?? null,
    resolucion: c.resolucion,
    nota: c.nota,
    at: deps.clock.now(),
    lineas: c.lineas,
  });
  await attachAll(tx, c.order, c.actorId, c.fotos, { receiptId: c.receiptId, claimId: claim.id });
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: 'reclamo',
    reason: c.nota,
    changes: {
      reclamo: claim.numero,
      ...(c.envio ? { envio: c.envio.numero } : {}),
      resolucion: c.resolucion,
      lineas: c.lineas.map((l) => ({
        linea: l.id,
        producto: l.nombre,
        cantidad: l.cantidad,
        motivo: l.motivo,
      })),
    },
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, reclamo: claim.numero, ...c.log.metadata },
  });
  await recordWebhookEvent(tx, deps, {
    clientId: c.order.idCliente,
    type: 'reclamo.abierto',
    orderId: c.order.id,
    reclamo: claim.id,
  });
  await enqueueEmails(
    tx,
    await claimOpenedEmails(
      tx,
      deps.publicUrl,
      c.order,
      {
        numero: claim.numero,
        envio: c.envio?.numero ?? null,
        resolucion: c.resolucion,
        nota: c.nota,
        lineas: c.lineas,
      },
      c.actorId,
    ),
  );
  return claim;
}

const DECIDED_EVENT: Record<ClaimAction, { tipo: string; webhook: WebhookEventType }> = {
  aceptar: { tipo: 'reclamo_aceptado', webhook: 'reclamo.aceptado' },
  rechazar: { tipo: 'reclamo_rechazado', webhook: 'reclamo.rechazado' },
  devolucion: { tipo: 'reclamo_devolucion', webhook: 'reclamo.devolucion' },
};

/**
 * The operator's decision (decision 0127), conditional on the state it was decided from (409 to the loser of
 * a race): a refusal gives the claim's units back, a return keeps them under claim, an acceptance sends a
 * replacement or credits them. Each with its event, log entry, `reclamo.*` webhook and the buyer's e-mail.
 */
async function claimDecided(tx: Tx, deps: LifecycleDeps, c: ClaimDecided): Promise<ClaimDecisionRow> {
  const d = c.decision;
  const to = claimNext(c.claim.from, d.accion);
  const decided = () =>
    conflict('CLAIM_ALREADY_DECIDED', MSG.reclamoYaDecidido(CLAIM_STATE_LABELS[c.claim.from]));
  if (!to) throw decided();
  const written = await writeClaimDecision(tx, {
    claimId: c.claim.id,
    from: c.claim.from,
    to,
    resolucion: d.accion === 'aceptar' ? d.resolucion : null,
    respuesta: d.accion === 'rechazar' ? d.motivo : d.nota,
    guia: d.accion === 'devolucion' ? d.guia : null,
    paqueteria: d.accion === 'devolucion' ? d.paqueteria : null,
    decidedBy: c.actorId,
    at: deps.clock.now(),
  });
  if (!written) throw decided();
  const units = c.claim.lineas.map((l) => ({ id: l.id, cantidad: l.cantidad }));
  let envio: { id: number; numero: number } | null = null;
  let credito = 0;
  let outcome: ClaimOutcome;
  const changes: Record<string, unknown> = { reclamo: c.claim.numero, de: c.claim.from, a: to };
  if (d.accion === 'rechazar') {
    await releaseClaimUnits(tx, c.order.id, units);
    outcome = { accion: 'rechazar', motivo: d.motivo };
  } else if (d.accion === 'devolucion') {
    Object.assign(changes, { guia: d.guia, ...(d.paqueteria ? { paqueteria: d.paqueteria } : {}) });
    outcome = { accion: 'devolucion', guia: d.guia, paqueteria: d.paqueteria, nota: d.nota };
  } else if (d.resolucion === 'reposicion') {
    envio = await replaced(tx, deps, c, units);
    Object.assign(changes, { resolucion: 'reposicion', envio: envio.numero });
    outcome = { accion: 'reposicion', envio: envio.numero, nota: d.nota };
  } else {
    const total = await credited(tx, deps, c, units);
    credito = c.order.total - total;
    Object.assign(changes, { resolucion: 'credito', credito, total_anterior: c.order.total, total });
    outcome = { accion: 'credito', credito, nota: d.nota };
  }
  const event = DECIDED_EVENT[d.accion];
  await tx.insert(orderEvents).values({
    orderId: c.order.id,
    actorId: c.actorId,
    tipo: event.tipo,
    reason: d.accion === 'rechazar' ? d.motivo : d.nota,
    changes,
  });
  await audit(tx, {
    userId: c.actorId,
    eventType: c.log.eventType,
    description: c.log.description,
    metadata: { id_pedido: c.order.id, reclamo: c.claim.numero, ...changes, ...c.log.metadata },
  });
  await recordWebhookEvent(tx, deps, {
    clientId: c.order.idCliente,
    type: event.webhook,
    orderId: c.order.id,
    reclamo: c.claim.id,
  });
  await enqueueEmails(tx, await claimDecidedEmail(tx, deps.publicUrl, c.order, c.claim.numero, outcome));
  return { estado: to, envio, credito };
}

/**
 * A replacement (decision 0127): a shipment of the claim's units dated today that moves neither the lines'
 * `enviado` nor the order's state, taking the units off the products' known stock; the claim's units leave
 * `reclamado`, since the replacement's own units may be claimed again when they arrive.
 */
async function replaced(
  tx: Tx,
  deps: LifecycleDeps,
  c: ClaimDecided,
  units: ClaimUnits,
): Promise<{ id: number; numero: number }> {
  const at = deps.clock.now();
  const envio = await insertReplacement(tx, {
    orderId: c.order.id,
    claimId: c.claim.id,
    lines: units,
    fecha: businessDate(at, deps.tz),
    actorId: c.actorId,
    at,
  });
  await consumeReplacementStock(tx, units);
  await releaseClaimUnits(tx, c.order.id, units);
  return envio;
}

/** The lines' figures a credit changes, as the budget rule reads them. */
const lineFigures = (tx: Tx, orderId: number) =>
  tx
    .select({
      precio: orderLines.precio,
      cantidad: orderLines.cantidad,
      impuesto: orderLines.impuesto,
      idCategoria: orderLines.idCategoria,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId));

/**
 * A credit (decision 0127): the claim's units leave `cantidad` and `enviado` for `acreditado`, the order's
 * totals are recomputed, and the running totals move out and back in, which releases the amount from the
 * order's business month. When that month is over, the amount is also given back in the current month as
 * budget adjustments (`credito`): the buyer's (per category in category mode) and the order's área's.
 * Answers the order's new total.
 */
async function credited(tx: Tx, deps: LifecycleDeps, c: ClaimDecided, units: ClaimUnits): Promise<number> {
  const at = deps.clock.now();
  const before = await lineFigures(tx, c.order.id);
  await moveOrderTotals(tx, c.order.id, -1);
  if ((await writeCredit(tx, c.order.id, units)) !== units.length)
    throw conflict('CLAIM_ALREADY_DECIDED', MSG.reclamoYaDecidido(CLAIM_STATE_LABELS[c.claim.from]));
  const after = await lineFigures(tx, c.order.id);
  const totals = totalsOf(after);
  await writeOrderTotals(tx, c.order.id, totals, at);
  await moveOrderTotals(tx, c.order.id, 1);
  const credito = c.order.total - totals.total;
  await writeClaimCredit(tx, c.claim.id, credito);
  const current = businessMonth(at, deps.tz).key;
  if (businessMonth(c.order.transactionDate, deps.tz).key !== current) {
    const rows = await creditRows(tx, c.order, before, after, credito);
    await insertCreditAdjustments(tx, {
      idCliente: c.order.idCliente,
      mes: `${current}-01`,
      claimId: c.claim.id,
      createdBy: c.actorId,
      rows,
    });
    await announceBudgets(tx, {
      users: [c.order.idUser],
      areas: rows.flatMap((r) => (r.idArea === null ? [] : [r.idArea])),
    });
  }
  // Only lowers the order's month; the checks still run and never re-send (decision 0054).
  await sendBudgetAlerts(tx, alertConfig(deps), c.order.idUser, c.order.transactionDate);
  return totals.total;
}

/**
 * What a credit gives back in the current month (decision 0123's adjustments): the buyer's whole budget
 * (category 0) in regular mode, or each category by what its lines' spend went down (the running months'
 * rule: IVA rounded per order and category) in category mode; and the order's área, by the whole amount.
 */
async function creditRows(
  tx: Tx,
  /** With its área (the claim's decision reads it under the order's lock). */
  order: OrderRef,
  before: Awaited<ReturnType<typeof lineFigures>>,
  after: Awaited<ReturnType<typeof lineFigures>>,
  credito: number,
): Promise<CreditAdjustment[]> {
  const [client] = await tx
    .select({ modo: clients.modoPresupuesto })
    .from(clients)
    .where(eq(clients.id, order.idCliente));
  const rows: CreditAdjustment[] = [];
  if (client?.modo === 'categoria') {
    const was = monthUsedOf([{ lines: before, total: 0 }]).categorias;
    const now = monthUsedOf([{ lines: after, total: 0 }]).categorias;
    for (const [idCategoria, spent] of was) {
      const importe = spent - (now.get(idCategoria) ?? 0);
      if (importe > 0) rows.push({ userId: order.idUser, idArea: null, idCategoria, importe });
    }
  } else rows.push({ userId: order.idUser, idArea: null, idCategoria: 0, importe: credito });
  if (order.idArea) rows.push({ userId: null, idArea: order.idArea, idCategoria: 0, importe: credito });
  return rows;
}

/**
 * Reserves an approved order's lines (decision 0124; `reserveOrderStock`, one statement). When the client
 * forbids backorders, a line beyond the available stock refuses the approval (409, naming the product) and the
 * caller rolls everything back.
 */
async function reserveStock(tx: Tx, deps: LifecycleDeps, orderId: number): Promise<void> {
  const short = await reserveOrderStock(tx, orderId, businessDate(deps.clock.now(), deps.tz));
  if (short) throw outOfStock(short);
}

const outOfStock = (short: StockShortfall) =>
  conflict('OUT_OF_STOCK', MSG.sinExistencia(short.nombre, short.disponible, short.cantidad));

const alertConfig = (deps: LifecycleDeps) => ({
  publicUrl: deps.publicUrl,
  tz: deps.tz,
  now: deps.clock.now(),
});
