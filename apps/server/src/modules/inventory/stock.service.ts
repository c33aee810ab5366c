/**
 * Stock and lead time through the v1 API (decision 0124, docs/integration.md): PUT
 * /api/v1/productos/{clave}/existencia and POST /api/v1/existencias, with a token carrying
 * `inventario:escribir`. A client's token writes its client's products; an all-clients token names the
 * client (`id_cliente`). Another client's clave answers like a missing one. Products are locked in id order
 * (the approvals' order after their order, buyer and área), so a write never deadlocks with an approval.
 */
import { available } from '@portal/shared/domain/stock';
import {
  STOCK_MSG,
  type V1Stock,
  type V1StockBody,
  type V1StockBulkBody,
  type V1StockBulkResponse,
} from '@portal/shared/schemas/stock';
import { sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { rowsOf, type Tx } from '../../db/client.ts';
import { lockProductsByClave } from '../../db/product-locks.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { idempotentWrite } from '../../lib/idempotency.ts';
import { MSG } from '../../messages.ts';

/** Who writes: an integration token (`api-auth.ts`'s caller). */
export interface StockCaller {
  tokenId: number;
  idCliente: number | null;
}

/** The client the write is for: the token's own, or the one an all-clients token names (400 without). */
function clientOf(caller: StockCaller, idCliente: number | undefined): number {
  if (caller.idCliente !== null) {
    // A client's token naming another client finds none of its products: like a missing one.
    if (idCliente !== undefined && idCliente !== caller.idCliente)
      throw notFound(MSG.invProductoInexistente, 'PRODUCT_NOT_FOUND');
    return caller.idCliente;
  }
  if (idCliente === undefined)
    throw badRequest('VALIDATION', STOCK_MSG.existenciaCliente, { id_cliente: STOCK_MSG.existenciaCliente });
  return idCliente;
}

interface StockLine {
  clave: string;
  existencia: number | null;
  dias_entrega?: number | null;
}

interface Written {
  clave: string;
  existencia: number | null;
  reservado: number;
  dias_entrega: number | null;
  changed: boolean;
}

/**
 * Writes the lines to the client's products: locked in id order, then one UPDATE. A line without
 * `dias_entrega` keeps the product's. Answers each product found (with whether it changed).
 */
async function writeStock(
  tx: Tx,
  idCliente: number,
  lines: readonly StockLine[],
  at: Date,
): Promise<Written[]> {
  const values = sql.join(
    lines.map(
      (l) =>
        sql`(${l.clave}::text, ${l.existencia}::int, ${l.dias_entrega !== undefined}::boolean, ${l.dias_entrega ?? null}::int)`,
    ),
    sql`, `,
  );
  const found = await lockProductsByClave(
    tx,
    idCliente,
    lines.map((l) => l.clave),
  );
  if (found.length === 0) return [];
  const rows = await rowsOf<{
    clave: string;
    existencia: number | null;
    reservado: number;
    dias_entrega: number | null;
    changed: boolean;
  }>(
    tx,
    sql`with v(clave, e, has_d, d) as (values ${values}),
      before as (
        select p.id, p.existencia, p.dias_entrega from products p join v on p.clave_interna = v.clave
        where p.id_cliente = ${idCliente}
      ),
      updated as (
        update products p set
          existencia = v.e,
          dias_entrega = case when v.has_d then v.d else p.dias_entrega end,
          updated_at = ${at}
        from v
        where p.id_cliente = ${idCliente} and p.clave_interna = v.clave
          and (p.existencia is distinct from v.e or (v.has_d and p.dias_entrega is distinct from v.d))
        returning p.id, p.clave_interna, p.existencia, p.reservado, p.dias_entrega
      )
      select p.clave_interna as clave,
        case when u.id is null then p.existencia else u.existencia end as existencia, p.reservado,
        case when u.id is null then p.dias_entrega else u.dias_entrega end as dias_entrega,
        (u.id is not null) as changed
      from products p join before b on b.id = p.id left join updated u on u.id = p.id`,
  );
  return rows.map((r) => ({
    clave: r.clave,
    existencia: r.existencia === null ? null : Number(r.existencia),
    reservado: Number(r.reservado),
    dias_entrega: r.dias_entrega === null ? null : Number(r.dias_entrega),
    changed: Boolean(r.changed),
  }));
}

/** PUT /api/v1/productos/{clave}/existencia: one product's stock and (when given) lead time. */
export async function putProductStock(
  deps: Pick<Deps, 'db' | 'clock'>,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: StockCaller,
  clave: string,
  idClienteAsked: number | undefined,
  body: V1StockBody,
): Promise<V1Stock> {
  const idCliente = clientOf(caller, idClienteAsked);
  return idempotentWrite(deps.db, request, reply, caller.tokenId, async (tx) => {
    const [row] = await writeStock(tx, idCliente, [{ clave, ...body }], deps.clock.now());
    if (!row) throw notFound(MSG.invProductoInexistente, 'PRODUCT_NOT_FOUND');
    if (row.changed)
      await audit(tx, {
        userId: null,
        eventType: 'existencias_actualizadas',
        description: `Existencia del producto ${clave}: ${row.existencia ?? 'desconocida'}`,
        metadata: {
          id_cliente: idCliente,
          id_token: caller.tokenId,
          clave,
          existencia: row.existencia,
          dias_entrega: row.dias_entrega,
          ...requestMeta(request),
        },
      });
    return {
      clave: row.clave,
      existencia: row.existencia,
      reservado: row.reservado,
      disponible: available(row.existencia, row.reservado),
      dias_entrega: row.dias_entrega,
    };
  });
}

/** POST /api/v1/existencias: up to 5,000 products of one client in one transaction. */
export async function postStockBulk(
  deps: Pick<Deps, 'db' | 'clock'>,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: StockCaller,
  body: V1StockBulkBody,
): Promise<V1StockBulkResponse> {
  const idCliente = clientOf(caller, body.id_cliente);
  return idempotentWrite(deps.db, request, reply, caller.tokenId, async (tx) => {
    const rows = await writeStock(tx, idCliente, body.existencias, deps.clock.now());
    const found = new Set(rows.map((r) => r.clave));
    const actualizados = rows.filter((r) => r.changed).length;
    const result = {
      actualizados,
      sin_cambios: rows.length - actualizados,
      no_encontradas: body.existencias.map((l) => l.clave).filter((c) => !found.has(c)),
    };
    if (actualizados > 0)
      await audit(tx, {
        userId: null,
        eventType: 'existencias_actualizadas',
        description: `Existencias actualizadas: ${actualizados} productos`,
        metadata: {
          id_cliente: idCliente,
          id_token: caller.tokenId,
          actualizados,
          sin_cambios: result.sin_cambios,
          no_encontradas: result.no_encontradas.length,
          ...requestMeta(request),
        },
      });
    return result;
  });
}
