/**
 * Scheduled price changes (issue 42 item 5, decision 0132): a product's new price from a business date. Until
 * that date the product's own price holds (carts, lists and new orders are valued at it); the daily job at
 * the business zone's midnight writes the new price into the product. Orders keep the prices they were
 * placed with, before and after.
 */
import { centavosToPesos, formatCentavos, ivaOf, pesosToCentavos } from '@portal/shared/domain/money';
import { businessDate, formatIsoDate } from '@portal/shared/domain/time';
import {
  PRICE_PREVIEW_BUYERS,
  type PricePreviewBody,
  type PricePreviewResponse,
  type ScheduledPriceResponse,
  type SchedulePriceBody,
} from '@portal/shared/schemas/inventory';
import { and, asc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { type Db, rowsOf, type Tx } from '../../db/client.ts';
import { lockProductsById } from '../../db/product-locks.ts';
import { products, scheduledPrices } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, notFound } from '../../lib/errors.ts';
import { MSG } from '../../messages.ts';
import { productById } from './inventory.service.ts';

export const SCHEDULED_PRICES_QUEUE = 'precios-programados';
/** Every day at 00:00, read in the business time zone: the first minute a new date's prices hold. */
export const SCHEDULED_PRICES_CRON = '0 0 * * *';
/** Changes applied in one transaction (their products locked together). */
const APPLY_BATCH = 500;

/** A product of the client, locked for the change; another client's answers like a missing one. */
async function lockClientProduct(tx: Tx, id: number, idCliente: number) {
  const [row] = await tx
    .select({ id: products.id, idCliente: products.idCliente, clave: products.claveInterna })
    .from(products)
    .where(eq(products.id, id))
    .for('update')
    .limit(1);
  if (!row || row.idCliente !== idCliente) throw notFound(MSG.invProductoInexistente, 'PRODUCT_NOT_FOUND');
  return row;
}

export interface PriceChange {
  productId: number;
  /** Centavos. */
  precio: number;
  /** YYYY-MM-DD, after today. */
  vigenteDesde: string;
}

/**
 * Writes pending changes of one client's products (already locked by the caller, in id order): a product
 * with a pending change has it replaced (decision 0132: the newest schedule wins). Answers how many.
 */
export async function upsertScheduledPrices(
  tx: Tx,
  idCliente: number,
  changes: readonly PriceChange[],
  createdBy: number | null,
  now: Date,
): Promise<number> {
  if (changes.length === 0) return 0;
  const written = await tx
    .insert(scheduledPrices)
    .values(
      changes.map((c) => ({
        productId: c.productId,
        idCliente,
        precio: c.precio,
        vigenteDesde: c.vigenteDesde,
        createdBy,
        createdAt: now,
      })),
    )
    .onConflictDoUpdate({
      target: scheduledPrices.productId,
      targetWhere: sql`applied_at is null`,
      set: {
        precio: sql`excluded.precio`,
        vigenteDesde: sql`excluded.vigente_desde`,
        createdBy: sql`excluded.created_by`,
        createdAt: sql`excluded.created_at`,
      },
    })
    .returning({ id: scheduledPrices.id });
  return written.length;
}

