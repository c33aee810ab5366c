import {
  DELIVERIES_PER_PAGE,
  WEBHOOK_SECRET_PREFIX,
  WEBHOOKS_PER_PAGE,
  WEBHOOKS_PER_SCOPE,
  type WebhookEventType,
} from '@portal/shared/domain/integration';
import type {
  DeliveriesResponse,
  DeliveryDto,
  WebhookCreateBody,
  WebhookCreateResponse,
  WebhookDto,
  WebhooksResponse,
} from '@portal/shared/schemas/integration';
import { and, count, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../../db/client.ts';
import { clients, webhookDeliveries, webhookEndpoints, webhookEvents } from '../../db/schema/index.ts';
import { audit, requestMeta } from '../../lib/audit.ts';
import type { Deps } from '../../lib/deps.ts';
import { badRequest, conflict, notFound } from '../../lib/errors.ts';
import { sealSecret, secretContext } from '../../lib/secret-box.ts';
import { newToken } from '../../lib/tokens.ts';
import { MSG } from '../../messages.ts';
import type { AuthContext } from '../../plugins/auth-guard.ts';
import { checkClientScope, scopeIs } from './tokens.service.ts';
import { targetPolicy } from './webhook-delivery.ts';
import { WEBHOOK_QUEUE, type WebhookDeliveryJob } from './webhook-outbox.ts';
import { resolveTarget } from './webhook-target.ts';

async function webhookDtos(db: Db | Tx, ids: number[]): Promise<WebhookDto[]> {
  if (ids.length === 0) return [];
  const [rows, counts] = await Promise.all([
    db
      .select({
        id: webhookEndpoints.id,
        url: webhookEndpoints.url,
        eventos: webhookEndpoints.eventos,
        idCliente: webhookEndpoints.idCliente,
        cliente: clients.nombre,
        activo: webhookEndpoints.activo,
        createdAt: webhookEndpoints.createdAt,
      })
      .from(webhookEndpoints)
      .leftJoin(clients, eq(clients.id, webhookEndpoints.idCliente))
      .where(inArray(webhookEndpoints.id, ids)),
    db
      .select({ endpointId: webhookDeliveries.endpointId, estado: webhookDeliveries.estado, n: count() })
      .from(webhookDeliveries)
      .where(
        and(
          inArray(webhookDeliveries.endpointId, ids),
          inArray(webhookDeliveries.estado, ['pendiente', 'enviando', 'fallido']),
        ),
      )
      .groupBy(webhookDeliveries.endpointId, webhookDeliveries.estado),
  ]);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const tally = (id: number, estados: string[]) =>
    counts.filter((c) => c.endpointId === id && estados.includes(c.estado)).reduce((n, c) => n + c.n, 0);
  return ids.flatMap((id) => {
    const r = byId.get(id);
    if (!r) return [];
    return [
      {
        id: r.id,
        url: r.url,
        eventos: r.eventos as WebhookEventType[],
        id_cliente: r.idCliente,
        cliente: r.cliente,
        activo: r.activo,
        creado_en: r.createdAt.toISOString(),
        pendientes: tally(id, ['pendiente', 'enviando']),
        fallidas: tally(id, ['fallido']),
      },
    ];
  });
}

/** GET /api/integracion/webhooks: newest first, deactivated ones too. */
export async function listWebhooks(db: Db, page: number): Promise<WebhooksResponse> {
  const [rows, [total]] = await Promise.all([
    db
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .orderBy(desc(webhookEndpoints.id))
      .limit(WEBHOOKS_PER_PAGE)
      .offset((page - 1) * WEBHOOKS_PER_PAGE),
    db.select({ n: count() }).from(webhookEndpoints),
  ]);
  return {
    webhooks: await webhookDtos(
      db,
      rows.map((r) => r.id),
    ),
    total: total?.n ?? 0,
    page,
    per_page: WEBHOOKS_PER_PAGE,
  };
}

/**
 * POST /api/integracion/webhooks: the URL must be https (plain http only outside production) and resolve
 * to public addresses only, unless WEBHOOK_ALLOW_PRIVATE (each delivery checks again). The signing
 * secret is sealed with the app's encryption key for this row, and is in this answer only.
 */
export async function createWebhook(
  deps: Deps,
  request: FastifyRequest,
  auth: AuthContext,
  body: WebhookCreateBody,
): Promise<WebhookCreateResponse> {
  const url = new URL(body.url);
  const target = await resolveTarget(url, targetPolicy(deps));
  if (!target.ok) throw badRequest(target.refusal.code, target.refusal.msg, { url: target.refusal.msg });
  const secreto = `${WEBHOOK_SECRET_PREFIX}${newToken()}`;
  const id = await deps.db.transaction(async (tx) => {
    await checkClientScope(tx, body.id_cliente, 'webhooks');
    const [active] = await tx
      .select({ n: count() })
      .from(webhookEndpoints)
      .where(and(scopeIs(webhookEndpoints.idCliente, body.id_cliente), eq(webhookEndpoints.activo, true)));
    if ((active?.n ?? 0) >= WEBHOOKS_PER_SCOPE)
      throw conflict('WEBHOOKS_FULL', MSG.webhooksLlenos(WEBHOOKS_PER_SCOPE));
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({
        url: url.toString(),
        eventos: body.eventos,
        idCliente: body.id_cliente,
        secretoCifrado: '',
        createdBy: auth.user.id,
      })
      .returning({ id: webhookEndpoints.id });
    const id = row!.id;
    await tx
      .update(webhookEndpoints)
      .set({ secretoCifrado: sealSecret(deps.keys.encryption, secreto, secretContext(id)) })
      .where(eq(webhookEndpoints.id, id));
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'webhook_creado',
      description: `Webhook ${url.origin} registrado`,
      metadata: {
        id_webhook: id,
        url: url.toString(),
        eventos: body.eventos,
        id_cliente: body.id_cliente,
        ...requestMeta(request),
      },
    });
    return id;
  });
  const [webhook] = await webhookDtos(deps.db, [id]);
  return { status: 'ok', msg: MSG.webhookCreado, webhook: webhook!, secreto };
}

