import type { Page, Request } from '@playwright/test';
import { ADMIN_PASSWORD, expect, screenshot, test } from './fixtures';
import { asUser, ownBrowserPage, placeOrder, reviewWorld, runSuffix } from './helpers';
import { e2eBaseUrl } from './ports';

/**
 * A page opened by its address renders once, with its data (decision 0141): the boot asks for the session's
 * check and the screen's first data before the first render, so no loading placeholder ever shows, and the
 * screen uses those answers instead of asking again. Checked on the buyer's catalogue, the approver's list,
 * dashboard and order, and the administrator's users; a page the guards send elsewhere (another role's
 * area, no session) asks for no data of its own. Every later navigation checks the session again, as
 * before. The client, its product, buyer, authorizer and order are this attempt's own.
 */
const PASSWORD = 'Arranque#2026';

test.describe.configure({ mode: 'serial' });

interface World {
  comprador: string;
  autorizador: string;
  producto: string;
  pedido: number;
}
const worlds = new Map<string, World>();

async function world(browser: Parameters<typeof reviewWorld>[0]): Promise<World> {
  const suffix = runSuffix();
  const known = worlds.get(suffix);
  if (known) return known;
  const w: Omit<World, 'pedido'> = {
    comprador: `comprador.arranque.${suffix}`,
    autorizador: `autorizador.arranque.${suffix}`,
    producto: `Cinta de arranque ${suffix}`,
  };
  const { producto } = await reviewWorld(browser, {
    cliente: `Arranque ${suffix}`,
    niveles: 1,
    presupuesto: 10_000,
    categoria: { nombre: `Cintas ${suffix}`, icono: 'IconTool' },
    producto: { clave_interna: `ARR-${suffix}`, nombre: w.producto, precio: 50 },
    comprador: { usuario: w.comprador, correo: `${w.comprador}@example.com`, nombre: 'Irene Arranque' },
    autorizador: { usuario: w.autorizador, correo: `${w.autorizador}@example.com`, nombre: 'Óscar Arranque' },
    password: PASSWORD,
    cantidadLimite: 5,
  });
  const pedido = await asUser(browser, w.comprador, PASSWORD, (buyer) => placeOrder(buyer, producto, 2));
  const made = { ...w, pedido: pedido.id };
  worlds.set(suffix, made);
  return made;
}

/** The API requests the page makes from now on, by path (and search). */
function apiRequests(page: Page): (path: string) => string[] {
  const seen: string[] = [];
  page.on('request', (request: Request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/') && !url.pathname.startsWith('/api/img/'))
      seen.push(url.pathname + url.search);
  });
  return (path) => seen.filter((p) => p === path || p.startsWith(`${path}?`));
}

/**
 * The loading placeholders (`role="status"` or `aria-busy`) each document of the page ever shows, by their
 * accessible label: a screen rendered with its data never shows its own.
 */
async function watchLoaders(page: Page): Promise<() => Promise<string[]>> {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { __loaders: seen });
    const LOADER = '[aria-busy="true"],[role="status"]';
    new MutationObserver((records) => {
      for (const record of records)
        for (const node of record.addedNodes) {
          if (!(node instanceof Element)) continue;
          const found = [...(node.matches(LOADER) ? [node] : []), ...node.querySelectorAll(LOADER)];
          for (const el of found) seen.push(el.getAttribute('aria-label') ?? el.textContent?.trim() ?? '');
        }
    }).observe(document, { childList: true, subtree: true });
  });
  return () => page.evaluate(() => (window as unknown as { __loaders: string[] }).__loaders);
}

