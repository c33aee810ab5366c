/**
 * The three-way match of an invoice at its registration (issue 42 item 3, decision 0133): what the order's
 * shipments and receipts say may be billed of each line, read under the order's lock, given to the shared
 * rule (`matchInvoice`, packages/shared/src/domain/invoice-match.ts), and its answer stored on the invoice.
 * A credit note for at least an invoice's excess resolves its differences.
 */
import {
  type MatchConcept,
  type MatchDifference,
  type MatchLine,
  type MatchResult,
  matchInvoice,
} from '@portal/shared/domain/invoice-match';
import { and, asc, eq, isNull, lt, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { shipmentsOf } from '../../db/order-shipments.ts';
import { invoices, orderLines } from '../../db/schema/index.ts';

/** The order's lines with what arrived of each (of the whole order or of one shipment) and what was billed. */
async function matchLines(
  tx: Tx,
  orderId: number,
  shipmentId: number | null,
  invoiceId: number,
): Promise<MatchLine[]> {
  const lines = await tx
    .select({
      id: orderLines.id,
      claveInterna: orderLines.claveInterna,
      nombre: orderLines.nombre,
      unidad: orderLines.unidadDeMedida,
      precio: orderLines.precio,
      impuesto: orderLines.impuesto,
    })
    .from(orderLines)
    .where(eq(orderLines.orderId, orderId))
    .orderBy(asc(orderLines.id));
  const shipments = ((await shipmentsOf(tx, [orderId])).get(orderId) ?? []).filter(
    (s) => shipmentId === null || s.id === shipmentId,
  );
  // Earlier invoices of the order (of the same shipment, for a shipment's invoice): what they billed.
  const earlier = await tx
    .select({ facturado: invoices.cotejoFacturado })
    .from(invoices)
    .where(
      and(
        eq(invoices.orderId, orderId),
        eq(invoices.tipo, 'I'),
        lt(invoices.id, invoiceId),
        shipmentId === null ? sql`true` : eq(invoices.shipmentId, shipmentId),
      ),
    );
  const billed = new Map<number, number>();
  for (const e of earlier)
    for (const [lineId, units] of Object.entries(e.facturado as Record<string, number>))
      billed.set(Number(lineId), (billed.get(Number(lineId)) ?? 0) + units);
  return lines.map((l) => {
    let llegado = 0;
    let received = 0;
    let shipped = 0;
    for (const s of shipments) {
      const sent = s.lineas.find((x) => x.id_linea === l.id)?.cantidad ?? 0;
      if (sent === 0) continue;
      if (s.recepcion) {
        received++;
        llegado += s.recepcion.lineas.find((x) => x.id_linea === l.id)?.recibido ?? 0;
      } else {
        shipped++;
        llegado += sent;
      }
    }
    const base = shipped === 0 ? 'recibidas' : received === 0 ? 'enviadas' : 'recibidas o enviadas';
    return { ...l, llegado, base, yaFacturado: billed.get(l.id) ?? 0 };
  });
}

/** Matches a just-inserted invoice (tipo I) and stores the state, the differences and what it billed. */
export async function matchRegistered(
  tx: Tx,
  invoice: { id: number; orderId: number; shipmentId: number | null; total: number },
  concepts: readonly MatchConcept[],
): Promise<MatchResult> {
  const lines = await matchLines(tx, invoice.orderId, invoice.shipmentId, invoice.id);
  const result = matchInvoice(lines, concepts, invoice.total);
  await tx
    .update(invoices)
    .set({
      cotejo: result.estado,
      cotejoDiferencias: result.diferencias,
      cotejoFacturado: result.facturado,
      cotejoExceso: result.exceso,
    })
    .where(eq(invoices.id, invoice.id));
  return result;
}

/** An invoice with differences a credit note resolved: its UUID and what the differences were. */
export interface ResolvedByCredit {
  uuid: string;
  diferencias: MatchDifference[];
}

/**
 * A credit note (tipo E) registered against an invoice `con_diferencias` whose excess it covers (its total ≥
 * the excess, the excess > 0) resolves it: the invoice becomes `conciliada`, naming the note. Conditional on
 * the state, under the order's lock. Null when it resolves nothing (a note for less, or an invoice without
 * differences).
 */
export async function resolveByCredit(
  tx: Tx,
  note: { id: number; total: number },
  invoiceUuid: string,
  at: Date,
): Promise<ResolvedByCredit | null> {
  const [row] = await tx
    .update(invoices)
    .set({ cotejo: 'conciliada', cotejoNotaCreditoId: note.id, cotejoResueltoAt: at })
    .where(
      and(
        eq(invoices.uuid, invoiceUuid),
        eq(invoices.cotejo, 'con_diferencias'),
        isNull(invoices.cotejoNotaCreditoId),
        sql`${invoices.cotejoExceso} > 0 and ${invoices.cotejoExceso} <= ${note.total}`,
      ),
    )
    .returning({ uuid: invoices.uuid, diferencias: invoices.cotejoDiferencias });
  return row ? { uuid: row.uuid, diferencias: row.diferencias as MatchDifference[] } : null;
}
