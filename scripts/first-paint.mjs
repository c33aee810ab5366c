#!/usr/bin/env node
/**
 * The first paint of the pages whose heading is the same for everyone who opens them
 * (docs/decisions/0150-first-paint-headings.md): for each path of apps/web/src/lib/first-paint.json, a copy
 * of the built index.html whose #root holds the app's frame (the header bar, and the sidebar from the tablet
 * width up), the page's title and description where the screen renders them, and index.html's spinner under
 * them, in a few lines of inline CSS. React replaces it when it renders the screen, with the same heading in
 * the same place.
 *
 * The other signed-in pages of the role areas name, in their <head>, what their boot asks for once the entry
 * chunk has run (docs/decisions/0151-boot-requests-named-in-the-page.md): the area's chunks and stylesheets
 * and the app shell's (from the build's manifest), and the session's check, so the browser fetches them beside
 * the entry chunk instead of after it. A page with a heading of its own names them only when the table says
 * `"precargar": true` (its largest element is data, which then comes sooner; otherwise the requests would only
 * slow the heading's paint).
 *
 * A page whose first data is the same whatever its query also names that data (decision 0153), in a file the
 * server sends only to a session its screen will show (the right role, no forced screen first).
 *
 * Writes apps/web/dist/primera/<page>.html, primera/arranque-<area>.html (index.html with an area's boot
 * requests), primera/datos-<page>.html (those and the page's first data) and primera/paginas.json
 * ({ paginas: { path: file }, areas: { "/autorizador/tablero" or "/usuario/": file }, datos: { path:
 * { archivo, area } } }), which the server reads. Run by the web app's `npm run build` after `vite build`,
 * before the compression.
 *
 * Usage: node scripts/first-paint.mjs   (after vite build)
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';

const WEB = path.resolve(import.meta.dirname, '../apps/web');
const DIST = path.join(WEB, 'dist');
const OUT = path.join(DIST, 'primera');
const table = JSON.parse(await readFile(path.join(WEB, 'src/lib/first-paint.json'), 'utf8'));
const index = await readFile(path.join(DIST, 'index.html'), 'utf8');

/** #root in index.html, holding the spinner (decision 0140): each page's first paint puts it under the heading. */
const ROOT = /<div id="root">([\s\S]*?<\/div>)<\/div>/;
const spinner = index.match(ROOT)?.[1];
if (!spinner?.includes('class="arranque"'))
  throw new Error('index.html no tiene el indicador de carga dentro de #root');

/**
 * The header's height on a phone: 112 px where the header carries a search box on a second row — the
 * administrator's support search, the buyer's product search away from the catalogue (useHeaderSearch in
 * components/layouts/header.tsx) — and 64 px otherwise; 64 px from the tablet width up.
 */
function phoneHeader(pagePath) {
  if (pagePath.startsWith('/administrador/')) return 112;
  if (pagePath.startsWith('/usuario/') && !/^\/usuario\/(principal|categoria\/)/.test(pagePath)) return 112;
  return 64;
}

const escaped = (text) =>
  text.replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

/**
 * The app shell's measures (components/layouts/app-layout.tsx: AppShell with a 272 px navbar from 48em,
 * padding md on phones and xl above, content at most 1280 px wide) and PageHeader's (components/ui/page.tsx:
 * a 24/28 px bold title at line height 1.3, the dimmed description 4 px under it at 16 px and 1.55), in the
 * theme's fonts and colours (app/theme.ts). The browser tests compare the two headings' boxes.
 */
const FONTS =
  "Inter, 'Segoe UI', Roboto, 'Helvetica Neue', Arial, 'Noto Sans', 'Liberation Sans', system-ui, -apple-system, sans-serif";
const STYLE = `<!-- The first paint of a page with a fixed heading (decision 0150). -->
    <style>
      body { margin: 0; }
      .primera { --cabecera: 64px; box-sizing: border-box; min-height: 100dvh; background: #f8f9fa; font-family: ${FONTS}; -webkit-font-smoothing: antialiased; padding: calc(var(--cabecera) + 16px) 16px 16px; }
      .primera.alta { --cabecera: 112px; }
      .primera::before { content: ''; position: fixed; inset: 0 0 auto; height: var(--cabecera); box-sizing: border-box; background: #fff; border-bottom: 1px solid #dee2e6; }
      .primera section { max-width: 1280px; margin: 0 auto; display: flex; }
      .primera h1 { margin: 0; font-size: 24px; line-height: 1.3; font-weight: 700; color: #000; }
      .primera p { margin: 4px 0 0; font-size: 16px; line-height: 1.55; color: #5f666d; }
      .primera .arranque { min-height: 50dvh; }
      @media (min-width: 48em) {
        .primera, .primera.alta { --cabecera: 64px; padding: 96px 32px 32px 304px; }
        .primera::after { content: ''; position: fixed; top: 64px; bottom: 0; left: 0; width: 272px; box-sizing: border-box; background: #fff; border-right: 1px solid #dee2e6; }
        .primera h1 { font-size: 28px; }
      }
    </style>`;

/**
 * The modules the boot loads for an address before its first render (loadFirstScreen in
 * apps/web/src/app/router.tsx: the page table's module and the app shell), by area: a dashboard's own path
 * first, then the area's every other path. The browser tests check that a page's boot asks for nothing the
 * page did not name.
 */
