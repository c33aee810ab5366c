/** The baseline: one primary-key SELECT through a pg pool, over every user id; what the others are compared to. */
import { log } from '../processes.ts';
import { type BenchContext, httpRow, load, logRow } from './context.ts';

/**
 * Rounds of the cost run's baseline. A trivial request's CPU per request moves by ±20 % between two 10-second
 * samples on this machine (finding 49), and every scenario's multiple is divided by it: the median of three
 * keeps one unlucky sample from moving every ratio of the run.
 */
const COST_ROUNDS = 3;

export async function baselineScenario(ctx: BenchContext): Promise<void> {
  let nextId = 0;
  const rounds = ctx.pass === 'cost' ? COST_ROUNDS : 1;
  log(
    `→ línea base (${ctx.common.connections} conexiones${rounds > 1 ? `, mediana de ${rounds} rondas` : ''})`,
  );
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    const sample = await load(
      ctx,
      {
        url: ctx.baselineUrl,
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => ({
              ...req,
              path: `/baseline/${ctx.userIds[nextId++ % ctx.userIds.length]}`,
            }),
          },
        ],
      },
      ctx.baseMeter,
    );
    const perRequest = (sample.cpu.node + sample.cpu.pg) / Math.max(1, sample.r.requests.total);
    if (rounds > 1) log(`  ronda ${round + 1}: ${perRequest.toFixed(3)} ms de CPU por petición`);
    samples.push({ ...sample, perRequest });
  }
  samples.sort((a, b) => a.perRequest - b.perRequest);
  const { r: b, cpu: bCpu, perRequest } = samples[Math.floor(samples.length / 2)]!;
  // The cost run sets what every scenario is compared to; the latency run only records its latencies.
  if (ctx.pass === 'cost') {
    ctx.baseline.rps = b.requests.average;
    ctx.baseline.cpu = perRequest;
  }
  const row = httpRow(ctx, 'baseline', 'Línea base: Fastify + pg, 1 SELECT por PK', b, bCpu, null);
  ctx.rows.push(row);
  logRow(row);
}

/**
 * The floor of a write (`transaccion`, finding 71): the baseline's process runs a transaction of five round
 * trips — BEGIN, `SELECT … FOR UPDATE` of a user, a read of it, a one-row upsert into its own table, COMMIT —
 * the shape of the cart's add (lock the buyer, read, write). What a write path of the portal costs at least
 * while it locks and reads in its own statements; the write targets are read against it.
 */
export async function transactionFloorScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.only('transaccion') || ctx.pass !== 'cost') return;
  let nextId = 0;
  log(`→ suelo de una transacción (${ctx.common.connections} conexiones)`);
  const { r, cpu } = await load(
    ctx,
    {
      url: ctx.baselineUrl,
      requests: [
        {
          method: 'POST',
          setupRequest: (req) => ({
            ...req,
            path: `/baseline/tx/${ctx.userIds[nextId++ % ctx.userIds.length]}`,
          }),
        },
      ],
    },
    ctx.baseMeter,
  );
  const row = httpRow(
    ctx,
    'transaccion',
    'Suelo de una escritura: transacción de 5 viajes (BEGIN, SELECT … FOR UPDATE, SELECT, UPSERT de 1 fila, COMMIT) en la línea base',
    r,
    cpu,
    null,
  );
  ctx.rows.push(row);
  logRow(row);
}
