/**
 * POST /api/compra after nuevo_item, across many buyers with a tight budget: refusals happen, and no
 * buyer may end over budget or over the purchase limit.
 */
import autocannon from 'autocannon';
import { authHeaders } from '../http.ts';
import { log } from '../processes.ts';
import type { Row } from '../results.ts';
import type { Buyers, Turn } from './buyers.ts';
import {
  type BenchContext,
  judge,
  logRow,
  percentile,
  perRequest,
  type Target,
  targetText,
} from './context.ts';

/** Issue 18's targets for a purchase (with its nuevo_item): CPU per purchase, p99 at 10 connections. */
const TARGET: Target = { cpu: 30, p99: 60 };

const count = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
/** The code of a refusal's answer ({ code, msg }). */
function refusalCode(body: string): string {
  try {
    return String((JSON.parse(body) as { code?: unknown }).code ?? '');
  } catch {
    return '';
  }
}

export async function purchaseScenario(ctx: BenchContext, buyers: Buyers): Promise<void> {
  if (!ctx.only('compra') || !ctx.buyers.length) return;
  const { q, args } = ctx;
  const { month } = buyers;
  log(`→ POST /api/compra (${ctx.buyers.length} usuarios, ${ctx.common.connections} conexiones)`);
  // One buyer in ten has a tight budget ($2,000 left, a few purchases): refusals happen, and no buyer may go
  // past its budget. The others have room for the whole run, so the CPU per purchase is that of a purchase
  // with its nuevo_item, not of a stream of refused adds (finding 31).
  await buyers.reset(10_000_000, { every: 10, remaining: 200_000 });
  const [{ before }] = (await q<{ before: number }>('select count(*)::int as before from orders')) as [
    { before: number },
  ];
  buyers.restart();
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const addStatuses = new Map<string, number>();
  const purchaseCodes = new Map<string, number>();
  const buy: autocannon.Request = {
    method: 'POST',
    path: '/api/compra',
    setupRequest: (req, context) => {
      const turn = context as Turn;
      // The add was refused (budget): no purchase to send; the connection goes on with its next buyer.
      if (!turn.cart?.length) return null as unknown as autocannon.Request;
      turn.t0 = performance.now();
      return { ...req, headers: authHeaders(turn.user!, true), body: JSON.stringify({ orden: turn.cart }) };
    },
    onResponse: (status, body, context) => {
      const turn = context as Turn;
      latencies.push(performance.now() - (turn.t0 ?? performance.now()));
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status !== 201) count(purchaseCodes, `${status} ${refusalCode(body)}`);
    },
  };
  const addThenBuy: autocannon.Request = {
    ...buyers.addItem,
    onResponse: (status, body, context) => {
      const turn = context as Turn;
      turn.cart = undefined;
      count(addStatuses, status === 200 ? '200' : `${status} ${refusalCode(body)}`);
      if (status !== 200) return;
      const parsed = JSON.parse(body) as { carrito?: { id: number; cantidad: number }[] };
      turn.cart = parsed.carrito?.map((l) => ({ id: l.id, cantidad: l.cantidad }));
    },
  };
  const stopCpu = await ctx.portalMeter.start();
  const r = await autocannon({ ...ctx.common, url: ctx.base, requests: [addThenBuy, buy] });
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
  const created = after - before;
  const p99 = percentile(latencies, 99);
  const row: Row = {
    key: 'compra',
    name: `POST /api/compra (${ctx.buyers.length} usuarios, tras nuevo_item)`,
    rps,
    p50: Math.round(percentile(latencies, 50)),
    p99: Math.round(p99),
    ratio: rps / ctx.baseline.rps,
    non2xx: latencies.length - (statuses.get(201) ?? 0),
    errors: r.errors + r.timeouts,
    connections: ctx.common.connections,
    ...perRequest(ctx, cpu, latencies.length),
    result: `${created} pedidos; respuestas ${JSON.stringify(Object.fromEntries(statuses))} ${JSON.stringify(Object.fromEntries(purchaseCodes))} (a nuevo_item: ${JSON.stringify(Object.fromEntries(addStatuses))}); usuarios sobre presupuesto: ${violations.length}; sobre límite de compras: ${overLimit.length}`,
    target: `${targetText(TARGET)}; 0 sobre presupuesto o límite`,
    ok: null,
  };
  // Refusals (409 of a cart changed meanwhile, 422 of a budget) are answers, not failures: judged without them.
  const verdict = judge(ctx, { ...row, non2xx: 0 }, TARGET);
  row.ok = violations.length || overLimit.length ? false : verdict;
  ctx.rows.push(row);
  logRow(row);
  log(`  ${row.result}`);
  await buyers.reset(10_000_000);
}