const SHELL = 'src/app/routes/app-shell.tsx';
const BOOT_MODULES = {
  '/autorizador/tablero': 'src/app/routes/autorizador/tablero.tsx',
  '/cliente/tablero': 'src/app/routes/autorizador/tablero.tsx',
  '/administrador/tablero': 'src/app/routes/administrador/tablero.tsx',
  '/usuario/': 'src/app/routes/usuario/pages.tsx',
  '/autorizador/': 'src/app/routes/autorizador/pages.tsx',
  '/administrador/': 'src/app/routes/administrador/pages.tsx',
  '/cliente/': 'src/app/routes/cliente/pages.tsx',
};
const bootKey = (pagePath) => (pagePath in BOOT_MODULES ? pagePath : `/${pagePath.split('/')[1]}/`);

const manifest = JSON.parse(await readFile(path.join(DIST, '.vite/manifest.json'), 'utf8'));
/** A module's chunk with every chunk it imports, imported ones first, and their stylesheets. */
function closure(keys) {
  const seen = new Set();
  const files = [];
  const styles = new Set();
  const visit = (key) => {
    if (seen.has(key)) return;
    seen.add(key);
    const entry = manifest[key];
    if (!entry) throw new Error(`el manifiesto no tiene ${key}`);
    for (const imported of entry.imports ?? []) visit(imported);
    files.push(entry.file);
    for (const css of entry.css ?? []) styles.add(css);
  };
  for (const key of keys) visit(key);
  return { files, styles: [...styles] };
}
const entry = closure(['index.html']);

/** A request of the app's fetch (with the cookies), named so that the browser starts it with the page. */
const fetchPreload = (href) =>
  `<link rel="preload" as="fetch" crossorigin="use-credentials" href="${escaped(href)}">`;

/**
 * What a path's boot asks for besides index.html's own files: the chunks as module preloads and the
 * stylesheets as style preloads, both anonymous as the bundler's own loader asks for them (it then finds the
 * chunks named and adds each stylesheet from the preload), and the session's check with the cookies, as the
 * app's fetch sends it (a preload is used only by a request of the same credentials).
 */
function bootLinks(pagePath) {
  const wanted = closure([BOOT_MODULES[bootKey(pagePath)], SHELL]);
  const files = wanted.files.filter((f) => !entry.files.includes(f));
  const styles = wanted.styles.filter((f) => !entry.styles.includes(f));
  return [
    fetchPreload('/api/sesion'),
    ...files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`),
    ...styles.map((f) => `<link rel="preload" as="style" crossorigin href="/${f}">`),
  ]
    .map((link) => `    ${link}\n`)
    .join('');
}

/**
 * The pages whose boot asks for the same first data whatever their query (the `firstData` of their area's
 * page module, decision 0141), by exact path: the area whose screen asks for it, and the requests, as the
 * app's fetch asks for them. Their boot page names those requests too (decision 0153), and the server sends
 * it only to a session that screen will show; the browser test checks that each is asked once, by the
 * preload.
 */
const BOOT_DATA = {
  '/administrador/principal': {
    area: 'administrador',
    requests: [
      '/api/admin/resumen',
      '/api/presupuestos/solicitudes?page=1&estado=pendiente',
      '/api/usuarios/accesos-sin-enviar',
    ],
  },
  '/administrador/usuarios': {
    area: 'administrador',
    requests: ['/api/clientes?per_page=1000', '/api/usuarios/accesos-sin-enviar'],
  },
};
const dataLinks = (requests) => requests.map((href) => `    ${fetchPreload(href)}\n`).join('');

/** index.html's end of <head>, before which the pages add their style and requests. */
const HEAD_END = '\n  </head>';
if (!index.includes(HEAD_END)) throw new Error('index.html no termina su <head> como se espera');

await rm(OUT, { recursive: true, force: true });
await mkdir(OUT, { recursive: true });
const pages = {};
for (const page of Object.values(table)) {
  for (const pagePath of page.paths) {
    const file = `${pagePath.slice(1).replaceAll('/', '-')}.html`;
    const tall = phoneHeader(pagePath) === 112 ? ' alta' : '';
    const shell =
      `<div id="root"><div class="primera${tall}" aria-hidden="true"><section>` +
      `<div><h1>${escaped(page.title)}</h1><p>${escaped(page.description)}</p></div></section>${spinner}</div></div>`;
    const html = index
      .replace(HEAD_END, `\n${page.precargar ? bootLinks(pagePath) : ''}  ${STYLE}${HEAD_END}`)
      .replace(ROOT, () => shell);
    await writeFile(path.join(OUT, file), html);
    pages[pagePath] = `primera/${file}`;
  }
}
// Every other path of an area (and a dashboard's path with a query): index.html with its boot's requests.
const areas = {};
for (const key of Object.keys(BOOT_MODULES)) {
  const file = `arranque-${key.slice(1).replace(/\/$/, '').replaceAll('/', '-')}.html`;
  await writeFile(path.join(OUT, file), index.replace(HEAD_END, `\n${bootLinks(key)}  </head>`));
  areas[key] = `primera/${file}`;
}
// A page with its first data named: its area's boot requests, then the data's.
const datos = {};
for (const [pagePath, { area, requests }] of Object.entries(BOOT_DATA)) {
  const file = `datos-${pagePath.slice(1).replaceAll('/', '-')}.html`;
  const links = bootLinks(pagePath) + dataLinks(requests);
  await writeFile(path.join(OUT, file), index.replace(HEAD_END, `\n${links}  </head>`));
  datos[pagePath] = { archivo: `primera/${file}`, area };
}
await writeFile(
  path.join(OUT, 'paginas.json'),
  `${JSON.stringify({ paginas: pages, areas, datos }, null, 2)}\n`,
);
console.log(
  `primera pintura: ${Object.keys(pages).length} páginas, ${Object.keys(areas).length} arranques, ${Object.keys(datos).length} con datos en ${path.relative(process.cwd(), OUT)}`,
);
