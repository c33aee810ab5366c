import type { BrowserContext, CDPSession, Page } from '@playwright/test';
import { NOTIFICATION_KIND_LABELS } from '@portal/shared/domain/notifications';
import { startPushReceiver } from '../../server/src/test/push-receiver';
import { DEMO_PASSWORD, expect, PHONE_WIDTH, screenshot, signIn, signOut, test } from './fixtures';
import {
  apiPost,
  asAdmin,
  assignAll,
  asUser,
  choose,
  createAccount,
  expectNotice,
  placeOrder,
  type ReviewWorldSpec,
  reviewWorld,
  runSuffix,
} from './helpers';

/**
 * The service worker's caching rules (decision 0118): the app's shell is kept and answers a screen when the
 * network does not; the last catalogue page is kept for a weak connection, and no other API answer ever is;
 * sign-out and the next sign-in delete what was kept, so one person's catalogue never answers another's.
 * The worker shows a push message as a notification (decision 0117). Every other spec blocks the worker
 * (playwright.config.ts); this one allows it. Each test's client and people are this attempt's own.
 */
test.use({ serviceWorkers: 'allow' });

const PASSWORD = DEMO_PASSWORD;

/** A client with a buyer and an approver, under names of this test (`prefix`) and attempt of its own. */
function world(prefix: string, suffix: string) {
  const comprador = `${prefix}.compra.${suffix}`;
  const autorizador = `${prefix}.revisa.${suffix}`;
  return {
    cliente: `Sin red ${prefix} ${suffix}`,
    niveles: 1,
    presupuesto: 20000,
    categoria: { nombre: 'Limpieza', icono: 'IconSpray' },
    producto: { clave_interna: 'LIM-01', nombre: 'Jabón líquido neutro', precio: 62 },
    comprador: { usuario: comprador, correo: `${comprador}@sinred.mx`, nombre: 'Rosa Ibarra Cano' },
    autorizador: { usuario: autorizador, correo: `${autorizador}@sinred.mx`, nombre: 'Iván Solís Mora' },
    password: PASSWORD,
    cantidadLimite: 5,
  } satisfies ReviewWorldSpec;
}

interface Kept {
  cache: string;
  urls: string[];
}

/** Every cache of the origin and the addresses (path and query) it holds. */
function keptOf(page: Page): Promise<Kept[]> {
  return page.evaluate(async () => {
    const all: { cache: string; urls: string[] }[] = [];
    for (const cache of await caches.keys()) {
      const keys = await (await caches.open(cache)).keys();
      all.push({ cache, urls: keys.map((r) => new URL(r.url).pathname + new URL(r.url).search) });
    }
    return all;
  });
}

/** Waits until the worker controls the page (it claims open pages when it activates). */
async function controlled(page: Page): Promise<void> {
  await expect
    .poll(() => page.evaluate(() => Boolean(navigator.serviceWorker.controller)), {
      message: 'el service worker controla la página',
      timeout: 20_000,
    })
    .toBe(true);
}

/** What a fetch from the page answers: its status and text, or null when it fails (no network, nothing kept). */
function fetchFromPage(page: Page, url: string): Promise<{ status: number; text: string } | null> {
  return page.evaluate(async (u) => {
    try {
      const response = await fetch(u, { credentials: 'same-origin' });
      return { status: response.status, text: await response.text() };
    } catch {
      return null;
    }
  }, url);
}

/** The catalogue page the buyer's home asked for (the address the worker keeps). */
async function catalogueUrl(page: Page): Promise<string> {
  const kept = await keptOf(page);
  const data = kept.find((k) => k.cache === 'compras-datos');
  expect(data?.urls, 'el último catálogo queda guardado').toHaveLength(1);
  const url = data?.urls[0] ?? '';
  expect(url).toMatch(/^\/api\/catalogo\?/);
  return url;
}

/**
 * Runs `work` without a network. The browser reports each request that found none as a console error of
 * its own: those are the point of the test, and are dropped from the page's errors.
 */
/**
 * Hands the page's worker a push message as the browser's push service would. That service is out of reach
 * of a test: the DevTools protocol delivers it (the server's own delivery, encrypted and signed, goes to the
 * test push service, startPushReceiver).
 */