/** POST /api/integracion/webhooks/{id}/desactivar: no new events; pending deliveries fail at their next attempt. */
export async function deactivateWebhook(
  deps: Pick<Deps, 'clock' | 'db'>,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<WebhookDto> {
  await deps.db.transaction(async (tx) => {
    const [exists] = await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.id, id));
    if (!exists) throw notFound(MSG.webhookNoEncontrado, 'WEBHOOK_NOT_FOUND');
    const updated = await tx
      .update(webhookEndpoints)
      .set({ activo: false, updatedAt: deps.clock.now() })
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.activo, true)))
      .returning({ url: webhookEndpoints.url });
    if (updated.length === 0) throw conflict('WEBHOOK_ALREADY_INACTIVE', MSG.webhookYaDesactivado);
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'webhook_desactivado',
      description: `Webhook ${new URL(updated[0]!.url).origin} desactivado`,
      metadata: { id_webhook: id, ...requestMeta(request) },
    });
  });
  const [webhook] = await webhookDtos(deps.db, [id]);
  return webhook!;
}

const deliveryColumns = {
  id: webhookDeliveries.id,
  eventId: webhookDeliveries.eventId,
  tipo: webhookEvents.tipo,
  orderId: webhookEvents.orderId,
  estado: webhookDeliveries.estado,
  intentos: webhookDeliveries.intentos,
  ultimoCodigo: webhookDeliveries.ultimoCodigo,
  ultimaLatenciaMs: webhookDeliveries.ultimaLatenciaMs,
  ultimoError: webhookDeliveries.ultimoError,
  ultimoIntentoEn: webhookDeliveries.ultimoIntentoEn,
  createdAt: webhookDeliveries.createdAt,
  entregadoEn: webhookDeliveries.entregadoEn,
};

