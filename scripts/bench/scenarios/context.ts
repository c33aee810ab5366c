/**
 * What every scenario gets: the running server and baseline, the signed-in users, the database, the
 * options, and the rows of the results table it adds to. Also the load helper every HTTP scenario uses.
 */
import autocannon from 'autocannon';
import type pg from 'pg';
import type { BenchArgs } from '../common.ts';
import type { SignedIn } from '../http.ts';
import { type CpuMeter, log } from '../processes.ts';
import type { Row } from '../results.ts';

export type Query = <T extends pg.QueryResultRow>(text: string, params?: unknown[]) => Promise<T[]>;

export interface Cpu {
  node: number;
  pg: number;
}

export interface BenchContext {
  args: BenchArgs;
  /** Whether a scenario runs (`--only`). */
  only: (key: string) => boolean;
  /** Warm-up seconds before each load test (0 with `--no-warmup`). */
  warmup: number;
  /** The autocannon options every load test shares. */
  common: { duration: number; connections: number };
  q: Query;
  /** The portal (production build) and the bare Fastify + pg baseline. */
  base: string;
  baselineUrl: string;
  serverPid: number;
  portalMeter: CpuMeter;
  baseMeter: CpuMeter;
  /** The bench's rol-1 user (with its client), rol 2 and rol 4 sign-ins. */
  known: { id: number; id_cliente: number };
  usuario: SignedIn;
  autorizador: SignedIn;
  admin: SignedIn;
  /** Every user id (the baseline reads them in turn). */
  userIds: number[];
  /** The rol-1 users the cart, purchase and repeat scenarios use, signed in when one of them runs. */
  buyerNames: string[];
  buyers: SignedIn[];
  /** Set by the baseline scenario: its rate and CPU ms per request, what the others are compared to. */
  baseline: { rps: number; cpu: number };
  rows: Row[];
}

export type Scenario = (ctx: BenchContext) => Promise<void>;

export type Target = { ratio: number; p99?: number } | null;

/** One load test: the warm-up, then (after `beforeMeasure`) the measured run with the CPU it used. */
export async function load(
  ctx: BenchContext,
  opts: {
    url: string;
    requests: autocannon.Request[];
    beforeMeasure?: () => Promise<void>;
    /** Instead of the run's connections (a scenario with a target of its own). */
    connections?: number;
  },
  meter: CpuMeter,
): Promise<{ r: autocannon.Result; cpu: Cpu }> {
  const { beforeMeasure, ...rest } = opts;
  const full = { ...ctx.common, ...rest };
  if (ctx.warmup > 0) {
    await autocannon({ ...full, duration: ctx.warmup });
  }
  await beforeMeasure?.();
  const stop = await meter.start();
  const r = await autocannon({ ...full });
  return { r, cpu: await stop() };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** CPU ms per request of this run, and the baseline's CPU per request over it. */
export function perRequest(ctx: BenchContext, cpu: Cpu, n: number) {
  return {
    cpuNode: n ? cpu.node / n : 0,
    cpuPg: n ? cpu.pg / n : 0,
    cpuRatio: n && ctx.baseline.cpu ? ctx.baseline.cpu / ((cpu.node + cpu.pg) / n) : 1,
  };
}

/** The row of an autocannon run, judged against its target (a share of the baseline's rate, a p99). */
export function httpRow(
  ctx: BenchContext,
  key: string,
  name: string,
  r: autocannon.Result,
  cpu: Cpu,
  target: Target,
): Row {
  const rps = r.requests.average;
  const ratio = ctx.baseline.rps ? rps / ctx.baseline.rps : 1;
  const ok = target
    ? ratio >= target.ratio && (target.p99 === undefined || r.latency.p99 < target.p99) && r.non2xx === 0
    : null;
  const targetText = target
    ? `≥ ${Math.round(target.ratio * 100)}%${target.p99 ? `, p99 < ${target.p99} ms` : ''}`
    : '—';
  return {
    key,
    name,
    rps,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ratio,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    ...perRequest(ctx, cpu, r.requests.total),
    target: targetText,
    ok,
  };
}

/** Drives the portal with `requests` (when `key` is selected) and adds its row. */
export async function httpScenario(
  ctx: BenchContext,
  key: string,
  name: string,
  requests: autocannon.Request[],
  target: Target,
  connections?: number,
): Promise<void> {
  if (!ctx.only(key)) return;
  log(`→ ${name}`);
  const { r, cpu } = await load(
    ctx,
    { url: ctx.base, requests, ...(connections ? { connections } : {}) },
    ctx.portalMeter,
  );
  const row = httpRow(ctx, key, name, r, cpu, target);
  ctx.rows.push(row);
  log(
    `  ${row.rps!.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, no-2xx ${row.non2xx}, errores ${row.errors}; CPU/req ${row.cpuNode!.toFixed(2)} ms node + ${row.cpuPg!.toFixed(2)} ms pg`,
  );
}
