import { orderNumber } from '@portal/shared/domain/order-workflow';
import { businessDateRange } from '@portal/shared/domain/time';
import type {
  V1ClaimsQuery,
  V1ClaimsResponse,
  V1Order,
  V1OrdersQuery,
  V1OrdersResponse,
} from '@portal/shared/schemas/integration';
import { and, asc, eq, gt, gte, inArray, isNotNull, isNull, lt, type SQL } from 'drizzle-orm';
import { claimParties, readClaims } from '../../db/order-claims.ts';
import { orderClaims, orders } from '../../db/schema/index.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import type { ApiCaller } from './api-auth.ts';
import { v1Claim, v1Orders } from './v1-order.ts';

const CURSOR_VERSION = 'p1';

/** An opaque cursor: the last id of the page (keyset), in a versioned wrapper. */
export function encodeCursor(lastId: number): string {
  return Buffer.from(`${CURSOR_VERSION}.${lastId}`, 'utf8').toString('base64url');
}

export function decodeCursor(cursor: string): number {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const match = /^p1\.(\d{1,10})$/.exec(text);
  const id = match ? Number(match[1]) : Number.NaN;
  if (!Number.isSafeInteger(id) || id < 0 || id > 2147483647) throw badRequest('CURSOR', MSG.cursorInvalido);
  return id;
}

/**
 * GET /api/v1/pedidos: the orders the token may read, oldest first, keyset-paginated on the id: an order
 * created while a caller pages has a larger id, so it comes on a later page and no page repeats or skips
 * one. Dates are business dates (BUSINESS_TZ) of the purchase; `credito` keeps the orders held for credit
 * (`retenido`) or the others (`libre`).
 */
export async function listV1Orders(
  deps: Pick<Deps, 'config' | 'db'>,
  caller: ApiCaller,
  query: V1OrdersQuery,
): Promise<V1OrdersResponse> {
  const conditions: SQL[] = [];
  if (caller.idCliente !== null) conditions.push(eq(orders.idCliente, caller.idCliente));
  if (query.estatus) conditions.push(eq(orders.status, query.estatus));
  if (query.surtido) conditions.push(eq(orders.surtidoEstatus, query.surtido));
  // Held for credit now (decision 0136); the partial index on (id_cliente, id) serves a client's token.
  if (query.credito === 'retenido') conditions.push(isNotNull(orders.retenidoCredito));
  if (query.credito === 'libre') conditions.push(isNull(orders.retenidoCredito));
  if (query.desde || query.hasta) {
    const range = businessDateRange(
      query.desde ?? '2000-01-01',
      query.hasta ?? '2999-12-31',
      deps.config.BUSINESS_TZ,
    );
    if (query.desde) conditions.push(gte(orders.transactionDate, range.start));
    if (query.hasta) conditions.push(lt(orders.transactionDate, range.end));
  }
  if (query.cursor) conditions.push(gt(orders.id, decodeCursor(query.cursor)));
  const rows = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(and(...conditions))
    .orderBy(asc(orders.id))
    .limit(query.limite + 1);
  const page = rows.slice(0, query.limite).map((r) => r.id);
  const more = rows.length > query.limite;
  return {
    pedidos: await v1Orders(deps.db, page),
    siguiente: more && page.length > 0 ? encodeCursor(page[page.length - 1]!) : null,
  };
}

/** GET /api/v1/pedidos/{id}: another client's order, for a client's token, answers like a missing one. */
export async function getV1Order(deps: Pick<Deps, 'db'>, caller: ApiCaller, id: number): Promise<V1Order> {
  const [row] = await deps.db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(eq(orders.id, id), caller.idCliente === null ? undefined : eq(orders.idCliente, caller.idCliente)),
    );
  const [order] = row ? await v1Orders(deps.db, [row.id]) : [];
  if (!order) throw notFound(MSG.pedidoNoEncontrado, 'ORDER_NOT_FOUND');
  return order;
}

/**
 * GET /api/v1/reclamos (decision 0127): the claims the token may read (a client's token, its client's orders'),
 * oldest first, keyset-paginated on the id like the orders; `estado` filters by state and `desde` by the
 * business date of the last change (`actualizado`), so a poller reads what changed since its last run.
 */
export async function listV1Claims(
  deps: Pick<Deps, 'config' | 'db'>,
  caller: ApiCaller,
  query: V1ClaimsQuery,
): Promise<V1ClaimsResponse> {
  const conditions: SQL[] = [];
  if (caller.idCliente !== null)
    conditions.push(
      inArray(
        orderClaims.orderId,
        deps.db.select({ id: orders.id }).from(orders).where(eq(orders.idCliente, caller.idCliente)),
      ),
    );
  if (query.estado) conditions.push(eq(orderClaims.estado, query.estado));
  if (query.desde)
    conditions.push(
      gte(orderClaims.updatedAt, businessDateRange(query.desde, query.desde, deps.config.BUSINESS_TZ).start),
    );
  if (query.cursor) conditions.push(gt(orderClaims.id, decodeCursor(query.cursor)));
  const rows = await deps.db
    .select({ id: orderClaims.id })
    .from(orderClaims)
    .where(and(...conditions))
    .orderBy(asc(orderClaims.id))
    .limit(query.limite + 1);
  const page = rows.slice(0, query.limite).map((r) => r.id);
  const more = rows.length > query.limite;
  const [claims, parties] =
    page.length === 0
      ? [[], new Map()]
      : await Promise.all([
          readClaims(deps.db, inArray(orderClaims.id, page), [asc(orderClaims.id)]),
          claimParties(deps.db, page),
        ]);
  return {
    reclamos: claims.map(({ orderId, ...claim }) => {
      const p = parties.get(claim.id);
      return {
        ...v1Claim(claim),
        id_pedido: orderId,
        numero_pedido: orderNumber(orderId),
        cliente: { id: p?.idCliente ?? 0, nombre: p?.cliente ?? '' },
      };
    }),
    siguiente: more && page.length > 0 ? encodeCursor(page[page.length - 1]!) : null,
  };
}
