import { centavosToPesos } from '@portal/shared/domain/money';
import type { PendingPriceDto } from '@portal/shared/schemas/pending-price';
import { and, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from './client.ts';
import { prepared } from './prepared.ts';
import { scheduledPrices } from './schema/index.ts';

/**
 * The pending price change of each of these products that has one (decision 0132), by product id: what the
 * catalogue, the cart, a saved list and the approvers' order screen show beside the current price
 * («Precio nuevo desde el 01/01/2027: $X»). One read of the partial unique index, whatever the page size.
 */
export async function pendingPricesOf(
  db: Db | Tx,
  productIds: readonly number[],
): Promise<Map<number, PendingPriceDto>> {
  const ids = [...new Set(productIds)];
  if (ids.length === 0) return new Map();
  // A named statement over an array: built and planned once, whatever the page's size (finding 60).
  const rows = await prepared(db, 'portal_pending_prices', (d) =>
    d
      .select({
        productId: scheduledPrices.productId,
        precio: scheduledPrices.precio,
        vigenteDesde: scheduledPrices.vigenteDesde,
      })
      .from(scheduledPrices)
      .where(
        and(
          sql`${scheduledPrices.productId} = any(${sql.placeholder('ids')}::integer[])`,
          isNull(scheduledPrices.appliedAt),
        ),
      ),
  ).execute({ ids });
  return new Map(
    rows.map((r) => [r.productId, { precio: centavosToPesos(r.precio), vigente_desde: r.vigenteDesde }]),
  );
}
