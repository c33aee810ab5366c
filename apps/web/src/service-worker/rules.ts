/**
 * What the service worker does with each request (decision 0118). Plain functions of the request, so the
 * rules are tested on their own (rules.test.ts) and the worker only carries them out.
 *
 * - `pagina`: a navigation to one of the app's screens. The network first (every screen is the same
 *   index.html), the cached shell when the network fails or is slower than `NAVIGATION_TIMEOUT_MS`.
 * - `recurso`: a file of the build under /assets/ (its name carries its content hash, so it never changes):
 *   the cache first, the network otherwise, and kept.
 * - `catalogo`: the buyer's catalogue page (GET /api/catalogo). The network first; when it fails or is slower
 *   than `CATALOGUE_TIMEOUT_MS`, the last catalogue page this browser received with exactly the same
 *   address. Only that one answer is ever kept, and sign-in and sign-out delete it.
 * - `red`: everything else, the network alone: no other API answer is ever stored, nor any request that is
 *   not a GET of this origin.
 */
export type Strategy = 'pagina' | 'recurso' | 'catalogo' | 'red';

/** The shell's cache: one per build (its name ends in the build's version). */
export const SHELL_CACHE_PREFIX = 'compras-app-';
/** The files of the build fetched while the app is used (never a private answer). */
export const ASSETS_CACHE = 'compras-recursos';
/** The one private answer kept: the last catalogue page (deleted at sign-in and at sign-out). */
export const DATA_CACHE = 'compras-datos';
/** The page every navigation falls back to. */
export const SHELL_PAGE = '/index.html';

export const NAVIGATION_TIMEOUT_MS = 4_000;
export const CATALOGUE_TIMEOUT_MS = 4_000;

/** A message from the page: delete every cache (sign-in, sign-out), then keep the shell again. */
export const CLEAR_MESSAGE = 'borrar-caches';

export interface RequestFacts {
  method: string;
  mode: string;
  url: string;
}

export function strategyFor(request: RequestFacts, origin: string): Strategy {
  if (request.method !== 'GET') return 'red';
  const url = new URL(request.url);
  if (url.origin !== origin) return 'red';
  if (request.mode === 'navigate') {
    // Downloads and files the server answers itself are not screens.
    return url.pathname.startsWith('/api/') ||
      url.pathname.startsWith('/sanctum/') ||
      url.pathname.startsWith('/assets/')
      ? 'red'
      : 'pagina';
  }
  if (url.pathname.startsWith('/assets/')) return 'recurso';
  if (url.pathname === '/api/catalogo') return 'catalogo';
  return 'red';
}

/** Whether an answer may be kept: a complete 200 of this origin (never an error, a redirect or a partial answer). */
export function keepable(response: { status: number; type: string }): boolean {
  return response.status === 200 && response.type === 'basic';
}

/** The push message's payload, as the server writes it (decision 0117): never more than these fields. */
export interface PushPayload {
  id: string;
  titulo: string;
  texto: string;
  ruta: string;
}

/** The payload of a push message, or null when it is not one of ours (then nothing is shown but a default). */
export function parsePushPayload(text: string | null | undefined): PushPayload | null {
  if (!text) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { id, titulo, texto, ruta } = value as Record<string, unknown>;
  if (typeof titulo !== 'string' || titulo === '') return null;
  return {
    id: typeof id === 'string' || typeof id === 'number' ? String(id) : '',
    titulo: titulo.slice(0, 120),
    texto: typeof texto === 'string' ? texto.slice(0, 240) : '',
    // Only a path of this portal: a payload never opens another site.
    ruta: typeof ruta === 'string' && ruta.startsWith('/') && !ruta.startsWith('//') ? ruta : '/',
  };
}

/** The message the worker posts to the portal's open windows when a push arrives (the bell reads it anew). */
export const PUSH_MESSAGE = 'aviso-push';

/** The notification a push message shows: its title, text and the path a tap opens. */
export function notificationFor(payload: PushPayload | null): {
  title: string;
  options: NotificationOptions & { tag?: string };
} {
  return {
    title: payload?.titulo ?? 'Portal de Compras',
    options: {
      body: payload?.texto || 'Tienes un aviso nuevo.',
      icon: '/icon-192.png',
      badge: '/icon-192.png',
      lang: 'es-MX',
      // One notice is shown once, even if it arrives twice.
      tag: payload?.id ? `aviso-${payload.id}` : undefined,
      data: { ruta: payload?.ruta ?? '/' },
    },
  };
}
