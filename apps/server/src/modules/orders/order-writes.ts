/**
 * The statements that write an order's status, lines or fulfilment. Only the lifecycle seam
 * (`lifecycle.ts`, `orderChanged`) calls them, and `lifecycle.test.ts` fails when an order is written
 * anywhere else: whatever must follow a change (the running totals, the integration event, the budget
 * alerts, the e-mails) then happens once, in the seam.
 */
import type { FulfilmentState } from '@portal/shared/domain/fulfilment';
import type { LogEventType } from '@portal/shared/domain/log-events';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { executeNamedOnce } from '../../db/prepared.ts';
import { orderEvents, orderLines, orders, systemLogs } from '../../db/schema/index.ts';
import { type Email, outboxCtes, outboxRows } from '../../lib/mailer.ts';

/** An approving review's line edits: lines taken out and new quantities (before the approval's statement). */
export async function writeLineEdits(
  tx: Tx,
  removed: readonly number[],
  edited: readonly { id: number; cantidad: number }[],
): Promise<void> {
  if (removed.length > 0) await tx.delete(orderLines).where(inArray(orderLines.id, [...removed]));
  for (const l of edited)
    await tx.update(orderLines).set({ cantidad: l.cantidad }).where(eq(orderLines.id, l.id));
}

/** A cancellation, only while the order still has the status it was decided from: false when it had changed. */
export async function writeCancellation(
  tx: Tx,
  w: { orderId: number; from: string; reason: string | null; at: Date },
): Promise<boolean> {
  const updated = await tx
    .update(orders)
    .set({ status: 'cancelado', cancelReason: w.reason, updatedAt: w.at })
    .where(and(eq(orders.id, w.orderId), eq(orders.status, w.from)))
    .returning({ id: orders.id });
  return updated.length > 0;
}

/**
 * Sends an order at level 2 back to level 1 (decision 0111), only while it still waits there: false when its
 * status had changed. Its amount counts against the budget before and after: the totals do not move.
 */
export async function writeReturn(tx: Tx, w: { orderId: number; at: Date }): Promise<boolean> {
  const updated = await tx
    .update(orders)
    .set({ status: 'pendiente', updatedAt: w.at })
    .where(and(eq(orders.id, w.orderId), eq(orders.status, 'espera')))
    .returning({ id: orders.id });
  return updated.length > 0;
}

/** A fulfilment move, only from the state it was decided from: the order as moved, or null when it had moved. */
export async function writeFulfilmentMove(
  tx: Tx,
  w: {
    orderId: number;
    from: FulfilmentState;
    to: FulfilmentState;
    /** Set when the move sets them (to `enviado`: the tracking number and carrier; to `entregado`: the note). */
    guia?: { guia: string | null; paqueteria: string | null };
    nota?: string | null;
    at: Date;
  },
) {
  const [moved] = await tx
    .update(orders)
    .set({
      surtidoEstatus: w.to,
      ...(w.guia ? { guia: w.guia.guia, paqueteria: w.guia.paqueteria } : {}),
      ...(w.nota !== undefined ? { notaRecepcion: w.nota } : {}),
      updatedAt: w.at,
    })
    .where(and(eq(orders.id, w.orderId), eq(orders.surtidoEstatus, w.from)))
    .returning({ surtido: orders.surtidoEstatus, guia: orders.guia, notaRecepcion: orders.notaRecepcion });
  return moved ?? null;
}

/** Where an order's fulfilment stands now (to name it to the loser of a race). */
export async function fulfilmentNow(tx: Tx, orderId: number): Promise<string | null> {
  const [now] = await tx
    .select({ surtido: orders.surtidoEstatus })
    .from(orders)
    .where(eq(orders.id, orderId));
  return now?.surtido ?? null;
}

/** What an approval writes in its one statement. */
export interface ApprovalWrite {
  orderId: number;
  /** The status the approval was decided from: the update is conditional on it. */
  from: string;
  to: string;
  surtidoEstatus: string | null;
  totals: { subtotal: number; iva: number; total: number };
  lineas: number;
  at: Date;
  actorId: number;
  onBehalfOfId: number | null;
  /** The 'aprobado' event's changes (the client's rule, the comment's id), or null. */
  changes: Record<string, unknown> | null;
  /** The log entry's description and metadata (besides the order's id). */
  description: string;
  metadata: Record<string, unknown>;
  emails: readonly Email[];
}

type WriteValue =
  | 'orderId'
  | 'from'
  | 'to'
  | 'surtidoEstatus'
  | 'subtotal'
  | 'iva'
  | 'total'
  | 'lineas'
  | 'at'
  | 'actorId'
  | 'onBehalfOfId'
  | 'changes'
  | 'description'
  | 'metadata'
  | 'emails';
const v = (name: WriteValue) => sql.placeholder(name);

/** The approval's statement, every value a placeholder (built once, `executeNamedOnce`). */
const approvalStatement = () => sql`
    with o as (
      update ${orders} set status = ${v('to')}, surtido_estatus = ${v('surtidoEstatus')},
        subtotal = ${v('subtotal')}, iva = ${v('iva')}, total = ${v('total')}, lineas = ${v('lineas')},
        updated_at = ${v('at')}
      where id = ${v('orderId')} and status = ${v('from')}
      returning id, id_cliente
    ), e as (
      insert into ${orderEvents} (order_id, actor_id, on_behalf_of_id, tipo, from_status, to_status, changes)
      select o.id, ${v('actorId')}::integer, ${v('onBehalfOfId')}::integer, 'aprobado', ${v('from')}::text,
        ${v('to')}::text, ${v('changes')}::jsonb
      from o
      returning 1
    ), g as (
      insert into ${systemLogs} (user_id, event_type, description, metadata, id_pedido, id_cliente)
      select ${v('actorId')}::integer, ${'pedido_aprobado' satisfies LogEventType}, ${v('description')}::text,
        ${v('metadata')}::jsonb || jsonb_build_object('id_pedido', o.id), o.id, o.id_cliente
      from o
      returning 1
    ), ${outboxCtes(v('emails'))}
    select (select count(*) from o)::integer as updated, (select count(*) from e) as events,
      (select count(*) from g) as logs, (select count(*) from m) as emails`;

/**
 * Writes an approval (decision 0090): the order's status, totals and fulfilment start (only while it still has the status
 * the approval was decided from), its 'aprobado' event, its log entry and its e-mails. Answers false when
 * the order's status had changed (nothing is written then; the caller refuses with 409 and rolls back).
 */
export async function writeApproval(tx: Tx, w: ApprovalWrite): Promise<boolean> {
  const [row] = await executeNamedOnce<{ updated: number }>(tx, 'portal_approval_write', approvalStatement, {
    orderId: w.orderId,
    from: w.from,
    to: w.to,
    surtidoEstatus: w.surtidoEstatus,
    subtotal: w.totals.subtotal,
    iva: w.totals.iva,
    total: w.totals.total,
    lineas: w.lineas,
    at: w.at,
    actorId: w.actorId,
    onBehalfOfId: w.onBehalfOfId,
    changes: w.changes === null ? null : JSON.stringify(w.changes),
    description: w.description,
    metadata: JSON.stringify(w.metadata),
    emails: outboxRows(w.emails),
  } satisfies Record<WriteValue, unknown>);
  return row!.updated > 0;
}