/** POST /api/productos/:id/precio_programado: schedules (or replaces) the product's pending change. */
export async function schedulePrice(
  deps: Pick<Deps, 'db' | 'clock' | 'config'>,
  request: FastifyRequest,
  id: number,
  body: SchedulePriceBody,
): Promise<ScheduledPriceResponse> {
  const auth = request.auth!;
  const now = deps.clock.now();
  const today = businessDate(now, deps.config.BUSINESS_TZ);
  if (body.vigente_desde <= today) {
    throw badRequest('VALIDATION', MSG.precioProgramadoFecha, { vigente_desde: MSG.precioProgramadoFecha });
  }
  const precio = pesosToCentavos(body.precio);
  await deps.db.transaction(async (tx) => {
    const product = await lockClientProduct(tx, id, body.id_cliente);
    await upsertScheduledPrices(
      tx,
      product.idCliente,
      [{ productId: id, precio, vigenteDesde: body.vigente_desde }],
      auth.user.id,
      now,
    );
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'precio_programado',
      description: `Producto ${product.clave}: precio de ${formatCentavos(precio)} programado desde el ${formatIsoDate(body.vigente_desde)}`,
      metadata: {
        id_producto: id,
        id_cliente: product.idCliente,
        precio,
        vigente_desde: body.vigente_desde,
        ...requestMeta(request),
      },
    });
  });
  return {
    status: 'ok',
    msg: MSG.precioProgramado(formatCentavos(precio), formatIsoDate(body.vigente_desde)),
    articulo: (await productById(deps.db, id))!,
  };
}

/** DELETE /api/productos/:id/precio_programado: removes the product's pending change. */
export async function cancelScheduledPrice(
  deps: Pick<Deps, 'db'>,
  request: FastifyRequest,
  id: number,
  idCliente: number,
): Promise<ScheduledPriceResponse> {
  const auth = request.auth!;
  await deps.db.transaction(async (tx) => {
    const product = await lockClientProduct(tx, id, idCliente);
    const [gone] = await tx
      .delete(scheduledPrices)
      .where(and(eq(scheduledPrices.productId, id), isNull(scheduledPrices.appliedAt)))
      .returning({ precio: scheduledPrices.precio, vigenteDesde: scheduledPrices.vigenteDesde });
    if (!gone) throw notFound(MSG.precioProgramadoInexistente, 'SCHEDULED_PRICE_NOT_FOUND');
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'precio_programado_cancelado',
      description: `Producto ${product.clave}: se canceló el precio de ${formatCentavos(gone.precio)} programado desde el ${formatIsoDate(gone.vigenteDesde)}`,
      metadata: {
        id_producto: id,
        id_cliente: product.idCliente,
        precio: gone.precio,
        vigente_desde: gone.vigenteDesde,
        ...requestMeta(request),
      },
    });
  });
  return { status: 'ok', msg: MSG.precioProgramadoCancelado, articulo: (await productById(deps.db, id))! };
}

// ---------------------------------------------------------------------------------------------------------
// The preview

interface BuyerCartRow {
  user_id: number;
  nombre: string;
  usuario: string;
  sub_actual: string | number;
  iva_base_actual: string | number;
  sub_nuevo: string | number;
  iva_base_nuevo: string | number;
}

/** The changes as a set (id, new price, current price), one JSON parameter; only the client's products. */
function changeSet(idCliente: number, byId: ReadonlyMap<number, number>) {
  const json = JSON.stringify([...byId].map(([id, precio]) => ({ id, precio })));
  return sql`(select c.id, c.precio, p.precio as actual
      from jsonb_to_recordset(${json}::jsonb) as c(id int, precio bigint)
      join ${products} p on p.id = c.id and p.id_cliente = ${idCliente})`;
}

/**
 * What changing these products' prices would touch (decision 0132): how many carts, saved lists and orders
 * waiting for approval hold one of them, and each buyer's cart total (with IVA) now and after the change.
 * Set-based: the changes travel as one JSON parameter, so an import's thousands of rows are a few statements.
 * A product of another client (or missing) answers 404 like the other inventory routes.
 */
export async function pricePreview(
  deps: Pick<Deps, 'db'>,
  body: Pick<PricePreviewBody, 'id_cliente'> & { cambios: { id: number; precio: number }[] },
): Promise<PricePreviewResponse> {
  const byId = new Map(body.cambios.map((c) => [c.id, pesosToCentavos(c.precio)]));
  const [found] = await rowsOf<{ n: number }>(
    deps.db,
    sql`select count(*)::int as n from ${changeSet(body.id_cliente, byId)} f`,
  );
  if (Number(found!.n) !== byId.size) throw notFound(MSG.invProductoInexistente, 'PRODUCT_NOT_FOUND');
  return priceChangeEffects(deps.db, body.id_cliente, byId);
}

