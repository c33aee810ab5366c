/**
 * The reads over the recent orders' documents (seed-documents.ts): the receiver's shipments to receive and one
 * of them (decision 0130), the client's statement with its aging (0134), and the integration API's list of
 * CFDIs by cursor (0131), read by a pool of tokens of the first client with `facturas:leer`.
 */
import type autocannon from 'autocannon';
import { hashToken, newToken } from '../../../apps/server/src/lib/tokens.ts';
import { authHeaders } from '../http.ts';
import { RECEIVER_USER } from '../seed-documents.ts';
import { type BenchContext, httpScenario, type Query, type Target } from './context.ts';

/** The keys of these scenarios. */
export const DOCUMENT_KEYS = ['recepcion', 'recepcion_envio', 'estado_cuenta', 'v1_facturas'] as const;

/**
 * Tokens the v1 scenario takes turns over: each may make API_RATE_LIMIT (120) requests a minute, so a pass of
 * 12 s stays under it up to 10,000 requests a second.
 */
const TOKENS = 1_000;

/** Stops the run when the database was seeded before shipments, receipts and invoices were. */
export async function requireDocuments(q: Query): Promise<void> {
  const [row] = await q<{ ok: boolean }>(
    `select exists (select 1 from users where usuario = $1) and exists (select 1 from invoices) as ok`,
    [RECEIVER_USER],
  );
  if (!row?.ok)
    throw new Error(
      'Los datos de benchmark son anteriores a los envíos, las recepciones y las facturas: vuelve a sembrarlos con --reset.',
    );
}

/** The newest shipment within the receiver's addresses, received or not: its order and number. */
async function receiverShipment(
  q: Query,
  received: boolean,
): Promise<{ id: number; numero: number; guia: string }> {
  const [row] = await q<{ id: number; numero: number; guia: string }>(
    `select o.id, s.numero, s.guia from order_shipments s
      join orders o on o.id = s.order_id
      join users u on u.usuario = $1 and u.id_cliente = o.id_cliente
      join receiver_addresses ra on ra.user_id = u.id and ra.address_id = (o.entrega ->> 'id_direccion')::int
      left join order_receipts r on r.shipment_id = s.id
      where (r.id is not null) = $2
      order by s.id desc limit 1`,
    [RECEIVER_USER, received],
  );
  if (!row) throw new Error(`El receptor no tiene envíos ${received ? 'recibidos' : 'por recibir'}`);
  return row;
}

async function receivingReads(ctx: BenchContext, list: Target): Promise<void> {
  if (!ctx.receptor || !['recepcion', 'recepcion_envio'].some(ctx.only)) return;
  const headers = authHeaders(ctx.receptor);
  const waiting = await receiverShipment(ctx.q, false);
  const received = await receiverShipment(ctx.q, true);
  // The dock's list, and the guía of a package as its label's scan types it.
  await httpScenario(
    ctx,
    'recepcion',
    'GET /api/recepcion (receptor de una dirección; página 1, y búsqueda por guía, alternadas)',
    [
      { method: 'GET', path: '/api/recepcion?page=1', headers },
      { method: 'GET', path: `/api/recepcion?q=${encodeURIComponent(waiting.guia)}`, headers },
    ],
    list,
  );
  await httpScenario(
    ctx,
    'recepcion_envio',
    'GET /api/recepcion/{id}/envios/{numero} (un envío por recibir y uno recibido, alternados)',
    [
      { method: 'GET', path: `/api/recepcion/${waiting.id}/envios/${waiting.numero}`, headers },
      { method: 'GET', path: `/api/recepcion/${received.id}/envios/${received.numero}`, headers },
    ],
    list,
  );
}

/** The cursor of the middle of the client's CFDIs, reached as a client reaches it: page after page. */
async function middleCursor(ctx: BenchContext, bearer: () => string): Promise<string> {
  const [{ n } = { n: 0 }] = await ctx.q<{ n: number }>(
    'select count(*)::int as n from invoices where id_cliente = $1',
    [ctx.known.id_cliente],
  );
  let cursor = '';
  for (let read = 0; read < n / 2; ) {
    const res = await fetch(`${ctx.base}/api/v1/facturas?limite=100${cursor && `&cursor=${cursor}`}`, {
      headers: { authorization: `Bearer ${bearer()}` },
    });
    const body = (await res.json()) as { facturas?: unknown[]; siguiente?: string | null };
    if (!res.ok || !body.facturas || !body.siguiente)
      throw new Error(`GET /api/v1/facturas tras ${read} CFDI: ${res.status}`);
    read += body.facturas.length;
    cursor = body.siguiente;
  }
  return cursor;
}

/**
 * GET /api/v1/facturas as the client's ERP reads it: the first page and a page from the middle of the client's
 * CFDIs (50 each), alternated, each request with the next token of the pool (inserted before, deleted after).
 */
async function invoiceList(ctx: BenchContext, list: Target): Promise<void> {
  if (!ctx.only('v1_facturas')) return;
  const { q } = ctx;
  const idCliente = ctx.known.id_cliente;
  const bearers = Array.from({ length: TOKENS }, () => newToken());
  const tokens = await q<{ id: number }>(
    `insert into api_tokens (nombre, prefijo, token_hash, id_cliente, permisos, expira_en)
      select 'Prueba de carga: facturas ' || n, left(b.value, 12), b.hash, $3, array['facturas:leer'],
        now() + interval '1 day'
      from unnest($1::text[], $2::text[]) with ordinality as b(value, hash, n)
      returning id`,
    [bearers, bearers.map(hashToken), idCliente],
  );
  let next = 0;
  const bearer = () => bearers[next++ % bearers.length]!;
  const page = (path: string): autocannon.Request => ({
    method: 'GET',
    path,
    setupRequest: (request) => ({ ...request, headers: { authorization: `Bearer ${bearer()}` } }),
  });
  try {
    const middle = await middleCursor(ctx, bearer);
    await httpScenario(
      ctx,
      'v1_facturas',
      'GET /api/v1/facturas (token del cliente; la primera página y una de en medio, 50 CFDI, alternadas)',
      [page('/api/v1/facturas'), page(`/api/v1/facturas?cursor=${middle}`)],
      list,
    );
  } finally {
    await q('delete from api_tokens where id = any($1::int[])', [tokens.map((t) => t.id)]);
  }
}

export async function documentReads(ctx: BenchContext): Promise<void> {
  // Issue 18's targets for a hot read: CPU per request within 5× the baseline's, p99 < 25 ms at 10 connections.
  const list: Target = { cpu: 5, p99: 25 };
  await receivingReads(ctx, list);
  // Every open invoice of the client in one answer (thousands for the first client): at 10 connections, where
  // its p99 is judged, as the dashboard's.
  await httpScenario(
    ctx,
    'estado_cuenta',
    'GET /api/estado-cuenta (rol 2, 10 conexiones; el resumen del cliente y la primera página de 50 facturas abiertas)',
    [{ method: 'GET', path: '/api/estado-cuenta', headers: authHeaders(ctx.autorizador) }],
    list,
    10,
  );
  await invoiceList(ctx, list);
}
