/** The bench's results: one row per scenario, the Markdown table and its block in docs/benchmarks.md. */
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { parseArgs, SizeName } from './common.ts';
import { ROOT } from './processes.ts';

export const DOC = path.join(ROOT, 'docs/benchmarks.md');

export interface Row {
  key: string;
  name: string;
  rps?: number;
  p50?: number;
  p99?: number;
  ratio?: number;
  non2xx?: number;
  errors?: number;
  /** CPU ms per request: the Node process and its PostgreSQL backends. */
  cpuNode?: number;
  cpuPg?: number;
  /** Baseline's CPU per request / this one's: the share of the baseline's rate on an otherwise idle machine. */
  cpuRatio?: number;
  /** Free text for the non-HTTP measures (report, import) and extra facts. */
  result?: string;
  target: string;
  ok: boolean | null;
}

function fmt(n: number | undefined, digits = 0): string {
  return n === undefined ? '' : n.toLocaleString('en', { maximumFractionDigits: digits });
}

export function renderTable(rows: Row[]): string {
  const out = [
    '| escenario | req/s | p50 ms | p99 ms | vs. línea base | CPU ms/req (node + pg) | vs. línea base por CPU | no-2xx | objetivo | ¿cumple? |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
  ];
  for (const r of rows) {
    const verdict = r.ok === null ? '' : r.ok ? 'sí' : '**no**';
    if (r.rps === undefined) {
      out.push(`| ${r.name} | ${r.result} |  |  |  |  |  |  | ${r.target} | ${verdict} |`);
      continue;
    }
    const extra = r.result ? ` (${r.result})` : '';
    out.push(
      `| ${r.name}${extra} | ${fmt(r.rps)} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt((r.ratio ?? 0) * 100)}% | ${fmt(r.cpuNode, 2)} + ${fmt(r.cpuPg, 2)} | ${fmt((r.cpuRatio ?? 0) * 100)}% | ${fmt(r.non2xx)} | ${r.target} | ${verdict} |`,
    );
  }
  return out.join('\n');
}

export function machine(pgVersion: string, size: SizeName, args: ReturnType<typeof parseArgs>): string {
  const cpus = os.cpus();
  return [
    `- Fecha: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- Máquina: ${cpus[0]?.model ?? '?'}, ${cpus.length} núcleos, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB de RAM (servidor, PostgreSQL y autocannon en los mismos núcleos)`,
    `- Node ${process.version}, PostgreSQL ${pgVersion}, autocannon 8.0.0`,
    `- Datos: \`--size ${size}\`; ${args.connections} conexiones, ${args.duration} s por escenario (más 2 s de calentamiento)`,
  ].join('\n');
}

const START = '<!-- bench:results:start -->';
const END = '<!-- bench:results:end -->';

export function writeDoc(table: string, machineText: string): void {
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
