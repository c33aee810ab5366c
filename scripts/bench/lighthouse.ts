/**
 * Lighthouse on the signed-in pages (decision 0095): starts the built server on a fresh embedded database
 * with the demo data, signs each role in through the real endpoints, runs Lighthouse three times a page with
 * the desktop preset and three times with the mobile one in Debian's Chromium headless shell (the session cookie
 * passed as a request header, so no browser automation library is needed), saves each report where
 * Lighthouse CI reads them (.lighthouseci/) and lets `lhci assert` check them against lighthouserc.cjs.
 * Desktop runs open the pages at 127.0.0.1 and mobile runs at localhost: the same server, two origins, so
 * the assertions can tell the presets apart by URL.
 *
 * A score varies by several points from one run to the next on the same build (the mobile preset's simulated
 * 4× slower CPU multiplies whatever else the machine does; a desktop run of the cart once scored 78 between
 * 92 and 95): each page runs three times on each preset and the median run — Lighthouse's own
 * `computeMedianRun`, the run nearest the median first paint and time to interactive — is the report kept
 * and asserted, as Lighthouse's variability guide advises (decision 0095).
 *
 * Usage: npm run test:lighthouse   (after npm run build && npm run build:server)
 *        LIGHTHOUSE_PORT (default 3460; the browser's debugging port is the next one);
 *        LIGHTHOUSE_VECES=1 runs each page once on each preset;
 *        LIGHTHOUSE_PERFIL=escritorio (or movil) runs one preset only;
 *        LIGHTHOUSE_PAGINAS=usuarios,carrito (page names, as in the table) runs those pages only
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { computeMedianRun } from 'lighthouse/core/lib/median-run.js';
import { type SignedIn, signIn } from './http.ts';
import { log, machineMeter, ROOT, startProcess, stopProcess } from './processes.ts';

const PORT = Number(process.env.LIGHTHOUSE_PORT ?? 3460);
const DEBUG_PORT = PORT + 1;
const CHROMIUM = ['/usr/lib/chromium/chromium-headless-shell', '/usr/bin/chromium'].find((p) =>
  existsSync(p),
);
const SERVER = path.join(ROOT, 'apps/server/dist/server.js');
const REPORTS = path.join(ROOT, '.lighthouseci');

/** One run's report. */
type Report = NonNullable<Awaited<ReturnType<typeof lighthouse>>>['lhr'];

const RUNS = Number(process.env.LIGHTHOUSE_VECES ?? 3);
const PRESETS = [
  { id: 'escritorio', name: 'escritorio', host: '127.0.0.1', config: desktopConfig },
  { id: 'movil', name: 'móvil', host: 'localhost', config: undefined },
] as const;

interface Page {
  name: string;
  path: string;
  session?: SignedIn;
}

