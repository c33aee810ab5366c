/**
 * `npm run bench -- [--size large|small] [--database-url postgres://…] [--duration 10] [--connections 50]
 *   [--only sesion,catalogo,…] [--no-latency] [--no-write] [--cpu-prof]`
 *
 * Seeds (when missing) a PostgreSQL database with seed-large.ts, starts the server as in production and a
 * bare Fastify + pg baseline, drives both with autocannon (the cost run at `--connections`, then the HTTP
 * scenarios again at 10 connections for their latencies), measures the write scenarios once (bulk approval,
 * partial shipment, 5,000-line stock write), the detail report and a product import, prints one table and
 * writes it to docs/benchmarks.md (a run of every scenario). `--reset` seeds the database again first. An HTTP
 * scenario that receives answers other than 2xx ends the run with an error, and nothing is written. See
 * docs/benchmarks.md.
 */

import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { type BenchArgs, LATENCY_CONNECTIONS, parseArgs, SCENARIO_KEYS, type SizeName } from './common.ts';
import { signIn, signInKept, waitForHttp } from './http.ts';
import { CpuMeter, log, PRODUCTION_MALLOC, ROOT, startProcess, stopProcess } from './processes.ts';
import { DOC, machine, type Row, renderTable, writeDoc } from './results.ts';
import { baselineScenario, transactionFloorScenario } from './scenarios/baseline.ts';
import { bulkApproveScenario } from './scenarios/bulk-approve.ts';
import { type Buyers, prepareBuyers } from './scenarios/buyers.ts';
import { cartScenario } from './scenarios/cart.ts';
import type { BenchContext, Scenario } from './scenarios/context.ts';
import { DOCUMENT_KEYS, documentReads, requireDocuments } from './scenarios/documents.ts';
import { importScenario } from './scenarios/import.ts';
import { purchaseScenario } from './scenarios/purchase.ts';
import { readScenarios } from './scenarios/reads.ts';
import { reorderScenario } from './scenarios/reorder.ts';
import { reportScenario } from './scenarios/report.ts';
import { shipmentScenario } from './scenarios/shipment.ts';
import { stockScenario } from './scenarios/stock.ts';
import { BENCH_PASSWORD, BENCH_USERS, BUYER_PREFIX, prepareDatabase, SIZES } from './seed-large.ts';

/** The scenarios in the order they run (each skips itself when `--only` leaves it out; the baseline always runs). */
function scenarios(): Scenario[] {
  let buyers: Buyers | undefined;
  const withBuyers =
    (scenario: (ctx: BenchContext, buyers: Buyers) => Promise<void>): Scenario =>
    async (ctx) => {
      buyers ??= await prepareBuyers(ctx);
      await scenario(ctx, buyers);
    };
  return [
    baselineScenario,
    transactionFloorScenario,
    readScenarios,
    documentReads,
    withBuyers(cartScenario),
    withBuyers(purchaseScenario),
    withBuyers(reorderScenario),
    bulkApproveScenario,
    shipmentScenario,
    stockScenario,
    reportScenario,
    importScenario,
  ];
}