test('el catálogo abierto por su dirección llega con sus productos, pidiendo la sesión y la página una vez', async ({
  browser,
}) => {
  const w = await world(browser);
  const { page, errors } = await ownBrowserPage(browser, w.comprador, PASSWORD);
  const requests = apiRequests(page);
  const loaders = await watchLoaders(page);
  await page.goto('/usuario/principal');
  await expect(page.getByTestId('catalogo-total')).toHaveText('1 producto');
  await expect(page.getByText(w.producto)).toBeVisible();
  expect(await loaders(), 'ningún marcador de carga').toEqual([]);
  expect(requests('/api/sesion')).toHaveLength(1);
  expect(requests('/api/catalogo')).toEqual(['/api/catalogo?page=1&per_page=12']);
  expect(requests('/api/ampliaciones')).toHaveLength(1);

  // A search in the address is the first page's too.
  await page.goto('/usuario/principal?q=cinta');
  await expect(page.getByTestId('catalogo-total')).toHaveText('1 producto para “cinta”');
  expect(requests('/api/catalogo')).toEqual([
    '/api/catalogo?page=1&per_page=12',
    '/api/catalogo?page=1&per_page=12&q=cinta',
  ]);

  // Every later navigation checks the session again.
  await page.getByRole('link', { name: 'Carrito' }).first().click();
  await expect(page.getByRole('heading', { name: 'Carrito', level: 1 })).toBeVisible();
  await expect.poll(() => requests('/api/sesion').length).toBe(3);

  // Another role's area sends the buyer home, without asking for that area's data.
  await page.goto('/autorizador/principal');
  await expect(page).toHaveURL(/\/usuario\/principal$/);
  await expect(page.getByTestId('catalogo-total')).toHaveText('1 producto');
  expect(requests('/api/pedidos')).toEqual([]);
  expect(errors).toEqual([]);
  await page.context().close();
});

test('la lista y el tablero del autorizador llegan con sus datos, pedidos una vez', async ({ browser }) => {
  const w = await world(browser);
  const { page, errors } = await ownBrowserPage(browser, w.autorizador, PASSWORD);
  const requests = apiRequests(page);
  const loaders = await watchLoaders(page);
  await page.goto('/autorizador/principal');
  await expect(page.getByText('Irene Arranque').first()).toBeVisible();
  expect(await loaders(), 'ningún marcador de carga').toEqual([]);
  expect(requests('/api/sesion')).toHaveLength(1);
  expect(requests('/api/pedidos')).toEqual(['/api/pedidos?page=1&status=accionables']);

  await page.goto('/autorizador/tablero');
  await expect(page.getByRole('heading', { name: 'Tablero' })).toBeVisible();
  await expect(page.getByTestId('barra-presupuesto')).toContainText('Irene Arranque');
  expect(await loaders(), 'ningún marcador de carga').toEqual([]);
  expect(requests('/api/sesion')).toHaveLength(2);
  expect(requests('/api/tablero')).toEqual(['/api/tablero']);

  // An order opened by its address (from the list's e-mail or a bookmark), with its neighbours in the list.
  await page.goto(`/autorizador/orden/${w.pedido}?estatus=todos`);
  await expect(
    page.getByRole('heading', { name: `Pedido #${String(w.pedido).padStart(5, '0')}` }),
  ).toBeVisible();
  expect(await loaders(), 'ningún marcador de carga').toEqual([]);
  expect(requests(`/api/pedidos/${w.pedido}`)).toHaveLength(1);
  expect(requests(`/api/pedidos/${w.pedido}/siguiente`)).toEqual([
    `/api/pedidos/${w.pedido}/siguiente?status=todos`,
  ]);
  expect(errors).toEqual([]);
  await page.context().close();
});

