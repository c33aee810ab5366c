/**
 * `npm run bench -- [--size large|small] [--database-url postgres://…] [--duration 10] [--connections 50]
 *   [--only sesion,catalogo,…] [--no-write]`
 *
 * Seeds (when missing) a PostgreSQL database with seed-large.ts, starts the server as in production and a
 * bare Fastify + pg baseline, drives both with autocannon, measures the detail report and a product import,
 * prints one table and writes it to docs/benchmarks.md. See docs/benchmarks.md.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { businessDate, businessMonth } from '@portal/shared/domain/time';
import autocannon from 'autocannon';
import pg from 'pg';
import { parseArgs, type SizeName } from './common.ts';
import { authHeaders, type SignedIn, signIn, signInAll, waitForHttp } from './http.ts';
import { BENCH_PASSWORD, BENCH_USERS, BUYER_PREFIX, prepareDatabase, SIZES } from './seed-large.ts';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DOC = path.join(ROOT, 'docs/benchmarks.md');
const log = (msg: string) => process.stdout.write(`${msg}\n`);

interface Row {
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

// ---------------------------------------------------------------------------------------------------
// Processes

/**
 * The production setting of docs/configuration.md for Linux: a fixed mmap threshold, so that glibc gives
 * back the 16 MB that each scrypt of a sign-in allocates instead of keeping it in a thread's arena.
 */
const PRODUCTION_MALLOC = { MALLOC_MMAP_THRESHOLD_: '4194304' };

function startProcess(name: string, args: string[], env: Record<string, string>, cwd = ROOT): ChildProcess {
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

async function stopProcess(child: ChildProcess): Promise<void> {
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

function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
    return m ? Number(m[1]) / 1024 : 0;
  } catch {
    return 0;
  }
}

/** CPU time (user + system, ms) a process has used so far; 0 when it is gone. */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of the file, in clock ticks (100 per second on Linux).
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
  } catch {
    return 0;
  }
}

/**
 * CPU used by one side of the test (its Node process and its PostgreSQL backends, found by
 * application_name). On a machine shared with other work, CPU per request is what stays comparable.
 */
class CpuMeter {
  constructor(
    private readonly pid: number,
    private readonly appName: string,
    private readonly q: (text: string, params: unknown[]) => Promise<{ pid: number }[]>,
  ) {}

  private async backends(): Promise<Map<number, number>> {
    const rows = await this.q('select pid from pg_stat_activity where application_name = $1', [this.appName]);
    return new Map(rows.map((r) => [r.pid, cpuMs(r.pid)]));
  }

  async start(): Promise<() => Promise<{ node: number; pg: number }>> {
    const node0 = cpuMs(this.pid);
    const pg0 = await this.backends();
    return async () => {
      const node = cpuMs(this.pid) - node0;
      let pg = 0;
      for (const [pid, after] of await this.backends()) pg += after - (pg0.get(pid) ?? 0);
      return { node, pg };
    };
  }
}

// ---------------------------------------------------------------------------------------------------
// Load tests

interface LoadOptions {
  url: string;
  duration: number;
  connections: number;
  requests: autocannon.Request[];
}

interface Cpu {
  node: number;
  pg: number;
}

