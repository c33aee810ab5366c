/**
 * What every scenario gets: the running server and baseline, the signed-in users, the database, the
 * options, and the rows of the results table it adds to. Also the load helper every HTTP scenario uses.
 */
import autocannon from 'autocannon';
import type pg from 'pg';
import { type BenchArgs, LATENCY_CONNECTIONS } from '../common.ts';
import type { SignedIn } from '../http.ts';
import { type Cpu, type CpuMeter, log } from '../processes.ts';
import type { Row } from '../results.ts';

export type Query = <T extends pg.QueryResultRow>(text: string, params?: unknown[]) => Promise<T[]>;

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
  /** The first client's receiver (rol 1 with the flag), signed in when a receiving scenario runs. */
  receptor: SignedIn | null;
  /** Every user id (the baseline reads them in turn). */
  userIds: number[];
  /** The rol-1 users the cart, purchase and repeat scenarios use, signed in when one of them runs. */
  buyerNames: string[];
  buyers: SignedIn[];
  /** Set by the baseline scenario: its rate and CPU ms per request, what the others are compared to. */
  baseline: { rps: number; cpu: number };
  /**
   * The cost run (at `--connections`, every scenario) or the latency run (the HTTP scenarios again at
   * LATENCY_CONNECTIONS, where the p99 targets are judged).
   */
  pass: 'cost' | 'latency';
  /** The rows of the current pass. */
  rows: Row[];
  /** The HTTP scenarios that received answers other than 2xx: the run ends with an error and writes nothing. */
  failures: string[];
}

export type Scenario = (ctx: BenchContext) => Promise<void>;

/**
 * A scenario's targets: its CPU per request as a multiple of the baseline's (judged in the run at the
 * bench's connections) and its p99 (judged where it runs at LATENCY_CONNECTIONS).
 */
export type Target = { cpu?: number; p99?: number } | null;

export function targetText(target: Target): string {
  if (!target) return '—';
  const parts: string[] = [];
  if (target.cpu !== undefined) parts.push(`≤ ${target.cpu}× CPU`);
  if (target.p99 !== undefined) parts.push(`p99 < ${target.p99} ms a ${LATENCY_CONNECTIONS} conexiones`);
  return parts.join('; ');
}

/** The connections a load test of this pass runs at (unless the scenario sets its own). */
export function connectionsOf(ctx: BenchContext, own?: number): number {
  return own ?? ctx.common.connections;
}

/** Whether a row's figures judge its CPU target (the cost run) and its p99 target (at 10 connections). */
export function judge(
  ctx: BenchContext,
  row: Pick<Row, 'cpuX' | 'p99' | 'non2xx' | 'connections'>,
  target: Target,
): boolean | null {
  if (!target) return null;
  const checks: boolean[] = [];
  if (ctx.pass === 'cost' && target.cpu !== undefined) checks.push((row.cpuX ?? Infinity) <= target.cpu);
  if (row.connections === LATENCY_CONNECTIONS && target.p99 !== undefined)
    checks.push((row.p99 ?? Infinity) < target.p99);
  if (checks.length === 0) return null;
  return checks.every(Boolean) && !row.non2xx;
}

/**
 * Seconds a request may take before autocannon counts it as an error (its default is 10): the client's
 * statement and the bulk approval take seconds a request at their connections.
 */
const TIMEOUT_SECONDS = 30;

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
  const full = { ...ctx.common, timeout: TIMEOUT_SECONDS, ...rest };
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

/** CPU ms per request of this run, and that as a multiple of the baseline's CPU per request. */
export function perRequest(ctx: BenchContext, cpu: Cpu, n: number) {
  return {
    cpuNode: n ? cpu.node / n : 0,
    cpuPg: n ? cpu.pg / n : 0,
    cpuX: n && ctx.baseline.cpu ? (cpu.node + cpu.pg) / n / ctx.baseline.cpu : undefined,
  };
}

/** The row of an autocannon run, judged against its target (CPU per request, p99 at 10 connections). */
export function httpRow(
  ctx: BenchContext,
  key: string,
  name: string,
  r: autocannon.Result,
  cpu: Cpu,
  target: Target,
  connections = connectionsOf(ctx),
): Row {
  const rps = r.requests.average;
  const row: Row = {
    key,
    name,
    rps,
    p50: r.latency.p50,
    p99: r.latency.p99,
    ratio: ctx.baseline.rps ? rps / ctx.baseline.rps : 1,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    connections,
    ...perRequest(ctx, cpu, r.requests.total),
    machine: cpu.steal === undefined ? undefined : { steal: cpu.steal, others: cpu.others ?? 0 },
    target: targetText(target),
    ok: null,
  };
  row.ok = judge(ctx, row, target);
  return row;
}

/** The line a finished load test prints. */
export function logRow(row: Row): void {
  log(
    `  [${row.key}] ${row.rps!.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms (${row.connections} conexiones), no-2xx ${row.non2xx}, errores ${row.errors}; CPU/req ${row.cpuNode!.toFixed(2)} ms node + ${row.cpuPg!.toFixed(2)} ms pg${row.cpuX === undefined ? '' : ` = ${row.cpuX.toFixed(1)}× línea base`}${row.machine ? `; la máquina: ${row.machine.steal.toFixed(0)} ms robados, ${row.machine.others.toFixed(0)} ms de CPU ajena` : ''}`,
  );
}

/**
 * Asks each GET of a scenario once before its load: an answer other than 2xx (a role the route refuses,
 * data the seed did not write) stops the run there, with the answer.
 */
async function firstAnswers(ctx: BenchContext, key: string, requests: autocannon.Request[]): Promise<void> {
  for (const request of requests) {
    if ((request.method ?? 'GET') !== 'GET') continue;
    const setup = request.setupRequest;
    const r = typeof setup === 'function' ? setup({ ...request }, {}) : request;
    const headers = Object.fromEntries(
      Object.entries(r.headers ?? {}).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    const res = await fetch(`${ctx.base}${r.path}`, { headers });
    const body = await res.text();
    if (res.status < 200 || res.status > 299)
      throw new Error(`[${key}] GET ${r.path}: ${res.status} ${body.slice(0, 300)}`);
  }
}

/**
 * Drives the portal with `requests` (when `key` is selected) and adds its row. A scenario with connections
 * of its own runs once, in the cost run. Answers other than 2xx under load are a failure of the run.
 */
export async function httpScenario(
  ctx: BenchContext,
  key: string,
  name: string,
  requests: autocannon.Request[],
  target: Target,
  connections?: number,
): Promise<void> {
  if (!ctx.only(key)) return;
  if (connections !== undefined && ctx.pass === 'latency') return;
  log(`→ ${name}`);
  await firstAnswers(ctx, key, requests);
  const { r, cpu } = await load(
    ctx,
    { url: ctx.base, requests, ...(connections ? { connections } : {}) },
    ctx.portalMeter,
  );
  const row = httpRow(ctx, key, name, r, cpu, target, connectionsOf(ctx, connections));
  ctx.rows.push(row);
  logRow(row);
  if (row.non2xx || row.errors)
    ctx.failures.push(
      `${key}: ${row.non2xx} respuestas no 2xx, ${row.errors} errores (${ctx.pass === 'cost' ? 'corrida de costo' : 'corrida de latencias'})`,
    );
}
