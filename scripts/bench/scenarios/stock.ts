/**
 * POST /api/v1/existencias with 5,000 lines, as a client's ERP sends it (decision 0124): a token of the
 * bench client with `inventario:escribir` (inserted before, deleted after with its idempotency keys), one
 * request at a time, each with its own `Idempotency-Key`. Consecutive requests alternate the values, so every
 * line of every request really writes. The products' stock, lead times and `updated_at` are put back after
 * the run, and the log entries it wrote deleted.
 */
import { hashToken, newToken } from '../../../apps/server/src/lib/tokens.ts';
import { log } from '../processes.ts';
import type { Row } from '../results.ts';
import { type BenchContext, percentile, perRequest } from './context.ts';
import { keepProducts } from './marked-orders.ts';

/** Lines per request: the route's maximum. */
const LINES = 5_000;
/** Requests, warm-up included: the token's rate limit is 120 a minute (`API_RATE_LIMIT`). */
const MAX_REQUESTS = 60;
const MIN_REQUESTS = 5;

interface Line {
  id: number;
  clave: string;
}

/** The body of request `i`: every line's stock differs from request `i − 1`'s; a lead time on one in three. */
function bodyOf(products: readonly Line[], i: number): string {
  const flip = i % 2;
  return JSON.stringify({
    existencias: products.map((p, j) => ({
      clave: p.clave,
      existencia: 10 + (j % 200) + flip * 300,
      ...(j % 3 === 0 ? { dias_entrega: 2 + (j % 10) + flip } : {}),
    })),
  });
}

export async function stockScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.only('existencias')) return;
  // Measured once, in the cost run (no latency target).
  if (ctx.pass === 'latency') return;
  const { q } = ctx;
  const idCliente = ctx.known.id_cliente;
  // Spread over the client's 100,000 products (one in 20), as an ERP's list of what moved would be.
  const products = await q<Line>(
    `select id, clave_interna as clave from products where id_cliente = $1 and id % 20 = 7 order by id
      limit ${LINES}`,
    [idCliente],
  );
  if (products.length < LINES) throw new Error(`El cliente ${idCliente} tiene menos de ${LINES} productos`);
  const putBack = await keepProducts(
    q,
    products.map((p) => p.id),
  );
  const bearer = newToken();
  const [token] = await q<{ id: number }>(
    `insert into api_tokens (nombre, prefijo, token_hash, id_cliente, permisos, expira_en)
      values ('Prueba de carga: existencias', $1, $2, $3, array['inventario:escribir'], now() + interval '1 day')
      returning id`,
    [bearer.slice(0, 12), hashToken(bearer), idCliente],
  );
  const name = `POST /api/v1/existencias (${LINES.toLocaleString('en')} líneas por petición, 1 conexión, Idempotency-Key)`;
  log(`→ ${name}`);
  let sent = 0;
  const post = async () => {
    const t = performance.now();
    const res = await fetch(`${ctx.base}/api/v1/existencias`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${bearer}`,
        'content-type': 'application/json',
        'idempotency-key': `bench-existencias-${token!.id}-${sent}`,
      },
      body: bodyOf(products, sent++),
    });
    const answer = (await res.json()) as { actualizados?: number; no_encontradas?: string[] };
    return { ms: performance.now() - t, status: res.status, answer };
  };
  try {
    for (let i = 0; i < (ctx.warmup > 0 ? 2 : 0); i++) await post();
    const stop = await ctx.portalMeter.start();
    const t0 = performance.now();
    const answers: Awaited<ReturnType<typeof post>>[] = [];
    const budget = MAX_REQUESTS - sent;
    while (
      answers.length < budget &&
      (answers.length < MIN_REQUESTS || performance.now() - t0 < ctx.args.duration * 1000)
    )
      answers.push(await post());
    const seconds = (performance.now() - t0) / 1000;
    const cpu = await stop();
    const n = answers.length;
    const ms = answers.map((a) => a.ms).sort((a, b) => a - b);
    const non2xx = answers.filter((a) => a.status < 200 || a.status > 299).length;
    const written = answers.reduce((s, a) => s + (a.answer.actualizados ?? 0), 0);
    const perLine = (cpu.node + cpu.pg) / Math.max(written, 1);
    const row: Row = {
      key: 'existencias',
      name,
      rps: n / seconds,
      p50: Math.round(percentile(ms, 50)),
      p99: Math.round(percentile(ms, 99)),
      ratio: ctx.baseline.rps ? n / seconds / ctx.baseline.rps : 1,
      non2xx,
      errors: 0,
      connections: 1,
      ...perRequest(ctx, cpu, n),
      result: `${n} peticiones, ${written.toLocaleString('en')} productos actualizados; CPU por línea ${((1000 * cpu.node) / Math.max(written, 1)).toFixed(1)} µs node + ${((1000 * cpu.pg) / Math.max(written, 1)).toFixed(1)} µs pg (${(1000 * perLine).toFixed(1)} µs)`,
      target: '—',
      ok: null,
    };
    ctx.rows.push(row);
    log(
      `  ${row.rps!.toFixed(1)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, no-2xx ${non2xx}; CPU/req ${row.cpuNode!.toFixed(1)} ms node + ${row.cpuPg!.toFixed(1)} ms pg; ${row.result}`,
    );
  } finally {
    await putBack();
    await q(
      `delete from system_logs where event_type = 'existencias_actualizadas' and (metadata->>'id_token')::int = $1`,
      [token!.id],
    );
    // Its idempotency keys go with it (on delete cascade).
    await q('delete from api_tokens where id = $1', [token!.id]);
  }
}