async function load(
  opts: LoadOptions,
  warmup: number,
  meter: CpuMeter,
): Promise<{ r: autocannon.Result; cpu: Cpu }> {
  if (warmup > 0) {
    await autocannon({ ...opts, duration: warmup });
  }
  const stop = await meter.start();
  const r = await autocannon({ ...opts });
  return { r, cpu: await stop() };
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

// ---------------------------------------------------------------------------------------------------
// Main

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const size: SizeName = args.size;
  const databaseUrl = args.databaseUrl ?? `postgres://postgres@127.0.0.1:5432/bench_${size}`;
  const only = (key: string) => !args.only || args.only.includes(key);
  const warmup = args.flags.has('no-warmup') ? 0 : 2;

  const database = await prepareDatabase({ ...args, databaseUrl, dataDir: undefined }, { reset: false });
  await database.close();
  const sqlPool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const q = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
    (await sqlPool.query<T>(text, params)).rows;

  const withApp = (name: string) => {
    const u = new URL(databaseUrl);
    u.searchParams.set('application_name', name);
    return u.toString();
  };
  const port = args.port;
  const basePort = port + 1;
  const base = `http://127.0.0.1:${port}`;
  const baselineUrl = `http://127.0.0.1:${basePort}`;
  const poolSize = '20';

  log('Arrancando el servidor (NODE_ENV=production) y la línea base…');
  const profile = args.flags.has('cpu-prof')
    ? ['--cpu-prof', `--cpu-prof-dir=${path.join(ROOT, '.tmp/cpu-prof')}`]
    : [];
  const server = startProcess(
    'servidor',
    [...profile, 'dist/server.js'],
    {
      NODE_ENV: 'production',
      DATABASE_URL: withApp('bench-portal'),
      PORT: String(port),
      HOST: '127.0.0.1',
      DB_POOL_SIZE: poolSize,
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn',
      PUBLIC_URL: base,
      SECRET_KEY: 'clave-de-las-pruebas-de-carga-0123456789abcdef',
      ...PRODUCTION_MALLOC,
    },
    path.join(ROOT, 'apps/server'),
  );
  const baseline = startProcess('línea base', ['--import', 'tsx', 'scripts/bench/baseline-server.ts'], {
    NODE_ENV: 'production',
    DATABASE_URL: withApp('bench-baseline'),
    PORT: String(basePort),
    DB_POOL_SIZE: poolSize,
    ...PRODUCTION_MALLOC,
  });
  const rows: Row[] = [];
  try {
    await waitForHttp(`${base}/api/sesion`);
    await waitForHttp(`${baselineUrl}/baseline/1`);

    const [known] = await q<{ id: number; id_cliente: number }>(
      'select id, id_cliente from users where usuario = $1',
      [BENCH_USERS.usuario],
    );
    if (!known) throw new Error('Faltan los datos de benchmark');
    const userIds = (await q<{ id: number }>('select id from users order by id')).map((r) => r.id);
    const buyerCount = Math.min(SIZES[size].buyers, size === 'large' ? 500 : 200);
    const buyerNames = (
      await q<{ usuario: string }>(
        `select usuario from users where usuario like $1 order by usuario limit ${buyerCount}`,
        [`${BUYER_PREFIX}%`],
      )
    ).map((r) => r.usuario);

    log(`Inicio de sesión: 3 usuarios conocidos y ${buyerNames.length} compradores…`);
    const t0 = performance.now();
    const usuario = await signIn(base, BENCH_USERS.usuario, BENCH_PASSWORD);
    const autorizador = await signIn(base, BENCH_USERS.autorizador, BENCH_PASSWORD);
    const admin = await signIn(base, BENCH_USERS.admin, BENCH_PASSWORD);
    const buyers = only('carrito') || only('compra') ? await signInAll(base, buyerNames, BENCH_PASSWORD) : [];
    log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const common = { duration: args.duration, connections: args.connections };
    const q2 = (text: string, params: unknown[]) => q<{ pid: number }>(text, params);
    const portalMeter = new CpuMeter(server.pid!, 'bench-portal', q2);
    const baseMeter = new CpuMeter(baseline.pid!, 'bench-baseline', q2);
    let baselineRps = 0;
    let baselineCpu = 0;
    const perRequest = (cpu: Cpu, n: number) => ({
      cpuNode: n ? cpu.node / n : 0,
      cpuPg: n ? cpu.pg / n : 0,
      cpuRatio: n && baselineCpu ? baselineCpu / ((cpu.node + cpu.pg) / n) : 1,
    });
    const httpRow = (
      key: string,
      name: string,
      r: autocannon.Result,
      cpu: Cpu,
      target: { ratio: number; p99?: number } | null,
    ): Row => {
      const rps = r.requests.average;
      const ratio = baselineRps ? rps / baselineRps : 1;
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
        ...perRequest(cpu, r.requests.total),
        target: targetText,
        ok,
      };
    };
    const scenario = async (
      key: string,
      name: string,
      url: string,
      requests: autocannon.Request[],
      target: { ratio: number; p99?: number } | null,
    ) => {
      if (!only(key)) return;
      log(`→ ${name}`);
      const { r, cpu } = await load({ ...common, url, requests }, warmup, portalMeter);
      const row = httpRow(key, name, r, cpu, target);
      rows.push(row);
      log(
        `  ${row.rps!.toFixed(0)} req/s, p50 ${row.p50} ms, p99 ${row.p99} ms, no-2xx ${row.non2xx}, errores ${row.errors}; CPU/req ${row.cpuNode!.toFixed(2)} ms node + ${row.cpuPg!.toFixed(2)} ms pg`,
      );
    };

    // Earlier runs' purchases and budget resets leave pages that autovacuum would have visited within a
    // minute in service; without it the pagers' counts read the table instead of the index alone.
    await q('vacuum analyze users, orders, order_lines, cart_items, order_events, sessions');

    // Baseline: one primary-key SELECT through a pg pool, over every user id.
    let nextId = 0;
    log('→ línea base');
    const { r: b, cpu: bCpu } = await load(
      {
        ...common,
        url: baselineUrl,
        requests: [
          {
            method: 'GET',
            setupRequest: (req) => ({ ...req, path: `/baseline/${userIds[nextId++ % userIds.length]}` }),
          },
        ],
      },
      warmup,
      baseMeter,
    );
    baselineRps = b.requests.average;
    baselineCpu = (bCpu.node + bCpu.pg) / Math.max(1, b.requests.total);
    rows.push({
      ...httpRow('baseline', 'Línea base: Fastify + pg, 1 SELECT por PK', b, bCpu, null),
      ratio: 1,
    });
    log(
      `  ${baselineRps.toFixed(0)} req/s, p50 ${b.latency.p50} ms, p99 ${b.latency.p99} ms; CPU/req ${baselineCpu.toFixed(3)} ms`,
    );

    const list = { ratio: 0.5, p99: 30 };
    const reads: [string, string, SignedIn, string, { ratio: number; p99: number }][] = [
      ['sesion', 'GET /api/sesion (rol 1)', usuario, '/api/sesion', { ratio: 0.35, p99: 50 }],
      ['catalogo', 'GET /api/catalogo?q=guantes (búsqueda)', usuario, '/api/catalogo?q=guantes', list],
      [
        'pedidos1',
        'GET /api/pedidos página 1 (rol 2)',
        autorizador,
        '/api/pedidos?status=todos&page=1',
        list,
      ],
      [
        'pedidos200',
        'GET /api/pedidos página 200 (rol 2)',
        autorizador,
        '/api/pedidos?status=todos&page=200',
        list,
      ],
      ['usuarios', 'GET /api/usuarios (rol 4)', admin, '/api/usuarios?page=1', list],
      ['logs', 'GET /api/logs (rol 4)', admin, '/api/logs?page=1', list],
    ];
    for (const [key, name, who, url, target] of reads) {
      await scenario(key, name, base, [{ method: 'GET', path: url, headers: authHeaders(who) }], target);
    }

    // Cart and purchase across many users: each connection takes its turn over its own buyers.
    const groups = Math.max(1, args.connections);
    const buyerIds = new Map(
      (
        await q<{ id: number; usuario: string }>('select id, usuario from users where usuario = any($1)', [
          buyerNames,
        ])
      ).map((r) => [r.usuario, r.id]),
    );
    const assigned = new Map<string, number[]>();
    for (const r of await q<{ usuario: string; product_id: number }>(
      `select u.usuario, up.product_id from user_products up join users u on u.id = up.user_id
       join products p on p.id = up.product_id
       where u.usuario = any($1) and up.asignado and p.activo order by up.product_id`,
      [buyerNames],
    )) {
      const list = assigned.get(r.usuario) ?? [];
      list.push(r.product_id);
      assigned.set(r.usuario, list);
    }
    const groupOf = (g: number) => buyers.filter((_, i) => i % groups === g);
    let connectionCounter = 0;
    interface Ctx {
      group?: SignedIn[];
      turn?: number;
      user?: SignedIn;
      product?: number;
      /** The cart as the last nuevo_item answered it (what the purchase must match). */
      cart?: { id: number; cantidad: number }[];
      t0?: number;
    }
    const nextItem = (ctx: Ctx) => {
      ctx.group ??= groupOf(connectionCounter++ % groups);
      ctx.turn = (ctx.turn ?? 0) + 1;
      const user = ctx.group[ctx.turn % ctx.group.length]!;
      const products = assigned.get(user.usuario) ?? [];
      ctx.user = user;
      ctx.product = products[Math.floor(ctx.turn / ctx.group.length) % Math.max(1, products.length)];
      return user;
    };
    const addItem: autocannon.Request = {
      method: 'POST',
      path: '/api/carrito/nuevo_item',
      setupRequest: (req, context) => {
        const ctx = context as Ctx;
        const user = nextItem(ctx);
        return {
          ...req,
          headers: authHeaders(user, true),
          body: JSON.stringify({ item: { id: ctx.product, cantidad: 1 } }),
        };
      },
    };
    const month = businessMonth(new Date(), args.tz);
    /** Empty carts, and a budget of what each buyer spent this month plus `remaining` centavos. */
    const resetBuyers = async (remaining: number) => {
      // Requests still in flight when a run ends are let through first.
      await new Promise((r2) => setTimeout(r2, 1000));
      await q('delete from cart_items where user_id = any($1)', [[...buyerIds.values()]]);
      await q(
        `update users u set presupuesto_default = coalesce((select sum(total) from orders o
           where o.id_user = u.id and o.status <> 'cancelado' and o.transaction_date >= $2
             and o.transaction_date < $3), 0) + $4
         where u.id = any($1)`,
        [[...buyerIds.values()], month.start, month.end, remaining],
      );
    };

    if (only('carrito') && buyers.length) {
      await resetBuyers(10_000_000);
      connectionCounter = 0;
      await scenario(
        'carrito',
        `POST /api/carrito/nuevo_item (${buyers.length} usuarios)`,
        base,
        [addItem],
        null,
      );
      await resetBuyers(10_000_000);
    }

    if (only('compra') && buyers.length) {
      log(`→ POST /api/compra (${buyers.length} usuarios)`);
      // A tight budget ($2,000 left, a few purchases each): refusals happen, and none may go past it.
      await resetBuyers(200_000);
      const [{ before }] = (await q<{ before: number }>('select count(*)::int as before from orders')) as [
        { before: number },
      ];
      connectionCounter = 0;
      const latencies: number[] = [];
      const statuses = new Map<number, number>();
      const addStatuses = new Map<number, number>();
      const buy: autocannon.Request = {
        method: 'POST',
        path: '/api/compra',
        setupRequest: (req, context) => {
          const ctx = context as Ctx;
          // The add was refused (budget): no purchase to send; the connection goes on with its next buyer.
          if (!ctx.cart?.length) return null as unknown as autocannon.Request;
          ctx.t0 = performance.now();
          return { ...req, headers: authHeaders(ctx.user!, true), body: JSON.stringify({ orden: ctx.cart }) };
        },
        onResponse: (status, _body, context) => {
          const ctx = context as Ctx;
          latencies.push(performance.now() - (ctx.t0 ?? performance.now()));
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        },
      };
      const addThenBuy: autocannon.Request = {
        ...addItem,
        onResponse: (status, body, context) => {
          const ctx = context as Ctx;
          ctx.cart = undefined;
          addStatuses.set(status, (addStatuses.get(status) ?? 0) + 1);
          if (status !== 200) return;
          const parsed = JSON.parse(body) as { carrito?: { id: number; cantidad: number }[] };
          ctx.cart = parsed.carrito?.map((l) => ({ id: l.id, cantidad: l.cantidad }));
        },
      };
      const stopCpu = await portalMeter.start();
      const r = await autocannon({ ...common, url: base, requests: [addThenBuy, buy] });
      const cpu = await stopCpu();
      const [{ after }] = (await q<{ after: number }>('select count(*)::int as after from orders')) as [
        { after: number },
      ];
      const violations = await q<{ id: number }>(
        `select u.id from users u join clients c on c.id = u.id_cliente
         where c.modo_presupuesto = 'regular' and u.rol = 1 and u.presupuesto_default < (
           select coalesce(sum(o.total), 0) from orders o where o.id_user = u.id and o.status <> 'cancelado'
             and o.transaction_date >= $1 and o.transaction_date < $2)`,
        [month.start, month.end],
      );
      const overLimit = await q<{ id: number }>(
        `select u.id from users u where u.limite_de_compras >= 0 and u.rol = 1 and u.limite_de_compras < (
           select count(*) from orders o where o.id_user = u.id and o.status <> 'cancelado'
             and o.transaction_date >= $1 and o.transaction_date < $2)`,
        [month.start, month.end],
      );
      latencies.sort((a, b2) => a - b2);
      const rps = latencies.length / args.duration;
      const ratio = rps / baselineRps;
      const created = after - before;
      const p99 = percentile(latencies, 99);
      const row: Row = {
        key: 'compra',
        name: `POST /api/compra (${buyers.length} usuarios, tras nuevo_item)`,
        rps,
        p50: Math.round(percentile(latencies, 50)),
        p99: Math.round(p99),
        ratio,
        non2xx: latencies.length - (statuses.get(201) ?? 0),
        errors: r.errors + r.timeouts,
        ...perRequest(cpu, latencies.length),
        result: `${created} pedidos; respuestas ${JSON.stringify(Object.fromEntries(statuses))} (a nuevo_item: ${JSON.stringify(Object.fromEntries(addStatuses))}); usuarios sobre presupuesto: ${violations.length}; sobre límite de compras: ${overLimit.length}`,
        target: '≥ 20%, 0 sobre presupuesto',
        ok: ratio >= 0.2 && violations.length === 0 && overLimit.length === 0,
      };
      rows.push(row);
      log(`  ${rps.toFixed(0)} compras/s, p50 ${row.p50} ms, p99 ${row.p99} ms; ${row.result}`);
      await resetBuyers(10_000_000);
    }

    // The detail report over the whole year of the authorizer's client.
    if (only('reporte')) {
      log('→ reporte detallado');
      const today = businessDate(new Date(), args.tz);
      const from = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`;
      const pid = server.pid!;
      const rssBefore = rssMb(pid);
      let peak = rssBefore;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssMb(pid));
      }, 25);
      const stopCpu = await portalMeter.start();
      const t = performance.now();
      const res = await fetch(`${base}/api/reporte/autorizador/productos/detalle`, {
        method: 'POST',
        headers: authHeaders(autorizador, true),
        body: JSON.stringify({ tipo: 'detalle', fecha_inicio: from, fecha_fin: today }),
      });
      let lines = 0;
      let bytes = 0;
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        bytes += chunk.length;
        for (let i = 0; i < chunk.length; i++) if (chunk[i] === 10) lines++;
      }
      const seconds = (performance.now() - t) / 1000;
      clearInterval(sampler);
      peak = Math.max(peak, rssMb(pid));
      const cpu = await stopCpu();
      const dataLines = lines - 1;
      const perSecond = dataLines / seconds;
      const perNodeSecond = dataLines / (cpu.node / 1000);
      rows.push({
        key: 'reporte',
        name: 'Reporte detallado (CSV, todo el año)',
        result: `${res.status}: ${dataLines.toLocaleString('en')} líneas (${(bytes / 1e6).toFixed(0)} MB) en ${seconds.toFixed(1)} s = ${Math.round(perSecond).toLocaleString('en')} líneas/s (CPU: ${(cpu.node / 1000).toFixed(1)} s node = ${Math.round(perNodeSecond).toLocaleString('en')} líneas por s de CPU, ${(cpu.pg / 1000).toFixed(1)} s pg); RSS pico ${peak.toFixed(0)} MB (antes ${rssBefore.toFixed(0)} MB)`,
        target: '≥ 100k líneas/s, RSS < 200 MB',
        ok: res.status === 200 && perSecond >= 100_000 && peak < 200,
      });
      log(`  ${rows.at(-1)!.result}`);
    }

    // A 50,000-row product import, until its job ends.
    if (only('importacion')) {
      log('→ importación de 50,000 productos');
      const run = Date.now().toString(36).toUpperCase();
      const header =
        'clave_interna,clave_cliente,nombre,descripcion,unidad_de_medida,precio,impuesto,activo,categoria';
      const cats = ['Papelería', 'Herramientas', 'Limpieza', 'Cómputo', 'Importados nuevos'];
      const lines = [header];
      for (let i = 1; i <= 50_000; i++) {
        lines.push(
          `IMP-${run}-${i},CLI-${i},Producto importado ${i},Caja con ${1 + (i % 24)} piezas,Caja,${(10 + (i % 990)).toFixed(2)},${i % 5 ? 1 : 0},1,${cats[i % cats.length]}`,
        );
      }
      const stopCpu = await portalMeter.start();
      const form = new FormData();
      form.set('id_cliente', String(known.id_cliente));
      form.set('file', new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' }), 'productos.csv');
      const t = performance.now();
      const res = await fetch(`${base}/api/load/productos`, {
        method: 'POST',
        headers: { cookie: admin.cookie, 'x-xsrf-token': admin.xsrf },
        body: form,
      });
      const accepted = (await res.json()) as { id_importacion?: number };
      let status = `HTTP ${res.status}`;
      let detail: { status: string; ok_rows: number; error_rows: number } | null = null;
      if (accepted.id_importacion) {
        for (;;) {
          const d = await fetch(`${base}/api/importaciones/${accepted.id_importacion}`, {
            headers: authHeaders(admin),
          });
          detail = (await d.json()) as { status: string; ok_rows: number; error_rows: number };
          if (detail.status === 'terminado' || detail.status === 'fallido') break;
          if (performance.now() - t > 600_000) break;
          await new Promise((r2) => setTimeout(r2, 200));
        }
        status = detail?.status ?? status;
      }
      const seconds = (performance.now() - t) / 1000;
      const cpu = await stopCpu();
      rows.push({
        key: 'importacion',
        name: 'Importación de 50,000 productos',
        result: `${status}: ${detail?.ok_rows ?? 0} correctos, ${detail?.error_rows ?? 0} con error, en ${seconds.toFixed(1)} s (CPU: ${(cpu.node / 1000).toFixed(1)} s node, ${(cpu.pg / 1000).toFixed(1)} s pg)`,
        target: '< 30 s',
        ok: status === 'terminado' && detail?.ok_rows === 50_000 && seconds < 30,
      });
      log(`  ${rows.at(-1)!.result}`);
    }
  } finally {
    await stopProcess(server);
    await stopProcess(baseline);
  }

  const pgVersion = (await q<{ v: string }>("select current_setting('server_version') as v"))[0]?.v ?? '?';
  await sqlPool.end();
  const table = renderTable(rows);
  log(`\n${table}`);
  if (!args.flags.has('no-write') && !args.only) {
    writeDoc(table, machine(pgVersion, size, args));
    log(`Escrito en ${path.relative(ROOT, DOC)}`);
  }
}

function fmt(n: number | undefined, digits = 0): string {
  return n === undefined ? '' : n.toLocaleString('en', { maximumFractionDigits: digits });
}

function renderTable(rows: Row[]): string {
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

function machine(pgVersion: string, size: SizeName, args: ReturnType<typeof parseArgs>): string {
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

function writeDoc(table: string, machineText: string): void {
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

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