async function waitFor(url: string, what: string): Promise<void> {
  for (let i = 0; i < 1200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what} no respondió en 5 minutos (${url})`);
}

function startChromium(): ChildProcess {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-chromium-'));
  const child = spawn(
    CHROMIUM!,
    [
      `--remote-debugging-port=${DEBUG_PORT}`,
      `--user-data-dir=${dir}`,
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-dev-shm-usage',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      'about:blank',
    ],
    { stdio: 'ignore' },
  );
  child.on('exit', () => rmSync(dir, { recursive: true, force: true }));
  return child;
}

async function main(): Promise<number> {
  if (!CHROMIUM) {
    log('Falta Chromium: apt-get install -y chromium-headless-shell');
    return 1;
  }
  if (!existsSync(SERVER) || !existsSync(path.join(ROOT, 'apps/web/dist/index.html.br'))) {
    log('Falta la compilación: npm run build && npm run build:server');
    return 1;
  }
  rmSync(REPORTS, { recursive: true, force: true });
  mkdirSync(REPORTS, { recursive: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'lighthouse-datos-'));
  const server = startProcess(
    'servidor',
    [SERVER],
    { PORT: String(PORT), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn', SMTP_URL: '' },
    path.join(ROOT, 'apps/server'),
  );
  const chromium = startChromium();
  const started = Date.now();
  try {
    const base = `http://127.0.0.1:${PORT}`;
    await waitFor(`${base}/healthz`, 'el servidor');
    await waitFor(`http://127.0.0.1:${DEBUG_PORT}/json/version`, 'Chromium');
    // The README's demo sign-ins.
    const [buyer, authorizer, admin] = await Promise.all([
      signIn(base, 'usuario', 'Demo#2026'),
      signIn(base, 'autorizador', 'Demo#2026'),
      signIn(base, 'admin', 'Admin#2026'),
    ]);
    // The demo data has no orders: the buyer places one for the authorizer's pages, then fills the cart
    // again for the cart's page.
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${base}${path}`, {
        method: 'POST',
        headers: { cookie: buyer.cookie, 'x-xsrf-token': buyer.xsrf, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
    };
    const catalogue = (await (
      await fetch(`${base}/api/catalogo`, { headers: { cookie: buyer.cookie } })
    ).json()) as { productos: { id: number }[] };
    const products = catalogue.productos.slice(0, 3);
    const fillCart = async () => {
      for (const p of products) await post('/api/carrito/nuevo_item', { item: { id: p.id, cantidad: 1 } });
    };
    await fillCart();
    await post('/api/compra', { orden: products.map((p) => ({ id: p.id, cantidad: 1 })) });
    await fillCart();
    const orders = (await (
      await fetch(`${base}/api/pedidos?status=todos`, { headers: { cookie: authorizer.cookie } })
    ).json()) as { pedidos: { id: number }[] };
    const order = orders.pedidos[0];
    if (!order) throw new Error('los datos de demostración no tienen pedidos para el autorizador');

    const pages: Page[] = [
      { name: 'acceso', path: '/login' },
      { name: 'catálogo', path: '/usuario/principal', session: buyer },
      { name: 'carrito', path: '/usuario/carrito', session: buyer },
      { name: 'pedidos del autorizador', path: '/autorizador/principal', session: authorizer },
      { name: 'un pedido', path: `/autorizador/orden/${order.id}`, session: authorizer },
      { name: 'tablero del autorizador', path: '/autorizador/tablero', session: authorizer },
      { name: 'usuarios', path: '/administrador/usuarios', session: admin },
      { name: 'tablero del administrador', path: '/administrador/tablero', session: admin },
    ];
    const rows: string[] = [];
    const only = process.env.LIGHTHOUSE_PERFIL;
    const named = process.env.LIGHTHOUSE_PAGINAS?.split(',').map((n) => n.trim());
    // What else the machine did while the pages were measured (a score follows the CPU the browser got); each
    // row also gives Lighthouse's own measure of the machine's speed in its run (`benchmarkIndex`: higher is
    // faster), which a slow hour of the same machine lowers.
    const meanwhile = machineMeter();
    for (const preset of PRESETS.filter((p) => !only || p.id === only)) {
      for (const page of pages.filter((p) => !named || named.includes(p.name))) {
        const url = `http://${preset.host}:${PORT}${page.path}`;
        const flags: Parameters<typeof lighthouse>[1] = {
          port: DEBUG_PORT,
          logLevel: 'error',
          output: 'json',
          onlyCategories: ['performance', 'accessibility', 'best-practices'],
          // Neither weighs in a score: the full-page screenshot (about 1.2 s a report) and the
          // back/forward-cache probe, which navigates away and back (about 0.6 s).
          disableFullPageScreenshot: true,
          skipAudits: ['bf-cache'],
          // The page's server is on this machine: the network is quiet at once, so the default 1 s waits
          // for a quiet network and CPU (and after FCP and load) are mostly idle time, about 3 s a report.
          // Half a second still sees the route chunks the app asks for after its first render (decision 0108).
          pauseAfterFcpMs: 500,
          pauseAfterLoadMs: 500,
          networkQuietThresholdMs: 500,
          cpuQuietThresholdMs: 500,
          extraHeaders: page.session ? { Cookie: page.session.cookie } : undefined,
        };
        const runs: Report[] = [];
        for (let run = 0; run < RUNS; run++) {
          const result = await lighthouse(url, flags, preset.config);
          if (!result) throw new Error(`Lighthouse no devolvió resultado para ${url}`);
          runs.push(result.lhr);
        }
        // A single run is kept as it is (the median needs every run's FCP and TTI).
        const lhr = runs.length > 1 ? computeMedianRun(runs) : runs[0]!;
        writeFileSync(path.join(REPORTS, `lhr-${Date.now()}.json`), JSON.stringify(lhr));
        const score = (id: string, of = lhr) => Math.round((of.categories[id]?.score ?? 0) * 100);
        const metric = (id: string) => lhr.audits[id]?.displayValue ?? '—';
        // The median run's score, and every run's where there were several: «82 (79–84)».
        const scores = runs.map((r) => score('performance', r));
        const spread = runs.length > 1 ? ` (${Math.min(...scores)}–${Math.max(...scores)})` : '';
        rows.push(
          `| ${page.name} | ${preset.name} | ${score('performance')}${spread} | ${score('accessibility')} | ` +
            `${score('best-practices')} | ${metric('largest-contentful-paint')} | ${metric('total-blocking-time')} | ` +
            `${metric('cumulative-layout-shift')} | ${Math.round(lhr.environment.benchmarkIndex)} |`,
        );
        log(rows.at(-1)!);
      }
    }
    log(
      `\n| página | perfil | rendimiento | accesibilidad | buenas prácticas | LCP | TBT | CLS | índice de la máquina |\n|---|---|---|---|---|---|---|---|---|\n${rows.join('\n')}\n`,
    );
    log(meanwhile());
    log(`Lighthouse: ${rows.length} informes en ${Math.round((Date.now() - started) / 1000)} s`);
  } finally {
    chromium.kill('SIGTERM');
    await stopProcess(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
  try {
    execFileSync(path.join(ROOT, 'node_modules/.bin/lhci'), ['assert', '--config=lighthouserc.cjs'], {
      cwd: ROOT,
      stdio: 'inherit',
    });
    return 0;
  } catch {
    return 1;
  }
}

process.exitCode = await main();
