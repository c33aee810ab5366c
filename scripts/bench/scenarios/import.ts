/** A 50,000-row product import, until its job ends. */
import { authHeaders } from '../http.ts';
import { log } from '../processes.ts';
import type { BenchContext } from './context.ts';

export async function importScenario(ctx: BenchContext): Promise<void> {
  if (!ctx.only('importacion')) return;
  // Measured once, in the cost run (no latency target).
  if (ctx.pass === 'latency') return;
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
  const stopCpu = await ctx.portalMeter.start();
  const form = new FormData();
  form.set('id_cliente', String(ctx.known.id_cliente));
  form.set('file', new Blob([`${lines.join('\n')}\n`], { type: 'text/csv' }), 'productos.csv');
  const t = performance.now();
  const res = await fetch(`${ctx.base}/api/load/productos`, {
    method: 'POST',
    headers: { cookie: ctx.admin.cookie, 'x-xsrf-token': ctx.admin.xsrf },
    body: form,
  });
  const accepted = (await res.json()) as { id_importacion?: number };
  let status = `HTTP ${res.status}`;
  let detail: { status: string; ok_rows: number; error_rows: number } | null = null;
  if (accepted.id_importacion) {
    for (;;) {
      const d = await fetch(`${ctx.base}/api/importaciones/${accepted.id_importacion}`, {
        headers: authHeaders(ctx.admin),
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
  ctx.rows.push({
    key: 'importacion',
    name: 'Importación de 50,000 productos',
    result: `${status}: ${detail?.ok_rows ?? 0} correctos, ${detail?.error_rows ?? 0} con error, en ${seconds.toFixed(1)} s (CPU: ${(cpu.node / 1000).toFixed(1)} s node, ${(cpu.pg / 1000).toFixed(1)} s pg)`,
    target: '< 30 s',
    ok: status === 'terminado' && detail?.ok_rows === 50_000 && seconds < 30,
  });
  log(`  ${ctx.rows.at(-1)!.result}`);
}
