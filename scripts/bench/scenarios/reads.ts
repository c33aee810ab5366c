/** The hot reads: the session, a catalogue search, the authorizer's order pages, the admin lists. */
import { authHeaders, type SignedIn } from '../http.ts';
import { log } from '../processes.ts';
import { type BenchContext, httpScenario, type Target } from './context.ts';

/**
 * The id of the last order on a page of the authorizer's list (where the pager's next step starts); null
 * when the data set has fewer pages (`--size small`).
 */
async function lastOrderOfPage(ctx: BenchContext, page: number): Promise<number | null> {
  const res = await fetch(`${ctx.base}/api/pedidos?status=todos&page=${page}`, {
    headers: authHeaders(ctx.autorizador),
  });
  if (!res.ok) throw new Error(`página ${page} de pedidos: ${res.status}`);
  const body = (await res.json()) as { pedidos: { id: number }[] };
  return body.pedidos.at(-1)?.id ?? null;
}

/** A read scenario: its key, its name, who asks, the address, its target. */
type Read = [string, string, SignedIn, string, Target];

export async function readScenarios(ctx: BenchContext): Promise<void> {
  const { usuario, autorizador, admin } = ctx;
  // Issue 18's targets: CPU per request as a multiple of the baseline's, p99 < 25 ms at 10 connections.
  const list: Target = { cpu: 5, p99: 25 };
  // Page 200 of the approver's orders, when the data set has that many (the small one has not).
  const wantsFar = ctx.only('pedidos200') || ctx.only('pedidos200_salto');
  const page199 = wantsFar ? await lastOrderOfPage(ctx, 199) : null;
  if (wantsFar && page199 === null)
    log('  pedidos200 y pedidos200_salto se omiten: los datos tienen menos de 200 páginas de pedidos');
  const farPages: Read[] =
    page199 === null
      ? []
      : [
          [
            'pedidos200',
            'GET /api/pedidos página 200 desde la 199 (rol 2; el paso «siguiente» del paginador, decisión 0076)',
            autorizador,
            `/api/pedidos?status=todos&page=200&despues=${page199}`,
            { cpu: 6, p99: 25 },
          ],
          [
            'pedidos200_salto',
            'GET /api/pedidos página 200 por número (rol 2; un salto directo, con OFFSET)',
            autorizador,
            '/api/pedidos?status=todos&page=200',
            null,
          ],
        ];
  const reads: Read[] = [
    ['sesion', 'GET /api/sesion (rol 1)', usuario, '/api/sesion', { cpu: 3, p99: 25 }],
    ['catalogo', 'GET /api/catalogo?q=guantes (búsqueda)', usuario, '/api/catalogo?q=guantes', list],
    ['pedidos1', 'GET /api/pedidos página 1 (rol 2)', autorizador, '/api/pedidos?status=todos&page=1', list],
    ...farPages,
    // The bell's count and newest items, read every minute by every signed-in person (decision 0114).
    ['avisos', 'GET /api/notificaciones (rol 2; la campana)', autorizador, '/api/notificaciones', list],
    ['usuarios', 'GET /api/usuarios (rol 4)', admin, '/api/usuarios?page=1', list],
    ['logs', 'GET /api/logs (rol 4)', admin, '/api/logs?page=1', list],
  ];
  for (const [key, name, who, url, target] of reads) {
    await httpScenario(ctx, key, name, [{ method: 'GET', path: url, headers: authHeaders(who) }], target);
  }
  // The buyer's history (about 127 orders): the newest page, and a page sorted by total, alternated.
  await httpScenario(
    ctx,
    'historial',
    'GET /api/historial (rol 1; página 1, y por total página 3, alternados)',
    [
      { method: 'GET', path: '/api/historial?page=1', headers: authHeaders(usuario) },
      { method: 'GET', path: '/api/historial?orden=total_desc&page=3', headers: authHeaders(usuario) },
    ],
    list,
  );
  // The system log filtered (decision 0062): by part of a buyer's username, and by client and event type.
  await httpScenario(
    ctx,
    'logs_filtrados',
    'GET /api/logs filtrado (rol 4; usuario «c00012», y cliente + tipo, alternados)',
    [
      { method: 'GET', path: '/api/logs?usuario=c00012&page=1', headers: authHeaders(admin) },
      {
        method: 'GET',
        path: '/api/logs?id_cliente=1&event_type=pedido_creado&page=2',
        headers: authHeaders(admin),
      },
    ],
    list,
  );
  // The users list of the largest client (~3,000 buyers) filtered by role and sorted (decision 0067): by
  // last sign-in, and active buyers by name on a deep page, alternated, at 10 connections.
  await httpScenario(
    ctx,
    'usuarios_filtrados',
    'GET /api/usuarios filtrado y ordenado (rol 4, 10 conexiones; cliente 1, rol 1 por último acceso, y activos por nombre página 50, alternados)',
    [
      {
        method: 'GET',
        path: '/api/usuarios?id_cliente=1&rol=1&orden=ultimo_acceso_desc',
        headers: authHeaders(admin),
      },
      {
        method: 'GET',
        path: '/api/usuarios?id_cliente=1&rol=1&estatus=activo&orden=nombre_asc&page=50',
        headers: authHeaders(admin),
      },
    ],
    { cpu: 5, p99: 50 },
    10,
  );
  // The administrator's support search (a buyer's name fragment and an order number), at 10 connections.
  await httpScenario(
    ctx,
    'buscar',
    'GET /api/buscar?q=… (rol 4, 10 conexiones)',
    [
      { method: 'GET', path: '/api/buscar?q=c00012', headers: authHeaders(admin) },
      { method: 'GET', path: '/api/buscar?q=%2300123', headers: authHeaders(admin) },
    ],
    { p99: 50 },
    10,
  );
  // The spend dashboard of the largest client over 12 months (85,000 orders, ~1,020,000 lines): its target
  // is set at 10 connections (decision 0055).
  await httpScenario(
    ctx,
    'tablero',
    'GET /api/tablero 12 meses (rol 2, 10 conexiones)',
    [{ method: 'GET', path: '/api/tablero', headers: authHeaders(autorizador) }],
    // The target is the p99 alone; the CPU is not a goal for a page of this weight.
    { p99: 100 },
    10,
  );
}
