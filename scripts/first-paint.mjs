#!/usr/bin/env node
/**
 * The first paint of the pages whose heading is the same for everyone who opens them
 * (docs/decisions/0150-first-paint-headings.md): for each path of apps/web/src/lib/first-paint.json, a copy
 * of the built index.html whose #root holds the app's frame (the header bar, and the sidebar from the tablet
 * width up), the page's title and description where the screen renders them, and index.html's spinner under
 * them, in a few lines of inline CSS. React replaces it when it renders the screen, with the same heading in
 * the same place. Writes apps/web/dist/primera/<page>.html and primera/paginas.json ({ path: file }), which
 * the server reads. Run by the web app's `npm run build` after `vite build`, before the compression.
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
    const html = index.replace('</head>', `  ${STYLE}\n  </head>`).replace(ROOT, () => shell);
    await writeFile(path.join(OUT, file), html);
    pages[pagePath] = `primera/${file}`;
  }
}
await writeFile(path.join(OUT, 'paginas.json'), `${JSON.stringify(pages, null, 2)}\n`);
console.log(`primera pintura: ${Object.keys(pages).length} páginas en ${path.relative(process.cwd(), OUT)}`);
