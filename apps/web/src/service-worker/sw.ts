/// <reference lib="webworker" />
/**
 * The portal's service worker (decision 0118), built by vite.config.ts into /sw.js with the build's shell
 * (its entry script and stylesheet) and version. What it does with each request is rules.ts; here it is
 * carried out. It also shows the push messages the server sends (decision 0117) and opens their path.
 */
import {
  ASSETS_CACHE,
  CATALOGUE_TIMEOUT_MS,
  CLEAR_MESSAGE,
  DATA_CACHE,
  keepable,
  NAVIGATION_TIMEOUT_MS,
  notificationFor,
  PUSH_MESSAGE,
  parsePushPayload,
  SHELL_CACHE_PREFIX,
  SHELL_PAGE,
  strategyFor,
} from './rules';

declare const self: ServiceWorkerGlobalScope;
/** Written by the build: the shell's files and the build's version. */
declare const __SHELL_FILES__: string[];
declare const __BUILD_VERSION__: string;

const SHELL_CACHE = `${SHELL_CACHE_PREFIX}${__BUILD_VERSION__}`;

async function keepShell(): Promise<void> {
  const cache = await caches.open(SHELL_CACHE);
  await cache.addAll([SHELL_PAGE, ...__SHELL_FILES__]);
}

self.addEventListener('install', (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      // An older build's shell goes, and the files kept under it (a new build names its files anew).
      for (const name of await caches.keys()) {
        if ((name.startsWith(SHELL_CACHE_PREFIX) && name !== SHELL_CACHE) || name === ASSETS_CACHE)
          await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

/** The network's answer, or null when it fails or takes longer than `ms` (it is still kept when it comes). */
function networkWithin(request: Request, ms: number, keep: (response: Response) => Promise<void>) {
  return new Promise<Response | null>((resolve) => {
    const timer = setTimeout(() => resolve(null), ms);
    fetch(request).then(
      (response) => {
        clearTimeout(timer);
        if (keepable(response)) void keep(response.clone()).catch(() => undefined);
        resolve(response);
      },
      () => {
        clearTimeout(timer);
        resolve(null);
      },
    );
  });
}

async function page(request: Request): Promise<Response> {
  const network = await networkWithin(request, NAVIGATION_TIMEOUT_MS, async () => undefined);
  if (network) return network;
  const shell = await caches.match(SHELL_PAGE, { cacheName: SHELL_CACHE });
  return shell ?? fetch(request);
}

async function asset(request: Request): Promise<Response> {
  const cached = await caches.match(request);
  if (cached) return cached;
  const response = await fetch(request);
  if (keepable(response)) {
    const copy = response.clone();
    void caches.open(ASSETS_CACHE).then((cache) => cache.put(request, copy));
  }
  return response;
}

async function catalogue(request: Request): Promise<Response> {
  const network = await networkWithin(request, CATALOGUE_TIMEOUT_MS, async (response) => {
    const cache = await caches.open(DATA_CACHE);
    // Only the last page: any other kept answer goes first.
    for (const key of await cache.keys()) await cache.delete(key);
    await cache.put(request, response);
  });
  if (network) return network;
  const cached = await caches.match(request, { cacheName: DATA_CACHE });
  return cached ?? fetch(request);
}

self.addEventListener('fetch', (event) => {
  const strategy = strategyFor(event.request, self.location.origin);
  if (strategy === 'pagina') event.respondWith(page(event.request));
  else if (strategy === 'recurso') event.respondWith(asset(event.request));
  else if (strategy === 'catalogo') event.respondWith(catalogue(event.request));
  // 'red': not answered here, so the browser fetches it as if there were no worker.
});

self.addEventListener('message', (event) => {
  if (event.data !== CLEAR_MESSAGE) return;
  const port = event.ports[0];
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) await caches.delete(name);
      // The shell holds nothing private (the same files for everyone): it is kept again at once.
      await keepShell().catch(() => undefined);
      port?.postMessage('ok');
    })(),
  );
});

self.addEventListener('push', (event) => {
  const payload = parsePushPayload(event.data?.text());
  const { title, options } = notificationFor(payload);
  event.waitUntil(
    (async () => {
      // An open portal tab reads its bell anew at once.
      for (const client of await self.clients.matchAll({ type: 'window' })) {
        client.postMessage({ tipo: PUSH_MESSAGE, id: payload?.id ?? null });
      }
      await self.registration.showNotification(title, options);
    })(),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const ruta = (event.notification.data as { ruta?: string } | null)?.ruta ?? '/';
  event.waitUntil(
    (async () => {
      const target = new URL(ruta, self.location.origin).href;
      const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      for (const client of open) {
        if (new URL(client.url).origin === self.location.origin && 'navigate' in client) {
          await client.focus();
          await client.navigate(target).catch(() => undefined);
          return;
        }
      }
      await self.clients.openWindow(target);
    })(),
  );
});
