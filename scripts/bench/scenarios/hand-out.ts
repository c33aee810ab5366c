/**
 * The write scenarios that redo the same work on every request (the bulk approval, the partial shipment):
 * rows prepared before the run are handed out to the requests, and after each answer put back by SQL, outside
 * the measured processes, before being handed out again.
 */
import type autocannon from 'autocannon';
import type { Cpu } from '../processes.ts';
import { log } from '../processes.ts';
import type { Row } from '../results.ts';
import { type BenchContext, httpRow, load } from './context.ts';

export interface HandOut<T> {
  /** Up to `n` free items (fewer when the put-backs lag behind the requests). */
  take(n: number): T[];
  /** Restores the items (in the background) and frees them again once restored. */
  putBack(items: T[]): void;
  /** Every put-back under way done. */
  settled(): Promise<void>;
}

export function handOut<T>(items: readonly T[], restore: (items: T[]) => Promise<unknown>): HandOut<T> {
  const free = [...items];
  const pending = new Set<Promise<void>>();
  return {
    take: (n) => free.splice(0, n),
    putBack: (batch) => {
      const done = restore(batch).then(() => {
        free.push(...batch);
      });
      pending.add(done);
      void done.finally(() => pending.delete(done));
    },
    settled: async () => {
      await Promise.all(pending);
    },
  };
}

/**
 * One load test of `request` at `connections` (the warm-up, then the measured run once the warm-up's
 * put-backs are done and `reset` has cleared the scenario's counts): its row (no target) and CPU.
 */
export async function measureWrites(
  ctx: BenchContext,
  o: {
    key: string;
    name: string;
    request: autocannon.Request;
    connections: number;
    pool: Pick<HandOut<unknown>, 'settled'>;
    reset: () => void;
  },
): Promise<{ row: Row; cpu: Cpu }> {
  log(`→ ${o.name}`);
  const { r, cpu } = await load(
    ctx,
    {
      url: ctx.base,
      requests: [o.request],
      connections: o.connections,
      beforeMeasure: async () => {
        await o.pool.settled();
        o.reset();
      },
    },
    ctx.portalMeter,
  );
  await o.pool.settled();
  return { row: httpRow(ctx, o.key, o.name, r, cpu, null, o.connections), cpu };
}