async function deliverToWorker(page: Page, context: BrowserContext, data: string): Promise<void> {
  const cdp: CDPSession = await context.newCDPSession(page);
  const registrationId = new Promise<string>((resolve) => {
    cdp.on('ServiceWorker.workerRegistrationUpdated', ({ registrations }) => {
      const active = registrations.find((r) => !r.isDeleted);
      if (active) resolve(active.registrationId);
    });
  });
  await cdp.send('ServiceWorker.enable');
  await cdp.send('ServiceWorker.deliverPushMessage', {
    origin: new URL(page.url()).origin,
    registrationId: await registrationId,
    data,
  });
  await cdp.detach();
}

async function offline(
  context: BrowserContext,
  consoleErrors: string[],
  work: () => Promise<void>,
): Promise<void> {
  const before = consoleErrors.length;
  await context.setOffline(true);
  try {
    await work();
  } finally {
    await context.setOffline(false);
  }
  const caused = consoleErrors.splice(before);
  consoleErrors.push(...caused.filter((e) => !/net::ERR_(INTERNET_DISCONNECTED|FAILED)/.test(e)));
}

test('el service worker guarda la app y el último catálogo, nada más del API, y lo borra al cerrar sesión', async ({
  page,
  browser,
  context,
  consoleErrors,
}) => {
  const w = world('cache', runSuffix());
  const { producto, idCliente } = await reviewWorld(browser, w);
  const otro = `cache.otro.${runSuffix()}`;
  await asAdmin(browser, async (admin) => {
    const id = await createAccount(
      admin,
      {
        id_cliente: idCliente,
        usuario: otro,
        correo: `${otro}@sinred.mx`,
        nombre: 'Elena Duarte Paz',
        rol: 1,
        presupuesto_default: 1000,
      },
      PASSWORD,
    );
    await assignAll(admin, id, 2);
  });
  expect(producto).toBeGreaterThan(0);

  await signIn(page, w.comprador.usuario, PASSWORD);
  await expect(page.getByText(w.producto.nombre).first()).toBeVisible();
  await controlled(page);
  // Once the worker controls the page, the catalogue goes through it.
  await page.reload();
  await expect(page.getByText(w.producto.nombre).first()).toBeVisible();
  await expect
    .poll(async () => (await keptOf(page)).find((k) => k.cache === 'compras-datos')?.urls.length)
    .toBe(1);

  const kept = await keptOf(page);
  const shell = kept.find((k) => k.cache.startsWith('compras-app-'));
  expect(shell?.urls, 'la app queda guardada').toEqual(expect.arrayContaining(['/index.html']));
  expect(shell?.urls.some((u) => /^\/assets\/index-[\w-]+\.js$/.test(u))).toBe(true);
  // No API answer but the catalogue page, in any cache: not the session, the cart, the orders, the bell.
  const apiKept = kept.flatMap((k) => k.urls).filter((u) => u.startsWith('/api/'));
  expect(apiKept).toHaveLength(1);
  const url = await catalogueUrl(page);

  await offline(context, consoleErrors, async () => {
    // The last catalogue page answers without a network; any other API address fails.
    const catalogue = await fetchFromPage(page, url);
    expect(catalogue?.status).toBe(200);
    expect(catalogue?.text).toContain(w.producto.nombre);
    expect(catalogue?.text).toContain('"cantidad_limite":5');
    expect(await fetchFromPage(page, '/api/sesion')).toBeNull();
    expect(await fetchFromPage(page, `${url}&otra=1`)).toBeNull();
    // A screen opens from the kept shell.
    await page.goto('/usuario/historial');
    await expect(page).toHaveTitle('Portal de Compras');
  });

  // Signing out deletes what was kept; the shell (the same for everyone) is kept again.
  await page.goto('/usuario/principal');
  await expect(page.getByText(w.producto.nombre).first()).toBeVisible();
  await signOut(page);
  await expect
    .poll(async () => (await keptOf(page)).flatMap((k) => k.urls).filter((u) => u.startsWith('/api/')))
    .toEqual([]);
  await expect
    .poll(async () => (await keptOf(page)).find((k) => k.cache.startsWith('compras-app-'))?.urls ?? [])
    .toContain('/index.html');

  // Another buyer of the client on the same browser, with the same catalogue address: without a network the
  // page kept is their own (their limit of 2), never the first buyer's (5).
  await signIn(page, otro, PASSWORD);
  await expect(page.getByText(w.producto.nombre).first()).toBeVisible();
  await expect
    .poll(async () => (await keptOf(page)).find((k) => k.cache === 'compras-datos')?.urls)
    .toEqual([url]);
  await offline(context, consoleErrors, async () => {
    const own = await fetchFromPage(page, url);
    expect(own?.status).toBe(200);
    const { productos } = JSON.parse(own?.text ?? '{}') as { productos: { cantidad_limite: number }[] };
    expect(productos.map((p) => p.cantidad_limite)).toEqual([2]);
  });
});

