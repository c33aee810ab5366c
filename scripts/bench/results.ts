/** The bench's results: one row per scenario, the Markdown table and its block in docs/benchmarks.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { parseArgs, SizeName } from './common.ts';
import { ROOT } from './processes.ts';

export const DOC = path.join(ROOT, 'docs/benchmarks.md');

export interface Row {
  /** The scenario's key: printed in the table, what `--only` accepts. */
  key: string;
  name: string;
  rps?: number;
  p50?: number;
  p99?: number;
  /** Requests per second over the baseline's. */
  ratio?: number;
  non2xx?: number;
  errors?: number;
  /** The connections the load test ran at. */
  connections?: number;
  /** CPU ms per request: the Node process and its PostgreSQL backends. */
  cpuNode?: number;
  cpuPg?: number;
  /** CPU per request as a multiple of the baseline's in the same run: the headline, stable across machines. */
  cpuX?: number;
  /** What the machine did meanwhile besides the test: ms stolen by the hypervisor, ms of other CPU work. */
  machine?: { steal: number; others: number };
  /** Free text for the non-HTTP measures (report, import) and extra facts. */
  result?: string;
  target: string;
  ok: boolean | null;
}

function fmt(n: number | undefined, digits = 0): string {
  return n === undefined ? '' : n.toLocaleString('en', { maximumFractionDigits: digits });
}

const latencyOf = (r: Row | undefined) => (r?.p50 === undefined ? '' : `${fmt(r.p50)} / ${fmt(r.p99)}`);

/** Both verdicts of a scenario (cost run, latency run): a failed one fails it, no target is no verdict. */
function verdictOf(a: boolean | null, b: boolean | null | undefined): string {
  const all = [a, b ?? null].filter((v): v is boolean => v !== null);
  if (all.length === 0) return '';
  return all.every(Boolean) ? 'sí' : '**no**';
}

/**
 * The results table: one line per scenario of the cost run (at `connections`), with the p50 / p99 of the
 * latency run (at `latencyConnections`) beside it when there was one.
 */
export function renderTable(
  rows: Row[],
  latency: Row[],
  connections: number,
  latencyConnections: number,
): string {
  const two = connections !== latencyConnections;
  const latCols = two
    ? `p50 / p99 ms a ${connections} conexiones | p50 / p99 ms a ${latencyConnections} conexiones`
    : `p50 / p99 ms a ${connections} conexiones`;
  const out = [
    `| clave | escenario | CPU ms/req (node + pg) | **CPU × línea base** | req/s | req/s vs. línea base | ${latCols} | no-2xx | objetivo | ¿cumple? |`,
    `|---|---|---:|---:|---:|---:|---:|${two ? '---:|' : ''}---:|---|---|`,
  ];
  const byKey = new Map(latency.map((r) => [r.key, r]));
  for (const r of rows) {
    const blanks = two ? '|  |  ' : '|  ';
    if (r.rps === undefined) {
      out.push(
        `| \`${r.key}\` | ${r.name}: ${r.result} |  |  |  |  ${blanks}|  | ${r.target} | ${verdictOf(r.ok, null)} |`,
      );
      continue;
    }
    const extra = r.result ? ` (${r.result})` : '';
    const late = byKey.get(r.key);
    // A scenario run at the latency connections (its own setting, or the whole run's) fills that column.
    const atLatency = r.connections === latencyConnections ? r : late;
    const atRun = r.connections === latencyConnections && two ? undefined : r;
    const lat = two ? `${latencyOf(atRun)} | ${latencyOf(atLatency)}` : latencyOf(r);
    const x = r.cpuX === undefined ? '' : `**${fmt(r.cpuX, 1)}×**`;
    out.push(
      `| \`${r.key}\` | ${r.name}${extra} | ${fmt(r.cpuNode, 2)} + ${fmt(r.cpuPg, 2)} | ${x} | ${fmt(r.rps)} | ${fmt((r.ratio ?? 0) * 100)}% | ${lat} | ${fmt(r.non2xx)} | ${r.target} | ${verdictOf(r.ok, late?.ok)} |`,
    );
  }
  return out.join('\n');
}

export function machine(
  pgVersion: string,
  size: SizeName,
  args: ReturnType<typeof parseArgs>,
  latencyConnections: number,
  load: string,
): string {
  const cpus = os.cpus();
  return [
    `- Fecha: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Máquina: ${cpus[0]?.model ?? '?'}, ${cpus.length} núcleos, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB de RAM (servidor, PostgreSQL y autocannon en los mismos núcleos)`,
    `- Node ${process.version}, PostgreSQL ${pgVersion}, autocannon 8.0.0`,
    `- Datos: \`--size ${size}\`; ${args.connections} conexiones, ${args.duration} s por escenario (más 2 s de calentamiento)${latencyConnections === args.connections ? '' : `; latencias también a ${latencyConnections} conexiones, otra corrida de ${args.duration} s por escenario HTTP`}`,
    `- Carga media del equipo durante la corrida: ${load}`,
  ].join('\n');
}

/** The block a run of `size` rewrites: `large` the main one, the others one of their own each. */
function markers(size: SizeName): { start: string; end: string } {
  const tag = size === 'large' ? 'results' : `results-${size}`;
  return { start: `<!-- bench:${tag}:start -->`, end: `<!-- bench:${tag}:end -->` };
}

export function writeDoc(table: string, machineText: string, size: SizeName): void {
  const { start: START, end: END } = markers(size);
  const block = `${START}\n${machineText}\n\n${table}\n${END}`;
  let doc: string;
  try {
    doc = readFileSync(DOC, 'utf8');
  } catch {
    doc = `# Benchmarks\n\n${START}\n${END}\n`;
  }
  const a = doc.indexOf(START);
  const z = doc.indexOf(END);
  doc = a >= 0 && z > a ? doc.slice(0, a) + block + doc.slice(z + END.length) : `${doc}\n${block}\n`;
  writeFileSync(DOC, doc);
}