/** The portal as in production and the bare baseline, on `--port` and the port after it. */
function startServers(args: BenchArgs, databaseUrl: string) {
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
    [...profile, args.server],
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
  return { server, baseline, base, baselineUrl };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const size: SizeName = args.size;
  const databaseUrl = args.databaseUrl ?? `postgres://postgres@127.0.0.1:5432/bench_${size}`;
  const only = (key: string) => !args.only || args.only.includes(key);
  const warmup = args.flags.has('no-warmup') ? 0 : 2;

  const database = await prepareDatabase(
    { ...args, databaseUrl, dataDir: undefined },
    { reset: args.flags.has('reset') },
  );
  await database.close();
  const sqlPool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const q = async <T extends pg.QueryResultRow>(text: string, params: unknown[] = []) =>
    (await sqlPool.query<T>(text, params)).rows;

  const { server, baseline, base, baselineUrl } = startServers(args, databaseUrl);
  const rows: Row[] = [];
  const latencyRows: Row[] = [];
  const failures: string[] = [];
  const latencyPass = !args.flags.has('no-latency') && args.connections !== LATENCY_CONNECTIONS;
  const loads: number[] = [];
  const sampleLoad = setInterval(() => loads.push(os.loadavg()[0]!), 5_000);
  try {
    await waitForHttp(`${base}/api/sesion`);
    await waitForHttp(`${baselineUrl}/baseline/1`);

    const [known] = await q<{ id: number; id_cliente: number }>(
      'select id, id_cliente from users where usuario = $1',
      [BENCH_USERS.usuario],
    );
    if (!known) throw new Error('Faltan los datos de benchmark');
    if (DOCUMENT_KEYS.some(only)) await requireDocuments(q);
    const userIds = (await q<{ id: number }>('select id from users order by id')).map((r) => r.id);
    const buyerCount = Math.min(SIZES[size].buyers, size === 'small' ? 200 : 500);
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
    const receptor = ['recepcion', 'recepcion_envio'].some(only)
      ? await signIn(base, BENCH_USERS.receptor, BENCH_PASSWORD)
      : null;
    const buyers = ['carrito', 'compra', 'repetir'].some(only)
      ? await signInKept(
          base,
          buyerNames,
          BENCH_PASSWORD,
          path.join(ROOT, '.tmp', `bench-sessions-${new URL(databaseUrl).pathname.slice(1)}.json`),
        )
      : [];
    log(`  ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const q2 = (text: string, params: unknown[]) => q<{ pid: number }>(text, params);
    const ctx: BenchContext = {
      args,
      only,
      warmup,
      common: { duration: args.duration, connections: args.connections },
      q,
      base,
      baselineUrl,
      serverPid: server.pid!,
      portalMeter: new CpuMeter(server.pid!, 'bench-portal', q2),
      baseMeter: new CpuMeter(baseline.pid!, 'bench-baseline', q2),
      known,
      usuario,
      autorizador,
      admin,
      receptor,
      userIds,
      buyerNames,
      buyers,
      baseline: { rps: 0, cpu: 0 },
      pass: 'cost',
      rows,
      failures,
    };

    // Earlier runs' purchases and budget resets leave pages that autovacuum would have visited within a
    // minute in service; without it the pagers' counts read the table instead of the index alone, and the
    // running months' rows (updated by every purchase, not HOT since the covering index) grow chains of dead
    // versions that each purchase walks (finding 31). Every table the scenarios write; again before the
    // latency pass, after the first pass's thousands of purchases (finding 33). The products too: the stock
    // writes and the approvals' reservations of earlier runs (put back afterwards) leave dead versions; and
    // the integration tokens, whose row counts each v1 request. The indexes always (`index_cleanup on`): by
    // default a vacuum skips them when the dead versions sit on under 2 % of a table's pages, and the write
    // scenarios update the same few hundred orders again and again, so their dead index entries outlived
    // every run's vacuum (finding 55).
    const vacuum = () =>
      q(
        `vacuum (analyze, index_cleanup on) users, orders, order_lines, cart_items, order_events, sessions, user_month_spend,
          product_month_sales, client_order_versions, email_outbox, system_logs, auth_attempts, user_counts,
          products, notifications, api_tokens`,
      );
    await vacuum();

    const list = scenarios();
    for (const scenario of list) await scenario(ctx);
    if (latencyPass) {
      log(`\nLatencias: los escenarios HTTP otra vez a ${LATENCY_CONNECTIONS} conexiones…`);
      await vacuum();
      Object.assign(ctx, {
        pass: 'latency',
        rows: latencyRows,
        common: { ...ctx.common, connections: LATENCY_CONNECTIONS },
      });
      for (const scenario of list) await scenario(ctx);
    }
  } finally {
    clearInterval(sampleLoad);
    await stopProcess(server);
    await stopProcess(baseline);
  }

  const pgVersion = (await q<{ v: string }>("select current_setting('server_version') as v"))[0]?.v ?? '?';
  await sqlPool.end();
  const latencyConnections = latencyPass ? LATENCY_CONNECTIONS : args.connections;
  const table = renderTable(rows, latencyRows, args.connections, latencyConnections);
  log(`\n${table}`);
  log(`\nClaves (--only): ${SCENARIO_KEYS.join(', ')}`);
  const loadText = loads.length
    ? `${Math.min(...loads).toFixed(1)}–${Math.max(...loads).toFixed(1)} (promedio de 1 minuto, ${os.cpus().length} núcleos)`
    : '?';
  log(`Carga del equipo durante la corrida: ${loadText}`);
  if (failures.length > 0) {
    // A read that answered errors did not cost what its row says: nothing is written.
    log(`\nRespuestas que no fueron 2xx:\n  ${failures.join('\n  ')}`);
    process.exitCode = 1;
    return;
  }
  if (!args.flags.has('no-write') && !args.only) {
    writeDoc(table, machine(pgVersion, size, args, latencyConnections, loadText), size);
    log(`Escrito en ${path.relative(ROOT, DOC)}`);
  }
}

main().catch((err) => {
  process.stderr.write(`${(err as Error).stack ?? err}\n`);
  process.exit(1);
});