test('el service worker recibe un aviso push y lo entrega a la pestaña abierta del portal', async ({
  page,
  context,
  browser,
}) => {
  const w = world('push', runSuffix());
  await reviewWorld(browser, w);
  await signIn(page, w.autorizador.usuario, PASSWORD);
  await expect(page.getByRole('heading', { name: 'Panel Autorizador' })).toBeVisible();
  await controlled(page);
  await page.evaluate(() => {
    const seen: unknown[] = [];
    (window as unknown as { avisosPush: unknown[] }).avisosPush = seen;
    navigator.serviceWorker.addEventListener('message', (event) => seen.push(event.data));
  });

  const payload = {
    id: '991',
    titulo: 'Pedido #991 por revisar',
    texto: 'Toca para revisarlo.',
    ruta: '/autorizador/orden/991',
  };
  await deliverToWorker(page, context, JSON.stringify(payload));
  await expect
    .poll(() => page.evaluate(() => (window as unknown as { avisosPush: unknown[] }).avisosPush))
    .toEqual([{ tipo: 'aviso-push', id: '991' }]);
});

test('el autorizador elige «En el teléfono»: el pedido por revisar llega cifrado al servicio push, sin importes', async ({
  page,
  context,
  browser,
}) => {
  const w = world('telefono', runSuffix());
  const { producto } = await reviewWorld(browser, w);
  const receiver = await startPushReceiver();
  try {
    await signIn(page, w.autorizador.usuario, PASSWORD);
    await expect(page.getByRole('heading', { name: 'Panel Autorizador' })).toBeVisible();
    await controlled(page);

    // "Notificaciones": the orders to review go to the phone; amounts stay off the lock screen.
    await page.getByTestId('profile-menu').click();
    await page.getByRole('menuitem', { name: 'Notificaciones' }).click();
    const dialog = page.getByRole('dialog', { name: 'Notificaciones' });
    const amounts = dialog.getByRole('checkbox', { name: 'Mostrar importes en los avisos del teléfono' });
    await expect(amounts).toBeDisabled();
    await choose(page, NOTIFICATION_KIND_LABELS.por_revisar, 'En el teléfono');
    await expect(amounts).toBeEnabled();
    await expect(amounts).not.toBeChecked();
    await expect(dialog).toContainText('Ningún dispositivo recibe tus avisos todavía');
    await expect(dialog.getByText('Este dispositivo', { exact: true })).toBeVisible();
    await screenshot(page, 'notificaciones-telefono');
    await page.setViewportSize({ width: PHONE_WIDTH, height: 844 });
    await screenshot(page, 'notificaciones-telefono-390');
    await page.setViewportSize({ width: 1366, height: 860 });
    await dialog.getByRole('button', { name: 'Guardar' }).click();
    await expectNotice(page, 'Notificaciones guardadas');

    // This device, as its browser subscribes it (the headless browser has no push service of its own).
    receiver.vapidKey = (
      (await (await page.request.get('/api/push/clave')).json()) as { clave: string }
    ).clave;
    const device = receiver.subscribe();
    await apiPost(page, '/api/push/suscripciones', device);

    const pedido = await asUser(browser, w.comprador.usuario, PASSWORD, (buyer) =>
      placeOrder(buyer, producto, 3),
    );
    await expect.poll(() => receiver.pushesTo(device.endpoint).length, { timeout: 30_000 }).toBe(1);
    const [push] = receiver.pushesTo(device.endpoint);
    expect(push?.vapid.ok).toBe(true);
    expect(push?.payload).toMatchObject({
      titulo: expect.stringContaining(String(pedido.id)),
      ruta: `/autorizador/orden/${pedido.id}`,
    });
    expect(JSON.stringify(push?.payload)).not.toMatch(/\$|MXN/);

    // What the push service hands the phone, the worker shows, and the open tab's bell counts it.
    await deliverToWorker(page, context, JSON.stringify(push?.payload));
    await expect(page.getByRole('button', { name: /^Avisos/ })).toHaveAccessibleName('Avisos, 1 sin leer');
  } finally {
    await receiver.close();
  }
});