function deliveryDto(r: {
  id: number;
  eventId: string;
  tipo: string;
  orderId: number;
  estado: string;
  intentos: number;
  ultimoCodigo: number | null;
  ultimaLatenciaMs: number | null;
  ultimoError: string | null;
  ultimoIntentoEn: Date | null;
  createdAt: Date;
  entregadoEn: Date | null;
}): DeliveryDto {
  return {
    id: r.id,
    id_evento: r.eventId,
    tipo: r.tipo as WebhookEventType,
    id_pedido: r.orderId,
    estado: r.estado as DeliveryDto['estado'],
    intentos: r.intentos,
    ultimo_codigo: r.ultimoCodigo,
    ultima_latencia_ms: r.ultimaLatenciaMs,
    ultimo_error: r.ultimoError,
    ultimo_intento_en: r.ultimoIntentoEn?.toISOString() ?? null,
    creado_en: r.createdAt.toISOString(),
    entregado_en: r.entregadoEn?.toISOString() ?? null,
  };
}

/** GET /api/integracion/webhooks/{id}/entregas: the endpoint's delivery log, newest first. */
export async function listDeliveries(db: Db, endpointId: number, page: number): Promise<DeliveriesResponse> {
  const [exists] = await db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(eq(webhookEndpoints.id, endpointId));
  if (!exists) throw notFound(MSG.webhookNoEncontrado, 'WEBHOOK_NOT_FOUND');
  const [rows, [total]] = await Promise.all([
    db
      .select(deliveryColumns)
      .from(webhookDeliveries)
      .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(desc(webhookDeliveries.id))
      .limit(DELIVERIES_PER_PAGE)
      .offset((page - 1) * DELIVERIES_PER_PAGE),
    db.select({ n: count() }).from(webhookDeliveries).where(eq(webhookDeliveries.endpointId, endpointId)),
  ]);
  return { entregas: rows.map(deliveryDto), total: total?.n ?? 0, page, per_page: DELIVERIES_PER_PAGE };
}

/**
 * POST /api/integracion/entregas/{id}/reenviar ("Reenviar"): the same event (same id and body, signed
 * anew) goes again, with a new 24-hour retry window. One being sent right now answers 409.
 */
export async function resendDelivery(
  deps: Pick<Deps, 'db' | 'jobs'>,
  request: FastifyRequest,
  auth: AuthContext,
  id: number,
): Promise<DeliveryDto> {
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .select({ id: webhookDeliveries.id, estado: webhookDeliveries.estado })
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.id, id))
      .for('update');
    if (!row) throw notFound(MSG.entregaNoEncontrada, 'DELIVERY_NOT_FOUND');
    const updated = await tx
      .update(webhookDeliveries)
      .set({ estado: 'pendiente', reclamadoHasta: null, reintentosDesde: sql`now()` })
      .where(
        and(
          eq(webhookDeliveries.id, id),
          sql`(${webhookDeliveries.estado} <> 'enviando' or ${webhookDeliveries.reclamadoHasta} < now())`,
        ),
      )
      .returning({ id: webhookDeliveries.id });
    if (updated.length === 0) throw conflict('DELIVERY_IN_PROGRESS', MSG.entregaEnCurso);
    await deps.jobs.send<WebhookDeliveryJob>(WEBHOOK_QUEUE, { id }, tx);
    await audit(tx, {
      userId: auth.user.id,
      eventType: 'webhook_reenviado',
      description: `Entrega #${id} de webhook reenviada`,
      metadata: { id_entrega: id, estado_anterior: row.estado, ...requestMeta(request) },
    });
  });
  const [row] = await deps.db
    .select(deliveryColumns)
    .from(webhookDeliveries)
    .innerJoin(webhookEvents, eq(webhookEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, id));
  return deliveryDto(row!);
}