/**
 * The preview's counts for new prices (centavos) by product id: products of other clients and prices equal
 * to the current one weigh nothing. Also what a product import's dry run answers (imports.service.ts).
 */
export async function priceChangeEffects(
  db: Db,
  idCliente: number,
  byId: ReadonlyMap<number, number>,
): Promise<PricePreviewResponse> {
  const changes = changeSet(idCliente, byId);
  const ch = sql`(select id, precio from ${changes} f where f.precio <> f.actual)`;
  const [counts] = await rowsOf<{ productos: number; carritos: number; listas: number; pedidos: number }>(
    db,
    sql`with ch as ${ch} select
      (select count(*) from ch)::int as productos,
      (select count(distinct ci.user_id) from cart_items ci join ch on ch.id = ci.product_id)::int as carritos,
      (select count(distinct li.list_id) from saved_list_items li join ch on ch.id = li.product_id)::int as listas,
      (select count(distinct ol.order_id) from order_lines ol join ch on ch.id = ol.product_id
         join orders o on o.id = ol.order_id
         where o.id_cliente = ${idCliente} and o.status in ('pendiente', 'espera'))::int as pedidos`,
  );
  const buyers = await rowsOf<BuyerCartRow>(
    db,
    sql`with ch as ${ch},
      buyers as (select distinct ci.user_id from cart_items ci join ch on ch.id = ci.product_id)
      select u.id as user_id, u.nombre, u.usuario,
        sum(p.precio * ci.cantidad) as sub_actual,
        sum(case when p.impuesto then p.precio * ci.cantidad else 0 end) as iva_base_actual,
        sum(coalesce(ch.precio, p.precio) * ci.cantidad) as sub_nuevo,
        sum(case when p.impuesto then coalesce(ch.precio, p.precio) * ci.cantidad else 0 end) as iva_base_nuevo
      from buyers b
      join users u on u.id = b.user_id
      join cart_items ci on ci.user_id = b.user_id
      join ${products} p on p.id = ci.product_id
      left join ch on ch.id = p.id
      group by u.id, u.nombre, u.usuario`,
  );
  const compradores = buyers
    .map((b) => {
      const actual = Number(b.sub_actual) + ivaOf(Number(b.iva_base_actual));
      const nuevo = Number(b.sub_nuevo) + ivaOf(Number(b.iva_base_nuevo));
      return { id: Number(b.user_id), nombre: b.nombre, usuario: b.usuario, actual, nuevo };
    })
    .sort((a, b) => Math.abs(b.nuevo - b.actual) - Math.abs(a.nuevo - a.actual) || a.id - b.id);
  return {
    productos: Number(counts!.productos),
    carritos: Number(counts!.carritos),
    listas: Number(counts!.listas),
    pedidos_pendientes: Number(counts!.pedidos),
    compradores: compradores.slice(0, PRICE_PREVIEW_BUYERS).map((b) => ({
      id: b.id,
      nombre: b.nombre,
      usuario: b.usuario,
      total_actual: centavosToPesos(b.actual),
      total_nuevo: centavosToPesos(b.nuevo),
    })),
    compradores_total: compradores.length,
  };
}

// ---------------------------------------------------------------------------------------------------------
// The job

interface AppliedRow {
  id: number;
  product_id: number;
  id_cliente: number;
  precio: string | number;
  precio_anterior: string | number;
  vigente_desde: string;
  clave: string;
}

/**
 * Applies one batch of due changes (ids after `afterId`); answers the last id looked at and how many this
 * run applied, or null when none is due.
 */
