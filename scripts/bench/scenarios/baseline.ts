/** The baseline: one primary-key SELECT through a pg pool, over every user id; what the others are compared to. */
import { log } from '../processes.ts';
import { type BenchContext, httpRow, load, logRow } from './context.ts';

export async function baselineScenario(ctx: BenchContext): Promise<void> {
  let nextId = 0;
  log(`→ línea base (${ctx.common.connections} conexiones)`);
  const { r: b, cpu: bCpu } = await load(
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
  // The cost run sets what every scenario is compared to; the latency run only records its latencies.
  if (ctx.pass === 'cost') {
    ctx.baseline.rps = b.requests.average;
    ctx.baseline.cpu = (bCpu.node + bCpu.pg) / Math.max(1, b.requests.total);
  }
  const row = httpRow(ctx, 'baseline', 'Línea base: Fastify + pg, 1 SELECT por PK', b, bCpu, null);
  ctx.rows.push(row);
  logRow(row);
}
