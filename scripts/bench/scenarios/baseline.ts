/** The baseline: one primary-key SELECT through a pg pool, over every user id; what the others are compared to. */
import { log } from '../processes.ts';
import { type BenchContext, httpRow, load } from './context.ts';

export async function baselineScenario(ctx: BenchContext): Promise<void> {
  let nextId = 0;
  log('→ línea base');
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
  ctx.baseline.rps = b.requests.average;
  ctx.baseline.cpu = (bCpu.node + bCpu.pg) / Math.max(1, b.requests.total);
  ctx.rows.push({
    ...httpRow(ctx, 'baseline', 'Línea base: Fastify + pg, 1 SELECT por PK', b, bCpu, null),
    ratio: 1,
  });
  log(
    `  ${ctx.baseline.rps.toFixed(0)} req/s, p50 ${b.latency.p50} ms, p99 ${b.latency.p99} ms; CPU/req ${ctx.baseline.cpu.toFixed(3)} ms`,
  );
}
