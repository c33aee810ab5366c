/** The detail report (CSV) over the whole year of the authorizer's client: lines per second and peak RSS. */
import { businessDate } from '@portal/shared/domain/time';
import { authHeaders } from '../http.ts';
import { log, rssMb } from '../processes.ts';
import type { BenchContext } from './context.ts';

export async function reportScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.only('reporte')) return;
  // Measured once, in the cost run (no latency target).
  if (ctx.pass === 'latency') return;
  log('→ reporte detallado');
  const today = businessDate(new Date(), ctx.args.tz);
  const from = `${Number(today.slice(0, 4)) - 1}${today.slice(4)}`;
  const pid = ctx.serverPid;
  const rssBefore = rssMb(pid);
  let peak = rssBefore;
  const sampler = setInterval(() => {
    peak = Math.max(peak, rssMb(pid));
  }, 25);
  const stopCpu = await ctx.portalMeter.start();
  const t = performance.now();
  const res = await fetch(`${ctx.base}/api/reporte/autorizador/productos/detalle`, {
    method: 'POST',
    headers: authHeaders(ctx.autorizador, true),
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
  ctx.rows.push({
    key: 'reporte',
    name: 'Reporte detallado (CSV, todo el año)',
    result: `${res.status}: ${dataLines.toLocaleString('en')} líneas (${(bytes / 1e6).toFixed(0)} MB) en ${seconds.toFixed(1)} s = ${Math.round(perSecond).toLocaleString('en')} líneas/s (CPU: ${(cpu.node / 1000).toFixed(1)} s node = ${Math.round(perNodeSecond).toLocaleString('en')} líneas por s de CPU, ${(cpu.pg / 1000).toFixed(1)} s pg); RSS pico ${peak.toFixed(0)} MB (antes ${rssBefore.toFixed(0)} MB)`,
    target: '≥ 100k líneas/s, RSS < 200 MB',
    ok: res.status === 200 && perSecond >= 100_000 && peak < 200,
  });
  log(`  ${ctx.rows.at(-1)!.result}`);
}