test('la lista de usuarios y el inicio del administrador llegan con sus datos y su aviso, pedidos una vez', async ({
  browser,
}) => {
  const { page, errors } = await ownBrowserPage(browser, 'admin', ADMIN_PASSWORD);
  const requests = apiRequests(page);
  const loaders = await watchLoaders(page);
  // The page names its first data in its <head> (decision 0153), so both come beside the entry chunk.
  const html = await (await page.request.get('/administrador/usuarios')).text();
  const named = [...html.matchAll(/<link rel="preload" as="fetch"[^>]* href="([^"]+)">/g)].map((m) => m[1]);
  expect(named).toEqual(['/api/sesion', '/api/clientes?per_page=1000', '/api/usuarios/accesos-sin-enviar']);
  await page.goto('/administrador/usuarios');
  await expect(page.getByRole('heading', { name: 'Usuarios', level: 1 })).toBeVisible();
  expect(await loaders(), 'ningún marcador de carga').toEqual([]);
  await expect(page.getByRole('combobox', { name: 'Cliente', exact: true })).toBeVisible();
  // Each asked once: the page's preload answered the app's own request.
  expect(requests('/api/sesion')).toHaveLength(1);
  expect(requests('/api/clientes')).toEqual(['/api/clientes?per_page=1000']);
  expect(requests('/api/usuarios/accesos-sin-enviar')).toHaveLength(1);

  // The administrator's home the same way: its figures, the pending budget requests and the banner, named
  // and asked once each.
  const home = await (await page.request.get('/administrador/principal')).text();
  const homeNamed = [...home.matchAll(/<link rel="preload" as="fetch"[^>]* href="([^"]+)">/g)];
  expect(homeNamed.map((m) => m[1]!.replaceAll('&amp;', '&'))).toEqual([
    '/api/sesion',
    '/api/admin/resumen',
    '/api/presupuestos/solicitudes?page=1&estado=pendiente',
    '/api/usuarios/accesos-sin-enviar',
  ]);
  const homeRequests = apiRequests(page);
  const homeLoaders = await watchLoaders(page);
  await page.goto('/administrador/principal');
  await expect(page.getByRole('heading', { name: /^Hola, /, level: 1 })).toBeVisible();
  await expect(page.getByTestId('resumen-Clientes activos')).toBeVisible();
  expect(await homeLoaders(), 'ningún marcador de carga').toEqual([]);
  expect(homeRequests('/api/sesion')).toHaveLength(1);
  expect(homeRequests('/api/admin/resumen')).toHaveLength(1);
  expect(homeRequests('/api/presupuestos/solicitudes')).toEqual([
    '/api/presupuestos/solicitudes?page=1&estado=pendiente',
  ]);
  expect(homeRequests('/api/usuarios/accesos-sin-enviar')).toHaveLength(1);
  expect(errors).toEqual([]);
  await page.context().close();
});

test('sin sesión, una página de un área lleva al acceso sin pedir sus datos', async ({ browser }) => {
  await world(browser);
  const context = await browser.newContext({ baseURL: e2eBaseUrl() });
  const page = await context.newPage();
  const requests = apiRequests(page);
  await page.goto('/usuario/principal');
  await expect(page).toHaveURL(/\/login\?volver=%2Fusuario%2Fprincipal$/);
  await expect(page.getByRole('button', { name: 'Acceso' })).toBeVisible();
  expect(requests('/api/catalogo')).toEqual([]);
  expect(requests('/api/ampliaciones')).toEqual([]);
  await context.close();
});

/**
 * The files the page's HTML names (its scripts, stylesheets and preloads), and those the browser fetched
 * before the boot had the first screen's modules (the mark `loadFirstScreen` sets, decision 0151).
 */
async function bootFiles(page: Page, path: string): Promise<{ named: string[]; fetched: string[] }> {
  const html = await (await page.request.get(path)).text();
  const head = html.slice(0, html.indexOf('</head>'));
  const named = [...head.matchAll(/(?:href|src)="(\/[^"]+)"/g)].map((m) => m[1]!);
  await page.goto(path);
  await expect
    .poll(() => page.evaluate(() => performance.getEntriesByName('portal:modulos-de-arranque').length))
    .toBe(1);
  const fetched = await page.evaluate(() => {
    const loaded = performance.getEntriesByName('portal:modulos-de-arranque')[0]!.startTime;
    return performance
      .getEntriesByType('resource')
      .filter((e) => e.startTime < loaded)
      .map((e) => new URL(e.name).pathname);
  });
  return {
    named,
    fetched: [...new Set(fetched)].filter((p) => p.startsWith('/assets/') || p === '/api/sesion'),
  };
}

test('una página de un área nombra en su HTML lo que su arranque pide, y lo usa', async ({ browser }) => {
  const w = await world(browser);
  const pages = [
    {
      user: w.comprador,
      password: PASSWORD,
      paths: ['/usuario/principal', `/usuario/historial/${w.pedido}`],
    },
    { user: w.autorizador, password: PASSWORD, paths: ['/autorizador/principal', '/autorizador/tablero'] },
    { user: 'admin', password: ADMIN_PASSWORD, paths: ['/administrador/usuarios'] },
  ];
  for (const { user, password, paths } of pages) {
    const { page, errors } = await ownBrowserPage(browser, user, password);
    for (const path of paths) {
      const requests = apiRequests(page);
      const { named, fetched } = await bootFiles(page, path);
      // Everything fetched before the boot had its modules was named by the page, so it came beside the entry
      // chunk; and the session's check was asked once, the page's preload answering the app's fetch.
      expect(
        fetched.filter((f) => !named.includes(f)),
        path,
      ).toEqual([]);
      expect(named, path).toContain('/api/sesion');
      expect(requests('/api/sesion'), path).toHaveLength(1);
    }
    expect(errors).toEqual([]);
    await page.context().close();
  }
});

