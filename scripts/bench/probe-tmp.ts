import { authHeaders, signIn } from './http.ts';
const base = 'http://127.0.0.1:3913';
const s = await signIn(base, 'bench.autorizador', 'Bench#2026');
const today = new Date().toISOString().slice(0, 10);
const from = new Date(Date.now() - 370 * 86400e3).toISOString().slice(0, 10);
const res = await fetch(`${base}/api/reporte/autorizador/productos/detalle`, {
  method: 'POST',
  headers: { ...authHeaders(s, true), 'content-type': 'application/json' },
  body: JSON.stringify({ tipo: 'detalle', fecha_inicio: from, fecha_fin: today }),
});
let bytes = 0;
for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
console.log(res.status, bytes);