async function applyBatch(
  tx: Tx,
  now: Date,
  today: string,
  afterId: number,
): Promise<{ last: number; applied: number } | null> {
  const due = await tx
    .select({ id: scheduledPrices.id, productId: scheduledPrices.productId })
    .from(scheduledPrices)
    .where(
      and(
        isNull(scheduledPrices.appliedAt),
        lte(scheduledPrices.vigenteDesde, today),
        gt(scheduledPrices.id, afterId),
      ),
    )
    .orderBy(asc(scheduledPrices.id))
    .limit(APPLY_BATCH);
  if (due.length === 0) return null;
  // The products first, in id order like every writer of several products (decision 0124); then each
  // change only if it is still pending and due: a second run, or one that waited for these locks, finds
  // it applied (or rescheduled, or cancelled) and leaves it.
  await lockProductsById(
    tx,
    due.map((d) => d.productId),
  );
  const ids = sql.join(
    due.map((d) => sql`${d.id}`),
    sql`, `,
  );
  const applied = await rowsOf<AppliedRow>(
    tx,
    sql`update ${scheduledPrices} s set applied_at = ${now}, precio_anterior = p.precio
        from ${products} p
        where s.id in (${ids}) and s.applied_at is null and s.vigente_desde <= ${today} and p.id = s.product_id
        returning s.id, s.product_id, s.id_cliente, s.precio, s.precio_anterior, s.vigente_desde::text,
          p.clave_interna as clave`,
  );
  if (applied.length > 0) {
    await tx.execute(
      sql`update ${products} p set precio = s.precio, updated_at = ${now}
          from ${scheduledPrices} s
          where s.id in (${sql.join(
            applied.map((a) => sql`${a.id}`),
            sql`, `,
          )}) and p.id = s.product_id and p.precio <> s.precio`,
    );
    const byClient = new Map<number, AppliedRow[]>();
    for (const a of applied)
      byClient.set(Number(a.id_cliente), [...(byClient.get(Number(a.id_cliente)) ?? []), a]);
    for (const [idCliente, rows] of byClient) {
      await audit(tx, {
        userId: null,
        eventType: 'precios_programados_aplicados',
        description:
          rows.length === 1
            ? `Producto ${rows[0]!.clave}: precio programado de ${formatCentavos(Number(rows[0]!.precio))} aplicado`
            : `${rows.length} precios programados aplicados`,
        metadata: {
          id_cliente: idCliente,
          aplicados: rows.length,
          ...(rows.length <= 50
            ? {
                cambios: rows.map((r) => ({
                  id_producto: Number(r.product_id),
                  clave_interna: r.clave,
                  precio_anterior: Number(r.precio_anterior),
                  precio: Number(r.precio),
                  vigente_desde: r.vigente_desde,
                })),
              }
            : {}),
        },
      });
    }
  }
  return { last: due.at(-1)!.id, applied: applied.length };
}

/**
 * Applies every change due at `now` (`vigente_desde` on or before the business date), in id order, a batch
 * per transaction; safe to run twice or on two instances at once (each change is applied once), and a
 * missed night's changes are applied by the next run. Answers how many this run applied.
 */
export async function applyDuePrices(db: Db, now: Date, tz: string): Promise<number> {
  const today = businessDate(now, tz);
  let afterId = 0;
  let applied = 0;
  for (;;) {
    const batch = await db.transaction((tx) => applyBatch(tx, now, today, afterId));
    if (batch === null) break;
    applied += batch.applied;
    afterId = batch.last;
  }
  return applied;
}

/** Declares the daily job (called while the app is built). */
export function defineScheduledPricesJob(deps: Deps): void {
  deps.jobs.define<Record<string, never>>({
    name: SCHEDULED_PRICES_QUEUE,
    retryLimit: 3,
    retryDelay: 60,
    expireInSeconds: 30 * 60,
    cron: { expression: SCHEDULED_PRICES_CRON, tz: deps.config.BUSINESS_TZ },
    handler: async () => {
      const n = await applyDuePrices(deps.db, deps.clock.now(), deps.config.BUSINESS_TZ);
      if (n > 0) deps.log.info({ aplicados: n }, 'precios programados aplicados');
    },
  });
}