/** The page's level-1 heading and the paragraph under it: their boxes, rounded to the pixel. */
async function headingBoxes(page: Page, scope: string): Promise<number[][]> {
  const boxes = await Promise.all(
    [`${scope} h1`, `${scope} h1 ~ p`].map((selector) => page.locator(selector).first().boundingBox()),
  );
  return boxes.map((b) => [b!.x, b!.y, b!.width, b!.height].map(Math.round));
}

/** The heading's and the paragraph's colour, font and weight, and the page's background, as painted. */
async function headingLooks(page: Page, scope: string): Promise<string[]> {
  return page.evaluate((scope) => {
    const look = (el: Element | null) => {
      const style = getComputedStyle(el!);
      return `${style.color} ${style.fontFamily} ${style.fontWeight}`;
    };
    const background = (el: Element | null) => {
      for (let e = el; e; e = e.parentElement) {
        const color = getComputedStyle(e).backgroundColor;
        if (color !== 'rgba(0, 0, 0, 0)') return color;
      }
      return getComputedStyle(document.body).backgroundColor;
    };
    const h1 = document.querySelector(`${scope} h1`);
    return [look(h1), look(document.querySelector(`${scope} h1 ~ p`)), background(h1)];
  }, scope);
}

test('una página de encabezado fijo lo pinta antes de su código, donde la pantalla lo muestra después', async ({
  browser,
}) => {
  const w = await world(browser);
  const { page, errors } = await ownBrowserPage(browser, w.comprador, PASSWORD);
  // The cart (on a phone, under the header's second row: the product search) and the catalogue (one row).
  const pages = [
    {
      path: '/usuario/carrito',
      title: 'Carrito',
      text: 'Revisa tus productos antes de confirmar la compra.',
    },
    {
      path: '/usuario/principal',
      title: 'Todos los productos',
      text: 'Los productos asignados a tu cuenta.',
    },
  ];
  for (const [width, height] of [
    [390, 844],
    [1366, 860],
  ] as const) {
    await page.setViewportSize({ width, height });
    for (const { path, title, text } of pages) {
      // Without its code the page shows what the server sent: its heading in the app's frame.
      await page.route('**/assets/*.js', (route) => route.abort());
      await page.goto(path);
      const first = page.locator('.primera');
      await expect(first.getByRole('heading', { name: title, includeHidden: true })).toBeAttached();
      await expect(first).toContainText(text);
      const painted = await headingBoxes(page, '.primera');
      const paintedLooks = await headingLooks(page, '.primera');
      if (path === '/usuario/carrito')
        await screenshot(page, `usuario-carrito-primera-pintura${width === 390 ? '-390' : ''}`);
      await page.unroute('**/assets/*.js');
      // The scripts refused on purpose are the only errors so far.
      expect(errors.filter((e) => !e.includes('net::ERR_FAILED'))).toEqual([]);
      errors.length = 0;

      // With it, the screen replaces it with the same heading in the same place (± 1 px).
      await page.goto(path);
      await expect(page.getByRole('heading', { name: title, level: 1 })).toBeVisible();
      await expect(page.locator('.primera')).toHaveCount(0);
      const rendered = await headingBoxes(page, 'main');
      // In the same colours, fonts and weights, on the same background.
      expect(await headingLooks(page, 'main'), `${path} a ${width} px`).toEqual(paintedLooks);
      for (const [i, box] of rendered.entries())
        for (const [j, value] of box.entries())
          expect(
            Math.abs(value - painted[i]![j]!),
            `${path} a ${width} px: ${painted[i]} → ${box}`,
          ).toBeLessThanOrEqual(1);
    }
  }
  // An address with a query may change the heading: it gets the plain page.
  const withQuery = await page.request.get('/usuario/carrito?x=1');
  expect(await withQuery.text()).not.toContain('class="primera');
  expect(errors).toEqual([]);
  await page.context().close();
});
