/** The bench's child processes (the server, the baseline) and what is measured of them (RSS, CPU). */
import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const log = (msg: string) => process.stdout.write(`${msg}\n`);

/**
 * The production setting of docs/configuration.md for Linux: a fixed mmap threshold, so that glibc gives
 * back the 16 MB that each scrypt of a sign-in allocates instead of keeping it in a thread's arena.
 */
export const PRODUCTION_MALLOC = { MALLOC_MMAP_THRESHOLD_: '4194304' };

export function startProcess(
  name: string,
  args: string[],
  env: Record<string, string>,
  cwd = ROOT,
): ChildProcess {
  const child = spawn(process.execPath, args, {
    cwd,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString());
    if (tail.length > 50) tail.shift();
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  child.on('exit', (code, signal) => {
    if (code && code !== 0) log(`${name} terminó (${code ?? signal}):\n${tail.join('').slice(-3000)}`);
  });
  return child;
}

export async function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  await new Promise<void>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve();
    }, 30_000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** ms of a clock tick of /proc's CPU times (100 ticks a second on Linux). */
const TICK_MS = 1000 / 100;

/** CPU time (user + system, ms) a process has used so far; 0 when it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the file, in clock ticks.
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/**
 * The machine's CPU time so far, in ms over every core: busy (user, nice, system, irq, softirq) and stolen
 * by the hypervisor (steal). From /proc/stat; zeros where there is none.
 */
function machineMs(): { busy: number; steal: number } {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
    const [user, nice, system, , , irq, softirq, steal] = line.trim().split(/\s+/).slice(1).map(Number);
    return {
      busy: ((user ?? 0) + (nice ?? 0) + (system ?? 0) + (irq ?? 0) + (softirq ?? 0)) * TICK_MS,
      steal: (steal ?? 0) * TICK_MS,
    };
  } catch {
    return { busy: 0, steal: 0 };
  }
}

/** Every process's CPU time so far (ms) and what it runs (its command line, shortened); empty without /proc. */
function processesMs(): Map<number, { ms: number; what: string }> {
  const seen = new Map<number, { ms: number; what: string }>();
  let pids: string[] = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return seen;
  }
  for (const name of pids) {
    const pid = Number(name);
    const ms = cpuMs(pid);
    if (ms === 0) continue;
    let what = '';
    try {
      what = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).slice(0, 3).join(' ');
    } catch {
      continue;
    }
    seen.set(pid, { ms, what: what.length > 90 ? `${what.slice(0, 87)}…` : what });
  }
  return seen;
}

/**
 * What the machine did while something was measured: its cores' busy share, the share the hypervisor took
 * (steal), and the processes that used the most CPU meanwhile (the measured ones among them). A page score or
 * a CPU figure taken while the machine was busy with other work, or short of CPU, says so beside it.
 */
export function machineMeter(): () => string {
  const started = Date.now();
  const machine0 = machineMs();
  const processes0 = processesMs();
  return () => {
    const wallMs = Date.now() - started;
    const machine = machineMs();
    const cores = os.cpus().length || 1;
    const share = (ms: number) => `${Math.round((100 * ms) / (wallMs * cores))} %`;
    const used = [...processesMs()]
      .map(([pid, p]) => ({ ...p, ms: p.ms - (processes0.get(pid)?.ms ?? 0) }))
      .filter((p) => p.ms >= 100)
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 6)
      .map((p) => `  ${(p.ms / 1000).toFixed(1).padStart(7)} s  ${p.what}`);
    return [
      `Durante la medición (${Math.round(wallMs / 1000)} s, ${cores} núcleos): CPU ocupada ${share(machine.busy - machine0.busy)}, ` +
        `tomada por el hipervisor (steal) ${share(machine.steal - machine0.steal)}, carga media ${os.loadavg()[0]!.toFixed(2)}; ` +
        'los procesos con más CPU:',
      ...used,
    ].join('\n');
  };
}

/** CPU ms of a measurement, by side. */
export interface Cpu {
  node: number;
  pg: number;
  /** ms the hypervisor took from the machine meanwhile (all cores). */
  steal?: number;
  /** ms of CPU the machine spent meanwhile on neither side nor the load generator. */
  others?: number;
}

/**
 * CPU used by one side of the test (its Node process and its PostgreSQL backends, found by
 * application_name). On a machine shared with other work, CPU per request is what stays comparable.
 */
export class CpuMeter {
  constructor(
    private readonly pid: number,
    private readonly appName: string,
    private readonly q: (text: string, params: unknown[]) => Promise<{ pid: number }[]>,
  ) {}

  private async backends(): Promise<Map<number, number>> {
    const rows = await this.q('select pid from pg_stat_activity where application_name = $1', [this.appName]);
    return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
  }

  /**
   * Starts measuring; the answer stops. Besides this side's CPU it gives what the machine did meanwhile that
   * was not this side's nor the load generator's (`others`: autovacuum, checkpoints, other work) and the time
   * the hypervisor took (`steal`), so that a run's spread can be told apart from the code's cost.
   */
  async start(): Promise<() => Promise<Required<Cpu>>> {
    // Every measurement starts right after a checkpoint, with clean shared buffers (finding 49): a stock
    // write that started with the buffers full of the seed's or an earlier scenario's dirty pages cost up to
    // six times as much PostgreSQL CPU as one that started after a checkpoint.
    await this.q('checkpoint', []);
    const node0 = cpuMs(this.pid);
    const pg0 = await this.backends();
    const machine0 = machineMs();
    const self0 = process.cpuUsage();
    return async () => {
      const node = cpuMs(this.pid) - node0;
      let pg = 0;
      for (const [pid, after] of await this.backends()) pg += after - (pg0.get(pid) ?? 0);
      const machine = machineMs();
      const self = process.cpuUsage(self0);
      const generator = (self.user + self.system) / 1000;
      const others = Math.max(0, machine.busy - machine0.busy - node - pg - generator);
      return { node, pg, steal: machine.steal - machine0.steal, others };
    };
  }
}
